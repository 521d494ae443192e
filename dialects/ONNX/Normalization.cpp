//===- Normalization.cpp - verifiers and shapes of normalizations ------- ===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

LogicalResult BatchNormalizationOp::verify() {
  if (getTrainingMode() != 0)
    return emitOpError() << "with training_mode=1 is not supported";
  auto x = rankedShape(getX());
  if (!x)
    return success();
  if (x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  int64_t c = (*x)[1];
  for (Value v : {getScale(), getB(), getInputMean(), getInputVar()}) {
    auto s = rankedShape(v);
    if (s &&
        (s->size() != 1 || (!ShapedType::isDynamic(c) &&
                            !ShapedType::isDynamic((*s)[0]) && (*s)[0] != c)))
      return emitOpError() << "expects scale, B, mean and var of shape [" << c
                           << "], got " << formatShape(*s);
  }
  return success();
}

static LogicalResult verifySoftmaxLike(Operation *op, Value input,
                                       int64_t axis) {
  if (auto x = rankedShape(input))
    return verifyAxis(op, axis, x->size(), false);
  return success();
}
LogicalResult SoftmaxOp::verify() {
  return verifySoftmaxLike(*this, getInput(), getAxis());
}
LogicalResult LogSoftmaxOp::verify() {
  return verifySoftmaxLike(*this, getInput(), getAxis());
}
LogicalResult HardmaxOp::verify() {
  return verifySoftmaxLike(*this, getInput(), getAxis());
}
LogicalResult LpNormalizationOp::verify() {
  if (getP() != 1 && getP() != 2)
    return emitOpError() << "expects p to be 1 or 2, got " << getP();
  return verifySoftmaxLike(*this, getInput(), getAxis());
}
LogicalResult LpNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}

/// Normalizations over the dims [axis, rank): stash_type 1, the axis in
/// range, and `params` (`what`, `none` skipped) broadcastable (numpy-style)
/// to the normalized dims of `x`.
static LogicalResult verifyTrailingNorm(Operation *op, Value x, int64_t axis,
                                        int64_t stashType, ValueRange params,
                                        StringRef what) {
  if (stashType != 1)
    return op->emitOpError() << "with stash_type " << stashType
                             << " is not supported";
  auto shape = rankedShape(x);
  if (!shape)
    return success();
  if (failed(verifyAxis(op, axis, shape->size(), false)))
    return failure();
  ArrayRef<int64_t> normalized = shape->drop_front(normAxis(axis, shape->size()));
  for (Value v : params) {
    auto s = rankedShape(v);
    if (!s)
      continue;
    FailureOr<SmallVector<int64_t>> b = broadcastShapes(normalized, *s);
    // A dynamic normalized dim (a symbolic dim not pinned) is checked once
    // it is known.
    auto fits = [&] {
      return b->size() == normalized.size() &&
             llvm::all_of(llvm::zip(*b, normalized), [](auto dims) {
               auto [got, want] = dims;
               return got == want || ShapedType::isDynamic(want);
             });
    };
    if (failed(b) || !fits())
      return op->emitOpError() << "expects " << what << " broadcastable to "
                               << formatShape(normalized) << ", got "
                               << formatShape(*s);
  }
  return success();
}

LogicalResult LayerNormalizationOp::verify() {
  return verifyTrailingNorm(*this, getX(), getAxis(), getStashType(),
                            {getScale(), getB()}, "Scale and B");
}

LogicalResult RMSNormalizationOp::verify() {
  return verifyTrailingNorm(*this, getX(), getAxis(), getStashType(),
                            getScale(), "scale");
}

LogicalResult InstanceNormalizationOp::verify() {
  auto x = rankedShape(getInput());
  if (!x)
    return success();
  if (x->size() < 3)
    return emitOpError() << "expects an input of rank >= 3, got "
                         << formatShape(*x);
  int64_t c = (*x)[1];
  for (Value v : {getScale(), getB()}) {
    auto s = rankedShape(v);
    if (s &&
        (s->size() != 1 || (!ShapedType::isDynamic(c) &&
                            !ShapedType::isDynamic((*s)[0]) && (*s)[0] != c)))
      return emitOpError() << "expects scale and B of shape [" << c << "], got "
                           << formatShape(*s);
  }
  return success();
}

LogicalResult BatchNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult SoftmaxOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}
LogicalResult LogSoftmaxOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}
LogicalResult HardmaxOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}
LogicalResult RMSNormalizationOp::inferShapes() {
  // Y has scale's element type (V) and X's shape.
  Type elem = getElementTypeOrSelf(getScale().getType());
  auto x = rankedShape(getX());
  return x ? setShape(*this, *x, elem) : keepUnranked(*this, elem);
}
LogicalResult InstanceNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}

LogicalResult LayerNormalizationOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX().getType());
  auto x = rankedShape(getX());
  if (!x) {
    for (Value r : getResults())
      r.setType(UnrankedTensorType::get(elem));
    return success();
  }
  SmallVector<int64_t> stats(*x);
  for (size_t i = normAxis(getAxis(), x->size()); i < x->size(); ++i)
    stats[i] = 1;
  // stash_type 1: statistics in f32 whatever X's type.
  Type f32 = Float32Type::get(getContext());
  (void)setShape(*this, *x, elem, 0);
  (void)setShape(*this, stats, f32, 1);
  return setShape(*this, stats, f32, 2);
}

LogicalResult GroupNormalizationOp::verify() {
  if (getStashType() != 1)
    return emitOpError() << "with stash_type " << getStashType()
                         << " is not supported";
  int64_t groups = getNumGroups();
  if (groups <= 0)
    return emitOpError() << "expects num_groups > 0, got " << groups;
  auto x = rankedShape(getX());
  if (!x)
    return success();
  if (x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  int64_t c = (*x)[1];
  if (ShapedType::isDynamic(c))
    return success();
  if (c % groups != 0)
    return emitOpError() << "expects num_groups (" << groups
                         << ") to divide the channels (" << c << ")";
  for (Value v : {getScale(), getBias()}) {
    auto s = rankedShape(v);
    if (s &&
        (s->size() != 1 || (!ShapedType::isDynamic((*s)[0]) && (*s)[0] != c)))
      return emitOpError() << "expects scale and bias of shape [" << c
                           << "], got " << formatShape(*s);
  }
  return success();
}

LogicalResult MeanVarianceNormalizationOp::verify() {
  auto x = rankedShape(getX());
  if (!x)
    return success();
  SmallVector<bool> seen(x->size(), false);
  for (int64_t axis : getAxes()) {
    if (failed(verifyAxis(*this, axis, x->size(), false)))
      return failure();
    if (seen[normAxis(axis, x->size())])
      return emitOpError() << "has axis " << axis << " twice";
    seen[normAxis(axis, x->size())] = true;
  }
  return success();
}

LogicalResult LRNOp::verify() {
  if (getSize() <= 0)
    return emitOpError() << "expects size > 0, got " << getSize();
  auto x = rankedShape(getX());
  if (x && x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  return success();
}

LogicalResult GroupNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult MeanVarianceNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult LRNOp::inferShapes() { return inferSameAsOperand(*this, getX()); }
