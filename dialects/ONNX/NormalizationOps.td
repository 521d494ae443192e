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

def ONNX_SoftmaxOp : ONNX_Op<"Softmax"> {
  let summary = "Softmax along one axis (opset 13 semantics)";
  let arguments = (ins FloatTensor:$input,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TCC_ONNX_NORMALIZATIONOPS_TD
