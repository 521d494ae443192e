//===- Linear.cpp - ONNX Gemm and MatMul to linalg contractions -----------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

Value tcc::onnx_to_linalg::buildProductSum(
    OpBuilder &b, Location loc, ValueRange inputs, Value init,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators,
    std::optional<double> scale) {
  auto initType = cast<RankedTensorType>(init.getType());
  Type elem = initType.getElementType();
  Type acc = accumulatorType(elem);
  bool widen = acc != elem;
  auto accType = initType.clone(acc);
  auto convert = [&](Value tensor, RankedTensorType to) {
    return buildElementwise(b, loc, to, {tensor},
                            [&](OpBuilder &nb, Location l, ValueRange args) {
                              return castScalar(nb, l, args[0], false,
                                                to.getElementType(), false);
                            });
  };
  if (widen)
    init = convert(init, accType);
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{accType}, inputs, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value prod;
            for (Value x : args.drop_back()) {
              x = castScalar(nb, nloc, x, false, acc, false);
              prod = prod ? mulScalars(nb, nloc, prod, x) : x;
            }
            if (scale)
              prod = mulScalars(nb, nloc, prod,
                                constantScalar(nb, nloc, acc, *scale));
            linalg::YieldOp::create(nb, nloc,
                                    addScalars(nb, nloc, args.back(), prod));
          })
          .getResult(0);
  return widen ? convert(result, initType) : result;
}

namespace {

/// A contraction `init[out] += scale * a[mapA] * b[mapB]` over an iteration
/// space whose last dim is the reduction (k).
static Value buildContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                              Value init, AffineMap mapA, AffineMap mapB,
                              AffineMap mapOut, std::optional<double> scale) {
  SmallVector<utils::IteratorType> iterators(mapOut.getNumDims(),
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  return buildProductSum(b, loc, {lhs, rhs}, init, {mapA, mapB, mapOut},
                         iterators, scale);
}

/// Gemm: Y = alpha * op(A) op(B) + beta * C, as one contraction whose
/// accumulator starts at beta * C (broadcast) or zero.
struct GemmPattern : OpConversionPattern<onnx::GemmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Type elem = type->getElementType();
    MLIRContext *ctx = rewriter.getContext();
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();

    Value init;
    if (!isa<NoneType>(adaptor.getC().getType()) && beta != 0.0) {
      if (!isa<RankedTensorType>(adaptor.getC().getType()))
        return rewriter.notifyMatchFailure(op, "unranked C");
      // The accumulator's dynamic dims would have to come from A and B.
      if (!type->hasStaticShape())
        return op.emitOpError() << "with a dynamic shape and C is not "
                                << "supported yet";
      init = buildElementwise(
          rewriter, loc, *type, {adaptor.getC()},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            if (beta == 1.0)
              return args[0];
            return mulScalars(b, l, args[0], constantScalar(b, l, elem, beta));
          });
    } else {
      Value zero = constantScalar(rewriter, loc, elem, 0);
      SmallVector<OpFoldResult> sizes = {
          tensor::getMixedSize(rewriter, loc, adaptor.getA(),
                               op.getTransA() ? 1 : 0),
          tensor::getMixedSize(rewriter, loc, adaptor.getB(),
                               op.getTransB() ? 0 : 1)};
      Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, elem);
      init = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                    ValueRange{empty})
                 .getResult(0);
      if (init.getType() != *type)
        init = tensor::CastOp::create(rewriter, loc, *type, init);
    }
    AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
               k = getAffineDimExpr(2, ctx);
    auto map = [&](AffineExpr a, AffineExpr b) {
      return AffineMap::get(3, 0, {a, b}, ctx);
    };
    Value result = buildContraction(
        rewriter, loc, adaptor.getA(), adaptor.getB(), init,
        op.getTransA() ? map(k, m) : map(m, k),
        op.getTransB() ? map(n, k) : map(k, n), map(m, n),
        alpha == 1.0 ? std::nullopt : std::optional<double>(alpha));
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

Value tcc::onnx_to_linalg::buildMatMul(OpBuilder &b, Location loc, Value lhs,
                                       Value rhs, RankedTensorType type) {
  auto aType = cast<RankedTensorType>(lhs.getType());
  auto bType = cast<RankedTensorType>(rhs.getType());
  MLIRContext *ctx = b.getContext();
  int64_t rankA = aType.getRank(), rankB = bType.getRank();
  int64_t batch = std::max<int64_t>(std::max(rankA, rankB) - 2, 0);
  bool hasM = rankA >= 2, hasN = rankB >= 2;
  // Iteration dims: batch..., [m], [n], k.
  int64_t numDims = batch + hasM + hasN + 1;
  AffineExpr k = getAffineDimExpr(numDims - 1, ctx);
  AffineExpr m = getAffineDimExpr(batch, ctx);
  AffineExpr n = getAffineDimExpr(batch + hasM, ctx);
  auto batchExprs = [&](RankedTensorType t) {
    SmallVector<AffineExpr> exprs;
    int64_t own = std::max<int64_t>(t.getRank() - 2, 0);
    for (int64_t i = 0; i < own; ++i) {
      int64_t d = batch - own + i;
      bool broadcast = t.getDimSize(i) == 1 && type.getDimSize(d) != 1;
      exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(d, ctx));
    }
    return exprs;
  };
  SmallVector<AffineExpr> aExprs = batchExprs(aType);
  if (hasM)
    aExprs.push_back(m);
  aExprs.push_back(k);
  SmallVector<AffineExpr> bExprs = batchExprs(bType);
  bExprs.push_back(k);
  if (hasN)
    bExprs.push_back(n);
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < batch; ++i)
    outExprs.push_back(getAffineDimExpr(i, ctx));
  if (hasM)
    outExprs.push_back(m);
  if (hasN)
    outExprs.push_back(n);

  // Result dims: batch dims from whichever operand is not broadcast there.
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i)) {
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
      continue;
    }
    if (i >= batch) {
      bool isM = hasM && i == batch;
      sizes.push_back(isM ? tensor::getMixedSize(b, loc, lhs, rankA - 2)
                          : tensor::getMixedSize(b, loc, rhs, rankB - 1));
      continue;
    }
    int64_t ia = i - (batch - std::max<int64_t>(rankA - 2, 0));
    if (ia >= 0 && aType.getDimSize(ia) != 1)
      sizes.push_back(tensor::getMixedSize(b, loc, lhs, ia));
    else
      sizes.push_back(tensor::getMixedSize(
          b, loc, rhs, i - (batch - std::max<int64_t>(rankB - 2, 0))));
  }
  Type elem = type.getElementType();
  Value empty = tensor::EmptyOp::create(b, loc, sizes, elem);
  Value init = linalg::FillOp::create(
                   b, loc, ValueRange{constantScalar(b, loc, elem, 0)},
                   ValueRange{empty})
                   .getResult(0);
  if (init.getType() != type)
    init = tensor::CastOp::create(b, loc, type, init);
  return buildContraction(
      b, loc, lhs, rhs, init, AffineMap::get(numDims, 0, aExprs, ctx),
      AffineMap::get(numDims, 0, bExprs, ctx),
      AffineMap::get(numDims, 0, outExprs, ctx), std::nullopt);
}

namespace {

/// MatMul with numpy semantics: batch dims broadcast, a 1-d operand is a
/// vector (its dim is dropped from the result).
struct MatMulPattern : OpConversionPattern<onnx::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type) || !isa<RankedTensorType>(adaptor.getA().getType()) ||
        !isa<RankedTensorType>(adaptor.getB().getType()))
      return rewriter.notifyMatchFailure(op, "unranked operands");
    rewriter.replaceOp(op, buildMatMul(rewriter, op.getLoc(), adaptor.getA(),
                                       adaptor.getB(), *type));
    return success();
  }
};

/// Einsum: one generic over a loop per label; the output's labels are
/// parallel, the others reductions; a repeated label reads a diagonal and a
/// size-1 ellipsis dim broadcasts.
struct EinsumPattern : OpConversionPattern<onnx::EinsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<ArrayRef<int64_t>> shapes;
    for (Value v : adaptor.getInputs()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !type.hasStaticShape())
        return op.emitOpError() << "with dynamic shapes is not supported yet";
      shapes.push_back(type.getShape());
    }
    FailureOr<onnx::EinsumSpec> spec =
        onnx::resolveEinsum(op, op.getEquation(), shapes);
    if (failed(spec))
      return failure();
    MLIRContext *ctx = rewriter.getContext();
    int64_t numLoops = spec->loopSizes.size();
    SmallVector<AffineMap> maps;
    for (auto [dims, shape] : llvm::zip_equal(spec->operands, shapes)) {
      SmallVector<AffineExpr> exprs;
      for (auto [loop, size] : llvm::zip_equal(dims, shape))
        exprs.push_back(size == 1 && spec->loopSizes[loop] != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(loop, ctx));
      maps.push_back(AffineMap::get(numLoops, 0, exprs, ctx));
    }
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::reduction);
    for (int64_t loop : spec->output) {
      outExprs.push_back(getAffineDimExpr(loop, ctx));
      iterators[loop] = utils::IteratorType::parallel;
    }
    maps.push_back(AffineMap::get(numLoops, 0, outExprs, ctx));
    FailureOr<RankedTensorType> resultType = getRankedResultType(op, rewriter);
    if (failed(resultType))
      return failure();
    RankedTensorType type = *resultType;
    Value init = createFilled(
        rewriter, op.getLoc(), type,
        constantScalar(rewriter, op.getLoc(), type.getElementType(), 0));
    rewriter.replaceOp(op, buildProductSum(rewriter, op.getLoc(),
                                           adaptor.getInputs(), init, maps,
                                           iterators, std::nullopt));
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateLinearPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<EinsumPattern, GemmPattern, MatMulPattern>(converter, patterns.getContext());
}
