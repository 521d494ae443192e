//===- Loss.cpp - verifiers and shapes of the losses ----------------------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

/// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: a known
/// reduction, input (N, C, d...) of rank >= 2, target (N, d...) and weight
/// (C) when there.
static LogicalResult verifyLoss(Operation *op, Value input, Value target,
                                Value weight, StringRef reduction) {
  if (!llvm::is_contained({"none", "sum", "mean"}, reduction))
    return op->emitOpError() << "has unknown reduction '" << reduction
                             << "' (expected none, sum or mean)";
  auto x = rankedShape(input);
  if (!x)
    return success();
  if (x->size() < 2)
    return op->emitOpError() << "expects an input of rank >= 2 (N, C, ...), "
                             << "got " << formatShape(*x);
  SmallVector<int64_t> expected(*x);
  expected.erase(expected.begin() + 1);
  auto agree = [](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    if (a.size() != b.size())
      return false;
    for (auto [m, n] : llvm::zip_equal(a, b))
      if (m != n && !ShapedType::isDynamic(m) && !ShapedType::isDynamic(n))
        return false;
    return true;
  };
  if (auto t = rankedShape(target); t && !agree(*t, expected))
    return op->emitOpError()
           << "expects a target of shape " << formatShape(expected)
           << " (the input's without dim 1), got " << formatShape(*t);
  if (auto w = rankedShape(weight); w && !agree(*w, {(*x)[1]}))
    return op->emitOpError()
           << "expects a weight of shape " << formatShape({(*x)[1]})
           << " (the input's classes), got " << formatShape(*w);
  return success();
}

/// The loss: the target's shape with reduction none, else a scalar.
static LogicalResult inferLoss(Operation *op, Value input, Value target,
                               StringRef reduction) {
  Type elem = getElementTypeOrSelf(input.getType());
  if (reduction != "none")
    return setShape(op, {}, elem);
  if (auto x = rankedShape(input); x && x->size() >= 2) {
    SmallVector<int64_t> shape(*x);
    shape.erase(shape.begin() + 1);
    return setShape(op, shape, elem);
  }
  if (auto t = rankedShape(target))
    return setShape(op, *t, elem);
  return keepUnranked(op, elem);
}

LogicalResult NegativeLogLikelihoodLossOp::verify() {
  return verifyLoss(*this, getInput(), getTarget(), getWeight(),
                    getReduction());
}

LogicalResult NegativeLogLikelihoodLossOp::inferShapes() {
  return inferLoss(*this, getInput(), getTarget(), getReduction());
}

LogicalResult SoftmaxCrossEntropyLossOp::verify() {
  return verifyLoss(*this, getScores(), getLabels(), getWeights(),
                    getReduction());
}

LogicalResult SoftmaxCrossEntropyLossOp::inferShapes() {
  getLogProb().setType(getScores().getType());
  return inferLoss(*this, getScores(), getLabels(), getReduction());
}
