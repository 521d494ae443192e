//===- ShapeInference.cpp - tcc-onnx-shape-inference ----------------------===//
#include "dialects/ONNX/Transforms/Passes.h"

using namespace mlir;

namespace tcc::onnx {
#define GEN_PASS_DEF_ONNXSHAPEINFERENCE
#include "dialects/ONNX/Transforms/Passes.h.inc"
} // namespace tcc::onnx

LogicalResult tcc::onnx::inferShapes(func::FuncOp func) {
  if (func.isExternal())
    return success();
  WalkResult result = func.walk([](ShapeInferenceOpInterface op) {
    return failed(op.inferShapes()) ? WalkResult::interrupt()
                                    : WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  Operation *terminator = func.getBody().back().getTerminator();
  func.setType(FunctionType::get(func.getContext(),
                                 func.getArgumentTypes(),
                                 terminator->getOperandTypes()));
  return success();
}

namespace {
struct ONNXShapeInference
    : tcc::onnx::impl::ONNXShapeInferenceBase<ONNXShapeInference> {
  void runOnOperation() override {
    if (failed(tcc::onnx::inferShapes(getOperation())))
      signalPassFailure();
  }
};
} // namespace
