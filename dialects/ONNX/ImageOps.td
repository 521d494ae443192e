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

def ONNX_GridSampleOp : ONNX_Op<"GridSample"> {
  let summary = "Samples X at the normalized coordinates of grid";
  let description = [{
    X is [N, C, D1, ..., Dr], grid [N, O1, ..., Or, r] with coordinates in
    [-1, 1] (the last dim in reverse order: x, y, z), Y [N, C, O1, ..., Or].
    Opset 20 names (linear, cubic); GridSample-16's bilinear and bicubic are
    normalized to them.
  }];
  let arguments = (ins AnyTensor:$X, FloatTensor:$grid,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$align_corners,
    DefaultValuedStrAttr<StrAttr, "linear">:$mode,
    DefaultValuedStrAttr<StrAttr, "zeros">:$padding_mode);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    $X `,` $grid attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_AffineGridOp : ONNX_Op<"AffineGrid"> {
  let summary = "Sampling grid of affine matrices theta (for GridSample)";
  let description = [{
    theta is [N, 2, 3] (2-d) or [N, 3, 4] (3-d), size the int64 [N, C, H, W]
    or [N, C, D, H, W]; grid is [N, H, W, 2] or [N, D, H, W, 3]. `size`
    must be constant for the lowering (the output shape depends on it).
  }];
  let arguments = (ins FloatTensor:$theta, TensorOf<[I64]>:$size,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$align_corners);
  let results = (outs FloatTensor:$grid);
  let assemblyFormat = [{
    $theta `,` $size attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_NonMaxSuppressionOp : ONNX_Op<"NonMaxSuppression"> {
  let summary = "[batch, class, box] of the boxes each class keeps, best score first";
  let description = [{
    For each batch and class: the boxes scoring above `score_threshold`,
    taken best first (the lower index among equal scores), each dropping
    the boxes that overlap it by an IoU above `iou_threshold`, at most
    `max_output_boxes_per_class` (0 or absent: none). Boxes are corners
    [y1, x1, y2, x2] in either order, or (center_point_box = 1) [xc, yc, w,
    h]. The count is known only at run time: the result's dim 0 is dynamic.
  }];
  let arguments = (ins TensorOf<[F32]>:$boxes, TensorOf<[F32]>:$scores,
                   TensorOrNone:$max_output_boxes_per_class,
                   TensorOrNone:$iou_threshold, TensorOrNone:$score_threshold,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$center_point_box);
  let results = (outs AnyTensor:$selected_indices);
  let assemblyFormat = [{
    $boxes `,` $scores `,` $max_output_boxes_per_class `,` $iou_threshold `,`
    $score_threshold attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_RoiAlignOp : ONNX_Op<"RoiAlign"> {
  let summary = "Pools each region of interest of X to output_height x output_width bins";
  let description = [{
    Y[r, c] pools X[batch_indices[r], c] over the box rois[r] = (x1, y1, x2,
    y2) scaled by spatial_scale: each bin averages (or takes the largest
    weighted corner of) bilinear samples on a grid of sampling_ratio (0:
    ceil(box size / bins)) per side, as onnxruntime's kernel does. Opset 10's
    files have no coordinate_transformation_mode: the importer writes its
    behaviour, output_half_pixel.
  }];
  let arguments = (ins FloatTensor:$X, FloatTensor:$rois,
    TensorOf<[I64]>:$batch_indices,
    DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
    DefaultValuedStrAttr<StrAttr, "avg">:$mode,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$output_height,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$output_width,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$sampling_ratio,
    DefaultValuedAttr<F32Attr, "1.0">:$spatial_scale);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $rois `,` $batch_indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_IMAGEOPS_TD
