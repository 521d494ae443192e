//===- Reduction.cpp - ONNX Reduce*, ArgMax and ArgMin to linalg ----------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

enum class Kind { L1, L2, LogSum, LogSumExp, Max, Mean, Min, Prod, Sum, SumSquare };

/// max (or min) of two scalars; NaN propagates as numpy's maximum does.
Value extremeOf(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned,
                bool max) {
  if (isa<FloatType>(x.getType()))
    return max ? (Value)arith::MaximumFOp::create(b, loc, x, y)
               : (Value)arith::MinimumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return max ? (Value)arith::MaxUIOp::create(b, loc, x, y)
               : (Value)arith::MinUIOp::create(b, loc, x, y);
  return max ? (Value)arith::MaxSIOp::create(b, loc, x, y)
             : (Value)arith::MinSIOp::create(b, loc, x, y);
}

/// All Reduce* ops: an optional elementwise map of each element (|x|, x^2,
/// exp), a reduction into a filled init (sum, product, max, min), a
/// finishing map (mean's division, sqrt, log) and unit dims for keepdims.
/// Reducing an empty set gives the init finished: 0, 1, -inf, +inf, NaN for
/// the mean, -inf for the logs, as ONNX specifies.
template <typename OpTy, Kind kind>
struct ReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (!inType)
      return rewriter.notifyMatchFailure(op, "unranked input");
    std::optional<SmallVector<bool>> reduced = onnx::reducedDims(
        op.getAxes(), inType.getRank(), op.getNoopWithEmptyAxes() != 0);
    if (!reduced)
      return op.emitOpError() << "with non-constant axes is not supported yet";
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Location loc = op.getLoc();
    Value input = adaptor.getData();
    Type elem = inType.getElementType();
    bool isFloat = isa<FloatType>(elem);
    bool isUns = isUnsigned(op.getData()) || elem.isInteger(1);
    constexpr bool floatOnly = kind == Kind::L2 || kind == Kind::LogSum ||
                               kind == Kind::LogSumExp;
    if (!isFloat && floatOnly)
      return op.emitOpError() << "of integers is not supported yet";
    if (elem.isInteger(1) && kind != Kind::Max && kind != Kind::Min)
      return op.emitOpError() << "of booleans is not supported yet";
    int64_t count = 1;
    for (auto [dim, isReduced] : llvm::zip_equal(inType.getShape(), *reduced))
      if (isReduced)
        count = ShapedType::isDynamic(dim) || ShapedType::isDynamic(count)
                    ? ShapedType::kDynamic
                    : count * dim;
    if (kind == Kind::Mean && ShapedType::isDynamic(count))
      return op.emitOpError()
             << "over dynamic dims is not supported yet";

    // LogSumExp shifts by the max of the finite values (0 when there is
    // none) so that exp cannot overflow: log(sum(exp(x - m))) + m.
    Value shift;
    if constexpr (kind == Kind::LogSumExp) {
      Value lowest = extremeScalar(rewriter, loc, elem, false, false);
      Value max = buildReduction(
          rewriter, loc, input, *reduced, lowest,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            return arith::MaxNumFOp::create(b, l, args[0], args[1]);
          });
      shift = buildElementwise(
          rewriter, loc, cast<RankedTensorType>(max.getType()), ValueRange{max},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value inf = extremeScalar(b, l, elem, false, true);
            Value isInf = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::OEQ,
                math::AbsFOp::create(b, l, args[0]), inf);
            return arith::SelectOp::create(
                b, l, isInf, constantScalar(b, l, elem, 0), args[0]);
          });
      input = buildWithReduced(
          rewriter, loc, input, shift, *reduced, elem,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            return math::ExpOp::create(
                b, l, arith::SubFOp::create(b, l, args[0], args[1]));
          });
    }

    Value init;
    if constexpr (kind == Kind::Max || kind == Kind::Min)
      init = extremeScalar(rewriter, loc, elem, isUns, kind == Kind::Min);
    else
      init = constantScalar(rewriter, loc, elem, kind == Kind::Prod ? 1 : 0);
    Value result = buildReduction(
        rewriter, loc, input, *reduced, init,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value x = args[0], acc = args[1];
          switch (kind) {
          case Kind::Max:
          case Kind::Min:
            return extremeOf(b, l, x, acc, isUns, kind == Kind::Max);
          case Kind::Prod:
            return mulScalars(b, l, x, acc);
          case Kind::L1:
            if (isFloat)
              x = math::AbsFOp::create(b, l, x);
            else if (!isUns)
              x = math::AbsIOp::create(b, l, x);
            return addScalars(b, l, x, acc);
          case Kind::L2:
          case Kind::SumSquare:
            return addScalars(b, l, mulScalars(b, l, x, x), acc);
          default:
            return addScalars(b, l, x, acc);
          }
        });

    if constexpr (kind == Kind::Mean || kind == Kind::L2 ||
                  kind == Kind::LogSum || kind == Kind::LogSumExp) {
      SmallVector<Value> operands = {result};
      if (shift)
        operands.push_back(shift);
      result = buildElementwise(
          rewriter, loc, cast<RankedTensorType>(result.getType()), operands,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value x = args[0];
            switch (kind) {
            case Kind::Mean: {
              Value n = constantScalar(b, l, elem, (double)count);
              if (isFloat)
                return arith::DivFOp::create(b, l, x, n);
              if (isUns)
                return arith::DivUIOp::create(b, l, x, n);
              return arith::DivSIOp::create(b, l, x, n);
            }
            case Kind::L2:
              return math::SqrtOp::create(b, l, x);
            case Kind::LogSum:
              return math::LogOp::create(b, l, x);
            default:
              return arith::AddFOp::create(b, l, math::LogOp::create(b, l, x),
                                           args[1]);
            }
          });
    }
    if (op.getKeepdims() != 0)
      result = expandReducedDims(rewriter, loc, result, *type, *reduced);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// ArgMax/ArgMin: buildArgReduction, unit dim kept for keepdims.
template <typename OpTy, bool isMax>
struct ArgPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (!inType || failed(type))
      return rewriter.notifyMatchFailure(op, "unranked operand or result");
    int64_t rank = inType.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    Value result = buildArgReduction(
        rewriter, op.getLoc(), adaptor.getData(), axis, isMax,
        op.getSelectLastIndex() != 0, isUnsigned(op.getData()));
    if (op.getKeepdims() != 0) {
      SmallVector<bool> reduced(rank, false);
      reduced[axis] = true;
      result = expandReducedDims(rewriter, op.getLoc(), result, *type, reduced);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// GlobalMaxPool: a max over the spatial dims, kept as unit dims.
struct GlobalMaxPoolPattern : OpConversionPattern<onnx::GlobalMaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GlobalMaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Location loc = op.getLoc();
    Type elem = type->getElementType();
    SmallVector<bool> reduced(type->getRank(), true);
    reduced[0] = reduced[1] = false;
    Value max = buildReduction(
        rewriter, loc, adaptor.getX(), reduced,
        extremeScalar(rewriter, loc, elem, false, false),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::MaximumFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op,
                       expandReducedDims(rewriter, loc, max, *type, reduced));
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateReductionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReducePattern<onnx::ReduceL1Op, Kind::L1>,
               ReducePattern<onnx::ReduceL2Op, Kind::L2>,
               ReducePattern<onnx::ReduceLogSumOp, Kind::LogSum>,
               ReducePattern<onnx::ReduceLogSumExpOp, Kind::LogSumExp>,
               ReducePattern<onnx::ReduceMaxOp, Kind::Max>,
               ReducePattern<onnx::ReduceMeanOp, Kind::Mean>,
               ReducePattern<onnx::ReduceMinOp, Kind::Min>,
               ReducePattern<onnx::ReduceProdOp, Kind::Prod>,
               ReducePattern<onnx::ReduceSumOp, Kind::Sum>,
               ReducePattern<onnx::ReduceSumSquareOp, Kind::SumSquare>,
               ArgPattern<onnx::ArgMaxOp, true>,
               ArgPattern<onnx::ArgMinOp, false>, GlobalMaxPoolPattern>(converter,
                                                  patterns.getContext());
}
