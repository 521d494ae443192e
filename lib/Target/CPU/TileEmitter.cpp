//===- TileEmitter.cpp - the loop nest and registers of a tile -----------===//
//
// tcc-vectorize-contractions' emission (Contractions.h): the loops over
// tiles (split over threads, blocked along the reduction), and in each a
// tile of the output in vector registers for the whole reduction, each
// step loading one row of the operand that runs along the vector and
// broadcasting scalars (or groups) of the other into the multiply-
// accumulate of the plan's precision (DotProduct.h: f32 FMAs, bf16 pairs,
// int8 quads), with the fused init and epilogue applied to the registers.
//
//===----------------------------------------------------------------------===//
#include "Contractions.h"
#include "DotProduct.h"
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

namespace {

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
              linalg::LinalgOp init, linalg::LinalgOp epilogue, int64_t l2Bytes)
      : b(b), op(op), plan(plan), loc(op.getLoc()), dot(dotProductFor(plan)),
        vecType(VectorType::get({plan.lanes}, dot->accumulatorType(b))),
        pairType(VectorType::get({plan.group * plan.lanes}, dot->groupType(b))),
        paired(plan.pairDim >= 0), init(init), epilogue(epilogue),
        l2Bytes(l2Bytes) {
    for (unsigned d = 0; d < plan.sizes.size(); ++d) {
      bool parallel =
          op.getIteratorTypesArray()[d] == utils::IteratorType::parallel;
      if (d == plan.vDim || d == plan.uDim)
        continue;
      // An unrolled reduction's rows for (row, kh) repeat for every row +
      // kh that is equal: each is loaded once per step instead of once per
      // (row, kh).
      if (!parallel && isUnrolledReduction(op, plan, d))
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
        for (OpOperand &operand :
             fused ? fused->getOpOperands() : MutableArrayRef<OpOperand>())
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
      laneOffsets =
          arith::ConstantOp::create(b, loc, b.getI32VectorAttr(offsets));
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
    for (unsigned d :
         plan.columnsFirst ? ArrayRef<unsigned>(outer) : ArrayRef<unsigned>())
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
    auto loop =
        scf::ForOp::create(b, loc, index(0), index(plan.sizes[d]), index(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    dims[d] = loop.getInductionVar();
    llvm::SaveAndRestore<bool> below(parallelAbove,
                                     markParallel(loop, plan.sizes[d]));
    llvm::SaveAndRestore<int64_t> calls(callsAbove, callsAbove * plan.sizes[d]);
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
    for (auto [in, step] : llvm::zip(op.getDpsInputOperands(), plan.vStride)) {
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
    int64_t block =
        kPanelBlockBytes / panelRow / kReductionBlock * kReductionBlock;
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
      return {kBlock->start, arith::AddIOp::create(b, loc, kBlock->start,
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
      int64_t offset = d == plan.uDim   ? row
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
                                     cast<TypedAttr>(b.getZeroAttr(type)));
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
    auto spanType = VectorType::get(
        {span}, cast<MemRefType>(buffer.getType()).getElementType());
    Value loaded;
    if (step == 1 && valid == plan.lanes) {
      loaded = vector::LoadOp::create(b, loc, spanType, buffer, idx);
    } else {
      loaded = vector::MaskedLoadOp::create(b, loc, spanType, buffer, idx,
                                            mask(step * (valid - 1) + 1, span),
                                            zeros(spanType));
    }
    if (step == 1)
      return loaded;
    SmallVector<int64_t> picks;
    for (int64_t l = 0; l < plan.lanes; ++l)
      picks.push_back(l * step);
    return vector::ShuffleOp::create(b, loc, loaded, loaded, picks);
  }

  /// Input `in`'s scalars at the current group of pairDim's indices (row
  /// `row` and vector `vec` of the tile) broadcast as groups (pairType):
  /// bf16 pairs rounded here, or read from plan.pairCopy where the op's
  /// input was rounded before it; int8 quads as they are.
  Value broadcastPair(OpOperand *in, int64_t row, int64_t vec) {
    unsigned d = plan.pairDim;
    Value first = dims[d];
    SmallVector<Value> idx = indices(in, row, vec);
    Value source = plan.pairCopy ? plan.pairCopy : in->get();
    auto pairType2 = VectorType::get(
        {plan.group}, cast<MemRefType>(source.getType()).getElementType());
    Value pair;
    AffineMap map = op.getMatchingIndexingMap(in);
    if (map.getResults().back() == b.getAffineDimExpr(d)) {
      // Adjacent in memory: one load.
      pair = vector::LoadOp::create(b, loc, pairType2, source, idx);
    } else {
      SmallVector<Value> elements;
      for (int64_t e = 0; e < plan.group; ++e) {
        dims[d] = e ? arith::AddIOp::create(b, loc, first, index(e)).getResult()
                    : first;
        elements.push_back(
            memref::LoadOp::create(b, loc, source, indices(in, row, vec)));
      }
      dims[d] = first;
      pair = vector::FromElementsOp::create(b, loc, pairType2, elements);
    }
    return dot->broadcastGroup(b, loc, pair, pairType, bool(plan.pairCopy));
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
    // Integer sums are exact: one block.
    if (dot->exactSums())
      blocked = reductions.size();
    int64_t blockSteps = std::max<int64_t>(1, kReductionBlock / inner);
    // A loop over groups (bf16 pairs, int8 quads) steps by the group, its
    // blocks whole groups.
    auto stepOf = [&](unsigned d) {
      return (int)d == plan.pairDim ? plan.group : int64_t(1);
    };
    if (blocked < reductions.size() && stepOf(reductions[blocked]) > 1) {
      int64_t g = stepOf(reductions[blocked]);
      blockSteps = std::max<int64_t>(g, blockSteps / g * g);
    }
    // Nested loops over `ds` carrying `accs`, each yielding the next's
    // results; the insertion point ends in the innermost body.
    auto openLoops = [&](ArrayRef<unsigned> ds, Value blockStart,
                         Value blockEnd) {
      SmallVector<scf::ForOp> loops;
      for (unsigned d : ds) {
        bool first = loops.empty() && blockStart;
        auto [lo, hi] =
            first ? std::make_pair(blockStart, blockEnd) : reductionBounds(d);
        auto loop = scf::ForOp::create(b, loc, lo, hi, index(stepOf(d)), accs);
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
        at.push_back(getAffineDimExpr(d, ctx) + (d == plan.uDim ? row
                                                 : d == plan.vDim
                                                     ? vec * plan.lanes
                                                     : 0));
      for (auto [d, value] : llvm::zip(unrolled, unrolledAt))
        at[d] = getAffineConstantExpr(value, ctx);
      AffineMap key = simplifyAffineMap(
          map.replaceDimsAndSymbols(at, {}, map.getNumDims(), 0));
      Value &value = cache[k][key];
      if (value)
        return value;
      SmallVector<Value> idx = indices(in, row, vec);
      if (Value panels = plan.packed[k]) {
        // Tiles along vDim start at multiples of the panel width.
        int64_t width = plan.vectors * plan.lanes;
        Value panel =
            arith::DivUIOp::create(b, loc, dims[plan.vDim], index(width));
        SmallVector<Value> moved{panel};
        for (int64_t d : plan.packOrder[k])
          moved.push_back(
              d == plan.pairPos && paired
                  ? arith::ShRUIOp::create(b, loc, idx[d],
                                           index(llvm::Log2_64(plan.group)))
                  : idx[d]);
        moved.push_back(index(vec * plan.lanes * plan.group));
        idx = std::move(moved);
        value = vector::LoadOp::create(b, loc, paired ? pairType : vecType,
                                       panels, idx);
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
                b, loc, arith::ShRUIOp::create(b, loc, offset, index(shift)),
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
      } else if (paired) {
        value = broadcastPair(in, row, vec);
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
        for (int64_t v = 0; v < vectors; ++v) {
          Value &acc = next[r * vectors + v];
          // The second operand first (a matmul's row of B, then A's
          // broadcast scalar), the order the loads have always had.
          Value rhs = operandValue(1, r, v);
          Value lhs = operandValue(0, r, v);
          acc = dot->accumulate(b, loc, acc, lhs, rhs,
                                plan.packPos[0] >= 0 ? 0 : 1);
        }
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
        forEachRun(
            v, r0, validLanes(v),
            [&](int64_t j, int64_t group, ArrayRef<Value> idx, Value runMask) {
              Value run = vector::ExtractStridedSliceOp::create(
                  b, loc, block[j], ArrayRef<int64_t>{group * kTransposeBlock},
                  ArrayRef<int64_t>{kTransposeBlock}, ArrayRef<int64_t>{1});
              if (runMask)
                vector::MaskedStoreOp::create(b, loc, target, idx, runMask,
                                              run);
              else
                vector::StoreOp::create(b, loc, run, target, idx);
            });
      }
  }

  /// Calls `fn` for each run of kTransposeBlock output elements along the
  /// last index of the rows r0... of vector `v` of the current tile: its
  /// place j and lane group in the transposed block, its output indices,
  /// and the mask of its elements inside the tile (null when all are).
  void
  forEachRun(int64_t v, int64_t r0, int64_t valid,
             function_ref<void(int64_t, int64_t, ArrayRef<Value>, Value)> fn) {
    int64_t inRun = std::min(kTransposeBlock, tileRows - r0);
    Value runMask =
        inRun < kTransposeBlock ? mask(inRun, kTransposeBlock) : Value();
    unsigned vIndex = vPos();
    for (int64_t group = 0; group < plan.lanes / kTransposeBlock; ++group)
      for (int64_t j = 0; j < kTransposeBlock; ++j) {
        int64_t lane = group * kTransposeBlock + j;
        if (lane >= valid)
          continue;
        SmallVector<Value> idx = indices(op.getDpsInitOperand(0), r0, v);
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
        forEachRun(
            v, r0, valid,
            [&](int64_t j, int64_t group, ArrayRef<Value> idx, Value runMask) {
              Value run = runMask ? (Value)vector::MaskedLoadOp::create(
                                        b, loc, runType, buffer, idx, runMask,
                                        zeros(runType))
                                  : (Value)vector::LoadOp::create(
                                        b, loc, runType, buffer, idx);
              block[j] = vector::InsertStridedSliceOp::create(
                  b, loc, run, block[j],
                  ArrayRef<int64_t>{group * kTransposeBlock},
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
          map.map(from,
                  vector::BroadcastOp::create(
                      b, loc, VectorType::get({plan.lanes}, to.getType()), to));
        continue;
      }
      for (Value v : bodyOp.getOperands())
        if (!map.contains(v))
          map.map(v,
                  vector::BroadcastOp::create(
                      b, loc, VectorType::get({plan.lanes}, v.getType()), v));
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
      at.push_back(isa<AffineDimExpr>(e)
                       ? idx[cast<AffineDimExpr>(e).getPosition()]
                       : index(0)); // a unit dim the op broadcasts
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
  /// Each step's multiply-accumulate, in the plan's precision.
  std::unique_ptr<DotProduct> dot;
  VectorType vecType;
  /// With groups (plan.pairDim): a vector of group * lanes bf16 or i8.
  VectorType pairType;
  bool paired;
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

} // namespace

void tcc::cpu::emitTiles(RewriterBase &b, linalg::LinalgOp op,
                         const TilePlan &plan, linalg::LinalgOp init,
                         linalg::LinalgOp epilogue, int64_t l2Bytes) {
  TileEmitter(b, op, plan, init, epilogue, l2Bytes).emit();
}
