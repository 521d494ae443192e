//===- Import.h - ONNX protobuf to the onnx dialect -------------*- C++ -*-===//
#ifndef TCC_IMPORT_H
#define TCC_IMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcc {

/// A host tensor: ONNX dtype, dims, contiguous row-major little-endian data.
struct HostTensor {
  int dtype = 0;
  std::vector<int64_t> dims;
  std::vector<char> data;
};

struct ImportOptions {
  /// Symbolic dims pinned by name (`--dim batch=1`).
  std::map<std::string, int64_t> dims;
  /// Input shapes pinned by input name (`--shape input=1x3x224x224`).
  std::map<std::string, std::vector<int64_t>> shapes;
  /// Inputs bound to values at compile time (`--bind axes=axes.npy`): they
  /// become constants, so shapes that depend on them become static.
  std::map<std::string, HostTensor> bound;
  /// When set, filled with the external data files the model reads (path
  /// -> the first tensor stored there), so that no output overwrites them.
  std::map<std::string, std::string> *externalFiles = nullptr;
};

/// What the importer learned about a node, for error messages.
struct NodeInfo {
  std::string opType, domain;
  int64_t opset = 0;
};

/// Imports the ONNX model at `path` into a module holding `func.func @main`
/// in the onnx dialect, with every result type inferred. Op locations are
/// NameLoc(node name); `nodes` maps those names to op type and opset.
/// Errors (unreadable file, unsupported ops: all of them at once, bad
/// shapes) go to the context's diagnostics and yield a null module.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModel(mlir::MLIRContext &context, llvm::StringRef path,
                const ImportOptions &options,
                std::map<std::string, NodeInfo> *nodes = nullptr);

/// The same for the model whose serialized protobuf is `bytes`; `path`
/// names it in messages, and its folder is where external data is read.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXBytes(mlir::MLIRContext &context, llvm::StringRef bytes,
                llvm::StringRef path, const ImportOptions &options,
                std::map<std::string, NodeInfo> *nodes = nullptr);

/// An ONNX model read and parsed once, for the several imports of one
/// compile (the probes of a run-time or bounded dim, then the model).
struct ParsedModel;

/// Reads and parses the ONNX model at `path`; null after an error (to the
/// context's diagnostics).
std::shared_ptr<const ParsedModel> parseONNXModel(mlir::MLIRContext &context,
                                                  llvm::StringRef path);

/// Imports a parsed model as importONNXModel does, but its weights are not
/// copied: the module's dense_resource blobs point into `model`, which must
/// outlive every use of them (until the object is written).
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModel(mlir::MLIRContext &context, const ParsedModel &model,
                const ImportOptions &options,
                std::map<std::string, NodeInfo> *nodes = nullptr);

} // namespace tcc

#endif // TCC_IMPORT_H
