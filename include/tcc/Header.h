//===- Header.h - a compiled model's signature and its C header -*- C++ -*-===//
#ifndef TCC_HEADER_H
#define TCC_HEADER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tcc {

/// One model input or output as the C API sees it.
struct TensorSignature {
  std::string name;          ///< ONNX value name
  int dtype = 0;             ///< ONNX TensorProto.DataType (= tcc_dtype)
  std::vector<int64_t> dims; ///< static dims
  /// The ONNX dim_param of each dim ("" for a fixed dim); empty when none.
  std::vector<std::string> dimNames;
  /// 0, or k when dim 0 is k x the run-time batch (`dims` hold one sample).
  int64_t batchMultiple = 0;
  int64_t numElements() const;
};

struct ModelSignature {
  std::vector<TensorSignature> inputs, outputs;
  /// The symbolic dim that varies at run time ("" when none): the compiled
  /// code runs one sample, the runtime loops over the batch.
  std::string batchDim;
};

/// Attribute names the importer puts on @main's arguments and results.
inline constexpr llvm::StringLiteral kNameAttr = "tcc.name";
inline constexpr llvm::StringLiteral kDtypeAttr = "tcc.dtype";
/// ONNX dim_param of each dim ("" for a fixed dim), when an input has any.
inline constexpr llvm::StringLiteral kDimNamesAttr = "tcc.dim_names";

/// Reads the signature of the imported, shape-inferred @main. Fails (with
/// an error on `func`) when a shape is not static.
llvm::FailureOr<ModelSignature> getSignature(mlir::func::FuncOp func);

/// Size in bytes of one element of an ONNX dtype (0 when unknown).
int64_t dtypeSize(int dtype);

/// Writes the C header of a model compiled with `--name name`.
/// A model's weights file (tcc compile --weights file).
struct WeightsFile {
  std::string fileName; ///< beside the object
  uint64_t bytes = 0, fingerprint = 0;
};

/// Writes the C header of a model; `weights` is null when the weights are
/// in the object.
void writeHeader(const ModelSignature &signature, llvm::StringRef name,
                 int64_t workspaceSize, llvm::StringRef modelPath,
                 const WeightsFile *weights, llvm::raw_ostream &os);

} // namespace tcc

#endif // TCC_HEADER_H
