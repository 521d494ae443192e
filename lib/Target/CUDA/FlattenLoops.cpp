//===- FlattenLoops.cpp - tcc-gpu-flatten-loops ---------------------------===//
//
// One dim per outermost parallel loop nest, so that a 1-D block of threads
// covers the innermost dim first (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_GPUFLATTENLOOPS
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

struct GPUFlattenLoops : tcc::impl::GPUFlattenLoopsBase<GPUFlattenLoops> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop.getNumLoops() > 1 && !loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0u);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
    }
  }
};

} // namespace
