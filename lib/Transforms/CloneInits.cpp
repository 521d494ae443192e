//===- CloneInits.cpp - tcc-clone-inits -----------------------------------===//
//
// Gives each op that writes into a constant init (a fill, a bias broadcast)
// an init of its own, recomputed, so bufferization does not copy a shared
// one; and each use of a tensor.empty an empty tensor of its own.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_CLONEINITS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Uses of one tensor.empty, at most.
constexpr unsigned kEmptyUses = 32;

/// Whether `op` computes its one result from constants alone: its tensor
/// inputs are constants and its body does not read its init.
bool isConstantInit(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return false;
  return llvm::all_of(op.getDpsInputOperands(), [](OpOperand *in) {
    return !isa<ShapedType>(in->get().getType()) ||
           matchPattern(in->get(), m_Constant());
  });
}

struct CloneInits : tcc::impl::CloneInitsBase<CloneInits> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> inits;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isConstantInit(op))
        inits.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp init : inits) {
      // The ops writing into it, in order; the first keeps the original.
      SmallVector<OpOperand *> writers;
      for (OpOperand &use : init->getResult(0).getUses()) {
        auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
        if (user && user.isDpsInit(&use) &&
            user->getBlock() == init->getBlock())
          writers.push_back(&use);
      }
      if (writers.size() < 2)
        continue;
      llvm::sort(writers, [](OpOperand *a, OpOperand *b) {
        return a->getOwner()->isBeforeInBlock(b->getOwner());
      });
      // Each copy is located at the op it initializes: CSE left the first
      // of the equal inits, located at the first one's.
      init->setLoc(writers.front()->getOwner()->getLoc());
      for (OpOperand *use : llvm::drop_begin(writers)) {
        rewriter.setInsertionPoint(use->getOwner());
        Operation *clone = rewriter.clone(*init);
        clone->setLoc(use->getOwner()->getLoc());
        rewriter.modifyOpInPlace(use->getOwner(),
                                 [&] { use->set(clone->getResult(0)); });
      }
    }
    // An empty tensor for each run of kEmptyUses uses of a tensor.empty in
    // order. CSE makes the empty tensors of a shape one value, which lets
    // one-shot bufferization write consecutive ops into one buffer, but it
    // compares each write into it with every other use: quadratic (12 s for
    // the 1,000 uses of a chain of 333 matmul layers).
    SmallVector<tensor::EmptyOp> empties;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (op.getResult().hasNUsesOrMore(kEmptyUses + 1))
        empties.push_back(op);
    });
    for (tensor::EmptyOp empty : empties) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : empty->getUses())
        if (use.getOwner()->getBlock() == empty->getBlock())
          uses.push_back(&use);
      llvm::sort(uses, [](OpOperand *a, OpOperand *b) {
        return a->getOwner()->isBeforeInBlock(b->getOwner());
      });
      Operation *clone = nullptr;
      for (size_t i = kEmptyUses; i < uses.size(); ++i) {
        Operation *user = uses[i]->getOwner();
        if (i % kEmptyUses == 0) {
          rewriter.setInsertionPoint(user);
          clone = rewriter.clone(*empty);
        }
        rewriter.modifyOpInPlace(user,
                                 [&] { uses[i]->set(clone->getResult(0)); });
      }
    }
  }
};

} // namespace
