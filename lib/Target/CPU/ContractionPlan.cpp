//===- ContractionPlan.cpp - which contractions are tiled, and how -------===//
//
// The plans of tcc-vectorize-contractions (Contractions.h): for a
// multiply-accumulate linalg op on buffers, the loop along the vector lanes,
// the unrolled rows, the tile sizes, which constant inputs are read as
// packed panels; and which of its neighbours fuse into the tiles.
//
//===----------------------------------------------------------------------===//
#include "Contractions.h"
#include "tcc/Target/CPU/Passes.h"

#include "llvm/Support/SaveAndRestore.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>

using namespace mlir;
using namespace tcc::cpu;

namespace tcc::cpu {

/// The constant step of `expr` per unit step of dim `d`, if it is affine
/// in `d` with a constant coefficient.
static std::optional<int64_t> coefficient(AffineExpr expr, unsigned d,
                                          unsigned numDims) {
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> shifted;
  for (unsigned i = 0; i < numDims; ++i)
    shifted.push_back(getAffineDimExpr(i, ctx) + (i == d ? 1 : 0));
  AffineExpr diff = simplifyAffineExpr(expr.replaceDims(shifted) - expr,
                                       numDims, /*numSymbols=*/0);
  if (auto c = dyn_cast<AffineConstantExpr>(diff))
    return c.getValue();
  return std::nullopt;
}

static Value strippedBuffer(Value v) {
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
static bool planVectorDim(linalg::LinalgOp op, TilePlan &plan, unsigned v,
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
static bool sharesThroughReduction(linalg::LinalgOp op, ArrayRef<int64_t> sizes,
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
static int64_t rowsPerTile(int64_t size, int64_t maxRows) {
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
static bool columnsFirst(linalg::LinalgOp op, const TilePlan &plan,
                         int64_t l2Bytes) {
  if (llvm::none_of(plan.packPos, [](int p) { return p >= 0; }))
    return false;
  int64_t panels =
      llvm::divideCeil(plan.sizes[plan.vDim], plan.vectors * plan.lanes);
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
/// Which input of `op` is the u8 one when its body sums the products of a
/// u8 and an s8 input into i32 (extui(a) * extsi(b) + out), else nullopt.
static std::optional<unsigned> unsignedInputOfInt8Dot(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      body->getNumArguments() != 3 || body->getOperations().size() != 5)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddIOp>();
  Value out = body->getArgument(2);
  if (!add || !add.getType().isInteger(32) ||
      (add.getLhs() == out) == (add.getRhs() == out))
    return std::nullopt;
  auto mul = (add.getLhs() == out ? add.getRhs() : add.getLhs())
                 .getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  auto ext = [&](Value v, bool isUnsigned) -> std::optional<unsigned> {
    Operation *def = v.getDefiningOp();
    if (!def ||
        (isUnsigned ? !isa<arith::ExtUIOp>(def) : !isa<arith::ExtSIOp>(def)))
      return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(def->getOperand(0));
    if (!arg || arg.getOwner() != body || arg.getArgNumber() > 1 ||
        !arg.getType().isInteger(8))
      return std::nullopt;
    return arg.getArgNumber();
  };
  for (auto [u, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    std::optional<unsigned> a = ext(u, true), b = ext(s, false);
    if (a && b && *a != *b)
      return *a;
  }
  return std::nullopt;
}

std::optional<TilePlan> planTiles(linalg::LinalgOp op, int64_t lanes,
                                  int64_t accumulators, int64_t l2Bytes,
                                  function_ref<bool(Value)> isConstant,
                                  bool int8Dot) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  // f32 products, or (with VNNI) u8 x s8 ones summed in i32.
  std::optional<unsigned> unsignedInput;
  if (!tcc::isMultiplyAccumulate(op)) {
    unsignedInput = int8Dot ? unsignedInputOfInt8Dot(op) : std::nullopt;
    if (!unsignedInput)
      return std::nullopt;
  }
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    Type element = type ? type.getElementType() : Type();
    bool typed = unsignedInput ? element && (op.isDpsInit(&operand)
                                                 ? element.isInteger(32)
                                                 : element.isInteger(8))
                               : element && element.isF32();
    if (!typed || !type.hasStaticShape() || type.getRank() == 0 ||
        !type.isLastDimUnitStride())
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
    unsigned last =
        cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
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
    for (auto [in, step] : llvm::zip(op.getDpsInputOperands(), best->vStride))
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
      packedBytes += cast<MemRefType>(in->get().getType()).getNumElements() * 4;
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
  if (unsignedInput) {
    // The s8 input packed in quads, the u8 one broadcast a quad at a time,
    // stored plainly (no gathers: they would be of i32).
    best->int8 = true;
    if (best->outStride || best->packPos[1 - *unsignedInput] < 0 ||
        !planPairs(op, *best, /*group=*/4))
      return std::nullopt;
  }
  return best;
}

bool isUnrolledReduction(linalg::LinalgOp op, const TilePlan &plan,
                         unsigned d) {
  if (!plan.uDim || plan.sizes[d] > kMaxUnrolledReduction)
    return false;
  for (OpOperand *in : op.getDpsInputOperands())
    for (AffineExpr e : op.getMatchingIndexingMap(in).getResults())
      if (e.isFunctionOfDim(d) && e.isFunctionOfDim(*plan.uDim))
        return true;
  return false;
}

bool planPairs(linalg::LinalgOp op, TilePlan &plan, int64_t group) {
  if (plan.lanes != 4 && plan.lanes != 8 && plan.lanes != 16)
    return false;
  // One input packed, the other broadcast along the vector.
  int packed = -1;
  for (auto [k, pos] : llvm::enumerate(plan.packPos))
    if (pos >= 0) {
      if (packed >= 0)
        return false;
      packed = k;
    }
  if (packed < 0 || plan.vStride[1 - packed] != 0)
    return false;
  // The innermost reduction loop the tiles run (the emitter's loops are in
  // dim order, unrolled ones inside each step).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> pair;
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction &&
        !isUnrolledReduction(op, plan, d))
      pair = d;
  if (!pair || plan.sizes[*pair] % group)
    return false;
  // The packed input indexes it by itself, at one index (halved in the
  // panels).
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperands()[packed]);
  std::optional<unsigned> pos =
      map.getResultPosition(getAffineDimExpr(*pair, op.getContext()));
  if (!pos || (int)*pos == plan.packPos[packed])
    return false;
  for (auto [i, e] : llvm::enumerate(map.getResults()))
    if (i != *pos && e.isFunctionOfDim(*pair))
      return false;
  plan.pairDim = *pair;
  plan.pairPos = *pos;
  plan.group = group;
  return true;
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
    // Gathers, scatters and transposed runs are of f32; an int8 plan's
    // plain loads and stores of any type (its requantization to u8).
    if ((!type.getElementType().isF32() && !plan.int8) ||
        !type.hasStaticShape() ||
        !map.isProjectedPermutation(/*allowZeroInResults=*/true))
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

} // namespace tcc::cpu
