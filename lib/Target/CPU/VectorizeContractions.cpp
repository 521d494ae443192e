//===- VectorizeContractions.cpp - tcc-vectorize-contractions -------------===//
//
// Register-tiles multiply-accumulate linalg ops on buffers (matmuls,
// convolutions, their batched and broadcast forms) into explicit vector
// code: a tile of the output lives in vector registers for the whole
// reduction, each step loading one row of the operand that runs along the
// vector and broadcasting scalars of the other.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "llvm/Support/SaveAndRestore.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_VECTORIZECONTRACTIONS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// How one op is tiled. Loops are the op's; `vDim` (an output loop) runs
/// along the vector lanes, `uDim` (if any) is unrolled into `rows` rows of
/// accumulators.
struct TilePlan {
  SmallVector<int64_t> sizes;
  unsigned vDim;
  std::optional<unsigned> uDim;
  int64_t lanes;   ///< elements per vector register
  int64_t vectors; ///< vectors per row of the tile
  int64_t rows;
  /// 0 when vDim is the output's last index; otherwise the output's
  /// element stride along vDim (its tiles are gathered and scattered).
  int64_t outStride = 0;
  /// With a strided output whose last index is uDim: a tile's rows are
  /// stored (and the output-shaped buffers its fused ops read are loaded)
  /// as runs of kTransposeBlock along that index, transposed in registers,
  /// instead of scattered (gathered) lane by lane.
  bool transposed = false;
  /// For each input: the step of its last index per step of vDim, or 0
  /// when it does not depend on vDim (a scalar is broadcast).
  SmallVector<int64_t> vStride;
  /// For each input: the position of its index that is vDim when it is
  /// constant and read from packed panels, or -1.
  SmallVector<int> packPos;
  /// For each packed input: its data as panels [ceil(N / width), the
  /// other dims..., width] of width `vectors * lanes` along vDim
  /// (zero-padded), which the kernel reads as one contiguous stream.
  SmallVector<Value> packed;
  /// For each packed input: the order of its other dims in the panels,
  /// those the op's parallel loops index first (a projection's heads in
  /// weights [k, heads, 64]), so that a tile's reduction walks one
  /// contiguous run.
  SmallVector<SmallVector<int64_t>> packOrder;
  /// Whether the loop over tiles along vDim is outside the other output
  /// loops, so that each panel of a packed input is read for all of them
  /// while it is in cache (set when some input is packed).
  bool columnsFirst = false;
  /// Whether tiles prefetch the next panel of their packed inputs (not
  /// when the op runs in a loop of its kernel, an RNN's step, over panels
  /// that stay in L2 from one trip to the next).
  bool prefetchPanels = true;
};

} // namespace

namespace {

/// The constant step of `expr` per unit step of dim `d`, if it is affine
/// in `d` with a constant coefficient.
std::optional<int64_t> coefficient(AffineExpr expr, unsigned d,
                                   unsigned numDims) {
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> shifted;
  for (unsigned i = 0; i < numDims; ++i)
    shifted.push_back(getAffineDimExpr(i, ctx) + (i == d ? 1 : 0));
  AffineExpr diff = simplifyAffineExpr(
      expr.replaceDims(shifted) - expr, numDims, /*numSymbols=*/0);
  if (auto c = dyn_cast<AffineConstantExpr>(diff))
    return c.getValue();
  return std::nullopt;
}

Value strippedBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::CastOp, memref::ReinterpretCastOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Fills the vDim-dependent fields of `plan` for vDim = `v`; false when
/// some operand cannot be read along `v`.
bool planVectorDim(linalg::LinalgOp op, TilePlan &plan, unsigned v,
                   function_ref<bool(Value)> isConstant) {
  plan.vDim = v;
  plan.vStride.clear();
  plan.packPos.clear();
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = cast<MemRefType>(init->get().getType());
  ArrayRef<AffineExpr> outResults =
      op.getMatchingIndexingMap(init).getResults();
  plan.outStride = 0;
  if (!outResults.back().isFunctionOfDim(v)) {
    // Gathered and scattered through a flat view of the output, or (a
    // view such as a padded buffer's interior) only transposed.
    plan.outStride = 1;
    for (int64_t i = outType.getRank() - 1; i >= 0; --i) {
      if (outResults[i].isFunctionOfDim(v))
        break;
      plan.outStride *= outType.getShape()[i];
    }
  }
  unsigned numLoops = plan.sizes.size();
  for (OpOperand *in : op.getDpsInputOperands()) {
    ArrayRef<AffineExpr> results = op.getMatchingIndexingMap(in).getResults();
    int uses = llvm::count_if(
        results, [&](AffineExpr e) { return e.isFunctionOfDim(v); });
    auto plain = llvm::find_if(results, [&](AffineExpr e) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      return dim && dim.getPosition() == v;
    });
    int pos = plain - results.begin();
    // (isConstant: a contiguous run of a constant, whatever its layout.)
    bool packable =
        uses == 1 && plain != results.end() && isConstant(in->get());
    plan.packPos.push_back(packable ? pos : -1);
    if (uses == 0) {
      plan.vStride.push_back(0);
      continue;
    }
    if (packable) {
      plan.vStride.push_back(1);
      continue;
    }
    if (uses != 1 || !results.back().isFunctionOfDim(v))
      return false;
    std::optional<int64_t> step = coefficient(results.back(), v, numLoops);
    if (!step || *step <= 0 || *step > 4)
      return false;
    plan.vStride.push_back(*step);
  }
  return llvm::any_of(plan.vStride, [](int64_t s) { return s != 0; });
}

/// Bytes of a constant operand beyond which reading it once per tile
/// along the vector dim costs more than a strided output (about half of a
/// core's L2).
constexpr int64_t kRereadBytes = 256 * 1024;

/// Rows of a strided output tile transposed in registers together: 8x8
/// blocks of floats (each 8 lanes of a vector), 24 two-source shuffles.
constexpr int64_t kTransposeBlock = 8;

/// The longest reduction dim unrolled inside a tile's step (a 7x7 kernel's
/// rows).
constexpr int64_t kMaxUnrolledReduction = 7;

/// Accumulators of a tile whose rows share their loads through an unrolled
/// reduction (sharesThroughReduction): 16, as 8 rows x 2 vectors, not 12 x
/// 2 (the 12 rows of a 3x3 depthwise convolution load 14 input rows per
/// step). AVX-512, 1 thread, utils/ab.py 7 rounds x 10: EfficientNet-B0
/// 8.84 -> 8.59 ms, MobileNetV2 4.93 -> 4.70.
constexpr int64_t kMaxSharedAccumulators = 16;

/// Whether rows of a tile along output dim `d` share their loads: every
/// input that depends on `d` indexes it together with a short reduction dim
/// (a depthwise convolution's input row oh + kh), which the tile unrolls,
/// so that each input row is loaded once for all the (row, kh) that reach
/// it.
bool sharesThroughReduction(linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                            unsigned d) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool shares = false;
  for (OpOperand *in : op.getDpsInputOperands())
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults()) {
      if (!e.isFunctionOfDim(d))
        continue;
      bool withReduction = false;
      for (unsigned r = 0; r < sizes.size(); ++r)
        withReduction |= iterators[r] == utils::IteratorType::reduction &&
                         sizes[r] > 1 && sizes[r] <= kMaxUnrolledReduction &&
                         e.isFunctionOfDim(r);
      if (!withReduction)
        return false;
      shares = true;
    }
  return shares;
}

/// Rows per tile along a dim of `size`: as many tiles as `maxRows`-row
/// tiles take, their rows spread evenly. A tile of few rows is as slow as
/// one of several (each accumulator waits on its previous FMA): a 7-wide
/// map runs as 4 + 3 rows rather than 6 + 1, a 14-wide one as 5 + 5 + 4.
/// More tiles than that would reread the vector operand more often.
int64_t rowsPerTile(int64_t size, int64_t maxRows) {
  return llvm::divideCeil(size, llvm::divideCeil(size, maxRows));
}

/// Bytes of `operand` that `op` reads: along each of its dims, the values
/// its index takes (a stride-2 convolution's input rows 2 * oh: every other
/// one), as far as the buffer goes.
int64_t footprintBytes(linalg::LinalgOp op, OpOperand *operand,
                       ArrayRef<int64_t> sizes) {
  auto type = cast<MemRefType>(operand->get().getType());
  AffineMap map = op.getMatchingIndexingMap(operand);
  int64_t bytes = 4;
  for (auto [e, extent] : llvm::zip(map.getResults(), type.getShape())) {
    int64_t span = 1, values = 1;
    for (unsigned d = 0; d < sizes.size(); ++d) {
      if (!e.isFunctionOfDim(d))
        continue;
      std::optional<int64_t> step = coefficient(e, d, sizes.size());
      span += (step ? std::abs(*step) : 1) * (sizes[d] - 1);
      values *= sizes[d];
    }
    bytes *= std::min({span, values, extent});
  }
  return bytes;
}

/// Whether the tiles along vDim of `plan` go outside the other output
/// loops, each panel of the packed inputs read while it is in cache by all
/// of them, rather than inside, each slice of the broadcast inputs that one
/// step of those loops reads in cache for all the panels. The first reads
/// the broadcast inputs once per panel and the packed ones once, the second
/// the packed ones once per step of the loops that do not index them and
/// the broadcast ones once; what fits half of the L2 cache is read from
/// beyond it only once. The fewer bytes from beyond L2 win, the panels
/// inside on a tie. A 1x1 convolution 64 -> 256 on 56x56 channels-last
/// (64 KB of weights, 800 KB of pixels, 16 panels) runs the rows of its map
/// outside the panels; 1024 -> 2048 on 7x7 (8 MB of weights, 200 KB of
/// pixels) inside, and so with stride 2 (200 KB of the 800 KB of pixels
/// read; the 7 rows outside reread the weights 7 times: Sapphire Rapids, 1
/// thread, tcc bench: 2.25 -> 1.41 ms); a Winograd contraction its 16
/// products outside (each reads its own slice of the weights).
bool columnsFirst(linalg::LinalgOp op, const TilePlan &plan,
                  int64_t l2Bytes) {
  if (llvm::none_of(plan.packPos, [](int p) { return p >= 0; }))
    return false;
  int64_t panels = llvm::divideCeil(plan.sizes[plan.vDim],
                                    plan.vectors * plan.lanes);
  auto reread = [&](int64_t bytes, int64_t times) {
    return bytes <= l2Bytes / 2 ? bytes : bytes * times;
  };
  int64_t broadcastBytes = 0, packedBytes = 0, packedRereads = 0;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [in, step, pos] :
       llvm::zip(op.getDpsInputOperands(), plan.vStride, plan.packPos)) {
    int64_t bytes = footprintBytes(op, in, plan.sizes);
    if (pos < 0) {
      if (!step)
        broadcastBytes += bytes;
      continue;
    }
    packedBytes += bytes;
    int64_t times = 1;
    AffineMap map = op.getMatchingIndexingMap(in);
    for (unsigned d = 0; d < plan.sizes.size(); ++d)
      if (d != plan.vDim && d != plan.uDim &&
          iterators[d] == utils::IteratorType::parallel &&
          !map.isFunctionOfDim(d))
        times *= plan.sizes[d];
    packedRereads += reread(bytes, times);
  }
  return reread(broadcastBytes, panels) + packedBytes <
         packedRereads + broadcastBytes;
}

/// The plan for `op`, or nullopt when it is not a multiply-accumulate on
/// static f32 buffers this pass can vectorize.
std::optional<TilePlan> planTiles(linalg::LinalgOp op, int64_t lanes,
                                  int64_t accumulators, int64_t l2Bytes,
                                  function_ref<bool(Value)> isConstant) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !tcc::isMultiplyAccumulate(op))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getElementType().isF32() || !type.hasStaticShape() ||
        type.getRank() == 0 || !type.isLastDimUnitStride())
      return std::nullopt;
  }
  OpOperand *init = op.getDpsInitOperand(0);
  Value outBuffer = strippedBuffer(init->get());
  for (OpOperand *in : op.getDpsInputOperands())
    if (strippedBuffer(in->get()) == outBuffer)
      return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (!outMap.isProjectedPermutation() || outMap.getNumResults() == 0)
    return std::nullopt;
  // Gathers and scatters need a flat view of the output; runs stored
  // transposed need only its rows.
  bool contiguousOut =
      cast<MemRefType>(init->get().getType()).getLayout().isIdentity();
  // Whether a plan's strided output tiles can be stored transposed with
  // uDim = `d`: `d` is the output's last index, the vector whole blocks.
  auto transposedAlong = [&](const TilePlan &p, unsigned d) {
    return p.outStride && p.lanes % kTransposeBlock == 0 &&
           outMap.getResults().back() == getAffineDimExpr(d, op.getContext());
  };

  TilePlan plan;
  plan.sizes = op.getStaticLoopRanges();
  if (llvm::any_of(plan.sizes, ShapedType::isDynamic))
    return std::nullopt;
  plan.lanes = lanes;
  int64_t reduction = 1;
  for (auto [size, iterator] :
       llvm::zip(plan.sizes, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      reduction *= size;

  // Batch loops (parallel, indexing every operand) run outside the tiles:
  // a tile rereads one batch's slice of an operand (a Winograd matmul's
  // weights for one of its 16 products), not all of it.
  int64_t batchExtent = 1;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel &&
        llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
          AffineMap map = op.getMatchingIndexingMap(&operand);
          return map.getNumResults() &&
                 map.getResult(0) == getAffineDimExpr(d, op.getContext());
        }))
      batchExtent *= plan.sizes[d];
  // The vector dim: the output loop whose tiles waste the fewest lanes,
  // a strided output costing a gather and a scatter per accumulator
  // (about 64 reduction steps). Ties go to the output's last loop. Big
  // constant operands (weights) the vector dim does not index are read
  // whole for each tile along it, from beyond L2 (a 1x1 or 3x3
  // convolution on a 7x7 or 14x14 map, vectorized along the map's rows,
  // reads its megabytes of weights once per row): half the score, as
  // vectorizing along the weights' output channels reads them once.
  std::optional<TilePlan> best;
  double bestScore = 0;
  for (AffineExpr e : llvm::reverse(outMap.getResults())) {
    unsigned v = cast<AffineDimExpr>(e).getPosition();
    int64_t size = plan.sizes[v];
    if (size < 4 || !planVectorDim(op, plan, v, isConstant))
      continue;
    int64_t vectors = std::min<int64_t>(2, llvm::divideCeil(size, lanes));
    int64_t width = vectors * lanes;
    double used = (double)size / (llvm::divideCeil(size, width) * width);
    // A strided output costs a gather and a scatter per accumulator (about
    // 64 reduction steps), or, transposed in registers (when the output's
    // last loop can be unrolled into the rows), three shuffles each.
    unsigned last = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
    bool transposable = transposedAlong(plan, last) && plan.sizes[last] >= 2;
    if (plan.outStride && !transposable && !contiguousOut)
      continue;
    double cost = !plan.outStride ? 2.0 : transposable ? 8.0 : 64.0;
    double score = used * reduction / (reduction + cost);
    for (auto [in, step] : llvm::zip(op.getDpsInputOperands(), plan.vStride))
      if (!step && isConstant(in->get()) &&
          cast<MemRefType>(in->get().getType()).getNumElements() * 4 /
                  batchExtent >
              kRereadBytes)
        score /= 2;
    if (score > bestScore) {
      bestScore = score;
      plan.vectors = vectors;
      best = plan;
    }
  }
  if (!best)
    return std::nullopt;

  // Unroll another output loop (the one its tiles are transposed along
  // when a strided output has no flat view), preferring one no vector
  // operand depends on (each vector load then feeds every row), then one
  // whose rows share their loads through an unrolled reduction (a
  // depthwise convolution's rows of the map, not its channels: on a 7x7
  // map with a 5x5 kernel, 11 row loads and 5 weight broadcasts per 35
  // FMAs instead of 2 loads per FMA), then the longer (up to a full tile),
  // then one no broadcast operand depends on either (one weight broadcast
  // then serves every row), then the later in the output (its rows are
  // closer together: a channels-last map's W rather than its H, whose 12
  // rows of 256 channels at 56x56 lie 56 KB apart, a stream each for the
  // hardware prefetchers, where along W they are one run of 12 KB. 1
  // thread, medians of 20-30 runs interleaved with onnxruntime: four of
  // ResNet-50's 56x56 bottlenecks of 1x1 convolutions and residual adds
  // 9.96 -> 8.39 ms, at 28x28 6.57 -> 6.97, at 14x14 6.32 -> 6.28;
  // ResNet-50 85.2 -> 79.3, MobileNetV2 8.15 -> 8.06).
  int64_t maxRows = accumulators / best->vectors;
  int64_t bestUnroll = 0;
  for (AffineExpr e : outMap.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (d == best->vDim || best->sizes[d] < 2 ||
        (best->outStride && !contiguousOut && !transposedAlong(*best, d)))
      continue;
    bool reused = true, shared = true;
    for (auto [in, step] :
         llvm::zip(op.getDpsInputOperands(), best->vStride))
      if (op.getMatchingIndexingMap(in).isFunctionOfDim(d))
        (step ? reused : shared) = false;
    int64_t score =
        ((int64_t)reused << 40) |
        ((int64_t)sharesThroughReduction(op, best->sizes, d) << 39) |
        (std::min(best->sizes[d], maxRows) << 1) | (int64_t)shared;
    if (score >= bestUnroll) {
      bestUnroll = score;
      best->uDim = d;
    }
  }
  best->transposed = best->uDim && transposedAlong(*best, *best->uDim);
  // Rows that share their loads through an unrolled reduction keep
  // registers for the input rows they load.
  if (best->uDim && sharesThroughReduction(op, best->sizes, *best->uDim))
    maxRows = std::min(maxRows, kMaxSharedAccumulators / best->vectors);
  // Transposed tiles of kTransposeBlock rows store whole runs.
  best->rows = !best->uDim ? 1
               : best->transposed && maxRows >= kTransposeBlock
                   ? std::min(maxRows - maxRows % kTransposeBlock,
                              best->sizes[*best->uDim])
                   : rowsPerTile(best->sizes[*best->uDim], maxRows);
  if (best->outStride && !best->transposed && !contiguousOut)
    return std::nullopt;
  // Packed inputs that fit in half of L2 stay there from one trip to the
  // next of a loop around the op (an RNN's time steps): its tiles do not
  // prefetch them. A tile of one row (a matrix-vector product: an RNN's
  // step at batch 1) over such inputs takes more vectors along the row,
  // so that independent FMA chains hide each FMA's latency: 8 (4 on
  // narrow vectors). Weights streamed from memory keep 2: wider panels
  // slowed a 1x1000x2048 Gemm from 0.37 to 0.53 ms.
  int64_t packedBytes = 0;
  for (auto [in, pos] : llvm::zip(op.getDpsInputOperands(), best->packPos))
    if (pos >= 0)
      packedBytes +=
          cast<MemRefType>(in->get().getType()).getNumElements() * 4;
  bool cached = packedBytes <= l2Bytes / 2;
  if (cached && best->rows == 1 && !best->outStride)
    best->vectors = std::max<int64_t>(
        best->vectors,
        std::min<int64_t>(accumulators / 3,
                          llvm::divideCeil(best->sizes[best->vDim], lanes)));
  best->prefetchPanels = !(cached && op->getParentOfType<scf::ForOp>());
  best->columnsFirst = columnsFirst(op, *best, l2Bytes);
  // A vector dim no longer than half a register runs on narrower vectors
  // (down to 256 bits): as many instructions, at twice the throughput
  // where 512-bit ops are split in two halves (AMD Zen 4), the same
  // elsewhere.
  while (best->lanes > 8 && best->sizes[best->vDim] * 2 <= best->lanes)
    best->lanes /= 2;
  return best;
}

/// Whether elementwise op `fused` (whose loops are the output's dims) can
/// be evaluated on the vectors of `plan`: each buffer it reads is read at
/// a permutation of the output's indices that skips vDim (a broadcast
/// scalar), is the identity (read like the output) or ends with vDim (a
/// vector load); and, where the output is strided along vDim, whatever is
/// accessed like the output has the output's shape and layout.
bool canFuse(linalg::LinalgOp op, linalg::LinalgOp fused,
             const TilePlan &plan) {
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  std::optional<unsigned> vPos =
      outMap.getResultPosition(getAffineDimExpr(plan.vDim, op.getContext()));
  auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!vPos || fused.getNumLoops() != outType.getRank())
    return false;
  // Tiles evaluate the body on vectors of elements, without their indices.
  if (!fused.getBlock()->getOps<linalg::IndexOp>().empty())
    return false;
  for (OpOperand &operand : fused->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = fused.getMatchingIndexingMap(&operand);
    if (!type.getElementType().isF32() || !type.hasStaticShape() ||
        !map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return false;
    if (!map.isFunctionOfDim(*vPos))
      continue;
    if (map.isIdentity()) {
      // Gathered like the output, or loaded as runs along its last index.
      bool gathered = plan.outStride && !plan.transposed;
      if (!type.isLastDimUnitStride() ||
          (plan.outStride && type.getShape() != outType.getShape()) ||
          (gathered && !type.getLayout().isIdentity()))
        return false;
      continue;
    }
    if (map.getResults().back() != getAffineDimExpr(*vPos, op.getContext()) ||
        !type.isLastDimUnitStride() || fused.isDpsInit(&operand))
      return false;
  }
  return true;
}

/// About how many terms of a reduction are summed before the partial sum
/// is added to the total. 64 rather than 128 brought Inception-v3's logits
/// closer to float64 than onnxruntime's (1.5e-4 vs 1.8e-4) at no measured
/// cost on ResNet-50. 256 (MLAS's K stride for packed weights) is 1-3%
/// faster (1024^3, 128x768x3072, ResNet-50) but leaves Inception-v3's and
/// FCN-ResNet-50's outputs further from float64 than onnxruntime's
/// (utils/model_suite.py's arbiter).
constexpr int64_t kReductionBlock = 64;

/// Bytes of a packed panel's K block that the row tiles share from L1
/// (half of a 32 KB L1 data cache, the rest for the tiles' rows): a panel
/// over more than a quarter of the L2 cache is walked in K blocks of this
/// size (BLIS's kc), every row tile going through one block before the
/// next, the partial sums kept in the output between blocks. Each row tile
/// rereads a whole panel from L2; past a quarter of it, the panel evicts
/// the rows the next panel reads. Below, storing and reloading the partial
/// sums costs what the blocks save. Blocked only where the broadcast
/// operand's rows over one block fit kMaxBlockRowsBytes (half of a 512 KB
/// L2), so the next panel finds them in L2. Measured, 1 thread, tcc bench:
///   AVX2, 512 KB L2 (Zen 3): 128x768x3072 (192 KB panels, a 128 KB block
///   of rows) 8.2-9.0 -> 7.7 ms if blocked; 128x3072x768 (48 KB panels)
///   7.0-7.1 -> 7.6; 1024^3 (a 1 MB block of rows) 26.7-27.1 -> 29.3-31.0.
///   AVX-512, 2 MB L2 (Sapphire Rapids, 32-float panels): 128x768x3072
///   (384 KB panels) 3.3-3.4 -> 3.6-4.0 ms if blocked; 197x3072x768
///   5.5 -> 6.5-7.4; 512x3072x768 13.6-14.8 -> 18.3-19.0.
constexpr int64_t kPanelBlockBytes = 16 * 1024;
/// Times the reduction loop of a tile whose step is one FMA per
/// accumulator is unrolled.
constexpr uint64_t kUnrollSteps = 4;

/// A cache line, the unit of a prefetch.
constexpr int64_t kCacheLineBytes = 64;
constexpr int64_t kMaxBlockRowsBytes = 256 * 1024;

/// Multiply-accumulates below which an op is not split over threads: the
/// hand-out costs a few microseconds.
constexpr int64_t kMinParallelWork = 1 << 17;

/// Iterations of a loop split over threads that share out evenly over 2,
/// 4, 8 or 16 threads: a loop of fewer (the 3 projections of a fused Q/K/V
/// matmul, the 7 rows of a 7x7 map) leaves some threads idle for part of
/// it. Such a loop is split only when no loop inside it has as many
/// iterations with at most kMaxParallelCalls runs of it (each a hand-out).
constexpr int64_t kMinParallelTrips = 16;
constexpr int64_t kMaxParallelCalls = 8;

/// Emits the loop nest of one op.
class TileEmitter {
public:
  TileEmitter(RewriterBase &b, linalg::LinalgOp op, const TilePlan &plan,
              linalg::LinalgOp init, linalg::LinalgOp epilogue,
              int64_t l2Bytes)
      : b(b), op(op), plan(plan), loc(op.getLoc()),
        vecType(VectorType::get({plan.lanes}, b.getF32Type())), init(init),
        epilogue(epilogue), l2Bytes(l2Bytes) {
    for (unsigned d = 0; d < plan.sizes.size(); ++d) {
      bool parallel = op.getIteratorTypesArray()[d] ==
                      utils::IteratorType::parallel;
      if (d == plan.vDim || d == plan.uDim)
        continue;
      if (!parallel && isUnrolledReduction(d))
        unrolled.push_back(d);
      else
        (parallel ? outer : reductions).push_back(d);
    }
    dims.resize(plan.sizes.size());
  }

  void emit() {
    if (plan.outStride && !plan.transposed) {
      // Flat views of the output and of the buffers the fused ops read or
      // write at the output's indices, for gathers and scatters.
      SmallVector<Value> strided{op.getDpsInitOperand(0)->get()};
      for (linalg::LinalgOp fused : {init, epilogue})
        for (OpOperand &operand : fused ? fused->getOpOperands()
                                        : MutableArrayRef<OpOperand>())
          if (isa<MemRefType>(operand.get().getType()) &&
              fused.getMatchingIndexingMap(&operand).isIdentity())
            strided.push_back(operand.get());
      for (Value buffer : strided)
        if (!flat.count(buffer))
          flat[buffer] = memref::CollapseShapeOp::create(
              b, loc, buffer,
              tcc::wholeShapeGroup(
                  cast<MemRefType>(buffer.getType()).getRank()));
      SmallVector<int32_t> offsets;
      for (int64_t l = 0; l < plan.lanes; ++l)
        offsets.push_back(l * plan.outStride);
      laneOffsets = arith::ConstantOp::create(
          b, loc, b.getI32VectorAttr(offsets));
    }
    int64_t work = 1;
    for (int64_t size : plan.sizes)
      work *= size;
    mayParallelize = work >= kMinParallelWork;
    minParallelTrips = parallelTripsThreshold();
    tilesPerPanel = panelTiles();
    if (plan.columnsFirst)
      emitTiles(Level::Columns, 0);
    else
      emitOuter(0, 0);
  }

private:
  /// Whether reduction dim `d` is unrolled inside each step: a short one
  /// (a kernel's rows) that an input indexes together with the unrolled
  /// output dim, as a depthwise convolution's input row oh + kh. Its rows
  /// for (row, kh) repeat for every row + kh that is equal: each is loaded
  /// once per step instead of once per (row, kh).
  bool isUnrolledReduction(unsigned d) {
    if (!plan.uDim || plan.sizes[d] > kMaxUnrolledReduction)
      return false;
    for (OpOperand *in : op.getDpsInputOperands())
      for (AffineExpr e : op.getMatchingIndexingMap(in).getResults())
        if (e.isFunctionOfDim(d) && e.isFunctionOfDim(*plan.uDim))
          return true;
    return false;
  }

  /// Marks `loop` (of `trips` iterations) `tcc.parallel` when it is the
  /// outermost loop worth splitting over threads (tcc-parallelize-loops);
  /// returns whether the loops inside it are then below a parallel one.
  bool markParallel(scf::ForOp loop, int64_t trips) {
    if (!mayParallelize || parallelAbove || trips < minParallelTrips ||
        callsAbove > kMaxParallelCalls)
      return parallelAbove;
    loop->setAttr(tcc::attr::kParallel, b.getUnitAttr());
    return true;
  }

  /// The fewest iterations of the loop to split over threads: kMinParallel
  /// Trips where a loop of as many runs at most kMaxParallelCalls times (in
  /// the order emit() nests them: panels, the other parallel dims, row
  /// tiles; or the other parallel dims first), else 2 (the outermost loop
  /// of two or more).
  int64_t parallelTripsThreshold() {
    SmallVector<int64_t> trips;
    int64_t columns = plan.sizes[plan.vDim] / (plan.vectors * plan.lanes);
    if (plan.columnsFirst)
      trips.push_back(columns);
    for (unsigned d : outer)
      trips.push_back(plan.sizes[d]);
    if (!plan.columnsFirst)
      trips.push_back(columns);
    if (plan.uDim)
      trips.push_back(plan.sizes[*plan.uDim] / plan.rows);
    int64_t calls = 1;
    for (int64_t t : trips) {
      if (t >= kMinParallelTrips && calls <= kMaxParallelCalls)
        return kMinParallelTrips;
      calls *= std::max<int64_t>(t, 1);
    }
    return 2;
  }

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The tiles that read each panel one after another, where the panels
  /// are not walked in K blocks: the row tiles, times the iterations of the
  /// other parallel dims where those run inside the panel loop
  /// (columnsFirst).
  int64_t panelTiles() {
    if (panelBlock())
      return 1;
    int64_t tiles = 1;
    if (plan.columnsFirst)
      for (unsigned d : outer)
        tiles *= plan.sizes[d];
    if (int64_t block = rowBlock())
      return block / plan.rows;
    if (plan.uDim)
      tiles *= llvm::divideCeil(plan.sizes[*plan.uDim], plan.rows);
    return tiles;
  }

  /// Sets tileOrdinal to the current tile's position among the
  /// tilesPerPanel that read the current panel.
  void setTileOrdinal() {
    if (tilesPerPanel == 1)
      return;
    Value ordinal = index(0);
    for (unsigned d : plan.columnsFirst ? ArrayRef<unsigned>(outer)
                                        : ArrayRef<unsigned>())
      ordinal = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, ordinal, index(plan.sizes[d])),
          dims[d]);
    if (plan.uDim) {
      Value row = dims[*plan.uDim];
      if (rowRange)
        row = arith::SubIOp::create(b, loc, row, rowRange->start);
      ordinal = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, ordinal,
              index(llvm::divideCeil(plan.sizes[*plan.uDim], plan.rows))),
          arith::DivUIOp::create(b, loc, row, index(plan.rows)));
    }
    tileOrdinal = ordinal;
  }

  /// A flat view [panels, elements] of input `k`'s packed panels when the
  /// tiles of a panel share out the prefetch of the next one: more than
  /// one tile reads each panel, and each reads all of it (the input's
  /// other indices are reduction dims: a matmul's k, a convolution's taps
  /// and channels); else null.
  Value spreadPrefetch(unsigned k, Value panels) {
    if (tilesPerPanel == 1)
      return {};
    OpOperand *in = op.getDpsInputOperands()[k];
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults())
      for (unsigned d = 0; d < iterators.size(); ++d)
        if (d != plan.vDim && e.isFunctionOfDim(d) &&
            iterators[d] != utils::IteratorType::reduction)
          return {};
    Value &flatPanels = flatPanelViews[panels];
    if (!flatPanels) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(panels);
      auto type = cast<MemRefType>(panels.getType());
      SmallVector<ReassociationIndices> groups = {{0}, {}};
      for (int64_t i = 1; i < type.getRank(); ++i)
        groups.back().push_back(i);
      flatPanels = memref::CollapseShapeOp::create(b, loc, panels, groups);
    }
    return flatPanels;
  }

  /// Loops over the parallel dims that are neither unrolled nor vectorized
  /// (inside the tiles along vDim, `width` wide, when columnsFirst).
  void emitOuter(unsigned i, int64_t width) {
    if (i == outer.size()) {
      if (!plan.columnsFirst)
        return emitRowBlocks();
      return emitPanelBlocks(width);
    }
    unsigned d = outer[i];
    auto loop = scf::ForOp::create(b, loc, index(0), index(plan.sizes[d]),
                                   index(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    dims[d] = loop.getInductionVar();
    llvm::SaveAndRestore<bool> below(parallelAbove,
                                     markParallel(loop, plan.sizes[d]));
    llvm::SaveAndRestore<int64_t> calls(callsAbove,
                                        callsAbove * plan.sizes[d]);
    emitOuter(i + 1, width);
  }

  /// Rows of uDim per block where the panels are walked once per block of
  /// row tiles rather than once for all of them, or 0: the broadcast
  /// operands' rows that one walk over the panels reads (with the outer
  /// dims fixed) do not fit the L2 cache beside a panel, so each panel
  /// would read them from beyond it. Blocks of about equal whole tiles
  /// whose rows fit half of L2 keep them there for every panel (GotoBLAS's
  /// mc); the panels are then read once per block. Measured, 1 thread,
  /// AVX-512, 2 MB L2: whisper-tiny's 1500x1536x384 (2.3 MB of rows, 48
  /// panels of 48 KB; 3 blocks of 504 rows) 9.85 -> 8.36 ms; 1024^3 (4 MB
  /// of rows, 128 KB panels) 10.60 -> 10.04; 128x768x3072 (1.5 MB of rows
  /// beside 384 KB panels) 2.95 -> 3.11 if blocked, so not.
  ///
  /// Where all the panels fit half of L2 but the output that one walk over
  /// them writes does not fit L2, the block is one row tile: the panels
  /// stay in L2 while the output is written row by row rather than in
  /// column strips that each touch every row. Whisper-tiny's QK^T
  /// (6x1500x1500x64: 384 KB of panels, 9 MB of output per head) 9.76 ->
  /// 8.63 ms, its encoder 318 -> 249 ms. BERT-base's weights (2.3 MB and
  /// more) do not fit, so its matmuls keep the panels outermost.
  int64_t rowBlock() {
    if (plan.columnsFirst || !plan.uDim || panelBlock())
      return 0;
    unsigned u = *plan.uDim;
    int64_t width = plan.vectors * plan.lanes;
    if (plan.sizes[plan.vDim] <= width)
      return 0;
    // What one row of uDim reads, one panel and all of them (outer dims
    // fixed).
    SmallVector<int64_t> oneRow(plan.sizes);
    for (unsigned d : outer)
      oneRow[d] = 1;
    oneRow[u] = 1;
    SmallVector<int64_t> onePanel(oneRow);
    onePanel[plan.vDim] = width;
    int64_t rowBytes = 0, panelBytes = 0, panelsBytes = 0;
    for (auto [in, step] :
         llvm::zip(op.getDpsInputOperands(), plan.vStride)) {
      if (!step) {
        rowBytes += footprintBytes(op, in, oneRow);
        continue;
      }
      panelBytes += footprintBytes(op, in, onePanel);
      panelsBytes += footprintBytes(op, in, oneRow);
    }
    int64_t tiles = plan.sizes[u] / plan.rows;
    if (tiles >= 2 && panelsBytes <= l2Bytes / 2 &&
        plan.sizes[u] * plan.sizes[plan.vDim] * 4 > l2Bytes)
      return plan.rows;
    if (!rowBytes || plan.sizes[u] * rowBytes + panelBytes <= l2Bytes)
      return 0;
    int64_t blockTiles =
        std::max<int64_t>(1, l2Bytes / 2 / rowBytes / plan.rows);
    int64_t blocks = llvm::divideCeil(tiles, blockTiles);
    if (blocks < 2)
      return 0;
    return llvm::divideCeil(tiles, blocks) * plan.rows;
  }

  /// The panels, walked once per block of row tiles where rowBlock() says;
  /// the last block, which may be shorter, takes the remainder tile. The
  /// threads share the blocks where there are enough of them (a row tile
  /// each): whisper-tiny's QK^T otherwise ran on one thread.
  void emitRowBlocks() {
    int64_t block = rowBlock();
    if (!block)
      return emitTiles(Level::Columns, 0);
    unsigned u = *plan.uDim;
    int64_t size = plan.sizes[u], full = size - size % plan.rows;
    int64_t blocks = llvm::divideCeil(full, block);
    int64_t last = (blocks - 1) * block;
    {
      auto loop =
          scf::ForOp::create(b, loc, index(0), index(last), index(block));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      rowRange = RowRange{loop.getInductionVar(), block};
      llvm::SaveAndRestore<bool> below(parallelAbove,
                                       markParallel(loop, blocks - 1));
      llvm::SaveAndRestore<int64_t> calls(callsAbove,
                                          callsAbove * (blocks - 1));
      emitTiles(Level::Columns, 0);
    }
    rowRange = RowRange{index(last), size - last};
    emitTiles(Level::Columns, 0);
    rowRange.reset();
  }

  /// The K block length of this op's panels, or 0 where they are not
  /// walked in blocks: one reduction loop (a matmul's k), not unrolled,
  /// outputs stored as plain vectors, rows to share each block, panels
  /// over all of k of more than a quarter of the L2 cache and rows over a
  /// block of at most kMaxBlockRowsBytes. 128x768x3072 (panels of 16 x
  /// 3072 floats, 192 KB) on AVX2 with a 512 KB L2: blocks of 256.
  int64_t panelBlock() {
    if (reductions.size() != 1 || !unrolled.empty() || plan.transposed ||
        plan.outStride || !plan.uDim || plan.sizes[*plan.uDim] <= plan.rows ||
        llvm::none_of(plan.packPos, [](int p) { return p >= 0; }))
      return 0;
    int64_t panelRow = plan.vectors * plan.lanes * 4;
    int64_t k = plan.sizes[reductions.front()];
    int64_t block = kPanelBlockBytes / panelRow / kReductionBlock *
                    kReductionBlock;
    if (block < kReductionBlock || k < 2 * block ||
        k * panelRow <= l2Bytes / 4 ||
        plan.sizes[*plan.uDim] * block * 4 > kMaxBlockRowsBytes)
      return 0;
    return block;
  }

  /// The row tiles of one panel (`width` wide), in K blocks where
  /// panelBlock() says: the first starting from the init, the last ending
  /// with the epilogue, each between them from the partial sums the one
  /// before stored in the contraction's output.
  void emitPanelBlocks(int64_t width) {
    int64_t block = panelBlock();
    if (!block)
      return emitTiles(Level::Rows, width);
    unsigned d = reductions.front();
    int64_t k = plan.sizes[d], blocks = k / block;
    auto emitBlock = [&](Value start, int64_t size, bool first, bool last) {
      kBlock = KBlock{d, start, size, first, last};
      emitTiles(Level::Rows, width);
      kBlock.reset();
    };
    emitBlock(index(0), block, /*first=*/true, /*last=*/false);
    if (blocks > 2) {
      auto loop = scf::ForOp::create(b, loc, index(block),
                                     index((blocks - 1) * block), index(block));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      emitBlock(loop.getInductionVar(), block, false, false);
    }
    emitBlock(index((blocks - 1) * block), k - (blocks - 1) * block,
              /*first=*/false, /*last=*/true);
  }

  /// The bounds of reduction loop `d`: all of it, or the current K block.
  std::pair<Value, Value> reductionBounds(unsigned d) {
    if (kBlock && kBlock->dim == d)
      return {kBlock->start,
              arith::AddIOp::create(b, loc, kBlock->start,
                                    index(kBlock->size))};
    return {index(0), index(plan.sizes[d])};
  }

  enum class Level { Columns, Rows };

  /// Tiles along vDim (outer: a panel of the vector operand is read by
  /// every row tile, from cache), then along uDim; each a loop of full
  /// tiles and one remainder tile.
  void emitTiles(Level level, int64_t width) {
    bool rows = level == Level::Rows;
    if (rows && !plan.uDim)
      return emitTile(1, width);
    if (rows && rowRange)
      return emitRowRange(width);
    unsigned d = rows ? *plan.uDim : plan.vDim;
    int64_t tile = rows ? plan.rows : plan.vectors * plan.lanes;
    int64_t size = plan.sizes[d], full = size - size % tile;
    auto next = [&](int64_t extent) {
      if (rows)
        emitTile(extent, width);
      else if (plan.columnsFirst)
        emitOuter(0, extent);
      else
        emitPanelBlocks(extent);
    };
    if (full > 0) {
      auto loop =
          scf::ForOp::create(b, loc, index(0), index(full), index(tile));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      dims[d] = loop.getInductionVar();
      llvm::SaveAndRestore<bool> below(parallelAbove,
                                       markParallel(loop, full / tile));
      llvm::SaveAndRestore<int64_t> calls(callsAbove,
                                          callsAbove * (full / tile));
      next(tile);
    }
    if (full < size) {
      dims[d] = index(full);
      next(size - full);
    }
  }

  /// The row tiles of the current rowRange: its whole tiles, then a
  /// remainder tile where it ends past the last whole one.
  void emitRowRange(int64_t width) {
    unsigned d = *plan.uDim;
    int64_t whole = rowRange->size - rowRange->size % plan.rows;
    {
      auto loop = scf::ForOp::create(
          b, loc, rowRange->start,
          arith::AddIOp::create(b, loc, rowRange->start, index(whole)),
          index(plan.rows));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      dims[d] = loop.getInductionVar();
      emitTile(plan.rows, width);
    }
    if (whole < rowRange->size) {
      dims[d] = arith::AddIOp::create(b, loc, rowRange->start, index(whole));
      emitTile(rowRange->size - whole, width);
    }
  }

  /// The indices of `operand` for the current loop values, with uDim at
  /// row `row` and vDim at vector `vec`.
  SmallVector<Value> indices(OpOperand *operand, int64_t row, int64_t vec) {
    SmallVector<Value> operands;
    for (unsigned d = 0; d < dims.size(); ++d) {
      Value v = dims[d];
      int64_t offset = d == plan.uDim ? row
                       : d == plan.vDim ? vec * plan.lanes
                                        : 0;
      if (offset)
        v = arith::AddIOp::create(b, loc, v, index(offset));
      operands.push_back(v);
    }
    SmallVector<Value> result;
    AffineMap map = op.getMatchingIndexingMap(operand);
    for (AffineExpr e : map.getResults()) {
      AffineMap one = AffineMap::get(map.getNumDims(), 0, e);
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        result.push_back(operands[dim.getPosition()]);
      else
        result.push_back(affine::AffineApplyOp::create(b, loc, one, operands));
    }
    return result;
  }

  /// The offset of `idx` in the flat (identity-layout) `buffer`.
  Value linearIndex(Value buffer, ArrayRef<Value> idx) {
    ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
    Value linear = idx[0];
    for (size_t i = 1; i < idx.size(); ++i)
      linear = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, linear, index(shape[i])),
          idx[i]);
    return linear;
  }

  Value zeros(VectorType type) {
    return arith::ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(type, 0.0f));
  }

  /// A mask of the first `n` of `width` lanes.
  Value mask(int64_t n, int64_t width) {
    auto type = VectorType::get({width}, b.getI1Type());
    return vector::ConstantMaskOp::create(b, loc, type, ArrayRef<int64_t>{n});
  }

  /// Loads `lanes` values of `operand` stepping by `step` from `idx`;
  /// `valid` of them are read, the rest are zero.
  Value loadVector(Value buffer, ValueRange idx, int64_t step, int64_t valid) {
    int64_t span = step * plan.lanes;
    auto spanType = VectorType::get({span}, b.getF32Type());
    Value loaded;
    if (step == 1 && valid == plan.lanes) {
      loaded = vector::LoadOp::create(b, loc, spanType, buffer, idx);
    } else {
      loaded = vector::MaskedLoadOp::create(
          b, loc, spanType, buffer, idx, mask(step * (valid - 1) + 1, span),
          zeros(spanType));
    }
    if (step == 1)
      return loaded;
    SmallVector<int64_t> picks;
    for (int64_t l = 0; l < plan.lanes; ++l)
      picks.push_back(l * step);
    return vector::ShuffleOp::create(b, loc, loaded, loaded, picks);
  }

  /// One tile of `rows` x `width` output elements (width <= vectors *
  /// lanes; a narrower tile is masked).
  void emitTile(int64_t rows, int64_t width) {
    int64_t vectors = llvm::divideCeil(width, plan.lanes);
    auto validLanes = [&](int64_t vec) {
      return std::min(plan.lanes, width - vec * plan.lanes);
    };
    OpOperand *outOperand = op.getDpsInitOperand(0);
    Value out = outOperand->get();
    SmallVector<Value> accs;
    tileRows = rows;
    tileWidth = width;
    setTileOrdinal();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t v = 0; v < vectors; ++v) {
        SmallVector<Value> idx = indices(outOperand, r, v);
        at = {r, v};
        bool fromInit = init && (!kBlock || kBlock->first);
        accs.push_back(fromInit ? evaluate(init, idx, validLanes(v), nullptr)
                                : loadAtOutput(out, idx, validLanes(v)));
      }
    transposedLoads.clear();

    // A long reduction is summed in blocks of about kReductionBlock terms,
    // each from zero and then added to the running total (as BLAS kernels
    // block K): the rounding error grows with the block length plus the
    // number of blocks rather than with the whole length. The block loop
    // splits the outermost reduction loop whose inner loops (and the
    // reductions unrolled in each step) take at most kReductionBlock terms
    // a step, the loops outside it carry the totals: an NCHW convolution's
    // channels (blocks of 7 channels x 3 x 3 taps), a channels-last one's
    // channels inside its taps (blocks of 64 channels, or 21 x 3 unrolled
    // taps), a matmul's k.
    int64_t inner = 1;
    for (unsigned d : unrolled)
      inner *= plan.sizes[d];
    size_t blocked = reductions.size();
    for (size_t i = reductions.size(); i-- > 0;) {
      if (inner * plan.sizes[reductions[i]] > kReductionBlock) {
        blocked = i;
        break;
      }
      inner *= plan.sizes[reductions[i]];
    }
    int64_t blockSteps = std::max<int64_t>(1, kReductionBlock / inner);
    // Nested loops over `ds` carrying `accs`, each yielding the next's
    // results; the insertion point ends in the innermost body.
    auto openLoops = [&](ArrayRef<unsigned> ds, Value blockStart,
                         Value blockEnd) {
      SmallVector<scf::ForOp> loops;
      for (unsigned d : ds) {
        bool first = loops.empty() && blockStart;
        auto [lo, hi] = first ? std::make_pair(blockStart, blockEnd)
                              : reductionBounds(d);
        auto loop = scf::ForOp::create(b, loc, lo, hi, index(1), accs);
        if (!loops.empty())
          scf::YieldOp::create(b, loc, loop.getResults());
        b.setInsertionPointToStart(loop.getBody());
        dims[d] = loop.getInductionVar();
        accs = llvm::to_vector_of<Value>(loop.getRegionIterArgs());
        loops.push_back(loop);
      }
      return loops;
    };
    ArrayRef<unsigned> allReductions(reductions);
    SmallVector<scf::ForOp> totalLoops =
        openLoops(allReductions.take_front(blocked), Value(), Value());
    scf::ForOp blockLoop;
    Value blockStart, blockEnd, reductionEnd;
    if (blocked < reductions.size()) {
      unsigned d = reductions[blocked];
      auto [lo, hi] = reductionBounds(d);
      blockLoop = scf::ForOp::create(b, loc, lo, hi, index(blockSteps), accs);
      reductionEnd = hi;
      if (!totalLoops.empty())
        scf::YieldOp::create(b, loc, blockLoop.getResults());
      b.setInsertionPointToStart(blockLoop.getBody());
      blockStart = blockLoop.getInductionVar();
      // Whole blocks only (of the reduction, or of a panel's K block): no
      // min, so the rest loop of the block's unrolled loop (start + 64 to
      // start + 64) folds away.
      blockEnd = arith::AddIOp::create(b, loc, blockStart, index(blockSteps));
      int64_t extent =
          kBlock && kBlock->dim == d ? kBlock->size : plan.sizes[d];
      if (extent % blockSteps)
        blockEnd = arith::MinSIOp::create(b, loc, blockEnd, reductionEnd);
      accs.assign(accs.size(), zeros(vecType));
    }
    SmallVector<scf::ForOp> loops = openLoops(
        allReductions.drop_front(blockLoop ? blocked : reductions.size()),
        blockStart, blockEnd);

    // Each operand's value for (row, vector) at the values of the unrolled
    // reductions: loaded once per distinct index (its indexing map at
    // them, which MLIR uniques).
    SmallVector<OpOperand *> inputs = op.getDpsInputOperands();
    SmallVector<DenseMap<AffineMap, Value>> cache(2);
    MLIRContext *ctx = b.getContext();
    SmallVector<int64_t> unrolledAt(unrolled.size(), 0);
    auto operandValue = [&](unsigned k, int64_t r, int64_t v) {
      OpOperand *in = inputs[k];
      AffineMap map = op.getMatchingIndexingMap(in);
      int64_t step = plan.vStride[k];
      int64_t row = plan.uDim && map.isFunctionOfDim(*plan.uDim) ? r : 0;
      int64_t vec = step ? v : 0;
      SmallVector<AffineExpr> at;
      for (unsigned d = 0; d < map.getNumDims(); ++d)
        at.push_back(getAffineDimExpr(d, ctx) +
                     (d == plan.uDim ? row : d == plan.vDim ? vec * plan.lanes : 0));
      for (auto [d, value] : llvm::zip(unrolled, unrolledAt))
        at[d] = getAffineConstantExpr(value, ctx);
      AffineMap key = simplifyAffineMap(map.replaceDimsAndSymbols(
          at, {}, map.getNumDims(), 0));
      Value &value = cache[k][key];
      if (value)
        return value;
      SmallVector<Value> idx = indices(in, row, vec);
      if (Value panels = plan.packed[k]) {
        // Tiles along vDim start at multiples of the panel width.
        int64_t width = plan.vectors * plan.lanes;
        Value panel = arith::DivUIOp::create(b, loc, dims[plan.vDim],
                                             index(width));
        SmallVector<Value> moved{panel};
        for (int64_t d : plan.packOrder[k])
          moved.push_back(idx[d]);
        moved.push_back(index(vec * plan.lanes));
        idx = std::move(moved);
        value = vector::LoadOp::create(b, loc, vecType, panels, idx);
        // The next panel, into cache ahead of its first tile: weights too
        // big to stay in cache between runs come from memory. Where every
        // tile reads the whole panel, the tiles of one panel share out the
        // next (spreadPrefetch): with T' the power of two at most their
        // count, tile t fetches part t mod T' of T', a line of it for every
        // T' the tile reads; else each tile fetches the lines it reads, of
        // the next panel. A shared-out part advances 1/T' as fast as the
        // loads: only the vectors that start a line's worth of it (a
        // line's T' floats of the panel row) prefetch, not every one.
        auto panelsType = cast<MemRefType>(panels.getType());
        int64_t numPanels = panelsType.getDimSize(0);
        Value flatPanels = spreadPrefetch(k, panels);
        int64_t shift = llvm::Log2_64(tilesPerPanel);
        bool prefetchHere =
            !flatPanels ||
            vec * plan.lanes % ((kCacheLineBytes / 4) << shift) == 0;
        if (numPanels > 1 && prefetchHere && plan.prefetchPanels) {
          Value next = arith::MinUIOp::create(
              b, loc, arith::AddIOp::create(b, loc, panel, index(1)),
              index(numPanels - 1));
          if (flatPanels) {
            int64_t panelSize = panelsType.getNumElements() / numPanels;
            Value offset = linearIndex(panels, idx);
            offset = arith::SubIOp::create(
                b, loc, offset,
                arith::MulIOp::create(b, loc, panel, index(panelSize)));
            // In shares of a power of two (no division in the loop: an
            // integer multiply takes a port the FMAs use).
            Value share = arith::AndIOp::create(
                b, loc, tileOrdinal, index((int64_t(1) << shift) - 1));
            Value spread = arith::AddIOp::create(
                b, loc,
                arith::ShRUIOp::create(b, loc, offset, index(shift)),
                arith::MulIOp::create(b, loc, share,
                                      index(panelSize >> shift)));
            memref::PrefetchOp::create(b, loc, flatPanels,
                                       ValueRange{next, spread},
                                       /*isWrite=*/false, /*localityHint=*/2,
                                       /*isDataCache=*/true);
          } else {
            idx[0] = next;
            memref::PrefetchOp::create(b, loc, panels, idx, /*isWrite=*/false,
                                       /*localityHint=*/2,
                                       /*isDataCache=*/true);
          }
        }
      } else if (step) {
        value = loadVector(in->get(), idx, step, validLanes(v));
      } else {
        Value scalar = memref::LoadOp::create(b, loc, in->get(), idx);
        value = vector::BroadcastOp::create(b, loc, vecType, scalar);
      }
      return value;
    };
    SmallVector<Value> next(accs);
    int64_t unrolledSteps = 1;
    for (unsigned d : unrolled)
      unrolledSteps *= plan.sizes[d];
    for (int64_t s = 0; s < unrolledSteps; ++s) {
      for (int64_t i = unrolled.size() - 1, rest = s; i >= 0; --i) {
        unrolledAt[i] = rest % plan.sizes[unrolled[i]];
        rest /= plan.sizes[unrolled[i]];
        dims[unrolled[i]] = index(unrolledAt[i]);
      }
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t v = 0; v < vectors; ++v)
          next[r * vectors + v] = vector::FMAOp::create(
              b, loc, operandValue(0, r, v), operandValue(1, r, v),
              next[r * vectors + v]);
    }

    // Closes the loops `openLoops` made (yielding `next` from the innermost
    // unless a loop inside it already yields), `next` their results.
    auto closeLoops = [&](MutableArrayRef<scf::ForOp> opened, bool yield) {
      if (opened.empty())
        return;
      if (yield)
        scf::YieldOp::create(b, loc, next);
      b.setInsertionPointAfter(opened.front());
      next = llvm::to_vector_of<Value>(opened.front().getResults());
    };
    // The innermost reduction loop: a block's, or (a reduction of at most
    // a block) the innermost of those carrying the totals.
    scf::ForOp innermost = !loops.empty() ? loops.back()
                           : !blockLoop && !totalLoops.empty()
                               ? totalLoops.back()
                               : scf::ForOp();
    closeLoops(loops, /*yield=*/true);
    // A step of one FMA per accumulator (a matmul's, a 1x1 convolution's)
    // is unrolled 4 times: the loop's counters, compare and prefetch
    // address are then paid every fourth step. 1024^3, 1 thread: 10.74 ->
    // 10.59 ms unrolled twice; 4 rather than 2 times (utils/ab.py, 5-7
    // rounds x 10): 1024^3 12.31 -> 11.75 ms, 128x768x3072 3.83 -> 3.68,
    // ResNet-50 52.8 -> 51.7. More than the counters save: a block of 64
    // steps is now a loop of 16 trips, whose exit is likelier predicted.
    // Done once the tile is built: a loop whose trip count 4 does not
    // divide gets a rest loop, whose results replace the loop's in their
    // uses.
    llvm::scope_exit unroll([&] {
      if (innermost && unrolledSteps == 1)
        (void)loopUnrollByFactor(innermost, kUnrollSteps);
    });
    if (blockLoop) {
      for (auto [total, partial] :
           llvm::zip(blockLoop.getRegionIterArgs(), next))
        partial = arith::AddFOp::create(b, loc, total, partial);
      scf::YieldOp::create(b, loc, next);
      b.setInsertionPointAfter(blockLoop);
      next = llvm::to_vector_of<Value>(blockLoop.getResults());
    }
    closeLoops(totalLoops, /*yield=*/!blockLoop);
    // A K block but the last stores its partial sums in the output.
    bool partial = kBlock && !kBlock->last;
    Value target =
        epilogue && !partial ? epilogue.getDpsInitOperand(0)->get() : out;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t v = 0; v < vectors; ++v) {
        SmallVector<Value> idx = indices(outOperand, r, v);
        Value &acc = next[r * vectors + v];
        at = {r, v};
        if (epilogue && !partial)
          acc = evaluate(epilogue, idx, validLanes(v), acc);
        if (plan.transposed)
          continue;
        if (plan.outStride)
          vector::ScatterOp::create(b, loc, Type(), flat.lookup(target),
                                    linearIndex(target, idx), laneOffsets,
                                    mask(validLanes(v), plan.lanes), acc);
        else if (validLanes(v) == plan.lanes)
          vector::StoreOp::create(b, loc, acc, target, idx);
        else
          vector::MaskedStoreOp::create(b, loc, target, idx,
                                        mask(validLanes(v), plan.lanes), acc);
      }
    transposedLoads.clear();
    if (!plan.transposed)
      return;
    for (int64_t v = 0; v < vectors; ++v)
      for (int64_t r0 = 0; r0 < rows; r0 += kTransposeBlock) {
        SmallVector<Value> block;
        for (int64_t r = r0; r < r0 + kTransposeBlock; ++r)
          block.push_back(r < rows ? next[r * vectors + v] : zeros(vecType));
        block = tcc::transposeBlocks(b, loc, block);
        forEachRun(v, r0, validLanes(v), [&](int64_t j, int64_t group,
                                             ArrayRef<Value> idx, Value runMask) {
          Value run = vector::ExtractStridedSliceOp::create(
              b, loc, block[j], ArrayRef<int64_t>{group * kTransposeBlock},
              ArrayRef<int64_t>{kTransposeBlock}, ArrayRef<int64_t>{1});
          if (runMask)
            vector::MaskedStoreOp::create(b, loc, target, idx, runMask, run);
          else
            vector::StoreOp::create(b, loc, run, target, idx);
        });
      }
  }

  /// Calls `fn` for each run of kTransposeBlock output elements along the
  /// last index of the rows r0... of vector `v` of the current tile: its
  /// place j and lane group in the transposed block, its output indices,
  /// and the mask of its elements inside the tile (null when all are).
  void forEachRun(int64_t v, int64_t r0, int64_t valid,
                  function_ref<void(int64_t, int64_t, ArrayRef<Value>, Value)>
                      fn) {
    int64_t inRun = std::min(kTransposeBlock, tileRows - r0);
    Value runMask = inRun < kTransposeBlock ? mask(inRun, kTransposeBlock)
                                            : Value();
    unsigned vIndex = vPos();
    for (int64_t group = 0; group < plan.lanes / kTransposeBlock; ++group)
      for (int64_t j = 0; j < kTransposeBlock; ++j) {
        int64_t lane = group * kTransposeBlock + j;
        if (lane >= valid)
          continue;
        SmallVector<Value> idx =
            indices(op.getDpsInitOperand(0), r0, v);
        idx[vIndex] = arith::AddIOp::create(b, loc, idx[vIndex], index(lane));
        fn(j, group, idx, runMask);
      }
  }

  /// The rows of the current tile's vector `at.second` of output-shaped
  /// `buffer`, loaded as runs along the output's last index and transposed
  /// (once per tile phase: the accumulators' init, the epilogue).
  Value loadTransposed(Value buffer) {
    auto [r, v] = at;
    SmallVector<Value> &loaded = transposedLoads[{buffer, v}];
    if (loaded.empty()) {
      auto runType = VectorType::get({kTransposeBlock}, b.getF32Type());
      int64_t valid = std::min(plan.lanes, tileWidth - v * plan.lanes);
      for (int64_t r0 = 0; r0 < tileRows; r0 += kTransposeBlock) {
        SmallVector<Value> block(kTransposeBlock, zeros(vecType));
        forEachRun(v, r0, valid, [&](int64_t j, int64_t group,
                                     ArrayRef<Value> idx, Value runMask) {
          Value run =
              runMask ? (Value)vector::MaskedLoadOp::create(
                            b, loc, runType, buffer, idx, runMask,
                            zeros(runType))
                      : (Value)vector::LoadOp::create(b, loc, runType, buffer,
                                                      idx);
          block[j] = vector::InsertStridedSliceOp::create(
              b, loc, run, block[j], ArrayRef<int64_t>{group * kTransposeBlock},
              ArrayRef<int64_t>{1});
        });
        llvm::append_range(loaded, tcc::transposeBlocks(b, loc, block));
      }
    }
    return loaded[r];
  }

  /// `valid` lanes of `buffer` (shaped as the output) at output indices
  /// `idx`: a load, or a gather where the output is strided along vDim.
  Value loadAtOutput(Value buffer, ArrayRef<Value> idx, int64_t valid) {
    if (!plan.outStride)
      return loadVector(buffer, idx, 1, valid);
    if (plan.transposed)
      return loadTransposed(buffer);
    return vector::GatherOp::create(b, loc, vecType, flat.lookup(buffer),
                                    linearIndex(buffer, idx), laneOffsets,
                                    mask(valid, plan.lanes), zeros(vecType));
  }

  /// The value of elementwise op `fused` (an output init or an epilogue;
  /// its loops are the output's dims) at the vector of output elements at
  /// `idx`: its operands loaded as vectors (`acc` for the contraction's
  /// output), its body cloned on them.
  Value evaluate(linalg::LinalgOp fused, ArrayRef<Value> idx, int64_t valid,
                 Value acc) {
    Value out = op.getDpsInitOperand(0)->get();
    Block *body = fused.getBlock();
    IRMapping map;
    for (OpOperand &operand : fused->getOpOperands()) {
      bool isInit = fused.isDpsInit(&operand);
      unsigned argNumber = operand.getOperandNumber();
      if (argNumber >= body->getNumArguments())
        continue; // a linalg.map's output has no block argument
      BlockArgument arg = body->getArgument(argNumber);
      if (acc && operand.get() == out) {
        map.map(arg, acc);
      } else if (!isInit) {
        map.map(arg, fusedOperand(fused, operand, idx, valid));
      }
    }
    for (Operation &bodyOp : body->without_terminator()) {
      if (bodyOp.getNumOperands() == 0) { // a constant: broadcast
        Operation *clone = b.clone(bodyOp);
        for (auto [from, to] :
             llvm::zip(bodyOp.getResults(), clone->getResults()))
          map.map(from, vector::BroadcastOp::create(
                            b, loc, VectorType::get({plan.lanes}, to.getType()),
                            to));
        continue;
      }
      for (Value v : bodyOp.getOperands())
        if (!map.contains(v))
          map.map(v, vector::BroadcastOp::create(
                         b, loc, VectorType::get({plan.lanes}, v.getType()),
                         v));
      Operation *clone = b.clone(bodyOp, map);
      for (OpResult result : clone->getResults())
        result.setType(VectorType::get({plan.lanes}, result.getType()));
    }
    Value result = body->getTerminator()->getOperand(0);
    if (Value mapped = map.lookupOrNull(result))
      return mapped;
    return vector::BroadcastOp::create(b, loc, vecType, result); // a constant
  }

  /// Input `operand` of a fused op at output indices `idx`, as a vector.
  Value fusedOperand(linalg::LinalgOp fused, OpOperand &operand,
                     ArrayRef<Value> idx, int64_t valid) {
    Value value = operand.get();
    if (!isa<MemRefType>(value.getType()))
      return vector::BroadcastOp::create(b, loc, vecType, value);
    AffineMap map = fused.getMatchingIndexingMap(&operand);
    SmallVector<Value> at;
    for (AffineExpr e : map.getResults())
      at.push_back(idx[cast<AffineDimExpr>(e).getPosition()]);
    if (!map.isFunctionOfDim(vPos()))
      return vector::BroadcastOp::create(
          b, loc, vecType, memref::LoadOp::create(b, loc, value, at));
    if (map.isIdentity())
      return loadAtOutput(value, at, valid);
    return loadVector(value, at, 1, valid); // vDim is its last index
  }

  /// The position of vDim among the output's indices.
  unsigned vPos() {
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    return *outMap.getResultPosition(b.getAffineDimExpr(plan.vDim));
  }

  RewriterBase &b;
  linalg::LinalgOp op;
  const TilePlan &plan;
  Location loc;
  VectorType vecType;
  SmallVector<unsigned> outer, reductions;
  /// Reduction dims unrolled inside each step (isUnrolledReduction).
  SmallVector<unsigned> unrolled;
  SmallVector<Value> dims;
  /// The fused output init and epilogue (tcc-outline-kernels), or null.
  linalg::LinalgOp init, epilogue;
  /// Bytes of the target's L2 cache (one core's).
  int64_t l2Bytes;
  /// With a strided output: the flat views of the buffers accessed at the
  /// output's indices, and the lanes' offsets in them.
  DenseMap<Value, Value> flat;
  Value laneOffsets;
  /// With transposed tiles: the current tile's rows and width, the
  /// (row, vector) being evaluated, and the rows of the output-shaped
  /// buffers loaded for each vector in the current phase.
  int64_t tileRows = 0, tileWidth = 0;
  std::pair<int64_t, int64_t> at;
  DenseMap<std::pair<Value, int64_t>, SmallVector<Value>> transposedLoads;
  /// Whether the op does enough work to split, and whether the loops being
  /// emitted are inside one marked to be split.
  bool mayParallelize = false, parallelAbove = false;
  /// See parallelTripsThreshold().
  int64_t minParallelTrips = 2;
  /// The iterations of the loops around the one being emitted.
  int64_t callsAbove = 1;
  /// The K block of the row tiles being emitted (emitPanelBlocks): terms
  /// [start, start + size) of reduction loop `dim`; the first starts from
  /// the init, the last ends with the epilogue.
  struct KBlock {
    unsigned dim;
    Value start;
    int64_t size;
    bool first, last;
  };
  std::optional<KBlock> kBlock;
  /// The rows of uDim the row tiles being emitted cover (emitRowBlocks()):
  /// `size` rows from `start`.
  struct RowRange {
    Value start;
    int64_t size;
  };
  std::optional<RowRange> rowRange;
  /// The tiles that read each panel (panelTiles()), and the current tile's
  /// position among them (setTileOrdinal()).
  int64_t tilesPerPanel = 1;
  Value tileOrdinal;
  /// Flat views of packed panels (spreadPrefetch()).
  DenseMap<Value, Value> flatPanelViews;
};

/// A contiguous run of a constant global's elements: the global, and the
/// element at which the run starts.
struct ConstantView {
  memref::GlobalOp global;
  int64_t offset = 0;
  explicit operator bool() const { return bool(global); }
};

/// The constant global `value` reads as one contiguous row-major run (the
/// global itself, a reshape of it, or a view of one slice, such as one
/// direction's weights of an LSTM: W[d]), or null.
ConstantView constantGlobal(Value value, SymbolTable &symbols) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape())
    return {};
  // Views of the global's buffer: their layout's offset counts from the
  // global's first element.
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return {};
  SmallVector<int64_t> contiguous = computeStrides(type.getShape());
  for (auto [d, stride] : llvm::enumerate(strides))
    if (type.getDimSize(d) != 1 && stride != contiguous[d])
      return {};
  while (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp,
                         memref::SubViewOp>(value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  auto get = value.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return {};
  auto global = symbols.lookup<memref::GlobalOp>(get.getName());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      !global.getType().getLayout().isIdentity() ||
      offset + type.getNumElements() > global.getType().getNumElements())
    return {};
  return {global, offset};
}

/// The f32 elements of a constant global's value: raw data, or a splat.
struct FloatData {
  const float *data = nullptr;
  std::optional<float> splat;
  float operator[](int64_t i) const { return splat ? *splat : data[i]; }
};

std::optional<FloatData> floatData(Attribute value, int64_t numElements) {
  FloatData result;
  ArrayRef<char> bytes;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    bytes = blob->getData();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (!dense.getElementType().isF32())
      return std::nullopt;
    if (dense.isSplat()) {
      result.splat = dense.getSplatValue<float>();
      return result;
    }
    bytes = dense.getRawData();
  } else {
    return std::nullopt;
  }
  if ((int64_t)bytes.size() != numElements * 4)
    return std::nullopt;
  result.data = reinterpret_cast<const float *>(bytes.data());
  return result;
}

/// Packs the constant operands of the planned ops: each distinct
/// (global, panel width) once, as a new flat global.
class PanelPacker {
public:
  explicit PanelPacker(ModuleOp module) : module(module), symbols(module) {}

  /// Whether `value` is a constant global this packer can repack.
  bool isPackable(Value value) {
    ConstantView view = constantGlobal(value, symbols);
    return view && floatData(*view.global.getInitialValue(),
                             view.global.getType().getNumElements())
                       .has_value();
  }

  /// Fills `plan.packed` with a view of the panels of each input the plan
  /// reads packed.
  void pack(linalg::LinalgOp op, TilePlan &plan) {
    int64_t width = plan.vectors * plan.lanes;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (auto [k, in] : llvm::enumerate(op.getDpsInputOperands())) {
      plan.packed.push_back(nullptr);
      plan.packOrder.emplace_back();
      if (plan.packPos[k] < 0)
        continue;
      auto type = cast<MemRefType>(in->get().getType());
      int pos = plan.packPos[k];
      ArrayRef<AffineExpr> exprs = op.getMatchingIndexingMap(in).getResults();
      SmallVector<int64_t> &order = plan.packOrder.back();
      for (bool parallel : {true, false})
        for (auto [i, e] : llvm::enumerate(exprs)) {
          auto dim = dyn_cast<AffineDimExpr>(e);
          if ((int)i != pos &&
              parallel == (dim && iterators[dim.getPosition()] ==
                                      utils::IteratorType::parallel))
            order.push_back(i);
        }
      ConstantView view = constantGlobal(in->get(), symbols);
      memref::GlobalOp panels = packedGlobal(view, type, pos, order, width);
      SmallVector<int64_t> shape{
          (int64_t)llvm::divideCeil(type.getShape()[pos], width)};
      for (int64_t d : order)
        shape.push_back(type.getDimSize(d));
      shape.push_back(width);
      OpBuilder b(op);
      auto flat = memref::GetGlobalOp::create(b, op.getLoc(), panels.getType(),
                                              panels.getSymName());
      plan.packed.back() = memref::ExpandShapeOp::create(
          b, op.getLoc(), MemRefType::get(shape, b.getF32Type()), flat,
          tcc::wholeShapeGroup(shape.size()));
      replaced.insert(view.global);
    }
  }

  /// Erases the globals packing replaced that nothing reads any more (the
  /// symbols in use from one walk of the module: a walk per global was
  /// quadratic, 7 s for 333 matmul layers).
  void eraseUnused() {
    llvm::DenseSet<StringAttr> used;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference());
    for (memref::GlobalOp global : replaced)
      if (!used.contains(global.getSymNameAttr()))
        global.erase();
  }

private:
  /// The panels of `view` read as `type`, split along dim `pos` into
  /// panels of `width`, its other dims in `order`: panels[t][i...][w] =
  /// data[the index with dim pos = t * width + w and dim order[j] = i[j]],
  /// zero past the end of dim `pos`.
  memref::GlobalOp packedGlobal(ConstantView view, MemRefType type, int pos,
                                ArrayRef<int64_t> order, int64_t width) {
    memref::GlobalOp global = view.global;
    std::string key;
    llvm::raw_string_ostream os(key);
    os << global.getSymName() << "_" << view.offset << "_" << pos << "_"
       << width << "_" << type;
    for (int64_t d : order)
      os << "_" << d;
    memref::GlobalOp &result = cache[key];
    if (result)
      return result;
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<int64_t> strides = computeStrides(shape);
    int64_t n = shape[pos], count = llvm::divideCeil(n, width);
    FloatData data = *floatData(*global.getInitialValue(),
                                global.getType().getNumElements());
    std::vector<float> out(count * type.getNumElements() / n * width, 0.0f);
    float *dst = out.data();
    SmallVector<int64_t> at(order.size(), 0);
    for (int64_t t = 0; t < count; ++t)
      for (bool more = true; more;) {
        int64_t base = 0;
        for (auto [d, i] : llvm::zip(order, at))
          base += i * strides[d];
        for (int64_t w = 0; w < width && t * width + w < n; ++w)
          dst[w] = data[view.offset + base + (t * width + w) * strides[pos]];
        dst += width;
        // The next index of the other dims, the last fastest.
        more = false;
        for (int64_t j = at.size() - 1; j >= 0 && !more; --j)
          if (++at[j] < shape[order[j]])
            more = true;
          else
            at[j] = 0;
      }
    OpBuilder b(global);
    auto flatType = MemRefType::get({(int64_t)out.size()}, b.getF32Type());
    std::string name = (global.getSymName() + "_panels").str();
    auto value = DenseResourceElementsAttr::get(
        RankedTensorType::get(flatType.getShape(), b.getF32Type()), name,
        HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<float>(out)));
    result = memref::GlobalOp::create(b, global.getLoc(), name,
                                      b.getStringAttr("private"), flatType,
                                      value, /*constant=*/true,
                                      b.getI64IntegerAttr(64));
    symbols.insert(result);
    return result;
  }

  ModuleOp module;
  SymbolTable symbols;
  std::map<std::string, memref::GlobalOp> cache;
  llvm::SetVector<memref::GlobalOp> replaced;
};

/// Collapsed views of buffers, one per buffer and merged dim, made before
/// `before`: the ops of a fused group must see the same value for the same
/// buffer (the tile emitter tells the output from the other operands so).
struct MergedViews {
  Operation *before;
  std::map<std::pair<void *, int64_t>, Value> views;

  /// `value` (static, identity layout) with dims `first` and `first + 1`
  /// merged.
  Value merge(OpBuilder &b, Value value, int64_t first) {
    Value &view = views[{value.getAsOpaquePointer(), first}];
    if (view)
      return view;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(before);
    int64_t rank = cast<MemRefType>(value.getType()).getRank();
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank; ++d)
      if (d == first + 1)
        groups.back().push_back(d);
      else
        groups.push_back({d});
    return view = memref::CollapseShapeOp::create(b, value.getLoc(), value,
                                                  groups);
  }
};

/// Whether `value` is a static buffer with the identity layout.
bool isContiguous(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

/// `op` with its loops `d` and `d + 1` (of one kind) merged into one, on
/// views of its buffers with those dims collapsed: an elementwise op on
/// (n, f, h, w) becomes one on (n, f, p) with p = h * W + w. Made after
/// `op`, which stays. Null when some operand reads one of them but not both
/// as neighbouring results in that order of a contiguous buffer, or the
/// body reads loop indices.
linalg::GenericOp mergeLoops(RewriterBase &b, linalg::GenericOp op,
                             unsigned d, MergedViews &views) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned n = iterators.size();
  if (d + 1 >= n || iterators[d] != iterators[d + 1] ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return {};
  MLIRContext *ctx = op.getContext();
  AffineExpr first = getAffineDimExpr(d, ctx),
             second = getAffineDimExpr(d + 1, ctx);
  SmallVector<AffineExpr> renamed;
  for (unsigned i = 0; i < n; ++i)
    renamed.push_back(getAffineDimExpr(i <= d ? i : i - 1, ctx));
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ArrayRef<AffineExpr> results = map.getResults();
    if (!map.isFunctionOfDim(d) && !map.isFunctionOfDim(d + 1)) {
      maps.push_back(map.replaceDimsAndSymbols(renamed, {}, n - 1, 0));
      operands.push_back(operand.get());
      continue;
    }
    std::optional<unsigned> pos = map.getResultPosition(first);
    if (!map.isProjectedPermutation() || !pos || *pos + 1 >= results.size() ||
        results[*pos + 1] != second || !isContiguous(operand.get()))
      return {};
    SmallVector<AffineExpr> merged;
    for (auto [i, e] : llvm::enumerate(results))
      if (i != *pos + 1)
        merged.push_back(e.replaceDims(renamed));
    maps.push_back(AffineMap::get(n - 1, 0, merged, ctx));
    operands.push_back(views.merge(b, operand.get(), *pos));
  }
  iterators.erase(iterators.begin() + d + 1);
  unsigned numInputs = op.getNumDpsInputs();
  // After `op`, so that the views made later stay before it.
  b.setInsertionPointAfter(op);
  auto merged = linalg::GenericOp::create(
      b, op.getLoc(), TypeRange(), ArrayRef(operands).take_front(numInputs),
      ArrayRef(operands).drop_front(numInputs), maps, iterators);
  b.cloneRegionBefore(op.getRegion(), merged.getRegion(),
                      merged.getRegion().begin());
  merged->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  return merged;
}

/// The ops beside `op` that tcc-outline-kernels fused into it: its output
/// init (a generic or a fill) and its elementwise epilogue (a generic),
/// null where there is none.
std::pair<Operation *, Operation *> fusedNeighbours(Operation *op) {
  Operation *init = op->getPrevNode(), *epilogue = op->getNextNode();
  if (init && !init->hasAttr(tcc::attr::kEpilogueInit))
    init = nullptr;
  if (epilogue && !epilogue->hasAttr(tcc::attr::kEpilogue))
    epilogue = nullptr;
  return {init, epilogue};
}

/// Replaces a contraction's init and epilogue (`fused`, null for none) by
/// the same ops with their loops `pos` and `pos + 1` (the output's dims)
/// merged; false, changing nothing, where one of them does not merge.
bool mergeNeighbours(RewriterBase &b,
                     std::pair<Operation *, Operation *> fused, unsigned pos,
                     MergedViews &views) {
  SmallVector<std::pair<Operation *, Operation *>> done;
  for (Operation *other : {fused.first, fused.second}) {
    if (!other)
      continue;
    Operation *replacement = nullptr;
    if (auto generic = dyn_cast<linalg::GenericOp>(other);
        generic && generic.getNumLoops() == generic.getNumParallelLoops()) {
      replacement = mergeLoops(b, generic, pos, views);
    } else if (auto fill = dyn_cast<linalg::FillOp>(other);
               fill && isContiguous(fill.getOutputs()[0])) {
      Value out = views.merge(b, fill.getOutputs()[0], pos);
      b.setInsertionPointAfter(fill);
      replacement =
          linalg::FillOp::create(b, fill.getLoc(), fill.getInputs()[0], out);
      replacement->setDiscardableAttrs(fill->getDiscardableAttrDictionary());
    }
    if (!replacement) {
      for (auto [old, made] : done)
        b.eraseOp(made);
      return false;
    }
    done.push_back({other, replacement});
  }
  for (auto [old, made] : done) {
    if (views.before == old)
      views.before = made;
    b.replaceOp(old, made);
  }
  return true;
}

/// Erases the views of `views` (whose users are gone).
void eraseViews(RewriterBase &b, MergedViews &views) {
  for (auto &[key, view] : views.views)
    b.eraseOp(view.getDefiningOp());
  views.views.clear();
}

/// Merges the neighbouring loops of contraction `op` that every operand
/// reads together, as neighbouring dims of a contiguous buffer, with its
/// init and epilogue. Whisper-tiny's Q/K/V projections, out(t, h, d) +=
/// x(t, k) * w(k, h, d), become one 1500x384x384 matmul whose row blocks
/// serve all 12 panels, not 6 1500x64x384 ones that each read all of x
/// again; its output projection sums over (h, d) as one loop of 384.
/// Loops of one trip, or of a dynamic size (negative), are left as they
/// are.
void mergeContractionLoops(RewriterBase &b, linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      !tcc::isMultiplyAccumulate(op))
    return;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (unsigned d = 0; d + 1 < sizes.size(); ++d) {
    if (sizes[d] <= 1 || sizes[d + 1] <= 1)
      continue;
    auto fused = fusedNeighbours(op);
    MergedViews views{fused.first ? fused.first : op.getOperation(), {}};
    linalg::GenericOp merged = mergeLoops(b, op, d, views);
    // Parallel loops are the output's dims: its init and epilogue merge
    // the same ones.
    std::optional<unsigned> pos =
        outMap.getResultPosition(getAffineDimExpr(d, op.getContext()));
    if (merged && pos && !mergeNeighbours(b, fused, *pos, views)) {
      b.eraseOp(merged);
      merged = {};
    }
    if (!merged) {
      eraseViews(b, views);
      continue;
    }
    b.eraseOp(op);
    return mergeContractionLoops(b, merged);
  }
}

/// A 1x1 convolution with unit strides on contiguous NCHW buffers is a
/// matmul per image over the flattened map:
///   out[n, f, p] += in[n, c, p] * w[f, c],  p = h * W + w.
/// It becomes that generic on collapsed views (with its init and epilogue,
/// when they flatten too), so the vector dim runs along H * W: a 7x7 map
/// is 49 columns instead of rows of 7, a 14x14 map 196.
void flattenOneByOne(RewriterBase &b, linalg::Conv2DNchwFchwOp conv) {
  Value in = conv.getInputs()[0], filter = conv.getInputs()[1],
        out = conv.getOutputs()[0];
  if (!isContiguous(in) || !isContiguous(out) || !isContiguous(filter) ||
      !llvm::all_of(conv.getStrides().getValues<int64_t>(),
                    [](int64_t s) { return s == 1; }) ||
      !llvm::all_of(conv.getDilations().getValues<int64_t>(),
                    [](int64_t d) { return d == 1; }))
    return;
  ArrayRef<int64_t> fShape = cast<MemRefType>(filter.getType()).getShape();
  ArrayRef<int64_t> inShape = cast<MemRefType>(in.getType()).getShape();
  ArrayRef<int64_t> outShape = cast<MemRefType>(out.getType()).getShape();
  if (fShape[2] != 1 || fShape[3] != 1 || inShape[2] != outShape[2] ||
      inShape[3] != outShape[3] || !tcc::isMultiplyAccumulate(conv))
    return;
  // The init and epilogue tcc-outline-kernels put beside it are flattened
  // too, or the convolution stays as it is.
  auto fused = fusedNeighbours(conv);
  MergedViews views{fused.first ? fused.first : conv.getOperation(), {}};
  if (!mergeNeighbours(b, fused, 2, views))
    return eraseViews(b, views);
  Location loc = conv.getLoc();
  MLIRContext *ctx = b.getContext();
  AffineExpr n = getAffineDimExpr(0, ctx), f = getAffineDimExpr(1, ctx),
             p = getAffineDimExpr(2, ctx), c = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> maps{AffineMap::get(4, 0, {n, c, p}, ctx),
                              AffineMap::get(4, 0, {f, c}, ctx),
                              AffineMap::get(4, 0, {n, f, p}, ctx)};
  Value in3 = views.merge(b, in, 2), out3 = views.merge(b, out, 2);
  Value weights;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(views.before);
    weights = memref::CollapseShapeOp::create(
        b, loc, filter, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  }
  b.setInsertionPoint(conv);
  auto matmul = linalg::GenericOp::create(
      b, loc, TypeRange(), ValueRange{in3, weights}, ValueRange{out3}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::parallel, utils::IteratorType::reduction});
  b.cloneRegionBefore(conv->getRegion(0), matmul.getRegion(),
                      matmul.getRegion().begin());
  b.eraseOp(conv);
}

struct VectorizeContractions
    : tcc::impl::VectorizeContractionsBase<VectorizeContractions> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits < 128 || vectorBits % 32 || registers < 8) {
      getOperation().emitError("vectorize-contractions: bad vector-bits or "
                               "registers option");
      return signalPassFailure();
    }
    int64_t lanes = vectorBits / 32;
    // Leave room for the loaded row and the broadcast scalars: 24
    // accumulators of 32 registers (AVX-512: 12 rows x 2 vectors, not 8 x
    // 2, as BLIS's 32x12 kernel: each loaded row feeds 12 FMAs; 1 thread,
    // tcc bench, 128x768x768 0.75 -> 0.70 ms, 128x3072x768 3.2 -> 2.9),
    // 12 of 16 (AVX2: 6 rows x 2 vectors, not 4 x 2: half as many tiles
    // reread the vector operand, about 10% on a 128x768x768 matmul).
    int64_t accumulators =
        std::min<int64_t>(registers - 4, registers * 3 / 4);
    IRRewriter flattener(&getContext());
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNchwFchwOp conv) { convs.push_back(conv); });
    for (linalg::Conv2DNchwFchwOp conv : convs)
      if (conv.hasPureBufferSemantics())
        flattenOneByOne(flattener, conv);
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.getNumReductionLoops())
        generics.push_back(op);
    });
    for (linalg::GenericOp op : generics)
      mergeContractionLoops(flattener, op);
    PanelPacker packer(getOperation());
    auto isPackable = [&](Value v) { return packer.isPackable(v); };
    std::vector<std::pair<linalg::LinalgOp, TilePlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<TilePlan> plan =
              planTiles(op, lanes, accumulators, l2Bytes, isPackable))
        work.push_back({op, std::move(*plan)});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, plan] : work) {
      // The output init and epilogue tcc-outline-kernels put beside it
      // (before packing puts the panels' views in between).
      auto neighbour = [&](Operation *other, StringRef mark) {
        auto fused = dyn_cast_or_null<linalg::LinalgOp>(other);
        return fused && fused->hasAttr(mark) && canFuse(op, fused, plan)
                   ? fused
                   : linalg::LinalgOp();
      };
      linalg::LinalgOp init = neighbour(op->getPrevNode(), tcc::attr::kEpilogueInit);
      linalg::LinalgOp epilogue = neighbour(op->getNextNode(), tcc::attr::kEpilogue);
      packer.pack(op, plan);
      if (auto kernel = op->getParentOfType<func::FuncOp>())
        kernel->setAttr(tcc::attr::kRegisterTiled, rewriter.getUnitAttr());
      rewriter.setInsertionPoint(op);
      TileEmitter(rewriter, op, plan, init, epilogue, l2Bytes).emit();
      SmallVector<Value> inputs = op.getDpsInputs();
      rewriter.eraseOp(op);
      for (linalg::LinalgOp fused : {init, epilogue})
        if (fused)
          rewriter.eraseOp(fused);
      // The views of weights now read packed, down to their get_global.
      for (auto [input, pos] : llvm::zip(inputs, plan.packPos))
        for (Operation *def = input.getDefiningOp();
             pos >= 0 && def && def->use_empty();) {
          Operation *source = isa<memref::GetGlobalOp>(def)
                                  ? nullptr
                                  : def->getOperand(0).getDefiningOp();
          rewriter.eraseOp(def);
          def = source;
        }
    }
    packer.eraseUnused();
  }
};

} // namespace
