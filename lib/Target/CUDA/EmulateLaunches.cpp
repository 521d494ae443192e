//===- EmulateLaunches.cpp - tcc-gpu-emulate-launches ---------------------===//
//
// Runs each gpu.launch as a nest of loops on the CPU: the CPU emulation of
// the GPU kernels, for tests without a GPU.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_GPUEMULATELAUNCHES
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

struct GPUEmulateLaunches
    : tcc::impl::GPUEmulateLaunchesBase<GPUEmulateLaunches> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp launch) {
      launches.push_back(launch);
    });
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(launch)))
        return signalPassFailure();
  }

  /// Replaces `launch` by loops over its blocks, then its threads.
  static LogicalResult emulate(gpu::LaunchOp launch) {
    Region &body = launch.getBody();
    if (!body.hasOneBlock() || launch.getAsyncToken())
      return launch.emitError("tcc-gpu-emulate-launches: a launch of one "
                              "block without async tokens is expected");
    // What the body asks of the launch's ids outside its block arguments.
    WalkResult ids = launch->walk([&](Operation *op) {
      if (isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::BlockDimOp,
              gpu::GridDimOp>(op)) {
        op->emitError("tcc-gpu-emulate-launches: ids are read through the "
                      "launch's block arguments only");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (ids.wasInterrupted())
      return failure();
    bool barriers =
        body.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (barriers || !launch.getWorkgroupAttributions().empty() ||
        !launch.getPrivateAttributions().empty())
      return Lockstep(launch).emulate();

    OpBuilder b(launch);
    Location loc = launch.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    // z outermost, x innermost, blocks outside threads.
    Value bounds[6] = {grid.z, grid.y, grid.x, block.z, block.y, block.x};
    Value ivs[6];
    for (int i = 0; i < 6; ++i) {
      auto loop = scf::ForOp::create(b, loc, zero, bounds[i], one);
      ivs[i] = loop.getInductionVar();
      b.setInsertionPoint(loop.getBody()->getTerminator());
    }
    IRMapping map;
    mapSizes(launch, map);
    gpu::KernelDim3 blockIds = launch.getBlockIds();
    gpu::KernelDim3 threadIds = launch.getThreadIds();
    map.map(blockIds.z, ivs[0]);
    map.map(blockIds.y, ivs[1]);
    map.map(blockIds.x, ivs[2]);
    map.map(threadIds.z, ivs[3]);
    map.map(threadIds.y, ivs[4]);
    map.map(threadIds.x, ivs[5]);
    for (Operation &op : body.front().without_terminator())
      b.clone(op, map);
    launch.erase();
    return success();
  }

  /// Maps the launch's grid and block sizes to its operands.
  static void mapSizes(gpu::LaunchOp launch, IRMapping &map) {
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    gpu::KernelDim3 gridSizes = launch.getGridSize();
    gpu::KernelDim3 blockSizes = launch.getBlockSize();
    map.map(gridSizes.z, grid.z);
    map.map(gridSizes.y, grid.y);
    map.map(gridSizes.x, grid.x);
    map.map(blockSizes.z, block.z);
    map.map(blockSizes.y, block.y);
    map.map(blockSizes.x, block.x);
  }

  /// The emulation of a launch whose threads wait for each other: the body
  /// cut at barriers, each piece a loop over the block's threads. A value
  /// a thread computes in one piece and uses in a later one is kept in a
  /// buffer with an element per thread, as are the iteration arguments of a
  /// loop that holds barriers; pure ops are computed again where needed.
  class Lockstep {
  public:
    explicit Lockstep(gpu::LaunchOp launch)
        : launch(launch), loc(launch.getLoc()), allocs(launch) {}

    LogicalResult emulate() {
      OpBuilder &b = allocs;
      zero = arith::ConstantIndexOp::create(b, loc, 0);
      one = arith::ConstantIndexOp::create(b, loc, 1);
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      threadBounds = {block.z, block.y, block.x};
      for (Value size : threadBounds) {
        std::optional<int64_t> n = getConstantIntValue(size);
        if (!n)
          return launch.emitError("tcc-gpu-emulate-launches: a launch with "
                                  "barriers needs a constant block size");
        threadShape.push_back(*n);
      }
      IRMapping map;
      mapSizes(launch, map);
      // Shared memory: one buffer, reused by each block in turn.
      for (BlockArgument shared : launch.getWorkgroupAttributions()) {
        auto type = cast<MemRefType>(shared.getType());
        map.map(shared, memref::AllocaOp::create(
                            b, loc, MemRefType::get(type.getShape(),
                                                    type.getElementType())));
      }
      // Private memory: one buffer per thread, [z][y][x][...].
      for (BlockArgument local : launch.getPrivateAttributions()) {
        auto type = cast<MemRefType>(local.getType());
        perThread.push_back(perThreadBuffer(type.getShape(),
                                            type.getElementType()));
      }
      OpBuilder blocks(launch);
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      gpu::KernelDim3 blockIds = launch.getBlockIds();
      Value gridBounds[3] = {grid.z, grid.y, grid.x};
      Value ids[3] = {blockIds.z, blockIds.y, blockIds.x};
      for (int i = 0; i < 3; ++i) {
        auto loop = scf::ForOp::create(blocks, loc, zero, gridBounds[i], one);
        if (i == 0) // the buffers made on the way go before the loops
          allocs.setInsertionPoint(loop);
        map.map(ids[i], loop.getInductionVar());
        blocks.setInsertionPoint(loop.getBody()->getTerminator());
      }
      Block &body = launch.getBody().front();
      if (failed(emitBlock(body.without_terminator(), map, blocks)))
        return failure();
      launch.erase();
      return success();
    }

  private:
    /// A buffer of `shape` per thread, [z][y][x][shape...], allocated
    /// before the launch.
    Value perThreadBuffer(ArrayRef<int64_t> shape, Type element) {
      SmallVector<int64_t> all(threadShape.begin(), threadShape.end());
      llvm::append_range(all, shape);
      return memref::AllocaOp::create(allocs, loc,
                                      MemRefType::get(all, element));
    }

    /// Emits `ops` (one block's, in order) at `b`: pieces between barriers
    /// as thread loops, loops holding barriers once.
    LogicalResult emitBlock(llvm::iterator_range<Block::iterator> ops,
                            IRMapping &map, OpBuilder &b) {
      SmallVector<Operation *> piece;
      for (Operation &op : ops) {
        if (isa<gpu::BarrierOp>(op)) {
          if (failed(emitPiece(piece, map, b)))
            return failure();
          piece.clear();
          continue;
        }
        bool holdsBarrier =
            op.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
                .wasInterrupted();
        if (!holdsBarrier) {
          // Pure ops are computed again where a piece needs them.
          if (!isPure(&op))
            piece.push_back(&op);
          continue;
        }
        if (failed(emitPiece(piece, map, b)))
          return failure();
        piece.clear();
        auto loop = dyn_cast<scf::ForOp>(op);
        if (!loop)
          return op.emitError("tcc-gpu-emulate-launches: a barrier is "
                              "expected at the top of the launch or in an "
                              "scf.for");
        if (failed(emitLoop(loop, map, b)))
          return failure();
      }
      return emitPiece(piece, map, b);
    }

    /// Emits `loop`, which holds barriers, once for all threads; its
    /// iteration arguments and results live in per-thread buffers.
    LogicalResult emitLoop(scf::ForOp loop, IRMapping &map, OpBuilder &b) {
      SmallVector<Value> bounds;
      for (Value v :
           {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}) {
        bounds.push_back(materialize(v, map, b));
        if (!bounds.back())
          return loop.emitError("tcc-gpu-emulate-launches: the bounds of "
                                "a loop holding a barrier depend on the "
                                "thread");
      }
      SmallVector<Value> buffers;
      for (Value arg : loop.getRegionIterArgs()) {
        buffers.push_back(perThreadBuffer({}, arg.getType()));
        spills[arg] = buffers.back();
      }
      if (failed(copyPiece(loop.getInitArgs(), buffers, map, b, loop)))
        return failure();
      auto copy =
          scf::ForOp::create(b, loc, bounds[0], bounds[1], bounds[2]);
      IRMapping inner = map;
      inner.map(loop.getInductionVar(), copy.getInductionVar());
      OpBuilder ib = OpBuilder::atBlockTerminator(copy.getBody());
      if (failed(emitBlock(loop.getBody()->without_terminator(), inner, ib)))
        return failure();
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      if (failed(copyPiece(yield.getOperands(), buffers, inner, ib, yield)))
        return failure();
      for (auto [result, buffer] : llvm::zip(loop.getResults(), buffers))
        spills[result] = buffer;
      return success();
    }

    /// Emits a thread loop that stores each thread's `values` into
    /// `buffers` (all read before any is written).
    LogicalResult copyPiece(ValueRange values, ArrayRef<Value> buffers,
                            const IRMapping &map, OpBuilder &b,
                            Operation *user) {
      if (values.empty())
        return success();
      return inThreads(map, b, [&](IRMapping &local, OpBuilder &tb) {
        SmallVector<Value> got;
        for (Value v : values) {
          got.push_back(materialize(v, local, tb));
          if (!got.back())
            return fail(user, "a value it needs is not available");
        }
        for (auto [v, buffer] : llvm::zip(got, buffers))
          memref::StoreOp::create(tb, loc, v, buffer, thread);
        return success();
      });
    }

    /// Emits `piece` in a loop over the block's threads; what a later
    /// piece uses of it goes into per-thread buffers.
    LogicalResult emitPiece(ArrayRef<Operation *> piece, const IRMapping &map,
                            OpBuilder &b) {
      if (piece.empty())
        return success();
      llvm::SmallPtrSet<Operation *, 16> inPiece(piece.begin(), piece.end());
      return inThreads(map, b, [&](IRMapping &local, OpBuilder &tb) {
        for (Operation *op : piece) {
          SetVector<Value> used;
          getUsedValuesDefinedAbove(op->getRegions(), used);
          used.insert(op->operand_begin(), op->operand_end());
          for (Value v : used)
            if (!materialize(v, local, tb))
              return fail(op, "a value it uses is not available here");
          tb.clone(*op, local);
        }
        for (Operation *op : piece)
          for (Value result : op->getResults()) {
            if (!usedOutside(result, inPiece))
              continue;
            Value buffer = perThreadBuffer({}, result.getType());
            memref::StoreOp::create(tb, loc, local.lookup(result), buffer,
                                    thread);
            spills[result] = buffer;
          }
        return success();
      });
    }

    static LogicalResult fail(Operation *op, const Twine &why) {
      return op->emitError("tcc-gpu-emulate-launches: ") << why;
    }

    /// Runs `body` in a loop nest over the block's threads (z, y, x), with
    /// `map` extended by the thread ids and each thread's private memory.
    LogicalResult
    inThreads(const IRMapping &map, OpBuilder &b,
              function_ref<LogicalResult(IRMapping &, OpBuilder &)> body) {
      OpBuilder::InsertionGuard guard(b);
      IRMapping local = map;
      gpu::KernelDim3 threadIds = launch.getThreadIds();
      Value ids[3] = {threadIds.z, threadIds.y, threadIds.x};
      SmallVector<OpFoldResult> offsets;
      thread.clear();
      for (int i = 0; i < 3; ++i) {
        auto loop = scf::ForOp::create(b, loc, zero, threadBounds[i], one);
        local.map(ids[i], loop.getInductionVar());
        thread.push_back(loop.getInductionVar());
        offsets.push_back(loop.getInductionVar());
        b.setInsertionPoint(loop.getBody()->getTerminator());
      }
      // Each thread's private memory: its row of the per-thread buffer.
      for (auto [localArg, buffer] :
           llvm::zip(launch.getPrivateAttributions(), perThread)) {
        auto type = cast<MemRefType>(localArg.getType());
        auto bufferType = cast<MemRefType>(buffer.getType());
        SmallVector<OpFoldResult> at = offsets, sizes(3, b.getIndexAttr(1)),
                                  strides(bufferType.getRank(),
                                          b.getIndexAttr(1));
        for (int64_t n : type.getShape()) {
          at.push_back(b.getIndexAttr(0));
          sizes.push_back(b.getIndexAttr(n));
        }
        auto viewType = memref::SubViewOp::inferRankReducedResultType(
            type.getShape(), bufferType, at, sizes, strides);
        local.map(localArg, memref::SubViewOp::create(
                                b, loc, viewType, buffer, at, sizes, strides));
      }
      LogicalResult result = body(local, b);
      thread.clear();
      return result;
    }

    /// Whether an op outside `piece` uses `v`, directly or through pure ops
    /// (which are computed again where they are used).
    static bool usedOutside(Value v,
                            const llvm::SmallPtrSetImpl<Operation *> &piece) {
      Block *block = v.getParentBlock();
      SmallVector<Value> work = {v};
      llvm::SmallPtrSet<Operation *, 8> seen;
      while (!work.empty()) {
        Value value = work.pop_back_val();
        for (Operation *user : value.getUsers()) {
          Operation *at = block->findAncestorOpInBlock(*user);
          if (!at)
            return true;
          if (piece.contains(at))
            continue;
          if (!isPure(at))
            return true;
          if (seen.insert(at).second)
            llvm::append_range(work, at->getResults());
        }
      }
      return false;
    }

    /// Whether `op` can be computed again wherever its value is needed.
    static bool isPure(Operation *op) {
      return op->getNumRegions() == 0 &&
             !op->hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(op);
    }

    /// The value of `v` at `b` under `map`: a value from outside the launch
    /// as it is, a pure op of the body computed again there, a thread's
    /// value of an earlier piece loaded from its buffer; null if it is not
    /// available (a thread's value where no thread is running).
    Value materialize(Value v, IRMapping &map, OpBuilder &b) {
      if (map.contains(v))
        return map.lookup(v);
      if (!launch.getBody().isAncestor(v.getParentRegion()))
        return v;
      auto spilled = spills.find(v);
      if (spilled != spills.end()) {
        if (thread.empty())
          return nullptr;
        Value loaded =
            memref::LoadOp::create(b, loc, spilled->second, thread);
        map.map(v, loaded);
        return loaded;
      }
      Operation *def = v.getDefiningOp();
      if (!def || !isPure(def))
        return nullptr;
      for (Value operand : def->getOperands())
        if (!materialize(operand, map, b))
          return nullptr;
      b.clone(*def, map);
      return map.lookup(v);
    }

    gpu::LaunchOp launch;
    Location loc;
    /// Inserts before the launch: constants and the buffers.
    OpBuilder allocs;
    Value zero, one;
    SmallVector<Value, 3> threadBounds;
    SmallVector<int64_t, 3> threadShape;
    /// The per-thread buffers of the launch's private memory.
    SmallVector<Value> perThread;
    /// The buffers of values that outlive their piece.
    DenseMap<Value, Value> spills;
    /// The thread loops' induction variables (z, y, x) while a piece is
    /// emitted, else empty.
    SmallVector<Value, 3> thread;
  };
};

} // namespace
