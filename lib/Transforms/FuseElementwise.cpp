//===- FuseElementwise.cpp - tcc-fuse-elementwise -------------------------===//
//
// linalg elementwise fusion without recomputation.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// A fused op has at most this many operands and body ops: a chain of
/// 10,000 Adds would otherwise become one op whose every fusion copies all
/// the ones before (quadratic: 75 s), and one kernel of 10,000 buffers.
constexpr unsigned kMaxFusedOperands = 64;
constexpr size_t kMaxFusedBodyOps = 512;

size_t bodySize(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp ? linalgOp.getBlock()->getOperations().size() : 0;
}

/// A producer with one use, whose elements its consumer reads once each,
/// and which leaves the fused op within the limits above.
bool fusesWithoutRecomputing(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  return consumer && consumer.getMatchingIndexingMap(fused).isPermutation() &&
         producer->getNumOperands() + consumer->getNumOperands() <=
             kMaxFusedOperands &&
         bodySize(producer) + bodySize(consumer) <= kMaxFusedBodyOps;
}

/// A generic that names what it computes (`library_call`: a Winograd
/// convolution's contraction runs over the flattened tiles) keeps its loops.
bool keepsItsLoops(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic.getLibraryCall();
}

bool hasOneUseProducer(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse() && !keepsItsLoops(producer) &&
         !keepsItsLoops(fused->getOwner());
}

struct FuseElementwise : tcc::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 fusesWithoutRecomputing);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      hasOneUseProducer);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, hasOneUseProducer);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace
