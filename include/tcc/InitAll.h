//===- InitAll.h - register tcc's dialects, passes and pipelines -*- C++ -*-===//
//
// Shared by `tcc` and `tcc-opt`, so what lit tests is what users run.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_INITALL_H
#define TCC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tcc {

/// The onnx dialect plus every upstream dialect the pipeline goes through,
/// with their external interface models (bufferization, LLVM translation).
void registerAllDialects(mlir::DialectRegistry &registry);

/// tcc's passes and pipelines, and the upstream passes the pipeline uses.
void registerAllPasses();

} // namespace tcc

#endif // TCC_INITALL_H
