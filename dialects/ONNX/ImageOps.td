//===- ImageOps.td - image resampling ops --------------------*- tablegen -*-===//
#ifndef TCC_ONNX_IMAGEOPS_TD
#define TCC_ONNX_IMAGEOPS_TD

include "ONNXBase.td"

def ONNX_ResizeOp : ONNX_Op<"Resize"> {
  let summary = "Resize with nearest, linear or cubic interpolation";
  let description = [{
    Opset 11+ form; Resize-10 and Upsample are normalized to it (asymmetric
    coordinates, floor for nearest). `scales`/`sizes` must be constants
    for the lowering (the output shape depends on them).
  }];
  let arguments = (ins FloatTensor:$X, TensorOrNone:$roi, TensorOrNone:$scales,
    TensorOrNone:$sizes,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$antialias,
    OptionalAttr<DenseI64ArrayAttr>:$axes,
    DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
    DefaultValuedAttr<F32Attr, "-0.75">:$cubic_coeff_a,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$exclude_outside,
    DefaultValuedAttr<F32Attr, "0.0">:$extrapolation_value,
    DefaultValuedStrAttr<StrAttr, "stretch">:$keep_aspect_ratio_policy,
    DefaultValuedStrAttr<StrAttr, "nearest">:$mode,
    DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:$nearest_mode);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $roi `,` $scales `,` $sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_IMAGEOPS_TD
