//===- Reduction.cpp - ONNX Reduce*, Arg*, CumSum, TopK to linalg --------===//
#include "Patterns.h"
#include "tcc/Header.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

enum class Kind {
  L1,
  L2,
  LogSum,
  LogSumExp,
  Max,
  Mean,
  Min,
  Prod,
  Sum,
  SumSquare
};

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
    constexpr bool floatOnly =
        kind == Kind::L2 || kind == Kind::LogSum || kind == Kind::LogSumExp;
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
      return op.emitOpError() << "over dynamic dims is not supported yet";

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
            Value isInf =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
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
    Value result = buildArgReduction(rewriter, op.getLoc(), adaptor.getData(),
                                     axis, isMax, op.getSelectLastIndex() != 0,
                                     isUnsigned(op.getData()));
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

/// The identity map of `rank` dims over `rank + 1` loops, with dim `axis`
/// read from the extra (last) loop instead.
AffineMap alongExtraLoop(MLIRContext *ctx, int64_t rank, int64_t axis) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    exprs.push_back(getAffineDimExpr(i == axis ? rank : i, ctx));
  return AffineMap::get(rank + 1, 0, exprs, ctx);
}

/// CumSum and CumProd: y[i] = sum (product) of x[j] over j <= i (j >= i
/// when reversed; strict when exclusive) along the axis, as one generic
/// whose extra loop j is a reduction: O(n^2) along the axis, fine for the
/// sizes models use it on.
template <typename OpTy, bool isProduct>
struct CumulativePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> axisValue = onnx::getConstantInt(op.getAxis());
    if (!axisValue) {
      InFlightDiagnostic diag = op.emitOpError()
                                << "needs a constant axis (here known only at "
                                   "run time); ";
      Value axis = op.getAxis();
      BlockArgument arg = dyn_cast<BlockArgument>(axis);
      func::FuncOp fn =
          arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
              : func::FuncOp();
      StringAttr name = fn ? fn.getArgAttrOfType<StringAttr>(
                                 arg.getArgNumber(), tcc::kNameAttr)
                           : StringAttr();
      if (name)
        diag << "it is input '" << name.getValue() << "': bind it with --bind "
             << name.getValue() << "=FILE";
      else
        diag << "bind the inputs it depends on with --bind";
      return diag;
    }
    auto type = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (!type || !type.hasStaticShape())
      return op.emitOpError() << "with a dynamic shape is not supported yet";
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank();
    int64_t axis = *axisValue < 0 ? *axisValue + rank : *axisValue;
    Type elem = type.getElementType();
    bool exclusive = op.getExclusive() != 0, reverse = op.getReverse() != 0;
    double identity = isProduct ? 1 : 0;
    Value init = createFilled(rewriter, loc, type,
                              constantScalar(rewriter, loc, elem, identity));
    AffineMap out =
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    using P = arith::CmpIPredicate;
    P pred =
        reverse ? (exclusive ? P::sgt : P::sge) : (exclusive ? P::slt : P::sle);
    Value y =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{adaptor.getX()},
            ValueRange{init},
            ArrayRef<AffineMap>{alongExtraLoop(ctx, rank, axis), out},
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value i = linalg::IndexOp::create(b, l, axis);
              Value j = linalg::IndexOp::create(b, l, rank);
              Value in = arith::CmpIOp::create(b, l, pred, j, i);
              Value term = arith::SelectOp::create(
                  b, l, in, args[0], constantScalar(b, l, elem, identity));
              linalg::YieldOp::create(
                  b, l,
                  isProduct ? mulScalars(b, l, args[1], term)
                            : addScalars(b, l, args[1], term));
            })
            .getResult(0);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// TopK without sorting networks: each element's rank (how many elements
/// beat it; equal ones with a lower index beat it too) by an O(n^2)
/// generic, then output slot t takes the element of rank t, O(n*k). A K
/// known only at run time sorts the whole axis; the results are its first
/// K slots, K clamped into [0, n] (a dim known at run time, as NonZero's).
struct TopKPattern : OpConversionPattern<onnx::TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> k = onnx::getConstantInt(op.getK());
    auto type = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (!type || !type.hasStaticShape())
      return op.emitOpError() << "with a dynamic shape is not supported yet";
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    SmallVector<int64_t> slots(type.getShape());
    if (k)
      slots[axis] = *k;
    Type elem = type.getElementType();
    Type i64 = rewriter.getI64Type();
    bool largest = op.getLargest() != 0;
    bool isUns = isUnsigned(op.getX()) || elem.isInteger(1);
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank);
    AffineMap other = alongExtraLoop(ctx, rank, axis);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value zero64 = constantScalar(rewriter, loc, i64, 0);

    // rank[i] = #{j : x[j] beats x[i], or equals it with j < i}.
    auto rankType = type.clone(i64);
    Value ranks =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{rankType},
            ValueRange{adaptor.getX(), adaptor.getX()},
            ValueRange{createFilled(rewriter, loc, rankType, zero64)},
            ArrayRef<AffineMap>{identity, other, identity}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value xi = args[0], xj = args[1];
              Value beats, equal;
              if (isa<FloatType>(elem)) {
                using P = arith::CmpFPredicate;
                beats = arith::CmpFOp::create(b, l, largest ? P::OGT : P::OLT,
                                              xj, xi);
                equal = arith::CmpFOp::create(b, l, P::OEQ, xj, xi);
              } else {
                using P = arith::CmpIPredicate;
                P pred = largest ? (isUns ? P::ugt : P::sgt)
                                 : (isUns ? P::ult : P::slt);
                beats = arith::CmpIOp::create(b, l, pred, xj, xi);
                equal = arith::CmpIOp::create(b, l, P::eq, xj, xi);
              }
              Value before =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                        linalg::IndexOp::create(b, l, rank),
                                        linalg::IndexOp::create(b, l, axis));
              Value counts = arith::OrIOp::create(
                  b, l, beats, arith::AndIOp::create(b, l, equal, before));
              Value one = arith::ExtUIOp::create(b, l, i64, counts);
              linalg::YieldOp::create(
                  b, l, arith::AddIOp::create(b, l, args[2], one).getResult());
            })
            .getResult(0);

    // Slot t (the axis loop of the outputs) takes the element of rank t.
    auto valuesType = RankedTensorType::get(slots, elem);
    auto indicesType = valuesType.clone(i64);
    Value values = createFilled(rewriter, loc, valuesType,
                                constantScalar(rewriter, loc, elem, 0));
    Value indices = createFilled(rewriter, loc, indicesType, zero64);
    auto select = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valuesType, indicesType},
        ValueRange{adaptor.getX(), ranks}, ValueRange{values, indices},
        ArrayRef<AffineMap>{other, other, identity, identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value slot = arith::IndexCastOp::create(
              b, l, i64, linalg::IndexOp::create(b, l, axis));
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            args[1], slot);
          Value j = arith::IndexCastOp::create(
              b, l, i64, linalg::IndexOp::create(b, l, rank));
          SmallVector<Value> yields = {
              arith::SelectOp::create(b, l, hit, args[0], args[2]),
              arith::SelectOp::create(b, l, hit, j, args[3])};
          linalg::YieldOp::create(b, l, yields);
        });
    if (k) {
      rewriter.replaceOp(op, select.getResults());
      return success();
    }
    Value kValue = adaptor.getK();
    auto kType = cast<RankedTensorType>(kValue.getType());
    SmallVector<Value> at(kType.getRank(), constantIndex(rewriter, loc, 0));
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        tensor::ExtractOp::create(rewriter, loc, kValue, at));
    count = arith::MaxSIOp::create(
        rewriter, loc,
        arith::MinSIOp::create(rewriter, loc, count,
                               constantIndex(rewriter, loc, slots[axis])),
        constantIndex(rewriter, loc, 0));
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(d == axis ? OpFoldResult(count)
                                : rewriter.getIndexAttr(slots[d]));
    replaceByLeadingBlock(rewriter, op, select.getResults(), sizes);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateReductionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<ReducePattern<onnx::ReduceL1Op, Kind::L1>,
           ReducePattern<onnx::ReduceL2Op, Kind::L2>,
           ReducePattern<onnx::ReduceLogSumOp, Kind::LogSum>,
           ReducePattern<onnx::ReduceLogSumExpOp, Kind::LogSumExp>,
           ReducePattern<onnx::ReduceMaxOp, Kind::Max>,
           ReducePattern<onnx::ReduceMeanOp, Kind::Mean>,
           ReducePattern<onnx::ReduceMinOp, Kind::Min>,
           ReducePattern<onnx::ReduceProdOp, Kind::Prod>,
           ReducePattern<onnx::ReduceSumOp, Kind::Sum>,
           ReducePattern<onnx::ReduceSumSquareOp, Kind::SumSquare>,
           ArgPattern<onnx::ArgMaxOp, true>, ArgPattern<onnx::ArgMinOp, false>,
           CumulativePattern<onnx::CumSumOp, false>,
           CumulativePattern<onnx::CumProdOp, true>, GlobalMaxPoolPattern, TopKPattern>(
          converter, patterns.getContext());
}
