//===- InterchangeReductions.cpp - tcc-interchange-reductions -------------===//
//
// Makes the output's innermost parallel dim the innermost loop of
// contractions, so the inner loop is unit-stride and free of a
// loop-carried sum.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_INTERCHANGEREDUCTIONS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// The new loop order for `op` (new position -> old loop), or empty when
/// it should keep its order.
SmallVector<unsigned> innermostParallelOrder(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = iterators.size();
  if (numLoops < 2 || op.getNumDpsInits() != 1 ||
      iterators.back() != utils::IteratorType::reduction)
    return {};
  // The output's last index must be a plain parallel loop p.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0)
    return {};
  auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!last || iterators[last.getPosition()] != utils::IteratorType::parallel)
    return {};
  unsigned p = last.getPosition();
  // ... which some input walks in its last dim, so that the inner loop
  // is (nearly) unit-stride there too.
  bool inputWalksP = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    AffineMap map = op.getMatchingIndexingMap(in);
    return map.getNumResults() > 0 &&
           map.getResults().back().isFunctionOfDim(p);
  });
  if (!inputWalksP)
    return {};
  // Keep the other loops in order, reductions after parallels, p last.
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != p && iterators[d] == utils::IteratorType::parallel)
      order.push_back(d);
  for (unsigned d = 0; d < numLoops; ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      order.push_back(d);
  order.push_back(p);
  return order;
}

struct InterchangeReductions
    : tcc::impl::InterchangeReductionsBase<InterchangeReductions> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<unsigned>>> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (SmallVector<unsigned> order = innermostParallelOrder(op);
          !order.empty())
        ops.push_back({op, std::move(order)});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, order] : ops) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> general =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(general))
          continue;
        generic = *general;
      }
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
