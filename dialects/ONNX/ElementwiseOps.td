//===- ElementwiseOps.td - elementwise onnx ops -*- tablegen -*-===//
#ifndef TCC_ONNX_ELEMENTWISEOPS_TD
#define TCC_ONNX_ELEMENTWISEOPS_TD

include "ONNXBase.td"

class ONNX_BinaryOp<string mnemonic, list<Trait> traits = []>
    : ONNX_Op<mnemonic, traits> {
  let summary = "Elementwise " # mnemonic # " with multidirectional broadcasting";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
  let results = (outs AnyTensor:$C);
  let assemblyFormat = [{
    $A `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_AddOp : ONNX_BinaryOp<"Add", [Commutative]>;
def ONNX_SubOp : ONNX_BinaryOp<"Sub">;
def ONNX_MulOp : ONNX_BinaryOp<"Mul", [Commutative]>;
def ONNX_DivOp : ONNX_BinaryOp<"Div">;

class ONNX_UnaryOp<string mnemonic, Type type = AnyTensor>
    : ONNX_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let arguments = (ins type:$X);
  let results = (outs type:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def ONNX_ReluOp : ONNX_UnaryOp<"Relu"> { let summary = "max(x, 0)"; }
def ONNX_SigmoidOp : ONNX_UnaryOp<"Sigmoid", FloatTensor> {
  let summary = "1 / (1 + exp(-x))";
}
def ONNX_IdentityOp : ONNX_UnaryOp<"Identity"> {
  let summary = "Forwards its input";
  let hasFolder = 1;
}

def ONNX_ClipOp : ONNX_Op<"Clip"> {
  let summary = "Clamps to [min, max]; a missing bound is no bound";
  let arguments = (ins AnyTensor:$input, TensorOrNone:$min, TensorOrNone:$max);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $min `,` $max attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_DropoutOp : ONNX_Op<"Dropout"> {
  let summary = "Dropout; inference only (forwards its input)";
  let arguments = (ins AnyTensor:$data, TensorOrNone:$ratio,
                   TensorOrNone:$training_mode, OptionalAttr<ONNX_I64Attr>:$seed);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $ratio `,` $training_mode attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

#endif // TCC_ONNX_ELEMENTWISEOPS_TD
