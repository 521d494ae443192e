//===- BoundDynamicResults.cpp - tcc-bound-dynamic-results ----------------===//
//
// A model output whose dims are known only at run time (the count of
// NonZero) is computed into a buffer sized for its bound. The output
// becomes that buffer, with the actual block packed row-major at its start,
// and one more output holds the actual dims (the XLA way of bounded
// dynamic shapes, with the padding dropped at the boundary).
//
//===----------------------------------------------------------------------===//
#include "tcc/Header.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_BOUNDDYNAMICRESULTS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Whether `type` is a tensor with a dim known only at run time.
bool isDynamic(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && !ranked.hasStaticShape();
}

/// The [sizes] block at the start of `src`, packed row-major into a tensor
/// of src's static type; the elements after it are zero.
Value packLeadingBlock(OpBuilder &b, Location loc, Value src,
                       ArrayRef<Value> sizes) {
  auto type = cast<RankedTensorType>(src.getType());
  int64_t rank = type.getRank();
  Type elem = type.getElementType();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value total = one;
  // Divisors for unpacking a position: a size of 0 (no element) divides
  // as 1, so every index stays inside the buffer.
  SmallVector<Value> divisors;
  for (Value size : sizes) {
    total = arith::MulIOp::create(b, loc, total, size);
    divisors.push_back(arith::MaxUIOp::create(b, loc, size, one));
  }
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), elem);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{}, ValueRange{empty},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)}, parallel,
      [&](OpBuilder &nb, Location l, ValueRange) {
        Value flat = arith::ConstantIndexOp::create(nb, l, 0);
        for (int64_t d = 0; d < rank; ++d)
          flat = arith::AddIOp::create(
              nb, l,
              arith::MulIOp::create(
                  nb, l, flat,
                  arith::ConstantIndexOp::create(nb, l, type.getDimSize(d))),
              linalg::IndexOp::create(nb, l, d));
        Value inside = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult,
                                             flat, total);
        Value rest = arith::SelectOp::create(
            nb, l, inside, flat, arith::ConstantIndexOp::create(nb, l, 0));
        SmallVector<Value> index(rank);
        for (int64_t d = rank - 1; d >= 0; --d) {
          index[d] = arith::RemUIOp::create(nb, l, rest, divisors[d]);
          rest = arith::DivUIOp::create(nb, l, rest, divisors[d]);
        }
        Value v = tensor::ExtractOp::create(nb, l, src, index);
        Value zero = arith::ConstantOp::create(nb, l, elem,
                                               cast<TypedAttr>(nb.getZeroAttr(elem)));
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::SelectOp::create(nb, l, inside, v, zero)});
      });
  return generic.getResult(0);
}

/// Whether `slice` takes the leading block of a static tensor of its rank
/// (offsets 0, strides 1): the form a data-dependent tensor has here.
bool isLeadingBlock(tensor::ExtractSliceOp slice) {
  return slice && slice.getSourceType().hasStaticShape() &&
         slice.getSourceType().getRank() == slice.getType().getRank() &&
         slice.hasZeroOffset() && slice.hasUnitStride();
}

/// An elementwise or permuting linalg op (all loops parallel, every map a
/// projected permutation, into a tensor.empty) of the leading block of a
/// static tensor computes on the whole tensor instead, and the result's
/// leading block is taken: the block moves toward the outputs (Transpose,
/// Cast, arithmetic after NonZero). The elements past the block are
/// computed from the buffer's padding and never read.
struct SinkLeadingBlock : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
    tensor::ExtractSliceOp slice;
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto s = in->get().getDefiningOp<tensor::ExtractSliceOp>();
      if (s && slice && s != slice)
        return failure();
      slice = s ? s : slice;
    }
    if (!empty || !isLeadingBlock(slice))
      return failure();
    // Each loop's bound and actual size; the loops over a dynamic dim of
    // the block may be indexed by nothing else.
    unsigned numLoops = op.getNumLoops();
    SmallVector<int64_t> bound(numLoops, ShapedType::kDynamic);
    SmallVector<OpFoldResult> size(numLoops);
    SmallVector<bool> runTime(numLoops, false), otherUse(numLoops, false);
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!map.isProjectedPermutation())
        return failure();
      bool sliced = operand.get() == slice.getResult();
      auto type = cast<RankedTensorType>(sliced ? slice.getSourceType()
                                                : operand.get().getType());
      for (auto [k, expr] : llvm::enumerate(map.getResults())) {
        unsigned l = cast<AffineDimExpr>(expr).getPosition();
        if (sliced) {
          bound[l] = type.getDimSize(k);
          size[l] = slice.getMixedSizes()[k];
          runTime[l] = slice.getType().isDynamicDim(k);
        } else if (&operand != init) {
          if (type.isDynamicDim(k))
            return failure();
          otherUse[l] = true;
        }
      }
    }
    for (unsigned l = 0; l < numLoops; ++l)
      if (runTime[l] && otherUse[l])
        return failure();
    // The output over the whole tensor, then its leading block.
    AffineMap outMap = op.getMatchingIndexingMap(init);
    auto outType = cast<RankedTensorType>(init->get().getType());
    SmallVector<int64_t> outShape;
    SmallVector<OpFoldResult> outSizes;
    for (auto [k, expr] : llvm::enumerate(outMap.getResults())) {
      unsigned l = cast<AffineDimExpr>(expr).getPosition();
      bool fromSlice = !ShapedType::isDynamic(bound[l]);
      if (!fromSlice && outType.isDynamicDim(k))
        return failure();
      outShape.push_back(fromSlice ? bound[l] : outType.getDimSize(k));
      outSizes.push_back(fromSlice ? size[l]
                                   : rewriter.getIndexAttr(outShape.back()));
    }
    Location loc = op.getLoc();
    Value whole =
        tensor::EmptyOp::create(rewriter, loc, outShape, outType.getElementType());
    SmallVector<Value> operands;
    for (OpOperand *in : op.getDpsInputOperands())
      operands.push_back(in->get() == slice.getResult() ? slice.getSource()
                                                         : in->get());
    operands.push_back(whole);
    Operation *wide =
        clone(rewriter, op, TypeRange{whole.getType()}, operands);
    SmallVector<OpFoldResult> zeros(outShape.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(outShape.size(), rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, wide->getResult(0), zeros, outSizes, ones);
    return success();
  }
};

struct BoundDynamicResults
    : tcc::impl::BoundDynamicResultsBase<BoundDynamicResults> {
  void runOnOperation() override {
    func::FuncOp main = getOperation();
    if (main.getSymName() != "main" || main.isExternal())
      return;
    // Nothing to do (and nothing to touch) when every tensor is static.
    WalkResult anyDynamic = main.walk([&](Operation *op) {
      return llvm::any_of(op->getResultTypes(), isDynamic)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (!anyDynamic.wasInterrupted() &&
        !llvm::any_of(main.getArgumentTypes(), isDynamic))
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkLeadingBlock>(&getContext());
    tensor::CastOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(main, std::move(patterns))))
      return signalPassFailure();
    // What is left of a data-dependent dim must only reach the outputs.
    WalkResult walk = main.walk([](Operation *op) {
      if (isa<func::ReturnOp, tensor::CastOp>(op))
        return WalkResult::advance();
      if (llvm::any_of(op->getOperandTypes(), isDynamic)) {
        op->emitError()
            << "computes with a dim known only at run time (NonZero's "
            << "count); tcc supports one only through elementwise ops and "
            << "transposes into an output (dynamic shapes are not supported "
            << "yet)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    OpBuilder b(ret);
    Location loc = ret.getLoc();
    SmallVector<Value> results(ret.getOperands());
    SmallVector<int64_t> runTimeDims; // (output, dim, bound) triples
    SmallVector<Value> dims;          // their values, as i64
    for (auto [i, result] : llvm::enumerate(results)) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || type.hasStaticShape())
        continue;
      Value src = result;
      while (auto cast = src.getDefiningOp<tensor::CastOp>())
        src = cast.getSource();
      auto slice = src.getDefiningOp<tensor::ExtractSliceOp>();
      if (!isLeadingBlock(slice)) {
        auto name = main.getResultAttrOfType<StringAttr>(i, tcc::kNameAttr);
        emitError(result.getDefiningOp() ? result.getDefiningOp()->getLoc()
                                         : loc)
            << "output '" << (name ? name.getValue() : StringRef("?"))
            << "' has a dim known only at run time that tcc cannot bound: "
            << "a data-dependent dim (NonZero's count) may reach an output "
            << "only through elementwise ops and transposes (dynamic shapes "
            << "are not supported yet)";
        return signalPassFailure();
      }
      SmallVector<Value> sizes;
      for (OpFoldResult size : slice.getMixedSizes())
        sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
      results[i] = packLeadingBlock(b, loc, slice.getSource(), sizes);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d))
          continue;
        runTimeDims.append(
            {(int64_t)i, d, slice.getSourceType().getDimSize(d)});
        dims.push_back(
            arith::IndexCastOp::create(b, loc, b.getI64Type(), sizes[d]));
      }
    }
    if (dims.empty())
      return;
    ret->setOperands(results);
    main.setType(FunctionType::get(&getContext(), main.getArgumentTypes(),
                                   ValueRange(results).getTypes()));
    if (failed(tcc::appendRunTimeDims(main, ret, runTimeDims, dims)))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult tcc::appendRunTimeDims(func::FuncOp main, func::ReturnOp ret,
                                     ArrayRef<int64_t> triples,
                                     ValueRange dims) {
  OpBuilder b(ret);
  Value dimsTensor = tensor::FromElementsOp::create(
      b, ret.getLoc(),
      RankedTensorType::get({(int64_t)dims.size()}, b.getI64Type()), dims);
  unsigned numOutputs = ret.getNumOperands();
  if (failed(main.insertResult(
          numOutputs, dimsTensor.getType(),
          b.getDictionaryAttr(b.getNamedAttr(
              tcc::kNameAttr, b.getStringAttr("run_time_dims"))))))
    return failure();
  ret->insertOperands(numOutputs, dimsTensor);
  main->setAttr(tcc::kRunTimeDimsAttr, b.getDenseI64ArrayAttr(triples));
  return success();
}
