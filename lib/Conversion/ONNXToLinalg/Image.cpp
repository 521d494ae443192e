//===- Image.cpp - ONNX Resize, GridSample and AffineGrid to linalg -------===//
//
// Resize is separable: one 1-d resampling per resized axis. For each axis
// the source indices and weights of every output position depend only on
// shapes and attributes, so they are computed here, at compile time, exactly
// as ONNX's reference does (in double), and become constant tables that a
// gather-and-weigh linalg.generic reads.
//
// GridSample's source coordinates come from a tensor, so its taps and
// weights are computed at run time, in one generic over the output that
// gathers with tensor.extract; its cubic weights are Resize's formula
// (cubicWeights) on run-time scalars. AffineGrid is a generic too.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>
#include <tuple>

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

/// Keys' cubic convolution weights of the 4 taps around a point `r` past
/// the second tap, with coefficient `a` (Resize's cubic_coeff_a, -0.75 for
/// GridSample). `T` is double for Resize's compile-time tables and a
/// run-time scalar (`RunScalar`) for GridSample; `c` makes a T constant.
template <typename T, typename Const>
static std::array<T, 4> cubicWeights(T r, double a, Const c) {
  T p = r + c(1), s = c(1) - r, q = s + c(1);
  return {((c(a) * p - c(5 * a)) * p + c(8 * a)) * p - c(4 * a),
          (c(a + 2) * r - c(a + 3)) * r * r + c(1),
          (c(a + 2) * s - c(a + 3)) * s * s + c(1),
          ((c(a) * q - c(5 * a)) * q + c(8 * a)) * q - c(4 * a)};
}

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
  std::array<double, 4> w = cubicWeights(ratio, a, [](double v) { return v; });
  return SmallVector<double>(w.begin(), w.end());
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

/// A float scalar being built at run time, with the arithmetic operators
/// that cubicWeights needs.
struct RunScalar {
  OpBuilder *b;
  Location loc;
  Value v;
  RunScalar with(Value x) const { return {b, loc, x}; }
  RunScalar operator+(RunScalar o) const {
    return with(arith::AddFOp::create(*b, loc, v, o.v));
  }
  RunScalar operator-(RunScalar o) const {
    return with(arith::SubFOp::create(*b, loc, v, o.v));
  }
  RunScalar operator*(RunScalar o) const {
    return with(arith::MulFOp::create(*b, loc, v, o.v));
  }
};

/// GridSample's sampling of X [N, C, D1..Dr] at grid [N, O1..Or, r]: per
/// output element, the source coordinate of each spatial dim (from the
/// grid, denormalized, rounded for nearest, moved inside for border and
/// reflection padding), then the weighted sum of the taps around it (1, 2
/// or 4 per dim), each fetched as the padding mode says. Computed in f32
/// (f64 for double data), as ONNX's reference does.
class GridSampler {
public:
  GridSampler(OpBuilder &b, Location loc, onnx::GridSampleOp op, Value x,
              Value grid, Type compute)
      : b(b), loc(loc), x(x), grid(grid), ct(compute),
        align(op.getAlignCorners() != 0), mode(op.getMode()),
        padding(op.getPaddingMode()) {
    auto xType = cast<RankedTensorType>(x.getType());
    dims.assign(xType.getShape().begin() + 2, xType.getShape().end());
  }

  /// The output element at ivs = (n, c, o1..or).
  Value sample(ValueRange ivs) {
    int64_t r = dims.size();
    Value n = ivs[0], c = ivs[1];
    // Per spatial dim: the taps' indices and weights.
    SmallVector<SmallVector<Value>> tapIndex(r), tapWeight(r);
    for (int64_t i = 0; i < r; ++i) {
      SmallVector<Value> at = {n};
      llvm::append_range(at, ivs.drop_front(2));
      at.push_back(constantIndex(b, loc, r - 1 - i)); // x, y, z: reversed
      Value g = toCompute(tensor::ExtractOp::create(b, loc, grid, at));
      Value coord = denormalize(g, dims[i]);
      if (mode == "nearest")
        coord = math::RoundEvenOp::create(b, loc, coord);
      // Cubic pads each tap, not the coordinate (PyTorch and onnxruntime do
      // so; ONNX's reference moves the coordinate inside first, which
      // differs for border padding).
      if (mode != "cubic")
        coord = moveInside(coord, i);
      if (mode == "nearest") {
        tapIndex[i].push_back(coord); // truncated when fetched
        continue;
      }
      Value base = math::FloorOp::create(b, loc, coord);
      RunScalar frac{&b, loc, arith::SubFOp::create(b, loc, coord, base)};
      auto cst = [&](double v) { return frac.with(constant(v)); };
      if (mode == "linear") {
        tapIndex[i] = {base, add(base, constant(1))};
        tapWeight[i] = {(cst(1) - frac).v, frac.v};
        continue;
      }
      std::array<RunScalar, 4> w = cubicWeights(frac, -0.75, cst);
      for (int64_t k = -1; k <= 2; ++k) {
        tapIndex[i].push_back(add(base, constant(k)));
        tapWeight[i].push_back(w[k + 1].v);
      }
    }
    // Sum over every combination of taps (pick[i]: the tap of dim i).
    Value sum;
    int64_t combinations = 1;
    for (auto &taps : tapIndex)
      combinations *= taps.size();
    for (int64_t combination = 0; combination < combinations; ++combination) {
      SmallVector<int64_t> pick(r);
      for (int64_t i = r - 1, rest = combination; i >= 0; --i) {
        pick[i] = rest % tapIndex[i].size();
        rest /= tapIndex[i].size();
      }
      SmallVector<Value> at = {n, c};
      Value inside, weight;
      for (int64_t i = 0; i < r; ++i) {
        auto [index, in] = fetchIndex(tapIndex[i][pick[i]], i);
        at.push_back(index);
        if (in)
          inside = inside ? arith::AndIOp::create(b, loc, inside, in) : in;
        if (mode != "nearest")
          weight = weight ? mul(weight, tapWeight[i][pick[i]])
                          : tapWeight[i][pick[i]];
      }
      Value v = toCompute(tensor::ExtractOp::create(b, loc, x, at));
      if (inside)
        v = arith::SelectOp::create(b, loc, inside, v, constant(0));
      if (weight)
        v = mul(weight, v);
      sum = sum ? add(sum, v) : v;
    }
    Type elem = cast<RankedTensorType>(x.getType()).getElementType();
    return castScalar(b, loc, sum, false, elem, false);
  }

private:
  Value constant(double v) { return constantScalar(b, loc, ct, v); }
  Value add(Value l, Value r) { return arith::AddFOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulFOp::create(b, loc, l, r); }
  Value toCompute(Value v) { return castScalar(b, loc, v, false, ct, false); }
  Value less(Value l, Value r) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, l, r);
  }
  Value clamp(Value v, double lo, double hi) {
    return arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, v, constant(lo)),
        constant(hi));
  }
  /// The extent of dim i that coordinates reflect at: pixel centers with
  /// align_corners, pixel edges without.
  double low(int64_t) const { return align ? 0.0 : -0.5; }
  double high(int64_t i) const { return align ? dims[i] - 1.0 : dims[i] - 0.5; }

  /// [-1, 1] to pixel coordinates of a dim of `size`.
  Value denormalize(Value g, int64_t size) {
    Value plusOne = add(g, constant(1));
    if (align)
      return mul(plusOne, constant((size - 1) / 2.0));
    return mul(arith::SubFOp::create(b, loc, mul(plusOne, constant(size)),
                                     constant(1)),
               constant(0.5));
  }

  /// Folds v into [lo, hi] by reflecting at the borders (ONNX's
  /// _gs_reflect).
  Value reflect(Value v, double lo, double hi) {
    double range = hi - lo;
    if (range <= 0)
      return constant(lo);
    Value below = less(v, constant(lo)), above = less(constant(hi), v);
    Value dx = arith::SelectOp::create(
        b, loc, below, arith::SubFOp::create(b, loc, constant(lo), v),
        arith::SubFOp::create(b, loc, v, constant(hi)));
    Value flips = math::FloorOp::create(
        b, loc, arith::DivFOp::create(b, loc, dx, constant(range)));
    Value rest = arith::SubFOp::create(b, loc, dx, mul(flips, constant(range)));
    Value half = math::FloorOp::create(b, loc, mul(flips, constant(0.5)));
    Value even = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       mul(half, constant(2)), flips);
    Value fromLo = add(constant(lo), rest);
    Value fromHi = arith::SubFOp::create(b, loc, constant(hi), rest);
    Value belowV = arith::SelectOp::create(b, loc, even, fromLo, fromHi);
    Value aboveV = arith::SelectOp::create(b, loc, even, fromHi, fromLo);
    return arith::SelectOp::create(
        b, loc, below, belowV,
        arith::SelectOp::create(b, loc, above, aboveV, v));
  }

  /// A coordinate outside [low, high] clamped (border) or reflected
  /// (reflection); zeros padding leaves it.
  Value moveInside(Value v, int64_t i) {
    if (padding == "border") {
      Value out = arith::OrIOp::create(b, loc, less(v, constant(low(i))),
                                       less(constant(high(i)), v));
      return arith::SelectOp::create(b, loc, out, clamp(v, 0, dims[i] - 1), v);
    }
    if (padding == "reflection")
      return reflect(v, low(i), high(i));
    return v;
  }

  /// The index of tap coordinate `t` (integral but for nearest, which
  /// truncates) in dim i, and for zeros padding whether it is inside.
  std::pair<Value, Value> fetchIndex(Value t, int64_t i) {
    int64_t size = dims[i];
    Value inside;
    if (padding == "reflection")
      t = reflect(t, low(i), high(i));
    // Far coordinates are out either way; clamping first keeps the
    // conversion to an integer defined.
    t = clamp(t, -2, size + 1);
    Value idx = arith::FPToSIOp::create(b, loc, b.getI64Type(), t);
    Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), idx);
    Value zero = constantIndex(b, loc, 0),
          last = constantIndex(b, loc, size - 1);
    if (padding == "zeros")
      inside = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, index,
                                last));
    index = arith::MaxSIOp::create(b, loc, index, zero);
    index = arith::MinSIOp::create(b, loc, index, last);
    return {index, inside};
  }

  OpBuilder &b;
  Location loc;
  Value x, grid;
  Type ct;
  bool align;
  StringRef mode, padding;
  SmallVector<int64_t> dims;
};

struct GridSamplePattern : OpConversionPattern<onnx::GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto gridType = dyn_cast<RankedTensorType>(adaptor.getGrid().getType());
    auto type = dyn_cast<RankedTensorType>(op.getY().getType());
    if (!xType || !gridType || !type || !xType.hasStaticShape() ||
        !gridType.hasStaticShape() || !type.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    if (!isa<FloatType>(xType.getElementType()))
      return op.emitOpError() << "with " << xType.getElementType()
                              << " data is not supported yet";
    if (llvm::is_contained(xType.getShape(), 0) || type.getNumElements() == 0)
      return op.emitOpError() << "with an empty input is not supported yet";
    bool wide =
        xType.getElementType().isF64() || gridType.getElementType().isF64();
    Type compute = wide ? rewriter.getF64Type() : rewriter.getF32Type();
    Value y = buildIndexed(rewriter, op.getLoc(), type,
                           [&](OpBuilder &b, Location loc, ValueRange ivs) {
                             GridSampler inner(b, loc, op, adaptor.getX(),
                                               adaptor.getGrid(), compute);
                             return inner.sample(ivs);
                           });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// AffineGrid: grid[n, ..., j] = sum_k theta[n, j, k] * base_k with base
/// (x_w, y_h[, z_d], 1) the normalized pixel positions, computed in f64 as
/// ONNX's reference does.
struct AffineGridPattern : OpConversionPattern<onnx::AffineGridOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::AffineGridOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> size =
        onnx::getConstantInts(op.getSize());
    if (!size)
      return op.emitOpError()
             << "needs a constant size; bind it with --bind if it is an input";
    auto type = dyn_cast<RankedTensorType>(op.getGrid().getType());
    auto thetaType = dyn_cast<RankedTensorType>(adaptor.getTheta().getType());
    if (!type || !type.hasStaticShape() || !thetaType)
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    int64_t r = size->size() - 2;
    SmallVector<int64_t> spatial(size->begin() + 2, size->end());
    bool align = op.getAlignCorners() != 0;
    Type elem = type.getElementType();
    Value theta = adaptor.getTheta();
    Value grid = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location loc, ValueRange ivs) -> Value {
          Type f64 = b.getF64Type();
          Value n = ivs[0], j = ivs[r + 1];
          // base_k for k < r is the coordinate of spatial dim r - 1 - k.
          Value sum;
          for (int64_t k = 0; k <= r; ++k) {
            Value base;
            if (k == r) {
              base = constantScalar(b, loc, f64, 1);
            } else {
              int64_t dim = r - 1 - k, extent = spatial[dim];
              double step = align ? (extent > 1 ? 2.0 / (extent - 1) : 0.0)
                                  : 2.0 / extent;
              double start = align ? -1.0 : -1.0 + step / 2;
              Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                   ivs[1 + dim]);
              Value fi = arith::SIToFPOp::create(b, loc, f64, i);
              base = arith::AddFOp::create(
                  b, loc, constantScalar(b, loc, f64, start),
                  arith::MulFOp::create(b, loc, fi,
                                        constantScalar(b, loc, f64, step)));
            }
            Value t = tensor::ExtractOp::create(
                b, loc, theta, ValueRange{n, j, constantIndex(b, loc, k)});
            t = castScalar(b, loc, t, false, f64, false);
            Value term = arith::MulFOp::create(b, loc, t, base);
            sum = sum ? arith::AddFOp::create(b, loc, sum, term).getResult()
                      : term;
          }
          return castScalar(b, loc, sum, false, elem, false);
        });
    rewriter.replaceOp(op, grid);
    return success();
  }
};
} // namespace

namespace {

/// NonMaxSuppression, as onnxruntime computes it: for each batch and class,
/// up to min(max_output_boxes_per_class, boxes) times, a scan picks the
/// best-scoring box not yet dropped and above the score threshold (the
/// lower index among equal scores), appends [batch, class, box] at row
/// `count` of a buffer with room for every box of every class, and drops
/// the boxes that overlap it by an IoU above the threshold. The result is
/// the buffer's first `count` rows (a dim known at run time, as NonZero's).
struct NonMaxSuppressionPattern
    : OpConversionPattern<onnx::NonMaxSuppressionOp> {
  using OpConversionPattern::OpConversionPattern;

  /// The scalar in `t` (any rank, one element), or `fallback` when absent.
  static Value scalar(OpBuilder &b, Location loc, Value t, Value fallback) {
    auto type = dyn_cast<RankedTensorType>(t.getType());
    if (!type)
      return fallback;
    SmallVector<Value> at(type.getRank(), constantIndex(b, loc, 0));
    return tensor::ExtractOp::create(b, loc, t, at);
  }

  /// Whether boxes `p` and `q` (4 corner or center values each) overlap
  /// by an IoU above `threshold` (onnxruntime's SuppressByIOU).
  static Value overlaps(OpBuilder &b, Location loc, ArrayRef<Value> p,
                        ArrayRef<Value> q, Value threshold, bool center) {
    Type f32 = b.getF32Type();
    Value half = constantScalar(b, loc, f32, 0.5);
    Value zero = constantScalar(b, loc, f32, 0.0);
    // [y_min, x_min, y_max, x_max] of a box.
    auto corners = [&](ArrayRef<Value> v) -> std::array<Value, 4> {
      if (center) { // [xc, yc, w, h]
        Value hw = arith::MulFOp::create(b, loc, v[2], half);
        Value hh = arith::MulFOp::create(b, loc, v[3], half);
        return {arith::SubFOp::create(b, loc, v[1], hh),
                arith::SubFOp::create(b, loc, v[0], hw),
                arith::AddFOp::create(b, loc, v[1], hh),
                arith::AddFOp::create(b, loc, v[0], hw)};
      }
      return {arith::MinimumFOp::create(b, loc, v[0], v[2]),
              arith::MinimumFOp::create(b, loc, v[1], v[3]),
              arith::MaximumFOp::create(b, loc, v[0], v[2]),
              arith::MaximumFOp::create(b, loc, v[1], v[3])};
    };
    std::array<Value, 4> a = corners(p), c = corners(q);
    auto positive = [&](Value lo, Value hi) {
      return arith::MaximumFOp::create(
          b, loc, arith::SubFOp::create(b, loc, hi, lo), zero);
    };
    Value iy = positive(arith::MaximumFOp::create(b, loc, a[0], c[0]),
                        arith::MinimumFOp::create(b, loc, a[2], c[2]));
    Value ix = positive(arith::MaximumFOp::create(b, loc, a[1], c[1]),
                        arith::MinimumFOp::create(b, loc, a[3], c[3]));
    Value inter = arith::MulFOp::create(b, loc, iy, ix);
    auto area = [&](const std::array<Value, 4> &v) {
      return arith::MulFOp::create(b, loc,
                                   arith::SubFOp::create(b, loc, v[2], v[0]),
                                   arith::SubFOp::create(b, loc, v[3], v[1]));
    };
    Value areaA = area(a), areaC = area(c);
    Value unionArea = arith::SubFOp::create(
        b, loc, arith::AddFOp::create(b, loc, areaA, areaC), inter);
    auto gt = [&](Value x, Value y) {
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
    };
    Value valid = arith::AndIOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, gt(inter, zero), gt(areaA, zero)),
        arith::AndIOp::create(b, loc, gt(areaC, zero), gt(unionArea, zero)));
    Value iou = arith::DivFOp::create(b, loc, inter, unionArea);
    return arith::AndIOp::create(b, loc, valid, gt(iou, threshold));
  }

  LogicalResult
  matchAndRewrite(onnx::NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    auto boxesType = dyn_cast<RankedTensorType>(boxes.getType());
    auto scoresType = dyn_cast<RankedTensorType>(scores.getType());
    if (!boxesType || !boxesType.hasStaticShape() || !scoresType ||
        !scoresType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type f32 = b.getF32Type(), i64 = b.getI64Type(), i1 = b.getI1Type();
    int64_t batches = scoresType.getDimSize(0),
            classes = scoresType.getDimSize(1), n = scoresType.getDimSize(2);
    bool center = op.getCenterPointBox() == 1;
    Value maxOut = scalar(b, loc, adaptor.getMaxOutputBoxesPerClass(),
                          constantScalar(b, loc, i64, 0.0));
    Value iouThreshold = scalar(b, loc, adaptor.getIouThreshold(),
                                constantScalar(b, loc, f32, 0.0));
    Value scoreThreshold = scalar(
        b, loc, adaptor.getScoreThreshold(),
        arith::ConstantOp::create(
            b, loc, b.getFloatAttr(f32, -std::numeric_limits<float>::infinity())));
    // min(max(max_out, 0), boxes) picks per class.
    Value picks = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::MinSIOp::create(
            b, loc,
            arith::MaxSIOp::create(b, loc, maxOut,
                                   constantScalar(b, loc, i64, 0.0)),
            constantScalar(b, loc, i64, (double)n)));
    Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
    Value rows = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{std::max<int64_t>(batches * classes * n, 1), 3},
        i64);
    Value none = constantScalar(b, loc, i64, -1.0);
    Value noScore = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(f32, -std::numeric_limits<float>::infinity()));
    Value falseValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    Value trueValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));

    auto box = [&](OpBuilder &b, Location l, Value batch, Value i) {
      SmallVector<Value> v;
      for (int64_t k = 0; k < 4; ++k)
        v.push_back(tensor::ExtractOp::create(
            b, l, boxes, ValueRange{batch, i, constantIndex(b, l, k)}));
      return v;
    };
    auto perBatch = scf::ForOp::create(
        b, loc, zero, constantIndex(b, loc, batches), one,
        ValueRange{rows, zero},
        [&](OpBuilder &b, Location l, Value batch, ValueRange outer) {
          auto perClass = scf::ForOp::create(
              b, l, zero, constantIndex(b, l, classes), one, outer,
              [&](OpBuilder &b, Location l, Value cls, ValueRange state) {
                Value dropped = linalg::FillOp::create(
                                    b, l, falseValue,
                                    ValueRange{tensor::EmptyOp::create(
                                        b, l, ArrayRef<int64_t>{n}, i1)})
                                    .getResult(0);
                auto pick = scf::ForOp::create(
                    b, l, zero, picks, one,
                    ValueRange{state[0], state[1], dropped},
                    [&](OpBuilder &b, Location l, Value, ValueRange s) {
                      // The best box left.
                      auto scan = scf::ForOp::create(
                          b, l, zero, constantIndex(b, l, n), one,
                          ValueRange{none, noScore},
                          [&](OpBuilder &b, Location l, Value j,
                              ValueRange best) {
                            Value score = tensor::ExtractOp::create(
                                b, l, scores, ValueRange{batch, cls, j});
                            Value gone = tensor::ExtractOp::create(
                                b, l, s[2], j);
                            Value better = arith::AndIOp::create(
                                b, l,
                                arith::CmpFOp::create(
                                    b, l, arith::CmpFPredicate::OGT, score,
                                    scoreThreshold),
                                arith::OrIOp::create(
                                    b, l,
                                    arith::CmpIOp::create(
                                        b, l, arith::CmpIPredicate::slt,
                                        best[0], constantScalar(b, l, i64, 0.0)),
                                    arith::CmpFOp::create(
                                        b, l, arith::CmpFPredicate::OGT, score,
                                        best[1])));
                            Value take = arith::AndIOp::create(
                                b, l, better,
                                arith::XOrIOp::create(b, l, gone, trueValue));
                            Value j64 = arith::IndexCastOp::create(b, l, i64, j);
                            scf::YieldOp::create(
                                b, l,
                                ValueRange{arith::SelectOp::create(
                                               b, l, take, j64, best[0]),
                                           arith::SelectOp::create(
                                               b, l, take, score, best[1])});
                          });
                      Value found = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::sge, scan.getResult(0),
                          constantScalar(b, l, i64, 0.0));
                      auto keep = scf::IfOp::create(
                          b, l, found,
                          [&](OpBuilder &b, Location l) {
                            Value bestIndex = arith::IndexCastOp::create(
                                b, l, b.getIndexType(), scan.getResult(0));
                            Value out = s[0];
                            Value fields[3] = {
                                arith::IndexCastOp::create(b, l, i64, batch),
                                arith::IndexCastOp::create(b, l, i64, cls),
                                scan.getResult(0)};
                            for (int64_t k = 0; k < 3; ++k)
                              out = tensor::InsertOp::create(
                                  b, l, fields[k], out,
                                  ValueRange{s[1], constantIndex(b, l, k)});
                            Value marks = tensor::InsertOp::create(
                                b, l, trueValue, s[2], bestIndex);
                            SmallVector<Value> kept = box(b, l, batch, bestIndex);
                            // Drop what overlaps it.
                            auto drop = scf::ForOp::create(
                                b, l, zero, constantIndex(b, l, n), one,
                                ValueRange{marks},
                                [&](OpBuilder &b, Location l, Value j,
                                    ValueRange m) {
                                  Value hit = overlaps(b, l, kept,
                                                       box(b, l, batch, j),
                                                       iouThreshold, center);
                                  Value gone = tensor::ExtractOp::create(
                                      b, l, m[0], j);
                                  Value now =
                                      arith::OrIOp::create(b, l, gone, hit);
                                  scf::YieldOp::create(
                                      b, l,
                                      ValueRange{tensor::InsertOp::create(
                                          b, l, now, m[0], j)});
                                });
                            scf::YieldOp::create(
                                b, l,
                                ValueRange{out,
                                           arith::AddIOp::create(b, l, s[1],
                                                                 constantIndex(b, l, 1)),
                                           drop.getResult(0)});
                          },
                          [&](OpBuilder &b, Location l) {
                            scf::YieldOp::create(b, l, s);
                          });
                      scf::YieldOp::create(b, l, keep.getResults());
                    });
                scf::YieldOp::create(
                    b, l, ValueRange{pick.getResult(0), pick.getResult(1)});
              });
          scf::YieldOp::create(b, l, perClass.getResults());
        });
    replaceByLeadingBlock(rewriter, op, perBatch.getResult(0),
                          {perBatch.getResult(1), b.getIndexAttr(3)});
    return success();
  }
};

} // namespace

namespace {
/// RoiAlign as ONNX's reference (and onnxruntime's kernel) computes it, in
/// f64: each output element loops over its bin's grid of samples, whose
/// size comes from the roi at run time (clamped to 4096 per side), each
/// bilinear in X[batch_indices[r], c] (the batch index clamped into X, the
/// sample position into the image: hostile rois read only X).
struct RoiAlignPattern : OpConversionPattern<onnx::RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto type = dyn_cast<RankedTensorType>(op.getY().getType());
    if (!xType || !type || !xType.hasStaticShape() || !type.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    if (llvm::is_contained(xType.getShape(), 0))
      return op.emitOpError() << "with an empty input is not supported yet";
    int64_t n = xType.getDimSize(0), h = xType.getDimSize(2),
            w = xType.getDimSize(3);
    int64_t outH = op.getOutputHeight(), outW = op.getOutputWidth();
    int64_t ratio = op.getSamplingRatio();
    bool halfPixel = op.getCoordinateTransformationMode() == "half_pixel";
    bool isMax = op.getMode() == "max";
    double scale = op.getSpatialScale().convertToDouble();
    Value x = adaptor.getX(), rois = adaptor.getRois(),
          batchIndices = adaptor.getBatchIndices();
    Type elem = type.getElementType();
    Value y = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location loc, ValueRange ivs) -> Value {
          Type f64 = b.getF64Type();
          auto f = [&](double v) -> Value {
            return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
          };
          auto idx = [&](int64_t v) { return constantIndex(b, loc, v); };
          auto toF64 = [&](Value index) -> Value {
            return arith::SIToFPOp::create(
                b, loc, f64,
                arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
          };
          auto add = [&](Value p, Value q) -> Value {
            return arith::AddFOp::create(b, loc, p, q);
          };
          auto mul = [&](Value p, Value q) -> Value {
            return arith::MulFOp::create(b, loc, p, q);
          };
          auto sub = [&](Value p, Value q) -> Value {
            return arith::SubFOp::create(b, loc, p, q);
          };
          auto div = [&](Value p, Value q) -> Value {
            return arith::DivFOp::create(b, loc, p, q);
          };
          auto clampF = [&](Value v, double lo, double hi) -> Value {
            return arith::MinNumFOp::create(
                b, loc, arith::MaxNumFOp::create(b, loc, v, f(lo)), f(hi));
          };
          Value r = ivs[0], c = ivs[1];
          auto roi = [&](int64_t k) {
            Value v = tensor::ExtractOp::create(b, loc, rois,
                                                ValueRange{r, idx(k)});
            return sub(mul(castScalar(b, loc, v, false, f64, false), f(scale)),
                       f(halfPixel ? 0.5 : 0.0));
          };
          Value startW = roi(0), startH = roi(1);
          Value roiW = sub(roi(2), startW), roiH = sub(roi(3), startH);
          if (!halfPixel) {
            roiW = arith::MaximumFOp::create(b, loc, roiW, f(1.0));
            roiH = arith::MaximumFOp::create(b, loc, roiH, f(1.0));
          }
          Value binH = div(roiH, f(outH)), binW = div(roiW, f(outW));
          // Samples per side: sampling_ratio, or ceil(roi / bins).
          auto grid = [&](Value bin) -> Value {
            if (ratio > 0)
              return idx(ratio);
            Value g = clampF(math::CeilOp::create(b, loc, bin), 0, 4096);
            return arith::IndexCastOp::create(
                b, loc, b.getIndexType(),
                arith::FPToSIOp::create(b, loc, b.getI64Type(), g));
          };
          Value gridH = grid(binH), gridW = grid(binW);
          Value gridHf = toF64(gridH), gridWf = toF64(gridW);
          Value samples = mul(gridHf, gridWf);
          Value batch = tensor::ExtractOp::create(b, loc, batchIndices,
                                                  ValueRange{r});
          batch = arith::MinSIOp::create(
              b, loc,
              arith::MaxSIOp::create(
                  b, loc, batch,
                  arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0))),
              arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(n - 1)));
          batch = arith::IndexCastOp::create(b, loc, b.getIndexType(), batch);
          Value baseH = add(startH, mul(toF64(ivs[2]), binH));
          Value baseW = add(startW, mul(toF64(ivs[3]), binW));
          Value init = f(isMax ? -std::numeric_limits<double>::infinity() : 0);
          auto rows = scf::ForOp::create(
              b, loc, idx(0), gridH, idx(1), ValueRange{init},
              [&](OpBuilder &b, Location loc, Value iy, ValueRange accY) {
                Value py = add(baseH, div(mul(add(toF64(iy), f(0.5)), binH),
                                          gridHf));
                auto cols = scf::ForOp::create(
                    b, loc, idx(0), gridW, idx(1), ValueRange{accY[0]},
                    [&](OpBuilder &b, Location loc, Value ix, ValueRange acc) {
                      Value px = add(baseW, div(mul(add(toF64(ix), f(0.5)),
                                                    binW),
                                                gridWf));
                      auto cmp = [&](arith::CmpFPredicate p, Value v,
                                     double bound) -> Value {
                        return arith::CmpFOp::create(b, loc, p, v, f(bound));
                      };
                      Value outside = arith::OrIOp::create(
                          b, loc,
                          arith::OrIOp::create(
                              b, loc, cmp(arith::CmpFPredicate::OLT, py, -1.0),
                              cmp(arith::CmpFPredicate::OGT, py, double(h))),
                          arith::OrIOp::create(
                              b, loc, cmp(arith::CmpFPredicate::OLT, px, -1.0),
                              cmp(arith::CmpFPredicate::OGT, px, double(w))));
                      // The corners below and above a clamped position.
                      auto corners = [&](Value p, int64_t size) {
                        Value at = clampF(p, 0, double(size - 1));
                        Value low = arith::FPToSIOp::create(
                            b, loc, b.getI64Type(),
                            math::FloorOp::create(b, loc, at));
                        Value lowIdx = arith::IndexCastOp::create(
                            b, loc, b.getIndexType(), low);
                        Value highIdx = arith::MinSIOp::create(
                            b, loc, arith::AddIOp::create(b, loc, lowIdx, idx(1)),
                            idx(size - 1));
                        Value frac = sub(at, arith::SIToFPOp::create(
                                                 b, loc, f64, low));
                        return std::make_tuple(lowIdx, highIdx, frac);
                      };
                      auto [yLow, yHigh, ly] = corners(py, h);
                      auto [xLow, xHigh, lx] = corners(px, w);
                      Value zero = f(0.0);
                      Value hy = sub(f(1.0), ly), hx = sub(f(1.0), lx);
                      auto weighted = [&](Value wy, Value wx, Value row,
                                          Value col) -> Value {
                        Value v = tensor::ExtractOp::create(
                            b, loc, x, ValueRange{batch, c, row, col});
                        Value weight = arith::SelectOp::create(
                            b, loc, outside, zero, mul(wy, wx));
                        return mul(weight, castScalar(b, loc, v, false, f64, false));
                      };
                      Value terms[4] = {weighted(hy, hx, yLow, xLow),
                                        weighted(hy, lx, yLow, xHigh),
                                        weighted(ly, hx, yHigh, xLow),
                                        weighted(ly, lx, yHigh, xHigh)};
                      Value next;
                      if (isMax) {
                        next = acc[0];
                        for (Value t : terms)
                          next = arith::MaximumFOp::create(b, loc, next, t);
                      } else {
                        next = add(acc[0], add(add(add(terms[0], terms[1]),
                                                   terms[2]),
                                               terms[3]));
                      }
                      scf::YieldOp::create(b, loc, next);
                    });
                scf::YieldOp::create(b, loc, cols.getResult(0));
              });
          Value pooled = rows.getResult(0);
          Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                             samples, f(0.0));
          pooled = isMax ? arith::SelectOp::create(b, loc, none, f(0.0), pooled)
                               .getResult()
                         : div(pooled, arith::MaximumFOp::create(
                                           b, loc, samples, f(1.0)));
          return castScalar(b, loc, pooled, false, elem, false);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};
} // namespace

void tcc::onnx_to_linalg::populateImagePatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<AffineGridPattern, GridSamplePattern, NonMaxSuppressionPattern,
               ResizePattern, RoiAlignPattern>(
      converter, patterns.getContext());
}
