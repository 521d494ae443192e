//===- ONNXDialect.td - the onnx dialect definition ---------*- tablegen -*-===//
//
// The `onnx` dialect holds a model as imported from ONNX: one op per ONNX
// operator, with ONNX's operand order and attribute names, on tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_ONNX_DIALECT_TD
#define TCC_ONNX_DIALECT_TD

include "mlir/IR/OpBase.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  let summary = "ONNX operators on tensors, as imported";
  let description = [{
    One op per ONNX operator (default domain). Operands and attributes keep
    ONNX's names and order; optional inputs that a node leaves out are
    `none` values from `onnx.NoValue`. Each op normalizes the forms its
    opsets allowed (attributes that later opsets moved to inputs), so the
    lowering sees one form. Result shapes are refined by the
    ShapeInferenceOpInterface, which the importer calls as it builds ops.
  }];
  let cppNamespace = "::tcc::onnx";
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 0;
  let useDefaultTypePrinterParser = 0;
}

#endif // TCC_ONNX_DIALECT_TD
