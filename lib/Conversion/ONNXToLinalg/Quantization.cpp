//===- Quantization.cpp - ONNX linear quantization ops to linalg ----------===//
#include "Patterns.h"

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

/// An integer (signless, `isUnsigned` as ONNX says) converted to `floatType`.
static Value intToFloat(OpBuilder &b, Location loc, Value v, Type floatType,
                        bool isUnsigned) {
  if (isUnsigned)
    return arith::UIToFPOp::create(b, loc, floatType, v);
  return arith::SIToFPOp::create(b, loc, floatType, v);
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
    int64_t rank = xType.getRank();
    bool isUns = getElementTypeOrSelf(op.getType()).isUnsignedInteger();
    auto intType = cast<IntegerType>(type->getElementType());
    unsigned width = intType.getWidth();
    double lo = isUns ? 0 : -std::ldexp(1.0, width - 1);
    double hi = isUns ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
    SmallVector<Value> inputs = {
        adaptor.getX(), alongAxis(rewriter, loc, adaptor.getYScale(),
                                  op.getAxis(), rank)};
    bool hasZero = !isa<NoneType>(adaptor.getYZeroPoint().getType());
    if (hasZero)
      inputs.push_back(
          alongAxis(rewriter, loc, adaptor.getYZeroPoint(), op.getAxis(), rank));
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
          q = arith::MaximumFOp::create(b, l, q, constantScalar(b, l, ft, lo));
          q = arith::MinimumFOp::create(b, l, q, constantScalar(b, l, ft, hi));
          if (isUns)
            return arith::FPToUIOp::create(b, l, intType, q);
          return arith::FPToSIOp::create(b, l, intType, q);
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
    int64_t rank = xType.getRank();
    bool isUns = isUnsigned(op.getX());
    SmallVector<Value> inputs = {
        adaptor.getX(), alongAxis(rewriter, loc, adaptor.getXScale(),
                                  op.getAxis(), rank)};
    bool hasZero = !isa<NoneType>(adaptor.getXZeroPoint().getType());
    if (hasZero)
      inputs.push_back(
          alongAxis(rewriter, loc, adaptor.getXZeroPoint(), op.getAxis(), rank));
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
    SmallVector<Value> inputs = {adaptor.getA(), adaptor.getB()};
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
    if ((hasA && failed(zeroMap(adaptor.getAZeroPoint(), m))) ||
        (hasB && failed(zeroMap(adaptor.getBZeroPoint(), n))))
      return op.emitOpError() << "needs ranked zero points";
    maps.push_back(AffineMap::get(3, 0, {m, n}, ctx));
    Value init = createFilled(rewriter, loc, *type, constantScalar(rewriter, loc, i32, 0));
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    auto extend = [&](OpBuilder &b, Location l, Value v, bool uns) -> Value {
      if (uns)
        return arith::ExtUIOp::create(b, l, i32, v);
      return arith::ExtSIOp::create(b, l, i32, v);
    };
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{*type}, inputs, ValueRange{init}, maps,
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value a = extend(b, l, args[0], unsA);
              Value bv = extend(b, l, args[1], unsB);
              unsigned next = 2;
              if (hasA)
                a = arith::SubIOp::create(b, l, a,
                                          extend(b, l, args[next++], unsA));
              if (hasB)
                bv = arith::SubIOp::create(b, l, bv,
                                           extend(b, l, args[next++], unsB));
              Value prod = arith::MulIOp::create(b, l, a, bv);
              linalg::YieldOp::create(
                  b, l, arith::AddIOp::create(b, l, args.back(), prod).getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateQuantizationPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<QuantizeLinearPattern, DequantizeLinearPattern,
               MatMulIntegerPattern>(converter, patterns.getContext());
}
