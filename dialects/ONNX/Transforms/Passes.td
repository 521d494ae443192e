//===- Passes.td - onnx dialect passes ----------------------*- tablegen -*-===//
#ifndef TCC_ONNX_PASSES_TD
#define TCC_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXDecompose : Pass<"tcc-onnx-decompose", "::mlir::func::FuncOp"> {
  let summary = "Rewrites composite onnx ops into primitive onnx ops";
  let description = [{
    Expands ops that ONNX defines by a function body, and that have no
    lowering of their own, into the onnx ops of that body (as torch-mlir's
    DecomposeComplexOps does for torch ops). Runs after shape inference:
    it needs static shapes. For example

      %y:4 = onnx.Attention %q, %k, %v, %none, %none, %none, %none
          : (tensor<1x2x4x8xf32>, ...) -> (tensor<1x2x4x8xf32>, ...)

    becomes Mul (by sqrt(scale)), Transpose, MatMul, Softmax and MatMul,
    plus Concat for a KV cache, Expand for grouped-query heads and the
    masks as constants and Where. RotaryEmbedding becomes Gather (of the
    caches by position ids), Slice, Mul, Sub, Add and Concat. An op it
    cannot expand fails the pass with an error saying what is not
    supported.
  }];
  let dependentDialects = ["::tcc::onnx::ONNXDialect"];
}

def ONNXShapeInference : Pass<"tcc-onnx-shape-inference", "::mlir::func::FuncOp"> {
  let summary = "Refines onnx op result types from their operands";
  let description = [{
    Walks the function in order and calls each op's inferShapes, then
    updates the function type from the returned values. For example

      %0 = onnx.Relu %arg0 : (tensor<1x8xf32>) -> tensor<*xf32>

    becomes `... -> tensor<1x8xf32>`. Fails on the first op whose shapes
    do not fit (the error names the op and the shapes).
  }];
  let dependentDialects = ["::tcc::onnx::ONNXDialect"];
}

#endif // TCC_ONNX_PASSES_TD
