//===- ConvPoolOps.td - Conv and pooling -*- tablegen -*-===//
#ifndef TCC_ONNX_CONVPOOLOPS_TD
#define TCC_ONNX_CONVPOOLOPS_TD

include "ONNXBase.td"

def ONNX_ConvOp : ONNX_Op<"Conv"> {
  let summary = "N-d convolution (NCHW), with groups, strides, dilations, pads";
  let arguments = (ins FloatTensor:$X, FloatTensor:$W, TensorOrNone:$B,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $W `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def ONNX_NhwcConvOp : ONNX_Op<"NhwcConv"> {
  let summary = "2-d convolution on channels-last tensors (com.microsoft)";
  let description = [{
    Conv with X [N, H, W, C] and Y [N, H', W', M]; W [M, C/group, kH, kW]
    and B [M] as Conv's, and its attributes. tcc-onnx-channels-last puts
    convolutions in this form, between Transposes, so that a chain of them
    runs with the channels contiguous.
  }];
  let arguments = (ins FloatTensor:$X, FloatTensor:$W, TensorOrNone:$B,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $W `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_ConvTransposeOp : ONNX_Op<"ConvTranspose"> {
  let summary = "N-d transposed convolution (NCHW), with groups";
  let arguments = (ins FloatTensor:$X, FloatTensor:$W, TensorOrNone:$B,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$output_padding,
    OptionalAttr<DenseI64ArrayAttr>:$output_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $W `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class ONNX_PoolOp<string mnemonic> : ONNX_Op<mnemonic> {
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_MaxPoolOp : ONNX_PoolOp<"MaxPool"> {
  let summary = "Max pooling, with the optional Indices of the maxima";
  let description = [{
    Indices, when asked for, hold the position of each maximum (the first
    of equal ones) in the flattened input: row-major, or with the spatial
    dims column-major when storage_order is 1.
  }];
  // Indices is i64 once shapes are inferred.
  // 8-bit integers (opset 12 on) are pooled in f32 (tcc-onnx-widen-half).
  let results = (outs TensorOf<[AnyFloat, I8, UI8]>:$Y,
                      Optional<AnyTensor>:$Indices);
  let arguments = (ins TensorOf<[AnyFloat, I8, UI8]>:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$storage_order,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_AveragePoolOp : ONNX_PoolOp<"AveragePool"> {
  let summary = "Average pooling";
  let arguments = (ins FloatTensor:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$count_include_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_NhwcMaxPoolOp : ONNX_PoolOp<"NhwcMaxPool"> {
  let summary = "2-d max pooling on channels-last tensors";
  let description = [{
    MaxPool with X [N, H, W, C] and Y [N, H', W', C], and MaxPool's
    attributes. tcc-onnx-channels-last puts a 2-d MaxPool of a channels-last
    tensor in this form, so that the Transposes around it move on.
  }];
  let arguments = (ins FloatTensor:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$storage_order,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_NhwcAveragePoolOp : ONNX_PoolOp<"NhwcAveragePool"> {
  let summary = "2-d average pooling on channels-last tensors";
  let description = [{
    AveragePool with X [N, H, W, C] and Y [N, H', W', C], and AveragePool's
    attributes (see NhwcMaxPool).
  }];
  let arguments = (ins FloatTensor:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$count_include_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_LpPoolOp : ONNX_PoolOp<"LpPool"> {
  let summary = "Lp-norm pooling: (sum over the window of |x|^p)^(1/p)";
  let arguments = (ins FloatTensor:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    DefaultValuedAttr<ONNX_I64Attr, "2">:$p,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_Col2ImOp : ONNX_Op<"Col2Im"> {
  let summary = "Sums sliding blocks [N, C*prod(block), L] back into images";
  let arguments = (ins AnyTensor:$input, TensorOf<[I64]>:$image_shape,
    TensorOf<[I64]>:$block_shape,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $image_shape `,` $block_shape attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The window (block, strides, dilations, pads; outSizes = the number of
    /// blocks per spatial dim) when image_shape and block_shape are
    /// constant.
    std::optional<WindowGeometry> getStaticWindow();
  }];
}

def ONNX_GlobalAveragePoolOp : ONNX_Op<"GlobalAveragePool"> {
  let summary = "Mean over all spatial dims, kept as size-1 dims";
  let arguments = (ins FloatTensor:$X);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TCC_ONNX_CONVPOOLOPS_TD
