//===- TileTransposes.cpp - tcc-tile-transposes ----------------------------===//
//
// Tiles copies between buffers walked in different orders (transposes) into
// blocks of the two innermost loops, so both sides stay in cache.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_TILETRANSPOSES
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Block edge: 16 floats are one 64-byte cache line.
constexpr int64_t kBlock = 16;

/// The tile sizes for `op` when it copies its one input to its output in
/// a different order (the loops of the two buffers' last indices differ
/// and both are long enough to block), else empty.
SmallVector<int64_t> transposeTiles(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 2 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return {};
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 1 || !yield ||
      yield.getValues() != ValueRange{body->getArgument(0)})
    return {};
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!in.isProjectedPermutation() || !out.isPermutation() ||
      in.getNumResults() == 0)
    return {};
  unsigned inLast = cast<AffineDimExpr>(in.getResults().back()).getPosition();
  unsigned outLast =
      cast<AffineDimExpr>(out.getResults().back()).getPosition();
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  if (inLast == outLast || llvm::any_of(sizes, ShapedType::isDynamic) ||
      sizes[inLast] < kBlock / 2 || sizes[outLast] < kBlock / 2)
    return {};
  SmallVector<int64_t> tiles(sizes.size(), 1);
  tiles[inLast] = tiles[outLast] = kBlock;
  return tiles;
}

struct TileTransposes : tcc::impl::TileTransposesBase<TileTransposes> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      SmallVector<int64_t> tiles = transposeTiles(op);
      if (!tiles.empty())
        work.push_back({op, std::move(tiles)});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, tiles] : work) {
      rewriter.setInsertionPoint(op);
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), tiles));
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue; // left as it is: correct, only slower
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
