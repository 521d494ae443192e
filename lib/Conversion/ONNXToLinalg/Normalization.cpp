//===- Normalization.cpp - ONNX normalizations and Softmax-likes to linalg ===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

/// As ONNX's reference:
///   m = max(x)                   (NaN or inf in x: NaN results, as numpy)
///   Softmax    = exp(x - m) / sum(exp(x - m))
///   LogSoftmax = (x - m) - log(sum(exp(x - m)))
///   Hardmax    = one-hot of the first index of m
/// Generics that elementwise fusion merges where it can.
Value tcc::onnx_to_linalg::buildSoftmax(OpBuilder &b, Location loc,
                                        Value input, int64_t axis,
                                        SoftmaxKind kind) {
  auto type = cast<RankedTensorType>(input.getType());
  Type ft = type.getElementType();
  SmallVector<bool> reduced(type.getRank(), false);
  reduced[axis] = true;

  if (kind == SoftmaxKind::Hardmax) {
    Value index = buildArgReduction(b, loc, input, axis, /*isMax=*/true,
                                    /*last=*/false, /*isUnsigned=*/false);
    return buildWithReduced(
        b, loc, input, index, reduced, ft,
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value here = arith::IndexCastOp::create(
              nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
          Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                            here, args[1]);
          return arith::UIToFPOp::create(nb, l, ft, hit);
        });
  }

  Value lowest = extremeScalar(b, loc, ft, false, false);
  Value max = buildReduction(
      b, loc, input, reduced, lowest,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::MaxNumFOp::create(nb, l, args[0], args[1]);
      });
  Value exps = buildWithReduced(
      b, loc, input, max, reduced, ft,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return math::ExpOp::create(
            nb, l, arith::SubFOp::create(nb, l, args[0], args[1]));
      });
  // The sum of 16-bit floats accumulates in f32, rounded once (numpy).
  Type acc = accumulatorType(ft);
  Value sum = buildReduction(
      b, loc, exps, reduced, constantScalar(b, loc, acc, 0),
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value x = args[0];
        if (acc != ft)
          x = arith::ExtFOp::create(nb, l, acc, x);
        return arith::AddFOp::create(nb, l, x, args[1]);
      });
  // Each exp times the reciprocal of its sum, as onnxruntime's MLAS does:
  // the reciprocal is loop-invariant along the axis, so one division per
  // row rather than one per element (within two ulps of the quotient).
  if (kind == SoftmaxKind::Softmax && acc == ft)
    return buildWithReduced(
        b, loc, exps, sum, reduced, ft,
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value reciprocal = arith::DivFOp::create(
              nb, l, constantScalar(nb, l, ft, 1), args[1]);
          return arith::MulFOp::create(nb, l, args[0], reciprocal);
        });
  if (acc != ft)
    sum = buildElementwise(
        b, loc, cast<RankedTensorType>(sum.getType()).clone(ft), {sum},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::TruncFOp::create(nb, l, ft, args[0]);
        });
  // 16-bit floats divide by their rounded sum, as numpy does, which
  // ONNX's reference outputs follow to the last bit.
  if (kind == SoftmaxKind::Softmax)
    return buildWithReduced(
        b, loc, exps, sum, reduced, ft,
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], args[1]);
        });
  return buildWithReduced(
      b, loc, input, ValueRange{max, sum}, reduced, ft,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value shifted = arith::SubFOp::create(nb, l, args[0], args[1]);
        return arith::SubFOp::create(nb, l, shifted,
                                     math::LogOp::create(nb, l, args[2]));
      });
}

namespace {

/// Inference BatchNormalization (not folded into a Conv):
///   y = (x - mean[c]) * (scale[c] / sqrt(var[c] + eps)) + B[c]
struct BatchNormPattern : OpConversionPattern<onnx::BatchNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::BatchNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type->getRank();
    Type elem = type->getElementType();
    double eps = op.getEpsilon().convertToDouble();
    AffineMap channel =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<Value> inputs = {adaptor.getX(), adaptor.getScale(),
                                 adaptor.getB(), adaptor.getInputMean(),
                                 adaptor.getInputVar()};
    for (Value v : inputs)
      if (!isa<RankedTensorType>(v.getType()))
        return rewriter.notifyMatchFailure(op, "unranked operand");
    Value init = createEmptyLike(rewriter, loc, *type, {adaptor.getX()});
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{*type}, inputs, ValueRange{init},
            ArrayRef<AffineMap>{identity, channel, channel, channel, channel,
                                identity},
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value epsV = constantScalar(b, l, elem, eps);
              Value denom = math::SqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, args[4], epsV));
              Value centered = arith::SubFOp::create(b, l, args[0], args[3]);
              Value scaled = arith::MulFOp::create(
                  b, l, centered, arith::DivFOp::create(b, l, args[1], denom));
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, scaled, args[2]).getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Softmax, LogSoftmax and Hardmax along one axis.
template <typename OpTy, SoftmaxKind kind>
struct SoftmaxPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    int64_t rank = type->getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    rewriter.replaceOp(op, buildSoftmax(rewriter, op.getLoc(),
                                        adaptor.getInput(), axis, kind));
    return success();
  }
};

/// The mean of `x` over the `reduced` dims (dims dropped), in x's element
/// type; x has a static shape.
Value meanOver(OpBuilder &b, Location loc, Value x, ArrayRef<bool> reduced) {
  auto type = cast<RankedTensorType>(x.getType());
  Type ft = type.getElementType();
  int64_t count = 1;
  for (auto [dim, isReduced] : llvm::zip_equal(type.getShape(), reduced))
    if (isReduced)
      count *= dim;
  Value sum = buildReduction(
      b, loc, x, reduced, constantScalar(b, loc, ft, 0),
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, l, args[0], args[1]);
      });
  return buildElementwise(
      b, loc, cast<RankedTensorType>(sum.getType()), ValueRange{sum},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, l, args[0],
                                     constantScalar(nb, l, ft, count));
      });
}

/// Mean and (biased) variance of `x` over the `reduced` dims.
std::pair<Value, Value> meanAndVariance(OpBuilder &b, Location loc, Value x,
                                        ArrayRef<bool> reduced) {
  Value mean = meanOver(b, loc, x, reduced);
  Value squares = buildWithReduced(
      b, loc, x, mean, reduced, getElementTypeOrSelf(x.getType()),
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value d = arith::SubFOp::create(nb, l, args[0], args[1]);
        return arith::MulFOp::create(nb, l, d, d);
      });
  return {mean, meanOver(b, loc, squares, reduced)};
}

/// 1/sqrt(v + eps), elementwise.
Value rsqrtPlusEpsilon(OpBuilder &b, Location loc, Value v, double eps) {
  Type ft = getElementTypeOrSelf(v.getType());
  return buildElementwise(
      b, loc, cast<RankedTensorType>(v.getType()), ValueRange{v},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value sum = arith::AddFOp::create(nb, l, args[0],
                                          constantScalar(nb, l, ft, eps));
        return math::RsqrtOp::create(nb, l, sum);
      });
}

/// Mean and 1/sqrt(var + eps) of `x` over the `reduced` dims.
std::pair<Value, Value> meanAndInvStdDev(OpBuilder &b, Location loc, Value x,
                                         ArrayRef<bool> reduced, double eps) {
  auto [mean, var] = meanAndVariance(b, loc, x, reduced);
  return {mean, rsqrtPlusEpsilon(b, loc, var, eps)};
}

/// (x - mean) * invStdDev, the statistics broadcast back over `reduced`.
Value standardize(OpBuilder &b, Location loc, Value x, Value mean,
                  Value invStdDev, ArrayRef<bool> reduced) {
  Type ft = getElementTypeOrSelf(x.getType());
  return buildWithReduced(
      b, loc, x, ValueRange{mean, invStdDev}, reduced, ft,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value d = arith::SubFOp::create(nb, l, args[0], args[1]);
        return arith::MulFOp::create(nb, l, d, args[2]);
      });
}

/// Whether `x` is ranked and static with f32 elements (what the
/// normalizations support today).
LogicalResult checkStaticF32(Operation *op, Value x) {
  auto type = dyn_cast<RankedTensorType>(x.getType());
  if (!type || !type.hasStaticShape())
    return op->emitOpError() << "with a dynamic shape is not supported yet";
  if (!type.getElementType().isF32())
    return op->emitOpError()
           << "of " << type.getElementType() << " is not supported yet";
  return success();
}

/// The dims [axis, rank) of a LayerNormalization or RMSNormalization
/// (`axis` may be negative).
SmallVector<bool> trailingDims(int64_t rank, int64_t axis) {
  SmallVector<bool> reduced(rank, false);
  for (int64_t i = axis < 0 ? axis + rank : axis; i < rank; ++i)
    reduced[i] = true;
  return reduced;
}

/// y * scale (+ bias when given and not `none`), broadcast numpy-style.
Value scaleAndShift(OpBuilder &b, Location loc, Value y, Value scale,
                    Value bias = {}) {
  SmallVector<Value> inputs = {y, scale};
  if (bias && !isa<NoneType>(bias.getType()))
    inputs.push_back(bias);
  return buildElementwise(
      b, loc, cast<RankedTensorType>(y.getType()), inputs,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value r = arith::MulFOp::create(nb, l, args[0], args[1]);
        return args.size() > 2 ? arith::AddFOp::create(nb, l, r, args[2]) : r;
      });
}

/// LayerNormalization: statistics over [axis, rank), then Scale and B
/// broadcast numpy-style; Mean and InvStdDev with unit dims.
struct LayerNormPattern : OpConversionPattern<onnx::LayerNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::LayerNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticF32(op, adaptor.getX())))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(adaptor.getX().getType());
    SmallVector<bool> reduced = trailingDims(type.getRank(), op.getAxis());
    auto [mean, invStdDev] =
        meanAndInvStdDev(rewriter, loc, adaptor.getX(), reduced,
                         op.getEpsilon().convertToDouble());
    Value y =
        standardize(rewriter, loc, adaptor.getX(), mean, invStdDev, reduced);
    y = scaleAndShift(rewriter, loc, y, adaptor.getScale(), adaptor.getB());
    auto statsType = RankedTensorType::get(
        cast<RankedTensorType>(op.getMean().getType()).getShape(),
        type.getElementType());
    rewriter.replaceOp(
        op, {y, expandReducedDims(rewriter, loc, mean, statsType, reduced),
             expandReducedDims(rewriter, loc, invStdDev, statsType, reduced)});
    return success();
  }
};

/// RMSNormalization: x * 1/sqrt(mean(x^2) + eps) over [axis, rank), then
/// scale broadcast numpy-style.
struct RMSNormPattern : OpConversionPattern<onnx::RMSNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::RMSNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    if (failed(checkStaticF32(op, x)) ||
        failed(checkStaticF32(op, adaptor.getScale())))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(x.getType());
    Type ft = type.getElementType();
    SmallVector<bool> reduced = trailingDims(type.getRank(), op.getAxis());
    Value squares = buildElementwise(
        rewriter, loc, type, ValueRange{x},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::MulFOp::create(b, l, args[0], args[0]);
        });
    Value invRms =
        rsqrtPlusEpsilon(rewriter, loc, meanOver(rewriter, loc, squares, reduced),
                         op.getEpsilon().convertToDouble());
    Value y = buildWithReduced(
        rewriter, loc, x, invRms, reduced, ft,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::MulFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, scaleAndShift(rewriter, loc, y, adaptor.getScale()));
    return success();
  }
};

/// InstanceNormalization: statistics over the spatial dims, then
/// scale[c] * . + B[c].
struct InstanceNormPattern
    : OpConversionPattern<onnx::InstanceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::InstanceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticF32(op, adaptor.getInput())))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t rank = type.getRank();
    SmallVector<bool> reduced(rank, true);
    reduced[0] = reduced[1] = false;
    auto [mean, invStdDev] =
        meanAndInvStdDev(rewriter, loc, adaptor.getInput(), reduced,
                         op.getEpsilon().convertToDouble());
    // The per-channel scale and B read through (n, c) -> (c).
    AffineMap channel =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    AffineMap kept = AffineMap::get(
        rank, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value empty = createEmptyLike(rewriter, loc, type, {adaptor.getInput()});
    Value y = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{type},
                  ValueRange{adaptor.getInput(), mean, invStdDev,
                             adaptor.getScale(), adaptor.getB()},
                  ValueRange{empty},
                  ArrayRef<AffineMap>{identity, kept, kept, channel, channel,
                                      identity},
                  parallel,
                  [&](OpBuilder &b, Location l, ValueRange args) {
                    Value d = arith::SubFOp::create(b, l, args[0], args[1]);
                    Value n = arith::MulFOp::create(b, l, d, args[2]);
                    Value r = arith::AddFOp::create(
                        b, l, arith::MulFOp::create(b, l, n, args[3]), args[4]);
                    linalg::YieldOp::create(b, l, r);
                  })
                  .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// GroupNormalization: X reshaped to (N, G, C/G * spatial), standardized
/// over dim 2, reshaped back, then scale[c] * . + bias[c].
struct GroupNormPattern : OpConversionPattern<onnx::GroupNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GroupNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    if (failed(checkStaticF32(op, x)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    int64_t n = type.getDimSize(0), groups = op.getNumGroups();
    int64_t perGroup = type.getNumElements() / n / groups;
    // (N, C, D...) -> (N*C*D...) -> (N, G, C/G*D...) and back.
    SmallVector<ReassociationIndices> all(1);
    for (int64_t i = 0; i < rank; ++i)
      all[0].push_back(i);
    auto flatType =
        RankedTensorType::get({type.getNumElements()}, type.getElementType());
    auto groupedType =
        RankedTensorType::get({n, groups, perGroup}, type.getElementType());
    Value flat =
        tensor::CollapseShapeOp::create(rewriter, loc, flatType, x, all);
    Value grouped = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedType, flat,
        SmallVector<ReassociationIndices>{{0, 1, 2}});
    SmallVector<bool> reduced = {false, false, true};
    auto [mean, invStdDev] = meanAndInvStdDev(
        rewriter, loc, grouped, reduced, op.getEpsilon().convertToDouble());
    Value y = standardize(rewriter, loc, grouped, mean, invStdDev, reduced);
    y = tensor::CollapseShapeOp::create(
        rewriter, loc, flatType, y,
        SmallVector<ReassociationIndices>{{0, 1, 2}});
    y = tensor::ExpandShapeOp::create(rewriter, loc, type, y, all);
    AffineMap channel =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value empty = createEmptyLike(rewriter, loc, type, {x});
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type},
            ValueRange{y, adaptor.getScale(), adaptor.getBias()},
            ValueRange{empty},
            ArrayRef<AffineMap>{identity, channel, channel, identity}, parallel,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value r = arith::AddFOp::create(
                  b, l, arith::MulFOp::create(b, l, args[0], args[1]), args[2]);
              linalg::YieldOp::create(b, l, r);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// MeanVarianceNormalization, as ONNX's function body:
///   (X - mean) / (sqrt(var) + 1e-9)
struct MVNPattern : OpConversionPattern<onnx::MeanVarianceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::MeanVarianceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    if (failed(checkStaticF32(op, x)))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<bool> reduced(type.getRank(), false);
    for (int64_t axis : op.getAxes())
      reduced[axis < 0 ? axis + type.getRank() : axis] = true;
    auto [mean, var] = meanAndVariance(rewriter, loc, x, reduced);
    Type ft = type.getElementType();
    rewriter.replaceOp(
        op, buildWithReduced(
                rewriter, loc, x, ValueRange{mean, var}, reduced, ft,
                [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                  Value d = arith::SubFOp::create(b, l, args[0], args[1]);
                  Value sd = arith::AddFOp::create(
                      b, l, math::SqrtOp::create(b, l, args[2]),
                      constantScalar(b, l, ft, 1e-9));
                  return arith::DivFOp::create(b, l, d, sd);
                }));
    return success();
  }
};

/// LRN: y = x / (bias + alpha / size * sum of x^2 over the channel window
/// [c - (size-1)/2, c + ceil((size-1)/2)])^beta. The squares are padded
/// with zeros along C and summed by a generic with the window as an extra
/// reduction dim (input map d1 + dk).
struct LRNPattern : OpConversionPattern<onnx::LRNOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::LRNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    if (failed(checkStaticF32(op, x)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(x.getType());
    Type ft = type.getElementType();
    int64_t rank = type.getRank(), size = op.getSize();
    int64_t before = (size - 1) / 2, after = size - 1 - before;
    Value squares = buildElementwise(
        rewriter, loc, type, ValueRange{x},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::MulFOp::create(b, l, args[0], args[0]);
        });
    SmallVector<int64_t> low(rank - 1, 0), high(rank - 1, 0);
    low[0] = before;
    high[0] = after;
    Value padded = padTrailing(rewriter, loc, squares, low, high,
                               constantScalar(rewriter, loc, ft, 0));
    // Iteration space: the rank dims of x, then the window offset k.
    SmallVector<AffineExpr> readExprs;
    for (int64_t i = 0; i < rank; ++i)
      readExprs.push_back(getAffineDimExpr(i, ctx));
    readExprs[1] = readExprs[1] + getAffineDimExpr(rank, ctx);
    AffineMap read = AffineMap::get(rank + 1, 0, readExprs, ctx);
    AffineMap window =
        AffineMap::get(rank + 1, 0, {getAffineDimExpr(rank, ctx)}, ctx);
    AffineMap out =
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value windowShape =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{size}, ft);
    Value init =
        createFilled(rewriter, loc, type, constantScalar(rewriter, loc, ft, 0));
    Value sums =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{padded, windowShape},
            ValueRange{init}, ArrayRef<AffineMap>{read, window, out}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, args[0], args[2]).getResult());
            })
            .getResult(0);
    double alpha = op.getAlpha().convertToDouble() / size;
    double beta = op.getBeta().convertToDouble();
    double bias = op.getBias().convertToDouble();
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, loc, type, ValueRange{x, sums},
                [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                  Value scaled = arith::MulFOp::create(
                      b, l, args[1], constantScalar(b, l, ft, alpha));
                  Value base = arith::AddFOp::create(
                      b, l, scaled, constantScalar(b, l, ft, bias));
                  Value denom = math::PowFOp::create(
                      b, l, base, constantScalar(b, l, ft, beta));
                  return arith::DivFOp::create(b, l, args[0], denom);
                }));
    return success();
  }
};

} // namespace

/// LpNormalization: x / (sum |x|^p)^(1/p) along the axis, p = 1 or 2;
/// 0 where the norm is 0.
struct LpNormPattern : OpConversionPattern<onnx::LpNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::LpNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Location loc = op.getLoc();
    int64_t rank = type->getRank();
    SmallVector<bool> reduced(rank, false);
    reduced[op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis()] = true;
    Type ft = type->getElementType();
    bool l1 = op.getP() == 1;
    Value sum = buildReduction(
        rewriter, loc, adaptor.getInput(), reduced,
        constantScalar(rewriter, loc, ft, 0),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value term = l1 ? math::AbsFOp::create(b, l, args[0]).getResult()
                          : arith::MulFOp::create(b, l, args[0], args[0])
                                .getResult();
          return arith::AddFOp::create(b, l, args[1], term);
        });
    rewriter.replaceOp(
        op, buildWithReduced(
                rewriter, loc, adaptor.getInput(), sum, reduced, ft,
                [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                  Value norm = l1 ? args[1]
                                  : math::SqrtOp::create(b, l, args[1])
                                        .getResult();
                  // A zero norm gives 0, not 0/0 (ONNX's reference).
                  Value zero = constantScalar(b, l, ft, 0);
                  Value isZero = arith::CmpFOp::create(
                      b, l, arith::CmpFPredicate::OEQ, norm, zero);
                  return arith::SelectOp::create(
                      b, l, isZero, zero,
                      arith::DivFOp::create(b, l, args[0], norm));
                }));
    return success();
  }
};

void tcc::onnx_to_linalg::populateNormalizationPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BatchNormPattern, GroupNormPattern, InstanceNormPattern,
               LayerNormPattern, LpNormPattern, LRNPattern, MVNPattern,
               RMSNormPattern,
               SoftmaxPattern<onnx::SoftmaxOp, SoftmaxKind::Softmax>,
               SoftmaxPattern<onnx::LogSoftmaxOp, SoftmaxKind::LogSoftmax>,
               SoftmaxPattern<onnx::HardmaxOp, SoftmaxKind::Hardmax>>(
      converter, patterns.getContext());
}
