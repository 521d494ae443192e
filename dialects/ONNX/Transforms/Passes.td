//===- Passes.td - onnx dialect passes ----------------------*- tablegen -*-===//
#ifndef TCC_ONNX_PASSES_TD
#define TCC_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

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
