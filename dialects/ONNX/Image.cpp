//===- Image.cpp - verifiers and shapes of image resampling ops -----------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

/// The float values of a constant (any float type), or nullopt.
static std::optional<SmallVector<double>> constantDoubles(Value value) {
  ElementsAttr attr;
  if (!value || !matchPattern(value, m_Constant(&attr)) ||
      !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return llvm::to_vector(llvm::map_range(
        dense.getValues<APFloat>(),
        [](APFloat f) { return f.convertToDouble(); }));
  if (auto floats = getConstantFloats(value))
    return SmallVector<double>(floats->begin(), floats->end());
  return std::nullopt;
}

static bool isEmpty(Value v) {
  if (isa<NoneType>(v.getType()))
    return true;
  auto shape = rankedShape(v);
  return shape && llvm::is_contained(*shape, 0);
}

FailureOr<std::optional<ResizeGeometry>>
tcc::onnx::resolveResize(ResizeOp op, ArrayRef<int64_t> inShape) {
  int64_t rank = inShape.size();
  SmallVector<int64_t> axes;
  if (auto a = op.getAxes()) {
    for (int64_t axis : *a) {
      if (axis < -rank || axis >= rank)
        return op.emitOpError() << "has axis " << axis << " out of range";
      axes.push_back(normAxis(axis, rank));
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  ResizeGeometry g;
  g.scales.assign(rank, 1.0);
  g.outSizes.assign(inShape.begin(), inShape.end());
  g.roiStart.assign(rank, 0.0);
  g.roiEnd.assign(rank, 1.0);
  bool haveSizes = !isEmpty(op.getSizes());
  if (haveSizes == !isEmpty(op.getScales()))
    return op.emitOpError() << "expects exactly one of scales and sizes";
  if (!isEmpty(op.getRoi())) {
    auto roi = constantDoubles(op.getRoi());
    if (roi) {
      if (roi->size() != 2 * axes.size())
        return op.emitOpError() << "expects roi of " << 2 * axes.size()
                                << " values, got " << roi->size();
      for (size_t i = 0; i < axes.size(); ++i) {
        g.roiStart[axes[i]] = (*roi)[i];
        g.roiEnd[axes[i]] = (*roi)[i + axes.size()];
      }
    } else if (op.getCoordinateTransformationMode() == "tf_crop_and_resize") {
      return std::optional<ResizeGeometry>();
    }
  }
  if (haveSizes) {
    auto sizes = getConstantInts(op.getSizes());
    if (!sizes)
      return std::optional<ResizeGeometry>();
    if (sizes->size() != axes.size())
      return op.emitOpError() << "expects " << axes.size() << " sizes, got "
                              << sizes->size();
    for (size_t i = 0; i < axes.size(); ++i)
      g.scales[axes[i]] = (double)(*sizes)[i] / inShape[axes[i]];
    StringRef policy = op.getKeepAspectRatioPolicy();
    if (policy == "stretch") {
      for (size_t i = 0; i < axes.size(); ++i)
        g.outSizes[axes[i]] = (*sizes)[i];
    } else if (policy == "not_larger" || policy == "not_smaller") {
      double scale = g.scales[axes[0]];
      for (int64_t a : axes)
        scale = policy == "not_larger" ? std::min(scale, g.scales[a])
                                       : std::max(scale, g.scales[a]);
      for (int64_t a : axes) {
        g.scales[a] = scale;
        g.outSizes[a] = doubleToDim(scale * inShape[a] + 0.5);
      }
    } else {
      return op.emitOpError() << "has unknown keep_aspect_ratio_policy '"
                              << policy << "'";
    }
  } else {
    auto scales = constantDoubles(op.getScales());
    if (!scales)
      return std::optional<ResizeGeometry>();
    if (scales->size() != axes.size())
      return op.emitOpError() << "expects " << axes.size() << " scales, got "
                              << scales->size();
    for (size_t i = 0; i < axes.size(); ++i) {
      if ((*scales)[i] <= 0)
        return op.emitOpError() << "expects positive scales";
      g.scales[axes[i]] = (*scales)[i];
      g.outSizes[axes[i]] = doubleToDim((*scales)[i] * inShape[axes[i]]);
    }
  }
  return std::optional<ResizeGeometry>(g);
}

LogicalResult ResizeOp::verify() {
  StringRef mode = getMode();
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return emitOpError() << "has unknown mode '" << mode << "'";
  StringRef ctm = getCoordinateTransformationMode();
  if (ctm != "half_pixel" && ctm != "half_pixel_symmetric" &&
      ctm != "pytorch_half_pixel" && ctm != "align_corners" &&
      ctm != "asymmetric" && ctm != "tf_crop_and_resize" &&
      ctm != "tf_half_pixel_for_nn")
    return emitOpError() << "has unknown coordinate_transformation_mode '"
                         << ctm << "'";
  StringRef nearest = getNearestMode();
  if (nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" &&
      nearest != "floor" && nearest != "ceil")
    return emitOpError() << "has unknown nearest_mode '" << nearest << "'";
  return success();
}

LogicalResult ResizeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX());
  if (!x)
    return keepUnranked(*this, elem);
  if (llvm::any_of(*x, ShapedType::isDynamic))
    return setShape(*this, SmallVector<int64_t>(x->size(), ShapedType::kDynamic),
                    elem);
  FailureOr<std::optional<ResizeGeometry>> g = resolveResize(*this, *x);
  if (failed(g))
    return failure();
  if (!*g)
    return setShape(*this, SmallVector<int64_t>(x->size(), ShapedType::kDynamic),
                    elem);
  return setShape(*this, (*g)->outSizes, elem);
}

LogicalResult GridSampleOp::verify() {
  StringRef mode = getMode();
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return emitOpError() << "has unknown mode '" << mode
                         << "' (expected nearest, linear or cubic)";
  StringRef padding = getPaddingMode();
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return emitOpError() << "has unknown padding_mode '" << padding
                         << "' (expected zeros, border or reflection)";
  if (getAlignCorners() != 0 && getAlignCorners() != 1)
    return emitOpError() << "has align_corners " << getAlignCorners()
                         << ", expected 0 or 1";
  auto x = rankedShape(getX());
  auto grid = rankedShape(getGrid());
  if (x && x->size() < 3)
    return emitOpError() << "expects X of rank >= 3 (N, C, spatial dims), got "
                         << formatShape(*x);
  if (!x || !grid)
    return success();
  int64_t spatial = x->size() - 2;
  SmallVector<int64_t> expected = {(*x)[0]};
  expected.append(spatial, ShapedType::kDynamic);
  expected.push_back(spatial);
  bool fits = grid->size() == expected.size();
  for (size_t i = 0; fits && i < expected.size(); ++i)
    fits = ShapedType::isDynamic(expected[i]) ||
           ShapedType::isDynamic((*grid)[i]) || (*grid)[i] == expected[i];
  if (!fits)
    return emitOpError() << "expects grid of shape " << formatShape(expected)
                         << " for X of shape " << formatShape(*x) << ", got "
                         << formatShape(*grid);
  return success();
}

LogicalResult GridSampleOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX());
  auto grid = rankedShape(getGrid());
  if (!x && !grid)
    return keepUnranked(*this, elem);
  int64_t rank = x ? x->size() : grid->size();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  if (x) {
    shape[0] = (*x)[0];
    shape[1] = (*x)[1];
  }
  if (grid) {
    if (ShapedType::isDynamic(shape[0]))
      shape[0] = (*grid)[0];
    for (int64_t i = 2; i < rank; ++i)
      shape[i] = (*grid)[i - 1];
  }
  return setShape(*this, shape, elem);
}

LogicalResult AffineGridOp::verify() {
  if (getAlignCorners() != 0 && getAlignCorners() != 1)
    return emitOpError() << "has align_corners " << getAlignCorners()
                         << ", expected 0 or 1";
  auto theta = rankedShape(getTheta());
  auto size = rankedShape(getSize());
  if (size && (size->size() != 1 || (!ShapedType::isDynamic((*size)[0]) &&
                                     (*size)[0] != 4 && (*size)[0] != 5)))
    return emitOpError() << "expects size of shape [4] (N, C, H, W) or [5] "
                         << "(N, C, D, H, W), got " << formatShape(*size);
  if (!theta)
    return success();
  if (theta->size() != 3)
    return emitOpError() << "expects theta of rank 3, got "
                         << formatShape(*theta);
  int64_t spatial = ShapedType::kDynamic;
  if (size && !ShapedType::isDynamic((*size)[0]))
    spatial = (*size)[0] - 2;
  else if (!ShapedType::isDynamic((*theta)[1]))
    spatial = (*theta)[1];
  if (ShapedType::isDynamic(spatial))
    return success();
  SmallVector<int64_t> expected = {ShapedType::kDynamic, spatial, spatial + 1};
  if (auto values = getConstantInts(getSize()); values && !values->empty()) {
    if (llvm::any_of(*values, [](int64_t v) { return v < 0; }))
      return emitOpError() << "expects a size without negative values, got "
                           << formatShape(*values);
    expected[0] = (*values)[0];
  }
  for (size_t i = 0; i < 3; ++i) {
    if (!ShapedType::isDynamic(expected[i]) &&
        !ShapedType::isDynamic((*theta)[i]) && (*theta)[i] != expected[i])
      return emitOpError() << "expects theta of shape " << formatShape(expected)
                           << ", got " << formatShape(*theta);
  }
  return success();
}

LogicalResult AffineGridOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getTheta());
  auto theta = rankedShape(getTheta());
  if (auto values = getConstantInts(getSize())) {
    SmallVector<int64_t> shape = {(*values)[0]};
    shape.append(values->begin() + 2, values->end());
    shape.push_back(values->size() - 2);
    return setShape(*this, shape, elem);
  }
  auto size = rankedShape(getSize());
  int64_t spatial = ShapedType::kDynamic;
  if (size && !ShapedType::isDynamic((*size)[0]))
    spatial = (*size)[0] - 2;
  else if (theta && !ShapedType::isDynamic((*theta)[1]))
    spatial = (*theta)[1];
  if (ShapedType::isDynamic(spatial))
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape(spatial + 2, ShapedType::kDynamic);
  if (theta)
    shape[0] = (*theta)[0];
  shape.back() = spatial;
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// NonMaxSuppression
//===----------------------------------------------------------------------===//

LogicalResult NonMaxSuppressionOp::verify() {
  auto boxes = rankedShape(getBoxes());
  auto scores = rankedShape(getScores());
  if (boxes && (boxes->size() != 3 || (*boxes)[2] != 4))
    return emitOpError() << "expects boxes of shape [batch, boxes, 4], got "
                         << formatShape(*boxes);
  if (scores && scores->size() != 3)
    return emitOpError()
           << "expects scores of shape [batch, classes, boxes], got "
           << formatShape(*scores);
  if (boxes && scores &&
      ((!ShapedType::isDynamic((*boxes)[0]) &&
        !ShapedType::isDynamic((*scores)[0]) && (*boxes)[0] != (*scores)[0]) ||
       (!ShapedType::isDynamic((*boxes)[1]) &&
        !ShapedType::isDynamic((*scores)[2]) && (*boxes)[1] != (*scores)[2])))
    return emitOpError() << "has boxes " << formatShape(*boxes)
                         << " and scores " << formatShape(*scores)
                         << " of different batches or box counts";
  for (Value scalar : {getMaxOutputBoxesPerClass(), getIouThreshold(),
                       getScoreThreshold()}) {
    auto shape = rankedShape(scalar);
    if (shape && mulDims(*shape) != 1)
      return emitOpError() << "expects scalar limits, got a tensor of shape "
                           << formatShape(*shape);
  }
  if (getCenterPointBox() != 0 && getCenterPointBox() != 1)
    return emitOpError() << "has center_point_box " << getCenterPointBox()
                         << ", expected 0 or 1";
  return success();
}

LogicalResult NonMaxSuppressionOp::inferShapes() {
  return setShape(*this, {ShapedType::kDynamic, 3},
                  IntegerType::get(getContext(), 64));
}

LogicalResult RoiAlignOp::verify() {
  auto x = rankedShape(getX());
  auto rois = rankedShape(getRois());
  auto indices = rankedShape(getBatchIndices());
  if (x && x->size() != 4)
    return emitOpError() << "expects X of rank 4 [N, C, H, W], got "
                         << formatShape(*x);
  if (rois && (rois->size() != 2 || (*rois)[1] != 4))
    return emitOpError() << "expects rois of shape [num_rois, 4], got "
                         << formatShape(*rois);
  if (indices && indices->size() != 1)
    return emitOpError() << "expects batch_indices of rank 1, got "
                         << formatShape(*indices);
  if (rois && indices && !ShapedType::isDynamic((*rois)[0]) &&
      !ShapedType::isDynamic((*indices)[0]) && (*rois)[0] != (*indices)[0])
    return emitOpError() << "has " << (*rois)[0] << " rois but "
                         << (*indices)[0] << " batch indices";
  if (getMode() != "avg" && getMode() != "max")
    return emitOpError() << "expects mode avg or max, got '" << getMode()
                         << "'";
  if (getCoordinateTransformationMode() != "half_pixel" &&
      getCoordinateTransformationMode() != "output_half_pixel")
    return emitOpError() << "expects coordinate_transformation_mode "
                         << "half_pixel or output_half_pixel, got '"
                         << getCoordinateTransformationMode() << "'";
  if (getOutputHeight() < 1 || getOutputWidth() < 1 || getSamplingRatio() < 0)
    return emitOpError() << "expects output_height and output_width >= 1 and "
                         << "sampling_ratio >= 0, got " << getOutputHeight()
                         << ", " << getOutputWidth() << ", "
                         << getSamplingRatio();
  return success();
}

LogicalResult RoiAlignOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX());
  auto rois = rankedShape(getRois());
  if (!x || !rois)
    return keepUnranked(*this, elem);
  return setShape(*this,
                  {(*rois)[0], (*x)[1], getOutputHeight(), getOutputWidth()},
                  elem);
}
