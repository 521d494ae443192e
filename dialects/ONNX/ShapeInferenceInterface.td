//===- ShapeInferenceInterface.td - static shape inference --*- tablegen -*-===//
#ifndef TCC_ONNX_SHAPEINFERENCEINTERFACE_TD
#define TCC_ONNX_SHAPEINFERENCEINTERFACE_TD

include "mlir/IR/OpBase.td"

def ShapeInferenceOpInterface : OpInterface<"ShapeInferenceOpInterface"> {
  let description = [{
    Refines the op's result types from its operand types and attributes
    (and constant operands, such as Reshape's shape). Errors are emitted on
    the op and reported as failure; the op is left unchanged then.
  }];
  let cppNamespace = "::tcc::onnx";
  let methods = [
    InterfaceMethod<"Infers and sets the result types.",
      "::llvm::LogicalResult", "inferShapes">
  ];
}

#endif // TCC_ONNX_SHAPEINFERENCEINTERFACE_TD
