//===- TileTransposes.cpp - tcc-tile-transposes ----------------------------===//
//
// Copies between buffers walked in different orders (transposes) run in
// blocks of the two innermost loops, so both sides stay in cache: 8x8
// blocks of 32-bit elements transposed in vector registers, or, for other
// element types, 16x16 tiles of scalar copies.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_TILETRANSPOSES
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

SmallVector<Value> tcc::transposeBlocks(OpBuilder &b, Location loc,
                                        ArrayRef<Value> rows) {
  int64_t block = rows.size();
  int64_t lanes = cast<VectorType>(rows.front().getType()).getNumElements();
  SmallVector<Value> current(rows);
  for (int64_t d = block / 2; d >= 1; d /= 2) {
    SmallVector<Value> next(block);
    for (int64_t i = 0; i < block; ++i) {
      if (i & d)
        continue;
      SmallVector<int64_t> low, high;
      for (int64_t l = 0; l < lanes; ++l) {
        // Lanes of the first row, then (+ lanes) of the second.
        low.push_back(l & d ? lanes + l - d : l);
        high.push_back(l & d ? lanes + l : l + d);
      }
      next[i] = vector::ShuffleOp::create(b, loc, current[i], current[i + d],
                                          low);
      next[i + d] = vector::ShuffleOp::create(b, loc, current[i],
                                              current[i + d], high);
    }
    current = std::move(next);
  }
  return current;
}

namespace {

/// Tile edge of the scalar copies: 16 floats are one 64-byte cache line.
constexpr int64_t kBlock = 16;

/// Edge of the blocks transposed in registers: 8 loads of 8 lanes, 24
/// shuffles, 8 stores (AVX2 or AVX-512).
constexpr int64_t kVectorBlock = 8;

/// The loops of a copy in a different order: `inLast` is the input's last
/// index, `outLast` the output's.
struct TransposeLoops {
  unsigned inLast, outLast;
  SmallVector<int64_t> sizes;
};

/// The loops of `op` when it copies its one input to its output in a
/// different order (the loops of the two buffers' last indices differ and
/// both are long enough to block).
std::optional<TransposeLoops> transposeLoops(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 2 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 1 || !yield ||
      yield.getValues() != ValueRange{body->getArgument(0)})
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!in.isProjectedPermutation() || !out.isPermutation() ||
      in.getNumResults() == 0)
    return std::nullopt;
  TransposeLoops loops;
  loops.inLast = cast<AffineDimExpr>(in.getResults().back()).getPosition();
  loops.outLast = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  loops.sizes = op.getStaticLoopRanges();
  if (loops.inLast == loops.outLast ||
      llvm::any_of(loops.sizes, ShapedType::isDynamic) ||
      loops.sizes[loops.inLast] < kBlock / 2 ||
      loops.sizes[loops.outLast] < kBlock / 2)
    return std::nullopt;
  return loops;
}

/// Whether the copy can be transposed in registers: 32-bit elements, each
/// buffer contiguous along its last index.
bool isVectorizable(linalg::LinalgOp op) {
  for (Value buffer : {op.getDpsInputOperand(0)->get(),
                       op.getDpsInitOperand(0)->get()}) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() != 32 || !type.isLastDimUnitStride())
      return false;
  }
  return true;
}

/// Emits a transposing copy as 8x8 blocks of (outLast, inLast): each block
/// loads 8 runs along the input's last index, transposes them in
/// registers and stores 8 runs along the output's. The blocks at the ends
/// of the two loops are masked; the loops along the other dims are scalar.
class TransposeEmitter {
public:
  TransposeEmitter(RewriterBase &b, linalg::LinalgOp op,
                   const TransposeLoops &loops)
      : b(b), op(op), loops(loops), loc(op.getLoc()),
        iv(loops.sizes.size()) {
    Type elem = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType())
                    .getElementType();
    vecType = VectorType::get({kVectorBlock}, elem);
  }

  void emit() { emitOuter(0); }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  void emitOuter(unsigned d) {
    if (d == loops.sizes.size())
      return emitBlocks(loops.inLast, [&](int64_t inRun) {
        emitBlocks(loops.outLast,
                   [&](int64_t outRun) { emitBlock(inRun, outRun); });
      });
    if (d == loops.inLast || d == loops.outLast)
      return emitOuter(d + 1);
    auto loop = scf::ForOp::create(b, loc, index(0), index(loops.sizes[d]),
                                   index(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    iv[d] = loop.getInductionVar();
    emitOuter(d + 1);
  }

  /// A loop of full blocks along loop `d` and one partial block; `fn`
  /// emits a block of the given extent along `d`.
  void emitBlocks(unsigned d, function_ref<void(int64_t)> fn) {
    int64_t size = loops.sizes[d], full = size - size % kVectorBlock;
    if (full > 0) {
      auto loop = scf::ForOp::create(b, loc, index(0), index(full),
                                     index(kVectorBlock));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      iv[d] = loop.getInductionVar();
      fn(kVectorBlock);
    }
    if (full < size) {
      iv[d] = index(full);
      fn(size - full);
    }
  }

  /// The indices of `operand` at the current loop values, `outRow` along
  /// outLast and `inRow` along inLast from them.
  SmallVector<Value> indices(OpOperand *operand, int64_t outRow,
                             int64_t inRow) {
    SmallVector<Value> result;
    for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      int64_t offset = d == loops.outLast ? outRow
                       : d == loops.inLast ? inRow
                                           : 0;
      result.push_back(offset ? arith::AddIOp::create(b, loc, iv[d],
                                                      index(offset))
                                    .getResult()
                              : iv[d]);
    }
    return result;
  }

  Value mask(int64_t n) {
    auto type = VectorType::get({kVectorBlock}, b.getI1Type());
    return vector::ConstantMaskOp::create(b, loc, type, ArrayRef<int64_t>{n});
  }

  /// One block: `inRun` elements along inLast by `outRun` along outLast.
  void emitBlock(int64_t inRun, int64_t outRun) {
    OpOperand *in = op.getDpsInputOperand(0), *out = op.getDpsInitOperand(0);
    Value zeros = arith::ConstantOp::create(b, loc, vecType,
                                            b.getZeroAttr(vecType));
    SmallVector<Value> rows(kVectorBlock, zeros);
    Value inMask = inRun < kVectorBlock ? mask(inRun) : Value();
    for (int64_t r = 0; r < outRun; ++r) {
      SmallVector<Value> idx = indices(in, r, 0);
      rows[r] = inMask ? (Value)vector::MaskedLoadOp::create(
                             b, loc, vecType, in->get(), idx, inMask, zeros)
                       : (Value)vector::LoadOp::create(b, loc, vecType,
                                                       in->get(), idx);
    }
    rows = tcc::transposeBlocks(b, loc, rows);
    Value outMask = outRun < kVectorBlock ? mask(outRun) : Value();
    for (int64_t r = 0; r < inRun; ++r) {
      SmallVector<Value> idx = indices(out, 0, r);
      if (outMask)
        vector::MaskedStoreOp::create(b, loc, out->get(), idx, outMask,
                                      rows[r]);
      else
        vector::StoreOp::create(b, loc, rows[r], out->get(), idx);
    }
  }

  RewriterBase &b;
  linalg::LinalgOp op;
  const TransposeLoops &loops;
  Location loc;
  VectorType vecType;
  /// The current value of each loop.
  SmallVector<Value> iv;
};

struct TileTransposes : tcc::impl::TileTransposesBase<TileTransposes> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, TransposeLoops>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<TransposeLoops> loops = transposeLoops(op))
        work.push_back({op, std::move(*loops)});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, loops] : work) {
      rewriter.setInsertionPoint(op);
      if (isVectorizable(op)) {
        TransposeEmitter(rewriter, op, loops).emit();
        rewriter.eraseOp(op);
        continue;
      }
      SmallVector<int64_t> tiles(loops.sizes.size(), 1);
      tiles[loops.inLast] = tiles[loops.outLast] = kBlock;
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
