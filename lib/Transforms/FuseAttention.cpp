//===- FuseAttention.cpp - tcc-fuse-attention -----------------------------===//
//
// Computes a chain contraction -> elementwise and reduction ops ->
// contraction (attention's QK^T -> softmax -> PV) in blocks of rows, with
// linalg's tile-and-fuse, so that the scores between the two contractions
// stay in cache and take a block's memory per thread, not all of it.
// Whisper-tiny (6 heads x 1500 x 1500 scores, 54 MB a layer): workspace
// 81.7 -> 38.1 MB, bit-identical output; utils/ab.py, 8 rounds x 5 runs,
// 1 thread 437 -> 383 ms, 2 threads 219 -> 220 (its contractions were not
// memory-bound: QK^T and PV ran at 126 and 147 GFLOP/s before).
//
//===----------------------------------------------------------------------===//
#include "tcc/BoundedDims.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_FUSEATTENTION
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_if_present<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumDpsInits() == 1 &&
         linalgOp.getNumDpsInputs() == 2 && tcc::isMultiplyAccumulate(linalgOp);
}

/// What a contraction's input `scores` is computed by.
struct Chain {
  /// The contraction that computes the scores (QK^T).
  linalg::LinalgOp source;
  /// Every op from the source to the input, the source and the ops that
  /// initialize their outputs (fills) included: the ops fused into the
  /// blocks.
  llvm::SmallPtrSet<Operation *, 16> ops;
};

/// Whether `op` makes a tensor from nothing: none of its tensor operands
/// is computed but by a tensor.empty (a fill of one).
bool fromNothing(Operation *op) {
  return llvm::all_of(op->getOperands(), [](Value v) {
    return !isa<RankedTensorType>(v.getType()) ||
           v.getDefiningOp<tensor::EmptyOp>();
  });
}

/// The chain that computes `scores` from one contraction through linalg
/// ops on tensors, none of whose results is used outside the chain and
/// `consumer`; nullopt where there is no such chain.
std::optional<Chain> chainOf(Value scores, Operation *consumer) {
  Chain chain;
  SmallVector<Value> worklist{scores};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || isa<tensor::EmptyOp>(def) || chain.ops.contains(def))
      continue;
    auto op = dyn_cast<linalg::LinalgOp>(def);
    // Loops cut at run time (tcc-cut-run-time-loops) stay whole.
    if (!op || !op.hasPureTensorSemantics() || !isa<TilingInterface>(def) ||
        def->hasAttr(tcc::kLoopExtentsAttr))
      return std::nullopt;
    chain.ops.insert(def);
    if (isContraction(def)) {
      if (chain.source && chain.source != op)
        return std::nullopt; // the scores of two contractions
      chain.source = op;
      // Its inputs (Q, K^T) are computed once, outside the blocks.
      worklist.push_back(op.getDpsInitOperand(0)->get());
      continue;
    }
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        worklist.push_back(operand);
  }
  if (!chain.source)
    return std::nullopt;
  // The chain's ops run in the blocks only: none but those that make a
  // tensor from nothing (a fill of a tensor.empty, which CSE shares among
  // all the layers) may be used elsewhere.
  for (Operation *op : chain.ops)
    for (Operation *user : op->getUsers())
      if (user != consumer && !chain.ops.contains(user) && !fromNothing(op))
        return std::nullopt;
  return chain;
}

/// The largest divisor of `n` no greater than `most` (at least 1).
int64_t largestDivisor(int64_t n, int64_t most) {
  for (int64_t d = std::min(n, most); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

struct FuseAttention : tcc::impl::FuseAttentionBase<FuseAttention> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> consumers;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && isContraction(op))
        consumers.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool fusedAny = false;
    for (linalg::LinalgOp consumer : consumers) {
      FailureOr<bool> fused = fuse(rewriter, consumer);
      if (failed(fused))
        return signalPassFailure();
      fusedAny |= *fused;
    }
    if (!fusedAny)
      return;
    // A block's scores in a buffer of a block's size, not in a slice of
    // one for all of them.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }

  /// Tiles `consumer` along the loops it shares with the scores it reads
  /// and fuses their chain into the tiles, where it reads such scores;
  /// whether it did.
  FailureOr<bool> fuse(RewriterBase &rewriter, linalg::LinalgOp consumer) {
    if (consumer->hasAttr(tcc::kLoopExtentsAttr))
      return false;
    for (OpOperand *in : consumer.getDpsInputOperands()) {
      std::optional<Chain> chain = chainOf(in->get(), consumer);
      if (!chain)
        continue;
      auto scoresType = cast<RankedTensorType>(
          chain->source->getResult(0).getType());
      if (!scoresType.hasStaticShape() ||
          !scoresType.getElementType().isIntOrFloat())
        continue;
      int64_t bytes = scoresType.getNumElements() *
                      llvm::divideCeil(scoresType.getElementTypeBitWidth(), 8);
      if (bytes < minBytes)
        continue;
      // The consumer's parallel loops that index both the scores and the
      // output (batch, heads, query rows): blocks of one along all but the
      // innermost, whole rows along that.
      SmallVector<int64_t> ranges = consumer.getStaticLoopRanges();
      if (llvm::any_of(ranges, ShapedType::isDynamic))
        continue;
      AffineMap inMap = consumer.getMatchingIndexingMap(in);
      AffineMap outMap =
          consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0));
      SmallVector<unsigned> shared;
      for (AffineExpr e : outMap.getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(e);
        if (dim && inMap.isFunctionOfDim(dim.getPosition()))
          shared.push_back(dim.getPosition());
      }
      if (shared.empty())
        continue;
      int64_t blocks = 1;
      for (unsigned d : shared)
        blocks *= ranges[d];
      int64_t rowBytes = bytes / blocks;
      unsigned rowDim = shared.back();
      int64_t rows = largestDivisor(
          ranges[rowDim], std::max<int64_t>(1, blockBytes / rowBytes));
      if (blocks / rows < 2)
        continue; // one block
      SmallVector<OpFoldResult> tileSizes(ranges.size(),
                                          rewriter.getIndexAttr(0));
      for (unsigned d : shared)
        tileSizes[d] = rewriter.getIndexAttr(d == rowDim ? rows : 1);

      // The fill that zeroes the output goes into the blocks too (a copy,
      // where CSE shares it among layers): each block's contraction then
      // starts from zeros in registers (tcc-vectorize-contractions) instead
      // of reading a slice that a separate pass over the whole output
      // zeroed.
      auto fill =
          consumer.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
      if (fill && fromNothing(fill))
        chain->ops.insert(fill);
      scf::SCFTileAndFuseOptions options;
      options.tilingOptions.setTileSizes(tileSizes);
      options.setFusionControlFn(
          [fused = std::move(chain->ops)](tensor::ExtractSliceOp,
                                          OpResult producer,
                  bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (!fused.contains(producer.getOwner()))
              return std::nullopt;
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          });
      rewriter.setInsertionPoint(consumer);
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(consumer.getOperation()),
              options);
      if (failed(tiled))
        return consumer.emitError("tcc-fuse-attention: tiling failed");
      for (OpResult result : consumer->getResults())
        if (Value replacement = tiled->replacements.lookup(result))
          rewriter.replaceAllUsesWith(result, replacement);
      // The blocks of the outermost loop of two or more run on the threads
      // (tcc-parallelize-loops), each with scratch of its own
      // (tcc-plan-workspace); what runs inside them, on one thread.
      for (LoopLikeOpInterface loop : tiled->loops) {
        std::optional<APInt> trips = loop.getStaticTripCount();
        if (trips && trips->getSExtValue() >= 2) {
          loop->setAttr(tcc::attr::kParallel, rewriter.getUnitAttr());
          break;
        }
      }
      rewriter.eraseOp(consumer);
      return true;
    }
    return false;
  }
};

} // namespace
