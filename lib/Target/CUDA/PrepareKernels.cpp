//===- PrepareKernels.cpp - tcc-gpu-prepare-kernels -----------------------===//
//
// Makes each buffer operation of a bufferized function a linalg op whose
// location names its kernel, before the linalg ops become GPU launches.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_GPUPREPAREKERNELS
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

/// Whether `op` or an op in it reads or writes a memref.
bool touchesMemory(Operation *op) {
  return tcc::anyMemoryEffect(op, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()) &&
           e.getValue() && isa<MemRefType>(e.getValue().getType());
  });
}

/// Whether `op` holds a linalg op.
bool holdsLinalg(Operation *op) {
  return op->walk([](linalg::LinalgOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Moves `op` into a parallel loop of one iteration (a kernel of one
/// thread) located at `loc`.
void wrapInOneThread(Operation *op, Location loc) {
  OpBuilder b(op);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ParallelOp::create(b, loc, zero, one, one);
  op->moveBefore(loop.getBody()->getTerminator());
}

struct GPUPrepareKernels
    : tcc::impl::GPUPrepareKernelsBase<GPUPrepareKernels> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    // Bufferization's copies run as kernels too (on the host they would
    // read device memory).
    SmallVector<memref::CopyOp> copies;
    fn.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
    int index = 0;
    fn.walk([&](linalg::LinalgOp op) {
      op->setLoc(NameLoc::get(
          StringAttr::get(&getContext(), tcc::kernelName(op, index++)),
          op->getLoc()));
    });
    // An op without parallel loops (a 0-d fill or copy, a full reduction)
    // goes in a parallel loop of one iteration, so that it is a kernel of
    // one thread, not host code on device memory.
    SmallVector<linalg::LinalgOp> scalars;
    fn.walk([&](linalg::LinalgOp op) {
      if (op.getNumParallelLoops() == 0 && op.hasPureBufferSemantics())
        scalars.push_back(op);
    });
    for (linalg::LinalgOp op : scalars)
      wrapInOneThread(op, op.getLoc());
    // Host code that reads or writes memory outside linalg ops (the loops
    // a lowering wrote out: scatters, recurrent cells' gates) runs as a
    // kernel of one thread too, named k<i>_<op>. Ops that hold kernels (a
    // loop over time steps) stay on the host, their bodies visited; ops
    // whose results the host uses stay too (tcc-gpu-merge-kernels says so).
    SmallVector<Operation *> hostCode;
    std::function<void(Block &)> visit = [&](Block &block) {
      for (Operation &op : block) {
        if (isa<linalg::LinalgOp, scf::ParallelOp>(op))
          continue;
        if (holdsLinalg(&op)) {
          for (Region &region : op.getRegions())
            for (Block &inner : region)
              visit(inner);
          continue;
        }
        if (op.getNumResults() == 0 && touchesMemory(&op))
          hostCode.push_back(&op);
      }
    };
    for (Block &block : fn.getBody())
      visit(block);
    for (Operation *op : hostCode) {
      std::string name = "k" + std::to_string(index++) + "_" +
                         op->getName().stripDialect().str();
      wrapInOneThread(
          op, NameLoc::get(StringAttr::get(&getContext(), name), op->getLoc()));
    }
  }
};

} // namespace
