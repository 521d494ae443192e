//===- Loss.cpp - ONNX NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// What a loss op needs checked before it is lowered: static shapes.
LogicalResult checkStatic(Operation *op, ValueRange operands) {
  for (Value v : operands) {
    if (isa<NoneType>(v.getType()))
      continue;
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return op->emitOpError() << "with a dynamic shape is not supported yet";
  }
  return success();
}

/// The loss of NegativeLogLikelihoodLoss from `logProb` (N, C, d...) and
/// `target` (N, d...): one generic over the target's shape gathers
///   loss[n, d...] = -logProb[n, t, d...] * w,   w = weight[t] (or 1)
/// with t = target[n, d...], and w = loss = 0 where t is `ignoreIndex`.
/// t is clamped to [0, C) for the reads (out-of-range targets are
/// undefined in ONNX; the reference clamps the weight gather too). Then
/// `reduction`: none keeps it, sum adds it up, mean divides that sum by the
/// sum of the w's (NaN when every target is ignored, as the reference).
Value buildNLLLoss(OpBuilder &b, Location loc, Value logProb, Value target,
                   Value weight, std::optional<int64_t> ignoreIndex,
                   StringRef reduction) {
  auto inType = cast<RankedTensorType>(logProb.getType());
  auto targetType = cast<RankedTensorType>(target.getType());
  Type ft = inType.getElementType();
  int64_t rank = targetType.getRank();
  int64_t classes = inType.getDimSize(1);
  bool mean = reduction == "mean";
  bool hasWeight = weight && !isa<NoneType>(weight.getType());

  auto lossType = RankedTensorType::get(targetType.getShape(), ft);
  SmallVector<Type> resultTypes = {lossType};
  SmallVector<Value> inits = {
      tensor::EmptyOp::create(b, loc, lossType.getShape(), ft)};
  if (mean) {
    resultTypes.push_back(lossType);
    inits.push_back(tensor::EmptyOp::create(b, loc, lossType.getShape(), ft));
  }
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps(1 + inits.size(), identity);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  auto gather = linalg::GenericOp::create(
      b, loc, resultTypes, ValueRange{target}, inits, maps, parallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value t = args[0];
        Type i64 = nb.getI64Type();
        if (t.getType() != i64)
          t = arith::ExtSIOp::create(nb, l, i64, t);
        Value c = arith::IndexCastOp::create(nb, l, nb.getIndexType(), t);
        c = arith::MaxSIOp::create(nb, l, c, constantIndex(nb, l, 0));
        c = arith::MinSIOp::create(nb, l, c, constantIndex(nb, l, classes - 1));
        SmallVector<Value> at = {linalg::IndexOp::create(nb, l, 0), c};
        for (int64_t d = 1; d < rank; ++d)
          at.push_back(linalg::IndexOp::create(nb, l, d));
        Value x = tensor::ExtractOp::create(nb, l, logProb, at);
        Value loss = arith::NegFOp::create(nb, l, x);
        Value w;
        if (hasWeight) {
          w = tensor::ExtractOp::create(nb, l, weight, ValueRange{c});
          loss = arith::MulFOp::create(nb, l, loss, w);
        } else {
          w = constantScalar(nb, l, ft, 1);
        }
        // Selects, not a product with w = 0: an ignored -inf gives 0.
        if (ignoreIndex) {
          Value kept = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::ne, t,
              arith::ConstantOp::create(nb, l,
                                        nb.getI64IntegerAttr(*ignoreIndex)));
          Value zero = constantScalar(nb, l, ft, 0);
          loss = arith::SelectOp::create(nb, l, kept, loss, zero);
          w = arith::SelectOp::create(nb, l, kept, w, zero);
        }
        SmallVector<Value> yields = {loss};
        if (mean)
          yields.push_back(w);
        linalg::YieldOp::create(nb, l, yields);
      });
  Value loss = gather.getResult(0);
  if (reduction == "none")
    return loss;

  SmallVector<bool> all(rank, true);
  auto sumAll = [&](Value v) {
    return buildReduction(
        b, loc, v, all, constantScalar(b, loc, ft, 0),
        [](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(nb, l, args[0], args[1]);
        });
  };
  Value sum = sumAll(loss);
  if (!mean)
    return sum;
  return buildElementwise(
      b, loc, RankedTensorType::get({}, ft),
      ValueRange{sum, sumAll(gather.getResult(1))},
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, l, args[0], args[1]);
      });
}

struct NLLLossPattern : OpConversionPattern<onnx::NegativeLogLikelihoodLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::NegativeLogLikelihoodLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStatic(op, adaptor.getOperands())))
      return failure();
    rewriter.replaceOp(op,
                       buildNLLLoss(rewriter, op.getLoc(), adaptor.getInput(),
                                    adaptor.getTarget(), adaptor.getWeight(),
                                    op.getIgnoreIndex(), op.getReduction()));
    return success();
  }
};

/// SoftmaxCrossEntropyLoss: LogSoftmax over the classes (dim 1), then the
/// NegativeLogLikelihoodLoss of it; log_prob is the second result.
struct SCELossPattern : OpConversionPattern<onnx::SoftmaxCrossEntropyLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SoftmaxCrossEntropyLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStatic(op, adaptor.getOperands())))
      return failure();
    Location loc = op.getLoc();
    Value logProb = buildSoftmax(rewriter, loc, adaptor.getScores(), 1,
                                 SoftmaxKind::LogSoftmax);
    Value loss = buildNLLLoss(rewriter, loc, logProb, adaptor.getLabels(),
                              adaptor.getWeights(), op.getIgnoreIndex(),
                              op.getReduction());
    rewriter.replaceOp(op, {loss, logProb});
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateLossPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<NLLLossPattern, SCELossPattern>(converter,
                                               patterns.getContext());
}
