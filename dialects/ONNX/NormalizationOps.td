//===- NormalizationOps.td - normalizations -*- tablegen -*-===//
#ifndef TCC_ONNX_NORMALIZATIONOPS_TD
#define TCC_ONNX_NORMALIZATIONOPS_TD

include "ONNXBase.td"

def ONNX_BatchNormalizationOp : ONNX_Op<"BatchNormalization"> {
  let summary = "Batch normalization, inference form";
  let arguments = (ins FloatTensor:$X, FloatTensor:$scale, FloatTensor:$B,
    FloatTensor:$input_mean, FloatTensor:$input_var,
    DefaultValuedAttr<F32Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<F32Attr, "0.9">:$momentum,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$training_mode);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $scale `,` $B `,` $input_mean `,` $input_var attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

// Softmax, LogSoftmax and Hardmax along one axis (opset-13 semantics; the
// importer flattens older opsets' 2-d coercion into this form).
class ONNX_SoftmaxLikeOp<string mnemonic, string what>
    : ONNX_Op<mnemonic> {
  let summary = what # " along one axis (opset 13 semantics)";
  let arguments = (ins FloatTensor:$input,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_SoftmaxOp : ONNX_SoftmaxLikeOp<"Softmax", "exp(x) / sum(exp(x))">;
def ONNX_LogSoftmaxOp : ONNX_SoftmaxLikeOp<"LogSoftmax", "log of Softmax">;
def ONNX_HardmaxOp : ONNX_SoftmaxLikeOp<"Hardmax", "One-hot of the first max">;

def ONNX_LpNormalizationOp : ONNX_Op<"LpNormalization"> {
  let summary = "x divided by its Lp norm (p = 1 or 2) along one axis";
  let arguments = (ins FloatTensor:$input,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "2">:$p);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_LayerNormalizationOp : ONNX_Op<"LayerNormalization"> {
  let summary = "Normalization over the dims from `axis` on";
  let description = [{
    Y = (X - mean) / sqrt(var + epsilon) * Scale + B, mean and var over the
    dims [axis, rank). Mean and InvStdDev (the optional outputs) have X's
    shape with those dims 1.
  }];
  let arguments = (ins FloatTensor:$X, FloatTensor:$Scale, TensorOrNone:$B,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-05">:$epsilon,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$stash_type);
  let results = (outs FloatTensor:$Y, FloatTensor:$Mean,
                 FloatTensor:$InvStdDev);
  let assemblyFormat = [{
    $X `,` $Scale `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_RMSNormalizationOp : ONNX_Op<"RMSNormalization"> {
  let summary = "X / sqrt(mean(X^2) + epsilon) * scale, over the dims from `axis` on";
  let description = [{
    The mean of the squares is over the dims [axis, rank); `scale`
    broadcasts (numpy-style) to those dims.
  }];
  let arguments = (ins FloatTensor:$X, FloatTensor:$scale,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-05">:$epsilon,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$stash_type);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $scale attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_InstanceNormalizationOp : ONNX_Op<"InstanceNormalization"> {
  let summary = "Normalization over the spatial dims, per sample and channel";
  let arguments = (ins FloatTensor:$input, FloatTensor:$scale, FloatTensor:$B,
                   DefaultValuedAttr<F32Attr, "1e-05">:$epsilon);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $scale `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_GroupNormalizationOp : ONNX_Op<"GroupNormalization"> {
  let summary = "Normalization over groups of channels (opset 21 form)";
  let description = [{
    The channels split into num_groups groups; each (sample, group) is
    normalized over its channels and spatial dims, then scaled and shifted
    per channel (scale and bias of shape [C]; the importer turns opset 18's
    per-group [num_groups] form into this one).
  }];
  let arguments = (ins FloatTensor:$X, FloatTensor:$scale, FloatTensor:$bias,
                   DefaultValuedAttr<F32Attr, "1e-05">:$epsilon,
                   ONNX_I64Attr:$num_groups,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$stash_type);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_MeanVarianceNormalizationOp : ONNX_Op<"MeanVarianceNormalization"> {
  let summary = "(X - mean) / (sqrt(var) + 1e-9) over `axes`";
  let arguments = (ins FloatTensor:$X,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 2, 3}">:$axes);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_LRNOp : ONNX_Op<"LRN"> {
  let summary = "Local response normalization across channels";
  let arguments = (ins FloatTensor:$X,
                   DefaultValuedAttr<F32Attr, "0.0001">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.75">:$beta,
                   DefaultValuedAttr<F32Attr, "1.0">:$bias,
                   ONNX_I64Attr:$size);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TCC_ONNX_NORMALIZATIONOPS_TD
