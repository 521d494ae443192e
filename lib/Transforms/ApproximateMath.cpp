//===- ApproximateMath.cpp - tcc-approximate-math -------------------------===//
//
// Replaces f32 exp, erf, tanh and log with polynomial approximations made
// of arithmetic, which LLVM vectorizes with the loop around them, instead
// of one libm call per element; and bfloat16 conversions with integer
// arithmetic instead of compiler-rt calls (__truncsfbf2).
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

struct ApproximateMath : tcc::impl::ApproximateMathBase<ApproximateMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) {
          return llvm::is_contained(
              {"math.exp", "math.erf", "math.tanh", "math.log"}, name);
        });
    // x^c for a constant c such as 2, 3 or 0.5 as multiplications and square
    // roots (GPT-2's GELU has a Pow(x, 3)), not a libm call per element.
    populateMathAlgebraicSimplificationPatterns(patterns);
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
