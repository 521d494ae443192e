//===- ApproximateMath.cpp - tcc-approximate-math -------------------------===//
//
// Replaces f32 exp, erf, tanh and log with polynomial approximations made
// of arithmetic, which LLVM vectorizes with the loop around them, instead
// of one libm call per element; and bfloat16 conversions with integer
// arithmetic instead of compiler-rt calls (__truncsfbf2).
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// f32 erf as x * P(x^2) / Q(x^2) on x clamped to [-4, 4] (erf(4) is 1 in
/// f32): 11 FMAs, a division and four other ops, against MLIR's three
/// intervals of P(x) / Q(x) picked by 22 selects. The coefficients are
/// utils/fit_erf.py's; the f32 error is at most 3.1e-7 (MLIR's, 2.5e-7).
struct RationalErf : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    static constexpr double kP[] = {
        1.1283791792307343,     0.18471941822277443,
        0.054366728153104185,   0.0038443978737369411,
        0.0003841549492398761,  4.8182145182689374e-06,
        -1.3858128317944445e-08};
    static constexpr double kQ[] = {
        1,                     0.49703684999305653,
        0.11385926119312441,   0.015468002405532916,
        0.0013125778125392814, 6.4371183346280823e-05};
    Location loc = op.getLoc();
    auto cst = [&](double v) -> Value {
      FloatAttr scalar = rewriter.getF32FloatAttr(v);
      if (auto shaped = dyn_cast<ShapedType>(type))
        return arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(shaped, scalar.getValue()));
      return arith::ConstantOp::create(rewriter, loc, scalar);
    };
    auto horner = [&](ArrayRef<double> coefficients, Value z) {
      Value acc = cst(coefficients.back());
      for (double c : llvm::reverse(coefficients.drop_back()))
        acc = math::FmaOp::create(rewriter, loc, acc, z, cst(c));
      return acc;
    };
    Value x = arith::MinimumFOp::create(
        rewriter, loc,
        arith::MaximumFOp::create(rewriter, loc, op.getOperand(), cst(-4.0)),
        cst(4.0));
    Value z = arith::MulFOp::create(rewriter, loc, x, x);
    Value num = arith::MulFOp::create(rewriter, loc, x, horner(kP, z));
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, num, horner(kQ, z));
    return success();
  }
};

struct ApproximateMath : tcc::impl::ApproximateMathBase<ApproximateMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RationalErf>(&getContext(), /*benefit=*/2);
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) {
          return llvm::is_contained({"math.exp", "math.tanh", "math.log"},
                                    name);
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
