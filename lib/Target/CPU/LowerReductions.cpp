//===- LowerReductions.cpp - tcc-lower-reductions -------------------------===//
//
// Lowers linalg ops whose innermost loops reduce into an output element (a
// sum, a max, the sums of a mean, a softmax or a norm) to loops that carry
// the partial result in a register, with a reassociable combiner, so that
// LLVM vectorizes them with several partial results. Lowered as written,
// the partial result goes through memory on every step and each add waits
// for the last.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_LOWERREDUCTIONS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// The number of trailing reduction loops of `op` when it can be lowered
/// with a register accumulator (0 otherwise): buffers, one output read by
/// the body, indexing maps that do not use those loops for the output, and
/// a body without regions.
unsigned innerReductions(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 0 || isa<linalg::CopyOp, linalg::FillOp>(op))
    return 0;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.payloadUsesValueFromOperand(init) ||
      !isa<MemRefType>(init->get().getType()))
    return 0;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned inner = 0;
  while (inner < iterators.size() &&
         iterators[iterators.size() - 1 - inner] ==
             utils::IteratorType::reduction)
    ++inner;
  AffineMap outMap = op.getMatchingIndexingMap(init);
  for (unsigned d = iterators.size() - inner; d < iterators.size(); ++d)
    if (outMap.isFunctionOfDim(d))
      return 0;
  for (Operation &bodyOp : op.getBlock()->without_terminator())
    if (bodyOp.getNumRegions())
      return 0;
  return inner;
}

/// The indices of `operand` at loop values `ivs`.
SmallVector<Value> indicesAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
                             OpOperand *operand, ArrayRef<Value> ivs) {
  SmallVector<Value> result;
  AffineMap map = op.getMatchingIndexingMap(operand);
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      result.push_back(ivs[dim.getPosition()]);
    else
      result.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, e), ivs));
  }
  return result;
}

void lower(RewriterBase &b, linalg::LinalgOp op, unsigned inner) {
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  SmallVector<Value> lbs, ubs, steps;
  for (Range r : op.createLoopRanges(b, loc)) {
    lbs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.offset));
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    steps.push_back(getValueOrCreateConstantIndexOp(b, loc, r.stride));
  }
  unsigned numLoops = lbs.size(), numOuter = numLoops - inner;
  SmallVector<Value> ivs(numLoops);
  OpOperand *init = op.getDpsInitOperand(0);
  Block *body = op.getBlock();
  OpBuilder::InsertionGuard guard(b);
  for (unsigned d = 0; d < numOuter; ++d) {
    auto loop = scf::ForOp::create(b, loc, lbs[d], ubs[d], steps[d]);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    ivs[d] = loop.getInductionVar();
  }
  SmallVector<Value> outIdx = indicesAt(b, loc, op, init, ivs);
  Value acc = memref::LoadOp::create(b, loc, init->get(), outIdx);
  SmallVector<scf::ForOp> loops;
  for (unsigned d = numOuter; d < numLoops; ++d) {
    auto loop =
        scf::ForOp::create(b, loc, lbs[d], ubs[d], steps[d], ValueRange{acc});
    if (!loops.empty())
      scf::YieldOp::create(b, loc, loop.getResults());
    b.setInsertionPointToStart(loop.getBody());
    ivs[d] = loop.getInductionVar();
    acc = loop.getRegionIterArgs()[0];
    loops.push_back(loop);
  }
  IRMapping map;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    if (isa<MemRefType>(v.getType()))
      v = memref::LoadOp::create(b, loc, v, indicesAt(b, loc, op, in, ivs));
    map.map(body->getArgument(in->getOperandNumber()), v);
  }
  map.map(body->getArgument(init->getOperandNumber()), acc);
  for (Operation &bodyOp : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(bodyOp, map);
  }
  Value next = map.lookupOrDefault(body->getTerminator()->getOperand(0));
  // The combiner (acc + x, max(acc, x), ...) may be reassociated: LLVM then
  // keeps several partial results in a vector.
  if (Operation *combine = next.getDefiningOp())
    if (llvm::is_contained(combine->getOperands(), acc))
      if (auto fastMath = dyn_cast<arith::ArithFastMathInterface>(combine))
        combine->setAttr(fastMath.getFastMathAttrName(),
                         arith::FastMathFlagsAttr::get(
                             b.getContext(), fastMath.getFastMathFlagsAttr()
                                                     .getValue() |
                                                 arith::FastMathFlags::reassoc));
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(loops.front());
  memref::StoreOp::create(b, loc, loops.front().getResult(0), init->get(),
                          outIdx);
  b.eraseOp(op);
}

/// `op` with its `inner` trailing loops collapsed into one when every
/// operand walks them as contiguous memory (a pool over a map's H x W): one
/// long loop for LLVM to vectorize, not a short one per row.
linalg::LinalgOp collapseInner(RewriterBase &b, linalg::LinalgOp op,
                               unsigned &inner) {
  unsigned numLoops = op.getNumLoops();
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (inner < 2 || !generic ||
      !generic.getBody()->getOps<linalg::IndexOp>().empty())
    return op; // (the indices would be divisions of the one loop's)
  ReassociationIndices group;
  for (unsigned d = numLoops - inner; d < numLoops; ++d)
    group.push_back(d);
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {group}))
    return op;
  for (OpOperand &operand : op->getOpOperands()) {
    // (collapseOpIterationDims takes memrefs of rank 1 or more, indexed by
    // projected permutations, only.)
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || type.getRank() == 0 || !map.isProjectedPermutation())
      return op;
    if (!map.isFunctionOfDim(group.front()))
      continue;
    // The operand dims the group maps to (in order, areDimSequencesPreserved
    // says), which must be contiguous in memory.
    std::optional<unsigned> first = map.getResultPosition(
        getAffineDimExpr(group.front(), op.getContext()));
    if (!first)
      return op;
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t r = 0; r < map.getNumResults(); ++r)
      if (r > *first && r < *first + (int64_t)inner)
        reassociation.back().push_back(r);
      else
        reassociation.push_back({r});
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, reassociation))
      return op;
  }
  b.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {group}, b);
  if (failed(collapsed))
    return op;
  b.eraseOp(op);
  inner = 1;
  return collapsed->collapsedOp;
}

struct LowerReductions : tcc::impl::LowerReductionsBase<LowerReductions> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (unsigned inner = innerReductions(op))
        ops.push_back({op, inner});
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, inner] : ops) {
      linalg::LinalgOp flat = collapseInner(rewriter, op, inner);
      lower(rewriter, flat, inner);
    }
  }
};

} // namespace
