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
  /// Bit d: an output's dim d is known only after the run (NonZero's
  /// count, or a dim that depends on a bounded input dim); an input's dim d
  /// varies at run time (ModelSignature::boundedDim). dims[d] is its bound;
  /// an output's buffer holds the bound's elements, an input's the actual
  /// dims' ones.
  uint32_t runTimeDims = 0;
  int64_t numElements() const;
};

struct ModelSignature {
  std::vector<TensorSignature> inputs, outputs;
  /// The symbolic dim that varies at run time ("" when none): the compiled
  /// code runs one sample, the runtime loops over the batch.
  std::string batchDim;
  /// The symbolic dim that varies at run time up to a bound ("" when none):
  /// the inputs' runTimeDims mark where it is, and their dims hold the
  /// bound; its values come in one more input buffer of int64s, one per
  /// marked input dim.
  std::string boundedDim;
  /// The GPU the kernels run on ("sm_90"), "" for a CPU object.
  std::string gpuArch;
  /// The precision of the products of matmuls and convolutions against
  /// weights: "fp32", or "bf16" (tcc compile --precision bf16).
  std::string precision = "fp32";
  /// The number of input dims that vary at run time up to a bound.
  int numRunTimeInputDims() const;
  /// The number of output dims known only after the run: their values come
  /// back in one more output buffer of as many int64s.
  int numRunTimeDims() const;
};

/// Attribute names the importer puts on @main's arguments and results.
inline constexpr llvm::StringLiteral kNameAttr = "tcc.name";
inline constexpr llvm::StringLiteral kDtypeAttr = "tcc.dtype";
/// ONNX dim_param of each dim ("" for a fixed dim), when an input has any.
inline constexpr llvm::StringLiteral kDimNamesAttr = "tcc.dim_names";
/// On @main after tcc-bound-dynamic-results: (output, dim, bound) triples
/// of the output dims known only at run time; its last output holds them.
inline constexpr llvm::StringLiteral kRunTimeDimsAttr = "tcc.run_time_dims";

/// The runtime's void tcc_branch_check(int32_t ok, const char *message),
/// which the importer declares for an If it compiled one branch of (see
/// onnx.CheckCondition): a run in which `ok` is 0 returns TCC_ERROR_BRANCH
/// (tcc-emit-entry-points asks tcc_run_status() after each run).
inline constexpr llvm::StringLiteral kBranchCheckFn = "tcc_branch_check";

/// Reads the signature of the imported, shape-inferred @main. Fails (with
/// an error on `func`) when a shape is not static, except for output dims
/// that come from a NonZero: they are marked in `runTimeDims`, with a dim
/// of -1 until setRunTimeBounds.
llvm::FailureOr<ModelSignature> getSignature(mlir::func::FuncOp func);

/// Sets the bounds of the run-time output dims from the lowered @main's
/// tcc.run_time_dims; fails (with an error on `func`) when one is missing.
llvm::LogicalResult setRunTimeBounds(ModelSignature &signature,
                                     mlir::Operation *func);

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
