//===- SplitKernels.cpp - tcc-split-kernels -------------------------------===//
//
// Gives the kernels that tcc-vectorize-contractions did not split over
// threads (elementwise ops, pooling, depthwise convolutions, softmax,
// normalizations) a `tcc.parallel` loop over chunks of a parallel dim.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_SPLITKERNELS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Iterations below which an op stays on one thread: handing out work
/// costs a few microseconds.
constexpr int64_t kMinSplitWork = 1 << 16;
/// Chunks a dim is split into, at least (when it has that many), so that
/// any thread count up to about this many gets even shares.
constexpr int64_t kMinChunks = 16;

/// The smallest count >= min(size, kMinChunks) of equal chunks that `size`
/// splits into.
int64_t chunkCount(int64_t size) {
  for (int64_t n = std::min(size, kMinChunks); n < size; ++n)
    if (size % n == 0)
      return n;
  return size;
}

/// Whether every operand of `op` indexes loop `d` by a result that is just
/// `d` (or not at all), and the outputs do: chunks of `d` are then
/// subviews.
bool isSplittable(linalg::LinalgOp op, unsigned d) {
  for (OpOperand &operand : op->getOpOperands()) {
    bool found = false;
    for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
      if (!e.isFunctionOfDim(d))
        continue;
      if (found || !isa<AffineDimExpr>(e))
        return false;
      found = true;
    }
    if (!found && op.isDpsInit(&operand))
      return false;
  }
  return true;
}

/// The dim to split: the outermost parallel one of at least 8 iterations,
/// else the longest.
std::optional<unsigned> chooseDim(linalg::LinalgOp op,
                                  ArrayRef<int64_t> ranges) {
  std::optional<unsigned> longest;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (op.getIteratorTypesArray()[d] != utils::IteratorType::parallel ||
        ranges[d] < 2 || !isSplittable(op, d))
      continue;
    if (ranges[d] >= 8)
      return d;
    if (!longest || ranges[d] > ranges[*longest])
      longest = d;
  }
  return longest;
}

/// Replaces `op` by a loop over `chunks` chunks of dim `d` (of `size`
/// iterations), marked tcc.parallel, running `op` on subviews.
void split(RewriterBase &b, linalg::LinalgOp op, unsigned d, int64_t size,
           int64_t chunks) {
  Location loc = op.getLoc();
  int64_t tile = size / chunks;
  b.setInsertionPoint(op);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto loop = scf::ForOp::create(b, loc, index(0), index(chunks), index(1));
  loop->setAttr(tcc::attr::kParallel, b.getUnitAttr());
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value offset = arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                       index(tile));
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> pos = map.getResultPosition(b.getAffineDimExpr(d));
    if (!type || !pos) {
      operands.push_back(operand.get());
      continue;
    }
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                             b.getIndexAttr(1));
    for (int64_t s : type.getShape())
      sizes.push_back(b.getIndexAttr(s));
    offsets[*pos] = offset;
    sizes[*pos] = b.getIndexAttr(tile);
    operands.push_back(
        memref::SubViewOp::create(b, loc, operand.get(), offsets, sizes,
                                  strides));
  }
  Operation *chunk = clone(b, op, TypeRange(), operands);
  // linalg.index of dim d counts from the chunk's start now.
  chunk->walk([&](linalg::IndexOp idx) {
    if (idx.getDim() != d)
      return;
    b.setInsertionPointAfter(idx);
    auto shifted = arith::AddIOp::create(b, loc, idx, offset);
    b.replaceAllUsesExcept(idx, shifted.getResult(), shifted);
  });
  b.eraseOp(op);
}

struct SplitKernels : tcc::impl::SplitKernelsBase<SplitKernels> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn->hasAttr(tcc::attr::kKernel))
      return;
    bool parallel = false;
    SmallVector<linalg::LinalgOp> ops;
    fn.walk([&](Operation *op) {
      parallel |= op->hasAttr(tcc::attr::kParallel);
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && linalgOp.hasPureBufferSemantics() &&
          op->getParentOp() == fn)
        ops.push_back(linalgOp);
    });
    if (parallel || ops.size() != 1)
      return;
    linalg::LinalgOp op = ops.front();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t work = 1;
    for (int64_t r : ranges)
      work = ShapedType::isDynamic(r) ? 0 : work * r;
    if (work < kMinSplitWork)
      return;
    IRRewriter b(&getContext());
    // An elementwise op on contiguous buffers: equal runs of its elements.
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        generic && tcc::isFlattenable(generic)) {
      int64_t chunks = chunkCount(work);
      if (chunks <= work / 64)
        return split(b, tcc::flattenElementwise(b, generic), 0, work, chunks);
    }
    if (std::optional<unsigned> d = chooseDim(op, ranges))
      split(b, op, *d, ranges[*d], chunkCount(ranges[*d]));
  }
};

} // namespace
