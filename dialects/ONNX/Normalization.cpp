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
    if (s && (s->size() != 1 || (!ShapedType::isDynamic(c) &&
                                 !ShapedType::isDynamic((*s)[0]) &&
                                 (*s)[0] != c)))
      return emitOpError() << "expects scale, B, mean and var of shape [" << c
                           << "], got " << formatShape(*s);
  }
  return success();
}

LogicalResult SoftmaxOp::verify() {
  if (auto x = rankedShape(getInput()))
    return verifyAxis(*this, getAxis(), x->size(), false);
  return success();
}

LogicalResult BatchNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult SoftmaxOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}
