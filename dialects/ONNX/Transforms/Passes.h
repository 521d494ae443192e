//===- Passes.h - onnx dialect passes ---------------------------*- C++ -*-===//
#ifndef TCC_DIALECTS_ONNX_TRANSFORMS_PASSES_H
#define TCC_DIALECTS_ONNX_TRANSFORMS_PASSES_H

#include "dialects/ONNX/ONNXOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace tcc::onnx {

#define GEN_PASS_DECL
#include "dialects/ONNX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/ONNX/Transforms/Passes.h.inc"

/// Runs shape inference over `func`'s body and updates its signature.
llvm::LogicalResult inferShapes(mlir::func::FuncOp func);

} // namespace tcc::onnx

#endif // TCC_DIALECTS_ONNX_TRANSFORMS_PASSES_H
