//===- FlattenElementwise.cpp - tcc-flatten-elementwise -------------------===//
//
// Rewrites elementwise linalg ops on contiguous buffers as one loop over
// all elements, so LLVM vectorizes one long loop instead of a nest whose
// inner trip count is a small spatial dim.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_FLATTENELEMENTWISE
#include "tcc/Passes.h.inc"
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

struct FlattenElementwise
    : tcc::impl::FlattenElementwiseBase<FlattenElementwise> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (tcc::isFlattenable(op))
        ops.push_back(op);
    });
    IRRewriter b(&getContext());
    for (linalg::GenericOp op : ops)
      (void)tcc::flattenElementwise(b, op);
  }
};

} // namespace
