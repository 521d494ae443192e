//===- FlattenElementwise.cpp - tcc-flatten-elementwise -------------------===//
//
// Rewrites elementwise linalg ops on contiguous buffers as one loop over
// all elements, so LLVM vectorizes one long loop instead of a nest whose
// inner trip count is a small spatial dim; with broadcast operands, as one
// loop over the trailing dims they all read whole or not at all.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_FLATTENELEMENTWISE
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

/// Whether `op` maps every element of every operand to the same element of
/// every other, on static identity-layout buffers of rank >= 2.
bool tcc::isFlattenable(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !op.getMatchingIndexingMap(&operand).isIdentity())
      return false;
  }
  return true;
}

linalg::GenericOp tcc::flattenElementwise(RewriterBase &b,
                                          linalg::GenericOp op) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto all = tcc::wholeShapeGroup(op.getNumLoops());
  auto flat = [&](ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) -> Value {
      return memref::CollapseShapeOp::create(b, loc, v, all);
    });
  };
  SmallVector<Value> inputs = flat(op.getDpsInputs());
  SmallVector<Value> outputs = flat(op.getDpsInits());
  AffineMap id = b.getDimIdentityMap();
  auto flatOp = linalg::GenericOp::create(
      b, loc, TypeRange(), inputs, outputs,
      SmallVector<AffineMap>(op->getNumOperands(), id),
      {utils::IteratorType::parallel});
  b.inlineRegionBefore(op.getRegion(), flatOp.getRegion(),
                       flatOp.getRegion().begin());
  b.eraseOp(op);
  return flatOp;
}

namespace {

/// The reassociation of `rank` dims that keeps those before `first` and
/// collapses the rest into one.
SmallVector<ReassociationIndices> trailingGroup(int64_t rank, int64_t first) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < first; ++i)
    groups.push_back({i});
  groups.emplace_back();
  for (int64_t i = first; i < rank; ++i)
    groups.back().push_back(i);
  return groups;
}

/// The first of the trailing loops of `op` (at least two) that it can run
/// as one: every memref operand reads either all of them, in order, as
/// its last indices over dims it can collapse (a contiguous run), or none
/// of them (broadcast along them, as a per-channel scale). The earliest
/// such loop, or nullopt.
std::optional<unsigned> collapsibleSuffix(linalg::GenericOp op) {
  unsigned n = op.getNumLoops();
  if (!op.hasPureBufferSemantics() || n < 3 || op.getNumParallelLoops() != n ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  for (unsigned k = 0; k + 2 <= n; ++k) {
    bool ok = true;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      ArrayRef<AffineExpr> results = map.getResults();
      auto position = [](AffineExpr e) -> std::optional<unsigned> {
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          return dim.getPosition();
        return std::nullopt;
      };
      // Dims, or zeros into unit dims (a [1, C, 1, 1] scale).
      if (!type.hasStaticShape() ||
          !map.isProjectedPermutation(/*allowZeroInResults=*/true)) {
        ok = false;
        break;
      }
      int64_t reads = llvm::count_if(results, [&](AffineExpr e) {
        return position(e) && *position(e) >= k;
      });
      if (reads == 0)
        continue;
      int64_t first = results.size() - (n - k);
      ok = reads == n - k && first >= 0;
      for (unsigned i = 0; ok && i < n - k; ++i)
        ok = position(results[first + i]) == k + i;
      if (ok)
        ok = memref::CollapseShapeOp::isGuaranteedCollapsible(
            type, trailingGroup(results.size(), first));
      if (!ok)
        break;
    }
    if (ok)
      return k;
  }
  return std::nullopt;
}

/// `op` with its loops from `k` on run as one loop over collapsed views
/// of the operands that read them.
void collapseSuffix(RewriterBase &b, linalg::GenericOp op, unsigned k) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  unsigned n = op.getNumLoops();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> results;
    for (AffineExpr e : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        results.push_back(e); // a zero into a unit dim
      else if (dim.getPosition() <= k)
        results.push_back(getAffineDimExpr(dim.getPosition(), ctx));
    }
    maps.push_back(AffineMap::get(k + 1, 0, results, ctx));
    Value value = operand.get();
    if (results.size() < map.getNumResults()) {
      // It reads the trailing loops: collapse its last n - k dims.
      value = memref::CollapseShapeOp::create(
          b, loc, value,
          trailingGroup(map.getNumResults(), map.getNumResults() - (n - k)));
    }
    operands.push_back(value);
  }
  SmallVector<utils::IteratorType> iterators(k + 1,
                                             utils::IteratorType::parallel);
  unsigned numInputs = op.getNumDpsInputs();
  auto collapsed = linalg::GenericOp::create(
      b, loc, TypeRange(), ArrayRef(operands).take_front(numInputs),
      ArrayRef(operands).drop_front(numInputs), maps, iterators);
  b.inlineRegionBefore(op.getRegion(), collapsed.getRegion(),
                       collapsed.getRegion().begin());
  b.eraseOp(op);
}

/// `fill` on a view of its buffer whose longest collapsible run of
/// trailing dims is one. Left nested, LLVM unrolled a fill's short inner
/// loop (a 27-wide row of a thread's chunk of a pool's output) and
/// vectorized the loop around it with scatters: 8 GB/s.
void collapseFill(RewriterBase &b, linalg::FillOp fill) {
  Value out = fill.getDpsInitOperand(0)->get();
  auto type = dyn_cast<MemRefType>(out.getType());
  if (!fill.hasPureBufferSemantics() || !type || !type.hasStaticShape() ||
      type.getRank() < 2)
    return;
  for (int64_t first = 0; first + 1 < type.getRank(); ++first) {
    SmallVector<ReassociationIndices> groups =
        trailingGroup(type.getRank(), first);
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(fill);
    Value view = memref::CollapseShapeOp::create(b, fill.getLoc(), out, groups);
    linalg::FillOp::create(b, fill.getLoc(), fill.getDpsInputs(),
                           ValueRange{view});
    b.eraseOp(fill);
    return;
  }
}

struct FlattenElementwise
    : tcc::impl::FlattenElementwiseBase<FlattenElementwise> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) { fills.push_back(fill); });
    IRRewriter b(&getContext());
    for (linalg::FillOp fill : fills)
      collapseFill(b, fill);
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) { ops.push_back(op); });
    for (linalg::GenericOp op : ops) {
      if (tcc::isFlattenable(op))
        (void)tcc::flattenElementwise(b, op);
      else if (std::optional<unsigned> k = collapsibleSuffix(op))
        collapseSuffix(b, op, *k);
    }
  }
};

} // namespace
