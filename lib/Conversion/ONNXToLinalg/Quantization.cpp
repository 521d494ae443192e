//===- Quantization.cpp - ONNX linear quantization ops to linalg ----------===//
#include "Patterns.h"
#include "dialects/ONNX/OpUtils.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// A per-axis scale or zero point [C] reshaped to [C, 1, ...] so that it
/// broadcasts along `axis` of a rank-`rank` tensor; scalars stay as they are.
static Value alongAxis(OpBuilder &b, Location loc, Value param, int64_t axis,
                       int64_t rank) {
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getRank() == 0 || type.getDimSize(0) == 1)
    return param;
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape = {type.getDimSize(0)};
  shape.append(rank - axis - 1, 1);
  if (shape.size() == 1)
    return param;
  SmallVector<ReassociationIndices> reassoc(1);
  for (size_t i = 0; i < shape.size(); ++i)
    reassoc[0].push_back(i);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), param,
      reassoc);
}

/// A blocked scale or zero point (x's shape, ceil(size / blockSize) along
/// `axis`) repeated blockSize times along `axis` to x's shape.
static Value repeatBlocks(OpBuilder &b, Location loc, Value param, int64_t axis,
                          int64_t blockSize, Value x) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto type = xType.clone(getElementTypeOrSelf(param));
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    exprs.push_back(i == axis ? getAffineDimExpr(i, ctx).floorDiv(blockSize)
                              : getAffineDimExpr(i, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{param},
             ValueRange{createEmptyLike(b, loc, type, {x})},
             ArrayRef<AffineMap>{AffineMap::get(rank, 0, exprs, ctx),
                                 b.getMultiDimIdentityMap(rank)},
             iterators,
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// A QuantizeLinear/DequantizeLinear scale or zero point made to broadcast
/// numpy-style to `x`: per-axis ones along `axis`, blocked ones repeated.
static Value quantParam(OpBuilder &b, Location loc, Value param, int64_t axis,
                        int64_t blockSize, Value x) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (blockSize > 0)
    return repeatBlocks(b, loc, param, axis < 0 ? axis + rank : axis, blockSize,
                        x);
  return alongAxis(b, loc, param, axis, rank);
}

/// An integer (signless, `isUnsigned` as ONNX says) converted to `floatType`.
static Value intToFloat(OpBuilder &b, Location loc, Value v, Type floatType,
                        bool isUnsigned) {
  if (isUnsigned)
    return arith::UIToFPOp::create(b, loc, floatType, v);
  return arith::SIToFPOp::create(b, loc, floatType, v);
}

/// Float `q`, already rounded, clamped to the range of `to` (unsigned when
/// `isUns`, as ONNX says) and converted to it: ONNX's saturation.
static Value saturateToInt(OpBuilder &b, Location l, Value q, IntegerType to,
                           bool isUns) {
  Type ft = q.getType();
  unsigned width = to.getWidth();
  double lo = isUns ? 0 : -std::ldexp(1.0, width - 1);
  double hi =
      isUns ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
  q = arith::MaximumFOp::create(b, l, q, constantScalar(b, l, ft, lo));
  q = arith::MinimumFOp::create(b, l, q, constantScalar(b, l, ft, hi));
  if (isUns)
    return arith::FPToUIOp::create(b, l, to, q);
  return arith::FPToSIOp::create(b, l, to, q);
}

/// An integer scalar widened to i32 (zero-extended when `isUns`).
static Value extendToI32(OpBuilder &b, Location l, Value v, bool isUns) {
  Type i32 = b.getI32Type();
  if (v.getType() == i32)
    return v;
  if (isUns)
    return arith::ExtUIOp::create(b, l, i32, v);
  return arith::ExtSIOp::create(b, l, i32, v);
}

/// The integer tensor `v` widened to i32, less `zeroPoint` (none: nothing),
/// which broadcasts to it numpy-style.
static Value widenShifted(OpBuilder &b, Location loc, Value v, Value zeroPoint,
                          bool isUns) {
  auto type = cast<RankedTensorType>(v.getType()).clone(b.getI32Type());
  SmallVector<Value> inputs = {v};
  bool hasZero = !isa<NoneType>(zeroPoint.getType());
  if (hasZero)
    inputs.push_back(zeroPoint);
  return buildElementwise(b, loc, type, inputs,
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            Value x = extendToI32(nb, l, args[0], isUns);
                            if (hasZero)
                              x = arith::SubIOp::create(
                                  nb, l, x, extendToI32(nb, l, args[1], isUns));
                            return x;
                          });
}

/// The requantization of QLinearMatMul and QLinearConv, as ONNX's reference
/// computes it: the multiplier inScale * wScale / yScale in the scales' type,
/// then round_half_even(acc * multiplier + yZeroPoint) in f64, saturated to
/// `type`. The scales and zero point broadcast to `type` numpy-style.
static Value requantize(OpBuilder &b, Location loc, RankedTensorType type,
                        Value acc, Value inScale, Value wScale, Value yScale,
                        Value yZeroPoint, bool isUns) {
  SmallVector<Value> inputs = {acc, inScale, wScale, yScale};
  bool hasZero = !isa<NoneType>(yZeroPoint.getType());
  if (hasZero)
    inputs.push_back(yZeroPoint);
  auto intType = cast<IntegerType>(type.getElementType());
  return buildElementwise(
      b, loc, type, inputs, [&](OpBuilder &nb, Location l, ValueRange args) {
        Type st = args[1].getType(), f64 = nb.getF64Type();
        auto toScaleType = [&](Value v) {
          return castScalar(nb, l, v, false, st, false);
        };
        Value multiplier = arith::DivFOp::create(
            nb, l, arith::MulFOp::create(nb, l, args[1], toScaleType(args[2])),
            toScaleType(args[3]));
        Value r = arith::MulFOp::create(
            nb, l, arith::SIToFPOp::create(nb, l, f64, args[0]),
            castScalar(nb, l, multiplier, false, f64, false));
        if (hasZero)
          r = arith::AddFOp::create(nb, l, r,
                                    intToFloat(nb, l, args[4], f64, isUns));
        return saturateToInt(nb, l, math::RoundEvenOp::create(nb, l, r),
                             intType, isUns);
      });
}

struct QuantizeLinearPattern : OpConversionPattern<onnx::QuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::QuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (failed(type) || !xType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    if (!isa<FloatType>(xType.getElementType()))
      return op.emitOpError() << "of a non-float input is not supported";
    Location loc = op.getLoc();
    bool isUns = getElementTypeOrSelf(op.getType()).isUnsignedInteger();
    auto intType = cast<IntegerType>(type->getElementType());
    auto param = [&](Value v) {
      return quantParam(rewriter, loc, v, op.getAxis(), op.getBlockSize(),
                        adaptor.getX());
    };
    SmallVector<Value> inputs = {adaptor.getX(), param(adaptor.getYScale())};
    bool hasZero = !isa<NoneType>(adaptor.getYZeroPoint().getType());
    if (hasZero)
      inputs.push_back(param(adaptor.getYZeroPoint()));
    Value result = buildElementwise(
        rewriter, loc, *type, inputs,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Type ft = args[0].getType();
          Value scale = args[1];
          if (scale.getType() != ft)
            scale = arith::ExtFOp::create(b, l, ft, scale);
          Value q = math::RoundEvenOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], scale));
          if (hasZero)
            q = arith::AddFOp::create(b, l, q,
                                      intToFloat(b, l, args[2], ft, isUns));
          return saturateToInt(b, l, q, intType, isUns);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizeLinearPattern : OpConversionPattern<onnx::DequantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::DequantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (failed(type) || !xType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    Location loc = op.getLoc();
    bool isUns = isUnsigned(op.getX());
    auto param = [&](Value v) {
      return quantParam(rewriter, loc, v, op.getAxis(), op.getBlockSize(),
                        adaptor.getX());
    };
    SmallVector<Value> inputs = {adaptor.getX(), param(adaptor.getXScale())};
    bool hasZero = !isa<NoneType>(adaptor.getXZeroPoint().getType());
    if (hasZero)
      inputs.push_back(param(adaptor.getXZeroPoint()));
    Value result = buildElementwise(
        rewriter, loc, *type, inputs,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Type ft = args[1].getType();
          // In f32 even for f16 scales, as ONNX's reference does.
          Type compute = b.getF32Type();
          Value x = intToFloat(b, l, args[0], compute, isUns);
          if (hasZero)
            x = arith::SubFOp::create(b, l, x,
                                      intToFloat(b, l, args[2], compute, isUns));
          Value scale = ft == compute ? args[1]
                                      : (Value)arith::ExtFOp::create(b, l, compute,
                                                                     args[1]);
          Value y = arith::MulFOp::create(b, l, x, scale);
          if (ft != compute)
            y = arith::TruncFOp::create(b, l, ft, y);
          return y;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// MatMulInteger: an i32 contraction of the zero-point-shifted operands; a
/// zero point is a scalar, per row of A ([M]) or per column of B ([N]).
struct MatMulIntegerPattern : OpConversionPattern<onnx::MatMulIntegerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::MatMulIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type) || !type->hasStaticShape())
      return op.emitOpError() << "needs static shapes";
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type i32 = rewriter.getI32Type();
    AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
               k = getAffineDimExpr(2, ctx);
    // An a of rank > 2 (a batch of rows, as quantize_dynamic's [batch, seq,
    // hidden] activations) is one matrix of all its rows.
    Value aMatrix = adaptor.getA();
    RankedTensorType outType = *type;
    auto aType = dyn_cast<RankedTensorType>(aMatrix.getType());
    if (!aType || !aType.hasStaticShape())
      return op.emitOpError() << "needs static shapes";
    SmallVector<ReassociationIndices> rows;
    if (aType.getRank() > 2) {
      rows.push_back({});
      for (int64_t d = 0; d + 1 < aType.getRank(); ++d)
        rows.back().push_back(d);
      rows.push_back({aType.getRank() - 1});
      aMatrix = tensor::CollapseShapeOp::create(rewriter, loc, aMatrix, rows);
      int64_t numRows = aType.getNumElements() / aType.getShape().back();
      outType = RankedTensorType::get({numRows, type->getShape().back()}, i32);
    }
    SmallVector<Value> inputs = {aMatrix, adaptor.getB()};
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, ctx),
                                   AffineMap::get(3, 0, {k, n}, ctx)};
    bool unsA = isUnsigned(op.getA()), unsB = isUnsigned(op.getB());
    auto zeroMap = [&](Value zp, AffineExpr perDim) -> LogicalResult {
      auto zpType = dyn_cast<RankedTensorType>(zp.getType());
      if (!zpType)
        return failure();
      if (zpType.getNumElements() == 1) {
        SmallVector<AffineExpr> zeros(zpType.getRank(),
                                      getAffineConstantExpr(0, ctx));
        maps.push_back(AffineMap::get(3, 0, zeros, ctx));
      } else {
        maps.push_back(AffineMap::get(3, 0, {perDim}, ctx));
      }
      inputs.push_back(zp);
      return success();
    };
    bool hasA = !isa<NoneType>(adaptor.getAZeroPoint().getType());
    bool hasB = !isa<NoneType>(adaptor.getBZeroPoint().getType());
    // b's zero point a constant 0 (symmetric weights, as quantize_dynamic
    // writes them): none.
    if (hasB) {
      DenseIntElementsAttr bZero;
      if (matchPattern(adaptor.getBZeroPoint(), m_Constant(&bZero)) &&
          llvm::all_of(bZero.getValues<APInt>(),
                       [](const APInt &v) { return v.isZero(); }))
        hasB = false;
    }
    // With a per-tensor a zero point za and none for b, the contraction
    // sums the plain products (an 8-bit dot product the CPU kernels run on
    // VNNI) and za * sum_k b[k, n] is subtracted after it.
    Value aZero;
    if (hasA && !hasB &&
        cast<RankedTensorType>(adaptor.getAZeroPoint().getType())
                .getNumElements() == 1) {
      aZero = adaptor.getAZeroPoint();
      hasA = false;
    }
    if ((hasA && failed(zeroMap(adaptor.getAZeroPoint(), m))) ||
        (hasB && failed(zeroMap(adaptor.getBZeroPoint(), n))))
      return op.emitOpError() << "needs ranked zero points";
    maps.push_back(AffineMap::get(3, 0, {m, n}, ctx));
    Value init = createFilled(rewriter, loc, outType,
                              constantScalar(rewriter, loc, i32, 0));
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{outType}, inputs, ValueRange{init}, maps,
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value a = extendToI32(b, l, args[0], unsA);
              Value bv = extendToI32(b, l, args[1], unsB);
              unsigned next = 2;
              if (hasA)
                a = arith::SubIOp::create(
                    b, l, a, extendToI32(b, l, args[next++], unsA));
              if (hasB)
                bv = arith::SubIOp::create(
                    b, l, bv, extendToI32(b, l, args[next++], unsB));
              Value prod = arith::MulIOp::create(b, l, a, bv);
              linalg::YieldOp::create(
                  b, l, arith::AddIOp::create(b, l, args.back(), prod).getResult());
            })
            .getResult(0);
    if (aZero) {
      // sum_k b[k, n] (loops n, k), then result - za * that.
      int64_t numCols = outType.getShape().back();
      auto colsType = RankedTensorType::get({numCols}, i32);
      Value cols = createFilled(rewriter, loc, colsType,
                                constantScalar(rewriter, loc, i32, 0));
      AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
      cols =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{colsType}, ValueRange{adaptor.getB()},
              ValueRange{cols},
              SmallVector<AffineMap>{AffineMap::get(2, 0, {d1, d0}, ctx),
                                     AffineMap::get(2, 0, {d0}, ctx)},
              SmallVector<utils::IteratorType>{utils::IteratorType::parallel,
                                               utils::IteratorType::reduction},
              [&](OpBuilder &b, Location l, ValueRange args) {
                linalg::YieldOp::create(
                    b, l,
                    arith::AddIOp::create(b, l, args[1],
                                          extendToI32(b, l, args[0], unsB))
                        .getResult());
              })
              .getResult(0);
      result = buildElementwise(
          rewriter, loc, outType, {result, cols, aZero},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value shift = arith::MulIOp::create(
                b, l, extendToI32(b, l, args[2], unsA), args[1]);
            return arith::SubIOp::create(b, l, args[0], shift);
          });
    }
    if (!rows.empty())
      result =
          tensor::ExpandShapeOp::create(rewriter, loc, *type, result, rows);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// QLinearMatMul: MatMul of the zero-point-shifted operands widened to i32,
/// then requantized.
struct QLinearMatMulPattern : OpConversionPattern<onnx::QLinearMatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::QLinearMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type) || !isa<RankedTensorType>(adaptor.getA().getType()) ||
        !isa<RankedTensorType>(adaptor.getB().getType()))
      return rewriter.notifyMatchFailure(op, "unranked operands");
    Location loc = op.getLoc();
    Value a = widenShifted(rewriter, loc, adaptor.getA(),
                           adaptor.getAZeroPoint(), isUnsigned(op.getA()));
    Value b = widenShifted(rewriter, loc, adaptor.getB(),
                           adaptor.getBZeroPoint(), isUnsigned(op.getB()));
    Value acc =
        buildMatMul(rewriter, loc, a, b, type->clone(rewriter.getI32Type()));
    rewriter.replaceOp(
        op, requantize(rewriter, loc, *type, acc, adaptor.getAScale(),
                       adaptor.getBScale(), adaptor.getYScale(),
                       adaptor.getYZeroPoint(), isUnsigned(op.getY())));
    return success();
  }
};

/// The i32 convolution of ConvInteger and QLinearConv: Conv of the
/// zero-point-shifted operands (w_zero_point per tensor or per output
/// channel), so that padding reads x_zero_point.
template <typename Op, typename Adaptor>
static FailureOr<Value> buildConvInteger(ConversionPatternRewriter &rewriter,
                                         Op op, Adaptor adaptor, Value bias) {
  auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
  auto wType = dyn_cast<RankedTensorType>(adaptor.getW().getType());
  auto outType = dyn_cast<RankedTensorType>(op.getType());
  if (!xType || !wType || !outType)
    return rewriter.notifyMatchFailure(op, "unranked operands");
  Location loc = op.getLoc();
  Value x = widenShifted(rewriter, loc, adaptor.getX(), adaptor.getXZeroPoint(),
                         isUnsigned(op.getX()));
  Value wZero = adaptor.getWZeroPoint();
  if (!isa<NoneType>(wZero.getType()))
    wZero = alongAxis(rewriter, loc, wZero, 0, wType.getRank());
  Value w =
      widenShifted(rewriter, loc, adaptor.getW(), wZero, isUnsigned(op.getW()));
  return buildConv(rewriter, op, x, w, bias,
                   outType.clone(rewriter.getI32Type()),
                   ConvAttributes::of(op));
}

struct ConvIntegerPattern : OpConversionPattern<onnx::ConvIntegerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConvIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> conv = buildConvInteger(rewriter, op, adaptor, Value());
    if (failed(conv))
      return failure();
    rewriter.replaceOp(op, *conv);
    return success();
  }
};

/// NhwcConvInteger: a linalg.generic summing extui(x) * extsi(w) into i32
/// with linalg.conv_2d_nhwc_fhwc's maps, which the CPU kernels run on
/// VNNI's 8-bit dot products (vpdpbusd). The products are of x itself, not
/// of x - zx: x is padded by zx, so that a tap in the padding adds zx * w
/// like one inside, and the sum starts from -zx * sum(w[m]) (folded when zx
/// is a constant). x's channels are padded to a multiple of 4 (a dot
/// product's quad), against zero weights; the weights are moved to [M, kH,
/// kW, C4] at compile time.
struct NhwcConvIntegerPattern : OpConversionPattern<onnx::NhwcConvIntegerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::NhwcConvIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    auto inType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(op.getW().getType());
    constexpr int64_t kMaxWeights = int64_t(1) << 32;
    std::optional<SmallVector<int64_t>> weights =
        onnx::getIntValues(onnx::detail::constantAttr(op.getW()), kMaxWeights);
    if (failed(type) || !type->hasStaticShape() || !inType ||
        !inType.hasStaticShape() || !wType || !wType.hasStaticShape() ||
        !weights)
      return op.emitOpError()
             << "is supported only with static shapes and constant weights";
    ArrayRef<int64_t> in = inType.getShape(), w = wType.getShape();
    FailureOr<onnx::WindowGeometry> g =
        onnx::resolveWindow(op, onnx::nchwShape(in, /*channelsLast=*/true),
                            w.drop_front(2), op.getAutoPad(), op.getPads(),
                            op.getStrides(), op.getDilations(), false);
    if (failed(g))
      return failure();
    int64_t filters = w[0], channels = w[1], taps = w[2] * w[3];
    int64_t quads = llvm::alignTo(channels, 4);
    SmallVector<int8_t> moved(filters * taps * quads, 0);
    SmallVector<int64_t> sums(filters, 0);
    for (int64_t m = 0; m < filters; ++m)
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t t = 0; t < taps; ++t) {
          int64_t v = (*weights)[(m * channels + c) * taps + t];
          moved[(m * taps + t) * quads + c] = (int8_t)v;
          sums[m] += v;
        }
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    auto movedType = RankedTensorType::get({filters, w[2], w[3], quads}, i8);
    Value filter = arith::ConstantOp::create(
        rewriter, loc, movedType,
        DenseResourceElementsAttr::get(
            movedType, "nhwc_weight_i8",
            HeapAsmResourceBlob::allocateAndCopyInferAlign(
                ArrayRef<int8_t>(moved))));

    // zx: none (0), a constant, or a value of the run.
    Value zero = adaptor.getXZeroPoint();
    std::optional<int64_t> constZero = 0;
    if (!isa<NoneType>(zero.getType())) {
      std::optional<SmallVector<int64_t>> values =
          onnx::getIntValues(onnx::detail::constantAttr(op.getXZeroPoint()));
      constZero = values && values->size() == 1
                      ? std::optional<int64_t>((*values)[0])
                      : std::nullopt;
    }
    Value padValue;
    if (constZero) {
      padValue = constantScalar(rewriter, loc, i8, *constZero);
    } else {
      auto zeroType = cast<RankedTensorType>(zero.getType());
      SmallVector<Value> indices(
          zeroType.getRank(), arith::ConstantIndexOp::create(rewriter, loc, 0));
      padValue = tensor::ExtractOp::create(rewriter, loc, zero, indices);
    }
    SmallVector<int64_t> padsBegin(g->padsBegin), padsEnd(g->padsEnd);
    padsBegin.push_back(0);
    padsEnd.push_back(quads - channels);
    Value input = padTrailing(rewriter, loc, adaptor.getX(), padsBegin, padsEnd,
                              padValue);

    // The sum starts from -zx * sum(w[m]).
    auto channelType = RankedTensorType::get({filters}, i32);
    SmallVector<int32_t> start(filters);
    for (int64_t m = 0; m < filters; ++m)
      start[m] = (int32_t)(-(constZero ? *constZero : 1) * sums[m]);
    Value startValues = arith::ConstantOp::create(
        rewriter, loc, channelType,
        DenseElementsAttr::get(channelType, ArrayRef<int32_t>(start)));
    SmallVector<Value> startInputs = {startValues};
    if (!constZero)
      startInputs.push_back(zero);
    Value init = buildElementwise(
        rewriter, loc, *type, startInputs,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (constZero)
            return args[0];
          return arith::MulIOp::create(b, l, args[0],
                                       extendToI32(b, l, args[1], true));
        });

    // Loops (n, oh, ow, m, kh, kw, c), as linalg.conv_2d_nhwc_fhwc's.
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineMap> maps = {
        AffineMap::get(7, 0,
                       {d(0), d(1) * g->strides[0] + d(4) * g->dilations[0],
                        d(2) * g->strides[1] + d(5) * g->dilations[1], d(6)},
                       ctx),
        AffineMap::get(7, 0, {d(3), d(4), d(5), d(6)}, ctx),
        AffineMap::get(7, 0, {d(0), d(1), d(2), d(3)}, ctx)};
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(3, utils::IteratorType::reduction);
    Value conv =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{*type}, ValueRange{input, filter},
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value prod =
                  arith::MulIOp::create(b, l, extendToI32(b, l, args[0], true),
                                        extendToI32(b, l, args[1], false));
              linalg::YieldOp::create(
                  b, l, arith::AddIOp::create(b, l, args[2], prod).getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, conv);
    return success();
  }
};

/// QLinearConv: ConvInteger plus the bias, requantized with w_scale per
/// tensor or per output channel.
struct QLinearConvPattern : OpConversionPattern<onnx::QLinearConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::QLinearConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    FailureOr<Value> acc =
        buildConvInteger(rewriter, op, adaptor, adaptor.getB());
    if (failed(acc))
      return failure();
    Location loc = op.getLoc();
    Value wScale =
        alongAxis(rewriter, loc, adaptor.getWScale(), 1, type->getRank());
    rewriter.replaceOp(
        op, requantize(rewriter, loc, *type, *acc, adaptor.getXScale(), wScale,
                       adaptor.getYScale(), adaptor.getYZeroPoint(),
                       isUnsigned(op.getY())));
    return success();
  }
};

/// DynamicQuantizeLinear, in f32 as ONNX's reference: the range of x
/// extended to 0 (two reductions starting at 0), the scale and zero point
/// from it as 0-d tensors, then x quantized with them.
struct DynamicQuantizeLinearPattern
    : OpConversionPattern<onnx::DynamicQuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (!xType)
      return rewriter.notifyMatchFailure(op, "unranked operand");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    IntegerType u8 = rewriter.getIntegerType(8); // ONNX uint8, signless here
    auto scalarF32 = RankedTensorType::get({}, f32);
    SmallVector<bool> all(xType.getRank(), true);
    Value zero = constantScalar(rewriter, loc, f32, 0);
    Value maxT = buildReduction(
        rewriter, loc, adaptor.getX(), all, zero,
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::MaximumFOp::create(b, l, args[0], args[1]);
        });
    Value minT = buildReduction(
        rewriter, loc, adaptor.getX(), all, zero,
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::MinimumFOp::create(b, l, args[0], args[1]);
        });
    Value scale = buildElementwise(
        rewriter, loc, scalarF32, {maxT, minT},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value same = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                             args[0], args[1]);
          Value range = arith::SelectOp::create(
              b, l, same, constantScalar(b, l, f32, 1),
              arith::SubFOp::create(b, l, args[0], args[1]));
          return arith::DivFOp::create(b, l, range,
                                       constantScalar(b, l, f32, 255));
        });
    Value zeroPoint = buildElementwise(
        rewriter, loc, scalarF32, {minT, scale},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value zp = arith::NegFOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], args[1]));
          zp =
              arith::MaximumFOp::create(b, l, zp, constantScalar(b, l, f32, 0));
          zp = arith::MinimumFOp::create(b, l, zp,
                                         constantScalar(b, l, f32, 255));
          return math::RoundEvenOp::create(b, l, zp);
        });
    Value y = buildElementwise(
        rewriter, loc, xType.clone(u8), {adaptor.getX(), scale, zeroPoint},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value q = math::RoundEvenOp::create(
              b, l, arith::DivFOp::create(b, l, args[0], args[1]));
          q = arith::AddFOp::create(b, l, q, args[2]);
          return saturateToInt(b, l, q, u8, /*isUns=*/true);
        });
    Value zeroPointU8 = buildElementwise(
        rewriter, loc, RankedTensorType::get({}, u8), {zeroPoint},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::FPToUIOp::create(b, l, u8, args[0]);
        });
    rewriter.replaceOp(op, ValueRange{y, scale, zeroPointU8});
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateQuantizationPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<QuantizeLinearPattern, DequantizeLinearPattern, MatMulIntegerPattern,
           QLinearMatMulPattern, ConvIntegerPattern, QLinearConvPattern,
           NhwcConvIntegerPattern, DynamicQuantizeLinearPattern>(
          converter, patterns.getContext());
}
