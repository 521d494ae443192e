//===- QuantizationOps.td - linear quantization ops ----------*- tablegen -*-===//
#ifndef TCC_ONNX_QUANTIZATIONOPS_TD
#define TCC_ONNX_QUANTIZATIONOPS_TD

include "ONNXBase.td"

def ONNX_QuantizeLinearOp : ONNX_Op<"QuantizeLinear"> {
  let summary = "y = saturate(round_half_even(x / scale) + zero_point)";
  let description = [{
    Per-tensor (scalar scale), per-axis (1-d scale along `axis`) or blocked
    (`block_size` > 0: x's shape, ceil(size / block_size) along `axis`); the
    result type is the zero point's (uint8 without one) or `output_dtype`.
    Float8/int4 results are not supported yet.
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

def ONNX_QLinearMatMulOp : ONNX_Op<"QLinearMatMul"> {
  let summary = "requantized (a - a_zero_point) x (b - b_zero_point)";
  let description = [{
    The product of the zero-point-shifted 8-bit operands is exact in int32
    (MatMul's numpy semantics), then scaled by a_scale * b_scale / y_scale
    (computed in the scales' type), rounded half to even, shifted by
    y_zero_point and saturated to the result type (y_zero_point's, else a's).
    Per-tensor scales and zero points only; per-row/column ones are not
    supported yet.
  }];
  let arguments = (ins AnyTensor:$a, AnyTensor:$a_scale,
    TensorOrNone:$a_zero_point, AnyTensor:$b, AnyTensor:$b_scale,
    TensorOrNone:$b_zero_point, AnyTensor:$y_scale,
    TensorOrNone:$y_zero_point);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $a `,` $a_scale `,` $a_zero_point `,` $b `,` $b_scale `,` $b_zero_point
    `,` $y_scale `,` $y_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_ConvIntegerOp : ONNX_Op<"ConvInteger"> {
  let summary = "Conv of (x - x_zero_point) by (w - w_zero_point) in int32";
  let description = [{
    Conv's attributes and shapes; x_zero_point is per tensor, w_zero_point
    per tensor or per output channel ([M]). Padding reads x_zero_point.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$w,
    TensorOrNone:$x_zero_point, TensorOrNone:$w_zero_point,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $w `,` $x_zero_point `,` $w_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_NhwcConvIntegerOp : ONNX_Op<"NhwcConvInteger"> {
  let summary = "2-d ConvInteger on channels-last tensors";
  let description = [{
    ConvInteger with x [N, H, W, C] (uint8) and y [N, H', W', M] (int32); w
    [M, C, kH, kW] (int8, no zero point) and the per-tensor x_zero_point as
    ConvInteger's, and its attributes (group 1). tcc-onnx-channels-last
    puts convolutions of constant int8 weights in this form, between
    Transposes, so that they run on 8-bit dot products with the channels
    contiguous.
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$w,
    TensorOrNone:$x_zero_point,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $w `,` $x_zero_point attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_QLinearConvOp : ONNX_Op<"QLinearConv"> {
  let summary = "requantized ConvInteger plus an int32 bias";
  let description = [{
    ConvInteger of x and w plus B (int32, [M]), scaled by
    x_scale * w_scale / y_scale (w_scale per tensor or per output channel),
    shifted by y_zero_point, saturated and rounded half to even to the
    result type (y_zero_point's, else x's).
  }];
  let arguments = (ins AnyTensor:$x, AnyTensor:$x_scale,
    TensorOrNone:$x_zero_point, AnyTensor:$w, AnyTensor:$w_scale,
    TensorOrNone:$w_zero_point, AnyTensor:$y_scale,
    TensorOrNone:$y_zero_point, TensorOrNone:$B,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $x_scale `,` $x_zero_point `,` $w `,` $w_scale `,` $w_zero_point
    `,` $y_scale `,` $y_zero_point `,` $B attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_DynamicQuantizeLinearOp : ONNX_Op<"DynamicQuantizeLinear"> {
  let summary = "uint8 quantization with a scale and zero point from x's range";
  let description = [{
    scale = (max(0, max(x)) - min(0, min(x))) / 255 (1/255 when the range is
    empty), zero_point = round_half_even(clamp(-min / scale, 0, 255)),
    y = saturate(round_half_even(x / scale) + zero_point), all in float32.
  }];
  let arguments = (ins FloatTensor:$x);
  let results = (outs AnyTensor:$y, AnyTensor:$y_scale,
    AnyTensor:$y_zero_point);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TCC_ONNX_QUANTIZATIONOPS_TD
