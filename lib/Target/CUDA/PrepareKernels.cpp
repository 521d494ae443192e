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
    for (linalg::LinalgOp op : scalars) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto loop = scf::ParallelOp::create(b, loc, zero, one, one);
      op->moveBefore(loop.getBody()->getTerminator());
    }
  }
};

} // namespace
