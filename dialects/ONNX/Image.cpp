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
        g.outSizes[a] = (int64_t)(scale * inShape[a] + 0.5);
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
      g.outSizes[axes[i]] = (int64_t)((*scales)[i] * inShape[axes[i]]);
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
