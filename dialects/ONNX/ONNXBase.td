//===- ONNXBase.td - base classes and constraints of onnx ops -*- tablegen -*-===//
#ifndef TCC_ONNX_BASE_TD
#define TCC_ONNX_BASE_TD

include "ONNXDialect.td"
include "ShapeInferenceInterface.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic,
         !listconcat(traits, [Pure,
           DeclareOpInterfaceMethods<ShapeInferenceOpInterface>])>;

// ONNX ints are signed: read them with sign extension.
def ONNX_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                                "64-bit integer attribute"> {
  let returnType = [{ int64_t }];
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

def TensorOrNone : AnyTypeOf<[AnyTensor, NoneType]>;
def FloatTensor : TensorOf<[AnyFloat]>;

#endif // TCC_ONNX_BASE_TD
