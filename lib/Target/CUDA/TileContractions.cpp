//===- TileContractions.cpp - tcc-gpu-tile-contractions -------------------===//
//
// Matmuls and convolutions (implicit GEMM) as GPU kernels on shared-memory
// tiles: each block computes a tile of the output from tiles of the two
// inputs staged in shared memory (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_GPUTILECONTRACTIONS
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

/// Threads of a block along each of its two dims (x: N, y: M).
constexpr int64_t kThreads = 16;
/// The step along the flattened reduction dims.
constexpr int64_t kTileK = 16;
/// The smallest M and N worth a tile (skinnier products keep one thread
/// per output element).
constexpr int64_t kMinExtent = 16;

/// The loops of a contraction, by role.
struct Contraction {
  SmallVector<unsigned> batch, m, n, k;
};

/// The roles of `op`'s loops, if it is a contraction this pass tiles.
std::optional<Contraction> classify(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      op->getParentOfType<scf::ParallelOp>())
    return std::nullopt;
  Value out = op.getDpsInits()[0];
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isa<MemRefType>(input->get().getType()) || input->get() == out ||
        cast<MemRefType>(input->get().getType()).getRank() == 0)
      return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation() ||
      op.getBlock()->getTerminator()->getNumOperands() != 1)
    return std::nullopt;
  Contraction c;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d) {
    bool inOut = maps[2].isFunctionOfDim(d);
    if (iterators[d] == utils::IteratorType::reduction) {
      if (inOut)
        return std::nullopt;
      c.k.push_back(d);
      continue;
    }
    if (!inOut)
      return std::nullopt;
    bool inA = maps[0].isFunctionOfDim(d), inB = maps[1].isFunctionOfDim(d);
    (inA == inB ? c.batch : inA ? c.m : c.n).push_back(d);
  }
  if (c.m.empty() || c.n.empty() || c.k.empty())
    return std::nullopt;
  return c;
}

/// The product of the static extents of `dims` (a large value where one
/// is dynamic).
int64_t staticExtent(ArrayRef<int64_t> ranges, ArrayRef<unsigned> dims) {
  int64_t size = 1;
  for (unsigned d : dims) {
    if (ShapedType::isDynamic(ranges[d]))
      return std::numeric_limits<int64_t>::max();
    size *= ranges[d];
  }
  return size;
}

/// The tile size for a flattened extent: 64, 32 or 16.
int64_t tileFor(int64_t extent) {
  return extent >= 64 ? 64 : extent >= 32 ? 32 : 16;
}

/// Builds the kernel of one contraction.
class KernelBuilder {
public:
  KernelBuilder(linalg::LinalgOp op, const Contraction &c)
      : op(op), c(c), loc(op.getLoc()) {}

  void build();

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value product(OpBuilder &b, ArrayRef<unsigned> dims) {
    Value p = index(b, 1);
    for (unsigned d : dims)
      p = arith::MulIOp::create(b, loc, p, sizes[d]);
    return p;
  }
  /// Sets `dimValues` of `dims` from the row-major linear index `linear`,
  /// which is less than the product of their extents.
  void delinearize(OpBuilder &b, Value linear, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &dimValues) {
    for (size_t i = dims.size(); i-- > 1;) {
      unsigned d = dims[i];
      dimValues[d] = arith::RemUIOp::create(b, loc, linear, sizes[d]);
      linear = arith::DivUIOp::create(b, loc, linear, sizes[d]);
    }
    if (!dims.empty())
      dimValues[dims.front()] = linear;
  }
  /// The indices of operand `operand` at loop values `dimValues`.
  SmallVector<Value> indices(OpBuilder &b, unsigned operand,
                             ArrayRef<Value> dimValues) {
    AffineMap map = op.getIndexingMapsArray()[operand];
    SmallVector<Value> result;
    for (unsigned r = 0, e = map.getNumResults(); r < e; ++r)
      result.push_back(affine::AffineApplyOp::create(
          b, loc, map.getSubMap({r}), dimValues));
    return result;
  }
  Value both(OpBuilder &b, Value x, Value y) {
    return arith::AndIOp::create(b, loc, x, y);
  }
  Value less(OpBuilder &b, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  /// Loads input `operand`'s tile for this step into `tile`
  /// (kTileK x (rows + 1)): element (kk, r) of the tile is the input at
  /// row `first + r` of `rowDims` and reduction index `k0 + kk`.
  void loadTile(OpBuilder &b, unsigned operand, Value tile,
                ArrayRef<unsigned> rowDims, int64_t rows, Value first,
                Value rowExtent, Value k0);

  linalg::LinalgOp op;
  const Contraction &c;
  Location loc;
  /// Host values: each loop's extent, and the flattened extents.
  SmallVector<Value> sizes;
  Value extentK;
  /// Kernel values: the batch index, thread ids and linear thread id.
  Value batchIndex, tx, ty, tid;
  /// The scalar of the fill this kernel absorbs, if any.
  Value fillValue;
};

void KernelBuilder::loadTile(OpBuilder &b, unsigned operand, Value tile,
                             ArrayRef<unsigned> rowDims, int64_t rows,
                             Value first, Value rowExtent, Value k0) {
  // Neighbouring threads take neighbouring elements of the input's
  // innermost dim: along the reduction if that dim is a reduction dim.
  AffineMap map = op.getIndexingMapsArray()[operand];
  AffineExpr last = map.getResult(map.getNumResults() - 1);
  bool kFastest = llvm::any_of(
      c.k, [&](unsigned d) { return last.isFunctionOfDim(d); });
  Type element = cast<MemRefType>(tile.getType()).getElementType();
  auto loop = scf::ForOp::create(b, loc, tid, index(b, rows * kTileK),
                                 index(b, kThreads * kThreads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value kk, r;
  if (kFastest) {
    kk = arith::RemUIOp::create(b, loc, e, index(b, kTileK));
    r = arith::DivUIOp::create(b, loc, e, index(b, kTileK));
  } else {
    kk = arith::DivUIOp::create(b, loc, e, index(b, rows));
    r = arith::RemUIOp::create(b, loc, e, index(b, rows));
  }
  Value row = arith::AddIOp::create(b, loc, first, r);
  Value k = arith::AddIOp::create(b, loc, k0, kk);
  Value inside = both(b, less(b, row, rowExtent), less(b, k, extentK));
  auto guarded = scf::IfOp::create(b, loc, element, inside,
                                   /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(guarded.thenBlock());
    SmallVector<Value> dimValues(op.getNumLoops(), index(b, 0));
    delinearize(b, row, rowDims, dimValues);
    delinearize(b, k, c.k, dimValues);
    delinearize(b, batchIndex, c.batch, dimValues);
    Value v = memref::LoadOp::create(b, loc, op.getDpsInputs()[operand],
                                     indices(b, operand, dimValues));
    scf::YieldOp::create(b, loc, ValueRange{v});
    b.setInsertionPointToStart(guarded.elseBlock());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    scf::YieldOp::create(b, loc, ValueRange{zero});
  }
  memref::StoreOp::create(b, loc, guarded.getResult(0), tile,
                          ValueRange{kk, r});
}

void KernelBuilder::build() {
  // The fill that writes the whole output just before (the usual zeros of
  // a matmul) needs no kernel of its own: each thread's part starts from
  // its value.
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (fill && fill.hasPureBufferSemantics() &&
      fill.getDpsInits()[0] == op.getDpsInits()[0]) {
    fillValue = fill.getInputs()[0];
    fill->erase();
  }
  OpBuilder b(op);
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  int64_t tileM = tileFor(staticExtent(ranges, c.m));
  int64_t tileN = tileFor(staticExtent(ranges, c.n));
  int64_t perM = tileM / kThreads, perN = tileN / kThreads;
  Value extentM = product(b, c.m), extentN = product(b, c.n);
  extentK = product(b, c.k);
  Value batches = product(b, c.batch);
  Value tilesM = arith::CeilDivUIOp::create(b, loc, extentM, index(b, tileM));
  Value tilesN = arith::CeilDivUIOp::create(b, loc, extentN, index(b, tileN));
  Value grid = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tilesM, tilesN), batches);

  Type typeA = cast<MemRefType>(op.getDpsInputs()[0].getType()).getElementType();
  Type typeB = cast<MemRefType>(op.getDpsInputs()[1].getType()).getElementType();
  Type typeC = cast<MemRefType>(op.getDpsInits()[0].getType()).getElementType();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto tileTypeA =
      MemRefType::get({kTileK, tileM + 1}, typeA, AffineMap(), workgroup);
  auto tileTypeB =
      MemRefType::get({kTileK, tileN + 1}, typeB, AffineMap(), workgroup);
  Value one = index(b, 1), threads = index(b, kThreads);
  auto launch = gpu::LaunchOp::create(
      b, loc, grid, one, one, threads, threads, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{tileTypeA, tileTypeB});
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  Value tileA = launch.getWorkgroupAttributions()[0];
  Value tileB = launch.getWorkgroupAttributions()[1];
  tx = launch.getThreadIds().x;
  ty = launch.getThreadIds().y;
  tid = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, ty, threads), tx);
  // The block's tile: N fastest, then M, then the batch.
  Value blockId = launch.getBlockIds().x;
  Value tileIndexN = arith::RemUIOp::create(b, loc, blockId, tilesN);
  Value rest = arith::DivUIOp::create(b, loc, blockId, tilesN);
  Value tileIndexM = arith::RemUIOp::create(b, loc, rest, tilesM);
  batchIndex = arith::DivUIOp::create(b, loc, rest, tilesM);
  Value m0 = arith::MulIOp::create(b, loc, tileIndexM, index(b, tileM));
  Value n0 = arith::MulIOp::create(b, loc, tileIndexN, index(b, tileN));

  // Thread (ty, tx) has rows ty + 16 i and columns tx + 16 j of the tile.
  SmallVector<Value> rowsOf, colsOf, rowInside, colInside;
  for (int64_t i = 0; i < perM; ++i) {
    Value r = arith::AddIOp::create(b, loc, ty, index(b, i * kThreads));
    rowsOf.push_back(r);
    rowInside.push_back(
        less(b, arith::AddIOp::create(b, loc, m0, r), extentM));
  }
  for (int64_t j = 0; j < perN; ++j) {
    Value col = arith::AddIOp::create(b, loc, tx, index(b, j * kThreads));
    colsOf.push_back(col);
    colInside.push_back(
        less(b, arith::AddIOp::create(b, loc, n0, col), extentN));
  }
  // The output's indices at element (i, j) of the thread's part, computed
  // where they are used (kept live through the steps, they would spill).
  auto outIndices = [&](OpBuilder &b, int64_t i, int64_t j) {
    SmallVector<Value> dimValues(op.getNumLoops(), index(b, 0));
    delinearize(b, arith::AddIOp::create(b, loc, m0, rowsOf[i]), c.m,
                dimValues);
    delinearize(b, arith::AddIOp::create(b, loc, n0, colsOf[j]), c.n,
                dimValues);
    delinearize(b, batchIndex, c.batch, dimValues);
    return indices(b, 2, dimValues);
  };
  Value out = op.getDpsInits()[0];
  // The thread's part starts from the output's values (zero outside), or
  // from the fill's value (see above).
  SmallVector<Value> init;
  for (int64_t i = 0; i < perM; ++i)
    for (int64_t j = 0; j < perN; ++j) {
      if (fillValue) {
        init.push_back(fillValue);
        continue;
      }
      auto guarded = scf::IfOp::create(
          b, loc, typeC, both(b, rowInside[i], colInside[j]), true);
      init.push_back(guarded.getResult(0));
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(guarded.thenBlock());
      scf::YieldOp::create(
          b, loc, ValueRange{memref::LoadOp::create(b, loc, out,
                                                    outIndices(b, i, j))});
      b.setInsertionPointToStart(guarded.elseBlock());
      scf::YieldOp::create(
          b, loc, ValueRange{arith::ConstantOp::create(
                      b, loc, b.getZeroAttr(typeC))});
    }

  // The steps along the reduction: stage, wait, fold, wait. The thread's
  // part stays in registers, the loops' iteration arguments.
  auto steps = scf::ForOp::create(b, loc, index(b, 0), extentK,
                                  index(b, kTileK), init);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(steps.getBody());
    Value k0 = steps.getInductionVar();
    loadTile(b, 0, tileA, c.m, tileM, m0, extentM, k0);
    loadTile(b, 1, tileB, c.n, tileN, n0, extentN, k0);
    gpu::BarrierOp::create(b, loc);
    Value left = arith::SubIOp::create(b, loc, extentK, k0);
    Value depth = arith::MinUIOp::create(b, loc, left, index(b, kTileK));
    auto fold = scf::ForOp::create(b, loc, index(b, 0), depth, index(b, 1),
                                   steps.getRegionIterArgs());
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(fold.getBody());
      Value kk = fold.getInductionVar();
      SmallVector<Value> a, bv;
      for (int64_t i = 0; i < perM; ++i)
        a.push_back(memref::LoadOp::create(b, loc, tileA,
                                           ValueRange{kk, rowsOf[i]}));
      for (int64_t j = 0; j < perN; ++j)
        bv.push_back(memref::LoadOp::create(b, loc, tileB,
                                            ValueRange{kk, colsOf[j]}));
      Block *payload = op.getBlock();
      SmallVector<Value> next;
      for (int64_t i = 0; i < perM; ++i)
        for (int64_t j = 0; j < perN; ++j) {
          IRMapping map;
          map.map(payload->getArgument(0), a[i]);
          map.map(payload->getArgument(1), bv[j]);
          map.map(payload->getArgument(2),
                  fold.getRegionIterArgs()[i * perN + j]);
          // Products and sums may contract to FMAs (as on the CPU).
          for (Operation &inner : payload->without_terminator()) {
            Operation *copy = b.clone(inner, map);
            if (auto math = dyn_cast<arith::ArithFastMathInterface>(copy))
              copy->setAttr(math.getFastMathAttrName(),
                            arith::FastMathFlagsAttr::get(
                                b.getContext(),
                                math.getFastMathFlagsAttr().getValue() |
                                    arith::FastMathFlags::contract));
          }
          next.push_back(
              map.lookupOrDefault(payload->getTerminator()->getOperand(0)));
        }
      scf::YieldOp::create(b, loc, next);
    }
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, fold.getResults());
  }

  // The thread's part, stored where it is inside the output.
  for (int64_t i = 0; i < perM; ++i)
    for (int64_t j = 0; j < perN; ++j) {
      auto guarded = scf::IfOp::create(
          b, loc, both(b, rowInside[i], colInside[j]), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(guarded.thenBlock());
      memref::StoreOp::create(b, loc, steps.getResult(i * perN + j), out,
                              outIndices(b, i, j));
    }
  op->erase();
}

struct GPUTileContractions
    : tcc::impl::GPUTileContractionsBase<GPUTileContractions> {
  void runOnOperation() override {
    std::vector<std::pair<linalg::LinalgOp, Contraction>> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<Contraction> c = classify(op);
      if (!c)
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (staticExtent(ranges, c->m) < kMinExtent ||
          staticExtent(ranges, c->n) < kMinExtent)
        return;
      found.push_back({op, *c});
    });
    for (auto &[op, c] : found)
      KernelBuilder(op, c).build();
  }
};

} // namespace
