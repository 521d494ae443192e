//===- Inspect.h - tcc inspect ----------------------------------*- C++ -*-===//
//
// Private to tools/tcc: the inspect subcommand (Inspect.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_INSPECT_H
#define TCC_TOOLS_TCC_INSPECT_H

#include "tcc/Import.h"

#include <map>
#include <optional>
#include <string>

namespace tcc::driver {

struct CompileOptions;

/// Prints what the model `o.model` holds (text, or one JSON object with
/// `json`); imports it with `options` to list the nodes tcc does not
/// support and to estimate the FLOPs of a run; with `kernels`, compiles it
/// as `o` says up to the LLVM dialect for the kernel plan. Returns the exit
/// status: 0 (unsupported nodes included), 1 when the file is unreadable or
/// not an ONNX model, or with `kernels` when the model does not compile.
int runInspect(const CompileOptions &o, const tcc::ImportOptions &options,
               bool json, bool kernels);

/// FLOPs of the contractions (MatMul, Gemm, Conv, ConvTranspose: 2 per
/// multiply-add) of an imported module, by ONNX node name; nullopt when one
/// has a size known only at run time.
std::optional<std::map<std::string, int64_t>> nodeFlops(mlir::ModuleOp module);

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_INSPECT_H
