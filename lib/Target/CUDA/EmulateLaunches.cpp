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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

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
    if (!body.hasOneBlock() || launch.getAsyncToken() ||
        !launch.getWorkgroupAttributions().empty() ||
        !launch.getPrivateAttributions().empty())
      return launch.emitError("tcc-gpu-emulate-launches: a launch of one "
                              "block without memory attributions or async "
                              "tokens is expected");
    WalkResult barriers = body.walk([](gpu::BarrierOp barrier) {
      barrier.emitError("tcc-gpu-emulate-launches: barriers are not "
                        "emulated yet");
      return WalkResult::interrupt();
    });
    if (barriers.wasInterrupted())
      return failure();

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
    gpu::KernelDim3 blockIds = launch.getBlockIds();
    gpu::KernelDim3 threadIds = launch.getThreadIds();
    gpu::KernelDim3 gridSizes = launch.getGridSize();
    gpu::KernelDim3 blockSizes = launch.getBlockSize();
    IRMapping map;
    map.map(blockIds.z, ivs[0]);
    map.map(blockIds.y, ivs[1]);
    map.map(blockIds.x, ivs[2]);
    map.map(threadIds.z, ivs[3]);
    map.map(threadIds.y, ivs[4]);
    map.map(threadIds.x, ivs[5]);
    map.map(gridSizes.z, grid.z);
    map.map(gridSizes.y, grid.y);
    map.map(gridSizes.x, grid.x);
    map.map(blockSizes.z, block.z);
    map.map(blockSizes.y, block.y);
    map.map(blockSizes.x, block.x);
    for (Operation &op : body.front().without_terminator())
      b.clone(op, map);
    launch.erase();
    return success();
  }
};

} // namespace
