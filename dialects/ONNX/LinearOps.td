//===- LinearOps.td - Gemm and MatMul -*- tablegen -*-===//
#ifndef TCC_ONNX_LINEAROPS_TD
#define TCC_ONNX_LINEAROPS_TD

include "ONNXBase.td"

def ONNX_GemmOp : ONNX_Op<"Gemm"> {
  let summary = "alpha * op(A) * op(B) + beta * C, C broadcast";
  let arguments = (ins FloatTensor:$A, FloatTensor:$B, TensorOrNone:$C,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha,
    DefaultValuedAttr<F32Attr, "1.0">:$beta,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$transA,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$transB);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B `,` $C attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_MatMulOp : ONNX_Op<"MatMul"> {
  let summary = "numpy.matmul: batched, with broadcasting of batch dims";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_EinsumOp : ONNX_Op<"Einsum"> {
  let summary = "Sum of products over the labels of an Einstein equation";
  let arguments = (ins Variadic<AnyTensor>:$Inputs, StrAttr:$equation);
  let results = (outs AnyTensor:$Output);
  let assemblyFormat = [{
    $Inputs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_LINEAROPS_TD
