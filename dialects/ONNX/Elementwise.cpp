//===- Elementwise.cpp - verifiers and shapes of elementwise ops ------------ ===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  return {};
}

template <typename Op>
static LogicalResult verifyBinary(Op op) {
  auto a = rankedShape(op.getA()), b = rankedShape(op.getB());
  if (getElementTypeOrSelf(op.getA()) != getElementTypeOrSelf(op.getB()))
    return op.emitOpError() << "expects operands of one element type, got "
                            << op.getA().getType() << " and "
                            << op.getB().getType();
  if (a && b && failed(broadcastShapes(*a, *b)))
    return op.emitOpError() << "cannot broadcast shapes " << formatShape(*a)
                            << " and " << formatShape(*b);
  return success();
}
LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }
LogicalResult DivOp::verify() { return verifyBinary(*this); }

LogicalResult ClipOp::verify() {
  for (Value bound : {getMin(), getMax()}) {
    if (isa<NoneType>(bound.getType()))
      continue;
    auto shape = rankedShape(bound);
    if (shape && !shape->empty() &&
        !(shape->size() == 1 && (*shape)[0] == 1))
      return emitOpError() << "expects scalar min/max, got shape "
                           << formatShape(*shape);
    if (getElementTypeOrSelf(bound) != getElementTypeOrSelf(getInput()))
      return emitOpError() << "expects min/max of the input's element type";
  }
  return success();
}

LogicalResult DropoutOp::verify() {
  if (isa<NoneType>(getTrainingMode().getType()))
    return success();
  auto mode = getConstantInts(getTrainingMode());
  ElementsAttr attr;
  if (matchPattern(getTrainingMode(), m_Constant(&attr)) &&
      attr.getElementType().isInteger(1)) {
    if (!attr.getValues<bool>()[0])
      return success();
    return emitOpError() << "with training_mode=true is not supported";
  }
  (void)mode;
  return emitOpError() << "needs a constant false training_mode";
}

template <typename Op>
static LogicalResult inferBinary(Op op) {
  Type elem = getElementTypeOrSelf(op.getA());
  auto a = rankedShape(op.getA()), b = rankedShape(op.getB());
  if (!a || !b)
    return keepUnranked(op, elem);
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(*a, *b);
  if (failed(shape))
    return op.emitOpError() << "cannot broadcast shapes " << formatShape(*a)
                            << " and " << formatShape(*b);
  return setShape(op, *shape, elem);
}
LogicalResult AddOp::inferShapes() { return inferBinary(*this); }
LogicalResult SubOp::inferShapes() { return inferBinary(*this); }
LogicalResult MulOp::inferShapes() { return inferBinary(*this); }
LogicalResult DivOp::inferShapes() { return inferBinary(*this); }

LogicalResult ReluOp::inferShapes() { return inferSameAsOperand(*this, getX()); }
LogicalResult SigmoidOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult IdentityOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult ClipOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}
LogicalResult DropoutOp::inferShapes() {
  return inferSameAsOperand(*this, getData());
}
