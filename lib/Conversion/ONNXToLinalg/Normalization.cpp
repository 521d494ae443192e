//===- Normalization.cpp - ONNX BatchNormalization and Softmax to linalg --===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

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
    AffineMap channel = AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
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
                  b, l, centered,
                  arith::DivFOp::create(b, l, args[1], denom));
              linalg::YieldOp::create(
                  b, l, arith::AddFOp::create(b, l, scaled, args[2]).getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Softmax along one axis: max, exp(x - max), sum, divide. Four generics
/// that elementwise fusion merges where it can.
struct SoftmaxPattern : OpConversionPattern<onnx::SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type->getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    auto ft = cast<FloatType>(type->getElementType());
    Value input = adaptor.getInput();

    // Reduced shape: the axis dropped.
    SmallVector<int64_t> reducedShape;
    SmallVector<OpFoldResult> reducedSizes;
    SmallVector<AffineExpr> reducedExprs;
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis)
        continue;
      reducedShape.push_back(type->getDimSize(i));
      reducedSizes.push_back(tensor::getMixedSize(rewriter, loc, input, i));
      reducedExprs.push_back(getAffineDimExpr(i, ctx));
    }
    auto reducedType = RankedTensorType::get(reducedShape, ft);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap reducedMap = AffineMap::get(rank, 0, reducedExprs, ctx);
    SmallVector<utils::IteratorType> reduceIters(rank,
                                                 utils::IteratorType::parallel);
    reduceIters[axis] = utils::IteratorType::reduction;
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);

    auto reduce = [&](Value src, bool isMax) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, reducedSizes, ft);
      Value initV = arith::ConstantOp::create(
          rewriter, loc, ft,
          rewriter.getFloatAttr(
              ft, isMax ? APFloat::getInf(ft.getFloatSemantics(), true)
                        : APFloat(ft.getFloatSemantics(), 0)));
      Value filled = linalg::FillOp::create(rewriter, loc, ValueRange{initV},
                                            ValueRange{empty})
                         .getResult(0);
      return linalg::GenericOp::create(
                 rewriter, loc, TypeRange{reducedType}, ValueRange{src},
                 ValueRange{filled}, ArrayRef<AffineMap>{identity, reducedMap},
                 reduceIters,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   Value r = isMax ? (Value)arith::MaxNumFOp::create(
                                         b, l, args[0], args[1])
                                   : (Value)arith::AddFOp::create(b, l, args[0],
                                                                  args[1]);
                   linalg::YieldOp::create(b, l, r);
                 })
          .getResult(0);
    };
    auto combine = [&](Value full, Value reduced, bool expSub) {
      Value empty = createEmptyLike(rewriter, loc, *type, {input});
      return linalg::GenericOp::create(
                 rewriter, loc, TypeRange{*type}, ValueRange{full, reduced},
                 ValueRange{empty},
                 ArrayRef<AffineMap>{identity, reducedMap, identity}, parallel,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   Value r =
                       expSub ? (Value)math::ExpOp::create(
                                    b, l,
                                    arith::SubFOp::create(b, l, args[0], args[1]))
                              : (Value)arith::DivFOp::create(b, l, args[0],
                                                             args[1]);
                   linalg::YieldOp::create(b, l, r);
                 })
          .getResult(0);
    };
    Value max = reduce(input, /*isMax=*/true);
    Value exps = combine(input, max, /*expSub=*/true);
    Value sum = reduce(exps, /*isMax=*/false);
    rewriter.replaceOp(op, combine(exps, sum, /*expSub=*/false));
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateNormalizationPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<BatchNormPattern, SoftmaxPattern>(converter, patterns.getContext());
}
