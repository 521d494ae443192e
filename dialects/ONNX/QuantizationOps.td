//===- QuantizationOps.td - linear quantization ops ----------*- tablegen -*-===//
#ifndef TCC_ONNX_QUANTIZATIONOPS_TD
#define TCC_ONNX_QUANTIZATIONOPS_TD

include "ONNXBase.td"

def ONNX_QuantizeLinearOp : ONNX_Op<"QuantizeLinear"> {
  let summary = "y = saturate(round_half_even(x / scale) + zero_point)";
  let description = [{
    Per-tensor (scalar scale) or per-axis (1-d scale along `axis`); the
    result type is the zero point's (uint8 without one) or `output_dtype`.
    Blocked quantization and float8/int4 results are not supported yet.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$y_scale,
    TensorOrNone:$y_zero_point,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$axis,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$block_size,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$output_dtype,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$saturate,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$precision);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $y_scale `,` $y_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_DequantizeLinearOp : ONNX_Op<"DequantizeLinear"> {
  let summary = "y = (x - zero_point) * scale";
  let arguments = (ins AnyTensor:$x, AnyTensor:$x_scale,
    TensorOrNone:$x_zero_point,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$axis,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$block_size,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$output_dtype);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $x_scale `,` $x_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_MatMulIntegerOp : ONNX_Op<"MatMulInteger"> {
  let summary = "(A - a_zero_point) x (B - b_zero_point) in int32";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B,
    TensorOrNone:$a_zero_point, TensorOrNone:$b_zero_point);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B `,` $a_zero_point `,` $b_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_QUANTIZATIONOPS_TD
