//===- Image.cpp - ONNX Resize to linalg ----------------------------------===//
//
// Resize is separable: one 1-d resampling per resized axis. For each axis
// the source indices and weights of every output position depend only on
// shapes and attributes, so they are computed here, at compile time, exactly
// as ONNX's reference does (in double), and become constant tables that a
// gather-and-weigh linalg.generic reads.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Source taps of one output position along one axis.
struct AxisTable {
  int64_t taps = 0;                 // taps per output position
  SmallVector<int64_t> indices;     // out * taps, clamped to [0, in)
  SmallVector<double> weights;      // out * taps
  SmallVector<bool> extrapolated;   // out (tf_crop_and_resize)
};

/// Interpolation weights of the taps around a source coordinate whose
/// fractional part is `ratio` in (0, 1] (ONNX's reference convention).
static SmallVector<double> tapWeights(StringRef mode, StringRef nearestMode,
                                      double ratio, double a) {
  if (mode == "nearest") {
    if (ratio == 1.0)
      return {0, 1};
    if (nearestMode == "round_prefer_floor")
      return {double(ratio <= 0.5), double(ratio > 0.5)};
    if (nearestMode == "round_prefer_ceil")
      return {double(ratio < 0.5), double(ratio >= 0.5)};
    if (nearestMode == "floor")
      return {1, 0};
    return {0, 1};
  }
  if (mode == "linear")
    return {1 - ratio, ratio};
  double r = ratio, s = 1 - ratio;
  return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
          ((a + 2) * r - (a + 3)) * r * r + 1,
          ((a + 2) * s - (a + 3)) * s * s + 1,
          ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

static AxisTable buildAxisTable(onnx::ResizeOp op, int64_t in, int64_t out,
                                double scale, double roiStart, double roiEnd) {
  StringRef ctm = op.getCoordinateTransformationMode();
  double outFloat = scale * in;
  AxisTable t;
  for (int64_t y = 0; y < out; ++y) {
    double x;
    if (ctm == "align_corners")
      x = outFloat == 1 ? 0 : y * (in - 1) / (outFloat - 1);
    else if (ctm == "asymmetric")
      x = y / scale;
    else if (ctm == "tf_crop_and_resize")
      x = (outFloat == 1 ? (roiEnd - roiStart) * (in - 1) / 2
                         : y * (roiEnd - roiStart) * (in - 1) / (outFloat - 1)) +
          roiStart * (in - 1);
    else if (ctm == "pytorch_half_pixel")
      x = outFloat == 1 ? -0.5 : (y + 0.5) / scale - 0.5;
    else if (ctm == "tf_half_pixel_for_nn") // opset 11 only
      x = (y + 0.5) / scale;
    else if (ctm == "half_pixel_symmetric")
      x = in / 2.0 * (1 - out / outFloat) + (y + 0.5) / scale - 0.5;
    else // half_pixel
      x = (y + 0.5) / scale - 0.5;
    t.extrapolated.push_back(ctm == "tf_crop_and_resize" &&
                             (x < 0 || x > in - 1));
    double floorX = std::floor(x);
    double ratio = x == floorX ? 1.0 : x - floorX;
    SmallVector<double> w = tapWeights(op.getMode(), op.getNearestMode(), ratio,
                                       op.getCubicCoeffA().convertToDouble());
    int64_t n = w.size();
    t.taps = n;
    // The n integers nearest to x, ties to the smaller, among the input
    // padded by ceil(n / 2) on each side (edge values beyond the input).
    int64_t pad = (n + 1) / 2;
    int64_t left = (int64_t)(x == floorX ? floorX - 1 : floorX);
    int64_t start = left - (n / 2 - 1);
    start = std::clamp<int64_t>(start, -pad, in + pad - n);
    double total = 0;
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = start + j;
      if (op.getExcludeOutside() && (idx < 0 || idx >= in))
        w[j] = 0;
      total += w[j];
    }
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = start + j;
      t.indices.push_back(std::clamp<int64_t>(idx, 0, in - 1));
      t.weights.push_back(op.getExcludeOutside() && total != 0 ? w[j] / total
                                                               : w[j]);
    }
  }
  return t;
}

/// y[..., o, ...] = sum_j weight[o, j] * x[..., index[o, j], ...]
static Value resampleAxis(OpBuilder &b, Location loc, Value x, int64_t axis,
                          const AxisTable &t, int64_t out, Value extrapolation) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  Type elem = xType.getElementType();
  int64_t rank = xType.getRank();
  SmallVector<int64_t> shape(xType.getShape());
  shape[axis] = out;
  auto yType = RankedTensorType::get(shape, elem);
  auto tableType = RankedTensorType::get({out, t.taps}, b.getI64Type());
  Value indices = arith::ConstantOp::create(
      b, loc, tableType, DenseElementsAttr::get(tableType, ArrayRef(t.indices)));
  auto weightType = RankedTensorType::get({out, t.taps}, elem);
  SmallVector<Attribute> weightAttrs;
  for (double w : t.weights)
    weightAttrs.push_back(b.getFloatAttr(elem, w));
  Value weights = arith::ConstantOp::create(
      b, loc, weightType, DenseElementsAttr::get(weightType, weightAttrs));

  // Dims: the output's, then the tap (reduction).
  AffineMap tableMap = AffineMap::get(
      rank + 1, 0, {getAffineDimExpr(axis, ctx), getAffineDimExpr(rank, ctx)},
      ctx);
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < rank; ++i)
    outExprs.push_back(getAffineDimExpr(i, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Value init = createFilled(b, loc, yType, constantScalar(b, loc, elem, 0), {x});
  Value y =
      linalg::GenericOp::create(
          b, loc, TypeRange{yType}, ValueRange{indices, weights},
          ValueRange{init},
          ArrayRef<AffineMap>{tableMap, tableMap,
                              AffineMap::get(rank + 1, 0, outExprs, ctx)},
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> at;
            for (int64_t i = 0; i < rank; ++i)
              at.push_back(i == axis ? (Value)arith::IndexCastOp::create(
                                           nb, l, nb.getIndexType(), args[0])
                                     : (Value)linalg::IndexOp::create(nb, l, i));
            Value v = tensor::ExtractOp::create(nb, l, x, at);
            Value prod = arith::MulFOp::create(nb, l, args[1], v);
            linalg::YieldOp::create(
                nb, l, arith::AddFOp::create(nb, l, args[2], prod).getResult());
          })
          .getResult(0);
  if (!llvm::is_contained(t.extrapolated, true))
    return y;
  // tf_crop_and_resize: positions outside the input take extrapolation_value.
  auto flagType = RankedTensorType::get({out}, b.getI1Type());
  Value flags = arith::ConstantOp::create(
      b, loc, flagType,
      DenseElementsAttr::get(flagType, ArrayRef<bool>(t.extrapolated)));
  SmallVector<int64_t> flagShape(rank, 1);
  flagShape[axis] = out;
  SmallVector<ReassociationIndices> reassoc(1);
  for (int64_t i = 0; i < rank; ++i)
    reassoc[0].push_back(i);
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(flagShape, b.getI1Type()), flags, reassoc);
  return buildElementwise(
      b, loc, yType, {expanded, y},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::SelectOp::create(nb, l, args[0], extrapolation, args[1]);
      });
}

struct ResizePattern : OpConversionPattern<onnx::ResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (!inType || !inType.hasStaticShape())
      return op.emitOpError() << "needs a static input shape";
    if (op.getAntialias() != 0)
      return op.emitOpError() << "with antialias=1 is not supported yet";
    FailureOr<std::optional<onnx::ResizeGeometry>> g =
        onnx::resolveResize(op, inType.getShape());
    if (failed(g))
      return failure();
    if (!*g)
      return op.emitOpError()
             << "needs constant scales or sizes (and roi for "
             << "tf_crop_and_resize); bind them with --bind if they are inputs";
    Type elem = inType.getElementType();
    Value extrapolation = arith::ConstantOp::create(
        rewriter, loc, elem,
        rewriter.getFloatAttr(elem,
                              op.getExtrapolationValue().convertToDouble()));
    Value x = adaptor.getX();
    bool crop = op.getCoordinateTransformationMode() == "tf_crop_and_resize";
    for (int64_t axis = 0; axis < inType.getRank(); ++axis) {
      int64_t in = inType.getDimSize(axis), out = (*g)->outSizes[axis];
      double scale = (*g)->scales[axis];
      double roiStart = (*g)->roiStart[axis], roiEnd = (*g)->roiEnd[axis];
      if (scale == 1.0 && out == in && (!crop || (roiStart == 0 && roiEnd == 1)))
        continue;
      if (out == 0)
        return op.emitOpError() << "with an empty output is not supported";
      AxisTable t = buildAxisTable(op, in, out, scale, roiStart, roiEnd);
      x = resampleAxis(rewriter, loc, x, axis, t, out, extrapolation);
    }
    rewriter.replaceOp(op, x);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateImagePatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<ResizePattern>(converter, patterns.getContext());
}
