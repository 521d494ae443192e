//===- SplitKernels.cpp - tcc-split-kernels -------------------------------===//
//
// Gives the kernels that tcc-vectorize-contractions did not split over
// threads (elementwise ops, pooling, depthwise convolutions, softmax,
// normalizations) a `tcc.parallel` loop over chunks of a parallel dim.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_SPLITKERNELS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// Iterations below which an op stays on one thread: handing out work
/// costs a few microseconds.
constexpr int64_t kMinSplitWork = 1 << 16;
/// Chunks a dim is split into, at least (when it has that many), so that
/// any thread count up to about this many gets even shares.
constexpr int64_t kMinChunks = 16;

/// Candidate chunk counts tried, at most: a prime size of 2^40 would
/// otherwise be tried 2^40 times (a fuzzer's hang).
constexpr int64_t kMaxChunkSearch = 1 << 20;

/// The smallest count >= min(size, kMinChunks) of equal chunks that `size`
/// splits into (`size` when none is found among the first kMaxChunkSearch).
int64_t chunkCount(int64_t size) {
  int64_t first = std::min(size, kMinChunks);
  for (int64_t n = first; n < size && n < first + kMaxChunkSearch; ++n)
    if (size % n == 0)
      return n;
  return size;
}

/// The step of `e` per step of dim `d` when `e` is `step * d + rest`, with
/// `rest` not a function of `d` (a window's row 2 * t + r), else 0.
int64_t windowStep(AffineExpr e, unsigned d) {
  if (auto dim = dyn_cast<AffineDimExpr>(e))
    return dim.getPosition() == d;
  auto sum = dyn_cast<AffineBinaryOpExpr>(e);
  if (sum && sum.getKind() == AffineExprKind::Add) {
    AffineExpr lhs = sum.getLHS(), rhs = sum.getRHS();
    if (rhs.isFunctionOfDim(d))
      std::swap(lhs, rhs);
    return rhs.isFunctionOfDim(d) ? 0 : windowStep(lhs, d);
  }
  if (sum && sum.getKind() == AffineExprKind::Mul)
    if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS());
        c && c.getValue() > 0 && isa<AffineDimExpr>(sum.getLHS()) &&
        cast<AffineDimExpr>(sum.getLHS()).getPosition() == d)
      return c.getValue();
  return 0;
}

/// Whether the outputs of `op` index loop `d` by a result that is just `d`,
/// and each input by one result `step * d + rest` (or not at all): chunks
/// of `d` are then subviews, an input's window of rows (a Winograd input
/// transform's 4x4 windows 2 apart) as many rows as the chunk reads.
bool isSplittable(linalg::LinalgOp op, unsigned d) {
  for (OpOperand &operand : op->getOpOperands()) {
    bool found = false;
    for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults()) {
      if (!e.isFunctionOfDim(d))
        continue;
      if (found || (op.isDpsInit(&operand) ? !isa<AffineDimExpr>(e)
                                            : !windowStep(e, d)))
        return false;
      found = true;
    }
    if (!found && op.isDpsInit(&operand))
      return false;
  }
  return true;
}

/// Among the dims `allowed` accepts with at least 2 `trips`, the outermost
/// of at least 8, else the one of the most.
std::optional<unsigned> splitDim(ArrayRef<int64_t> trips,
                                 function_ref<bool(unsigned)> allowed) {
  std::optional<unsigned> longest;
  for (unsigned d = 0; d < trips.size(); ++d) {
    if (trips[d] < 2 || !allowed(d))
      continue;
    if (trips[d] >= 8)
      return d;
    if (!longest || trips[d] > trips[*longest])
      longest = d;
  }
  return longest;
}

/// The dim to split: the outermost parallel one of at least 8 iterations,
/// else the longest. A transpose's is, where it can be, one neither side
/// walks contiguously: split along the input's channels, an NHWC -> NCHW
/// transpose of 64 channels read 4 of every 64 floats of each pixel per
/// chunk, too few for the 8x8 register blocks of tcc-tile-transposes
/// (1x112x112x64, 1 thread: 1.3 ms; split along H instead, 0.17 ms).
std::optional<unsigned> chooseDim(linalg::LinalgOp op,
                                  ArrayRef<int64_t> ranges) {
  auto allowed = [&](unsigned d) {
    return op.getIteratorTypesArray()[d] == utils::IteratorType::parallel &&
           isSplittable(op, d);
  };
  if (isa<linalg::TransposeOp>(op.getOperation())) {
    auto innermost = [&](unsigned d) {
      return llvm::any_of(op->getOpOperands(), [&](OpOperand &operand) {
        AffineMap map = op.getMatchingIndexingMap(&operand);
        return map.getNumResults() > 0 &&
               map.getResults().back() == getAffineDimExpr(d, op.getContext());
      });
    };
    if (std::optional<unsigned> d = splitDim(
            ranges, [&](unsigned d) { return allowed(d) && !innermost(d); }))
      return d;
  }
  return splitDim(ranges, allowed);
}

/// A subview of `buffer` (a static memref) that is whole but along the
/// dims `window` lists as (dim, offset, size).
Value subviewOf(OpBuilder &b, Location loc, Value buffer,
                ArrayRef<std::tuple<unsigned, Value, int64_t>> window) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t size : type.getShape())
    sizes.push_back(b.getIndexAttr(size));
  for (auto [dim, offset, size] : window) {
    offsets[dim] = offset;
    sizes[dim] = b.getIndexAttr(size);
  }
  return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
}

/// Makes the linalg.index ops of loop `d` in `chunk` (an op cloned onto
/// subviews that start at `offset` along it) count from the whole op's
/// start again.
void shiftIndices(RewriterBase &b, Operation *chunk, unsigned d,
                  Value offset) {
  chunk->walk([&](linalg::IndexOp idx) {
    if (idx.getDim() != d)
      return;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(idx);
    auto shifted = arith::AddIOp::create(b, idx.getLoc(), idx, offset);
    b.replaceAllUsesExcept(idx, shifted.getResult(), shifted);
  });
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
    ArrayRef<AffineExpr> results =
        op.getMatchingIndexingMap(&operand).getResults();
    const AffineExpr *e = llvm::find_if(
        results, [&](AffineExpr e) { return e.isFunctionOfDim(d); });
    if (!isa<MemRefType>(operand.get().getType()) || e == results.end()) {
      operands.push_back(operand.get());
      continue;
    }
    // A chunk's `step * d + rest` runs over the whole extent less what
    // the other chunks' d add.
    unsigned pos = e - results.begin();
    int64_t step = windowStep(*e, d);
    int64_t extent = cast<MemRefType>(operand.get().getType()).getDimSize(pos);
    Value start = step == 1 ? offset
                            : arith::MulIOp::create(b, loc, offset,
                                                    index(step))
                                  .getResult();
    operands.push_back(subviewOf(b, loc, operand.get(),
                                 {{pos, start, extent - step * (size - tile)}}));
  }
  Operation *chunk = clone(b, op, TypeRange(), operands);
  // linalg.index of dim d counts from the chunk's start now.
  shiftIndices(b, chunk, d, offset);
  b.eraseOp(op);
}

/// Bytes of a chunk of rows, at most, that a row group's ops run on
/// together: the rows stay in L1 from one op to the next.
constexpr int64_t kRowChunkBytes = 16 * 1024;

/// Runs the ops of a row group kernel (`ops`, in order, each marked with
/// its number of row dims by tcc-outline-kernels: leading dims of extent
/// 1, then the group's rows) row by row: a loop nest over the rows (the
/// innermost by chunks of rows that fit kRowChunkBytes) around the ops on
/// subviews of one chunk of rows. One of the loops is marked tcc.parallel
/// when the work is worth splitting.
void splitRows(RewriterBase &b, MutableArrayRef<linalg::LinalgOp> ops) {
  // Each op's leading dims of extent 1, and the rows after them.
  SmallVector<unsigned> units;
  SmallVector<int64_t> extents;
  SmallVector<Value> buffers;
  int64_t work = 0;
  for (linalg::LinalgOp op : ops) {
    units.push_back(0);
    extents = tcc::rowExtents(
        op, op->getAttrOfType<IntegerAttr>(tcc::attr::kRows).getInt(),
        units.back());
    int64_t iterations = 1;
    for (int64_t r : op.getStaticLoopRanges())
      iterations *= r;
    work = std::max(work, iterations);
    llvm::append_range(buffers, op->getOperands());
  }
  int64_t rowBytes = std::max<int64_t>(1, tcc::rowBytes(buffers, extents));
  unsigned numRows = extents.size();
  // The innermost row loop steps by the largest divisor of its extent
  // whose rows fit.
  int64_t chunk = 1;
  for (int64_t c = 1; c <= extents.back(); ++c)
    if (extents.back() % c == 0 && c * rowBytes <= kRowChunkBytes)
      chunk = c;
  SmallVector<int64_t> trips(extents);
  trips.back() /= chunk;
  // Split over threads as a single op's dim would be.
  std::optional<unsigned> parallel;
  if (work >= kMinSplitWork)
    parallel = splitDim(trips, [](unsigned) { return true; });

  linalg::LinalgOp first = ops.front();
  Location loc = first.getLoc();
  b.setInsertionPoint(first);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> offsets;
  for (unsigned d = 0; d < numRows; ++d) {
    int64_t step = d + 1 == numRows ? chunk : 1;
    auto loop = scf::ForOp::create(b, loc, index(0), index(extents[d]),
                                   index(step));
    if (parallel == d)
      loop->setAttr(tcc::attr::kParallel, b.getUnitAttr());
    b.setInsertionPoint(loop.getBody()->getTerminator());
    offsets.push_back(loop.getInductionVar());
  }
  for (auto [op, unit] : llvm::zip(ops, units)) {
    SmallVector<std::tuple<unsigned, Value, int64_t>> window;
    for (unsigned d = 0; d < numRows; ++d)
      window.push_back({unit + d, offsets[d], d + 1 == numRows ? chunk : 1});
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands())
      operands.push_back(
          isa<MemRefType>(operand.get().getType()) &&
                  op.getMatchingIndexingMap(&operand).isFunctionOfDim(0)
              ? subviewOf(b, loc, operand.get(), window)
              : operand.get());
    Operation *row = clone(b, op, TypeRange(), operands);
    row->removeAttr(tcc::attr::kRows);
    // linalg.index of a row dim counts from the chunk's start now.
    for (unsigned d = 0; d < numRows; ++d)
      shiftIndices(b, row, unit + d, offsets[d]);
  }
  for (linalg::LinalgOp op : ops)
    b.eraseOp(op);
}

} // namespace

namespace {

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
    if (parallel || ops.empty())
      return;
    IRRewriter b(&getContext());
    // A row group whose ops another op with memory effects sits between (a
    // contraction's loop nest, when its init and epilogue did not fuse into
    // its tiles) runs op by op: the rows loop would move them across it.
    bool contiguous = llvm::all_of(fn.getBody().front(), [](Operation &op) {
      return isa<linalg::LinalgOp>(op) ||
             op.hasTrait<OpTrait::IsTerminator>() || isMemoryEffectFree(&op);
    });
    if (contiguous && llvm::all_of(ops, [](linalg::LinalgOp op) {
          return op->hasAttr(tcc::attr::kRows);
        }))
      return splitRows(b, ops);
    for (linalg::LinalgOp op : ops)
      op->removeAttr(tcc::attr::kRows);
    if (ops.size() != 1)
      return;
    linalg::LinalgOp op = ops.front();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t work = 1;
    for (int64_t r : ranges)
      work = ShapedType::isDynamic(r) ? 0 : work * r;
    // Each iteration writes every output (a Winograd input transform's 16).
    if (work * op.getNumDpsInits() < kMinSplitWork)
      return;
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
