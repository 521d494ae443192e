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

/// The broadcast shape of all `operands`, or nullopt when one is unranked.
/// Emits an error on `op` (and fails) when they clash.
static FailureOr<std::optional<SmallVector<int64_t>>>
broadcastAll(Operation *op, ValueRange operands) {
  SmallVector<int64_t> shape;
  for (Value v : operands) {
    auto s = rankedShape(v);
    if (!s)
      return std::optional<SmallVector<int64_t>>();
    FailureOr<SmallVector<int64_t>> next = broadcastShapes(shape, *s);
    if (failed(next))
      return op->emitOpError() << "cannot broadcast shapes "
                               << formatShape(shape) << " and "
                               << formatShape(*s);
    shape = *next;
  }
  return std::optional<SmallVector<int64_t>>(shape);
}

/// Operands broadcast together and share one element type.
static LogicalResult verifyBroadcast(Operation *op, ValueRange operands) {
  for (Value v : operands.drop_front())
    if (getElementTypeOrSelf(v) != getElementTypeOrSelf(operands[0]))
      return op->emitOpError() << "expects operands of one element type, got "
                               << operands[0].getType() << " and "
                               << v.getType();
  return broadcastAll(op, operands);
}

/// The result is the broadcast of `operands` with element type `elem`.
static LogicalResult inferBroadcast(Operation *op, ValueRange operands,
                                    Type elem) {
  auto shape = broadcastAll(op, operands);
  if (failed(shape))
    return failure();
  if (!*shape)
    return keepUnranked(op, elem);
  return setShape(op, **shape, elem);
}

// Arithmetic, logic and bitwise ops: the operands' element type.
#define TCC_BINARY_OP(Op)                                                      \
  LogicalResult Op::verify() { return verifyBroadcast(*this, getOperands()); } \
  LogicalResult Op::inferShapes() {                                            \
    return inferBroadcast(*this, getOperands(), getElementTypeOrSelf(getA())); \
  }
TCC_BINARY_OP(AddOp)
TCC_BINARY_OP(SubOp)
TCC_BINARY_OP(MulOp)
TCC_BINARY_OP(DivOp)
TCC_BINARY_OP(ModOp)
TCC_BINARY_OP(AndOp)
TCC_BINARY_OP(OrOp)
TCC_BINARY_OP(XorOp)
TCC_BINARY_OP(BitwiseAndOp)
TCC_BINARY_OP(BitwiseOrOp)
TCC_BINARY_OP(BitwiseXorOp)
TCC_BINARY_OP(PReluOp)
#undef TCC_BINARY_OP

LogicalResult SwiGLUOp::verify() {
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (getA().getType() != getB().getType() && a && b)
    return emitOpError() << "expects A and B of one shape and type (no "
                            "broadcasting), got "
                         << formatShape(*a) << " and " << formatShape(*b);
  if (!isa<FloatType>(getElementTypeOrSelf(getA())))
    return emitOpError() << "expects float inputs";
  return success();
}
LogicalResult SwiGLUOp::inferShapes() {
  return inferBroadcast(*this, getOperands(), getElementTypeOrSelf(getA()));
}

LogicalResult BitShiftOp::verify() {
  if (getDirection() != "LEFT" && getDirection() != "RIGHT")
    return emitOpError() << "has direction '" << getDirection()
                         << "'; expected LEFT or RIGHT";
  return verifyBroadcast(*this, getOperands());
}
LogicalResult BitShiftOp::inferShapes() {
  return inferBroadcast(*this, getOperands(), getElementTypeOrSelf(getA()));
}

// Comparisons: a bool result.
#define TCC_COMPARE_OP(Op)                                                     \
  LogicalResult Op::verify() { return verifyBroadcast(*this, getOperands()); } \
  LogicalResult Op::inferShapes() {                                            \
    return inferBroadcast(*this, getOperands(),                                \
                          IntegerType::get(getContext(), 1));                  \
  }
TCC_COMPARE_OP(EqualOp)
TCC_COMPARE_OP(LessOp)
TCC_COMPARE_OP(GreaterOp)
TCC_COMPARE_OP(LessOrEqualOp)
TCC_COMPARE_OP(GreaterOrEqualOp)
#undef TCC_COMPARE_OP

// Variadic: at least one operand.
#define TCC_VARIADIC_OP(Op)                                                    \
  LogicalResult Op::verify() {                                                 \
    if (getData_0().empty())                                                   \
      return emitOpError() << "needs at least one operand";                    \
    return verifyBroadcast(*this, getOperands());                              \
  }                                                                            \
  LogicalResult Op::inferShapes() {                                            \
    return inferBroadcast(*this, getOperands(),                                \
                          getElementTypeOrSelf(getData_0()[0]));               \
  }
TCC_VARIADIC_OP(MaxOp)
TCC_VARIADIC_OP(MinOp)
TCC_VARIADIC_OP(SumOp)
TCC_VARIADIC_OP(MeanOp)
#undef TCC_VARIADIC_OP

LogicalResult PowOp::verify() { return broadcastAll(*this, getOperands()); }
LogicalResult PowOp::inferShapes() {
  return inferBroadcast(*this, getOperands(), getElementTypeOrSelf(getX()));
}

LogicalResult WhereOp::verify() {
  SmallVector<Value> values = {getX(), getY()};
  if (failed(verifyBroadcast(*this, values)))
    return failure();
  return broadcastAll(*this, getOperands());
}
LogicalResult WhereOp::inferShapes() {
  return inferBroadcast(*this, getOperands(), getElementTypeOrSelf(getX()));
}

LogicalResult MulAddOp::verify() {
  if (!isa<FloatType>(getElementTypeOrSelf(getA())))
    return emitOpError() << "expects float operands, got " << getA().getType();
  return verifyBroadcast(*this, getOperands());
}
LogicalResult MulAddOp::inferShapes() {
  return inferBroadcast(*this, getOperands(), getElementTypeOrSelf(getA()));
}

LogicalResult CastOp::verify() {
  if (!elementTypeOfDataType(getContext(), getTo()))
    return emitOpError() << "to data type " << getTo()
                         << " is not supported yet";
  return success();
}
LogicalResult CastOp::inferShapes() {
  Type elem = elementTypeOfDataType(getContext(), getTo());
  if (auto shape = rankedShape(getInput()))
    return setShape(*this, *shape, elem);
  return keepUnranked(*this, elem);
}

LogicalResult BitCastOp::verify() {
  Type to = elementTypeOfDataType(getContext(), getTo());
  Type from = getElementTypeOrSelf(getInput());
  if (!to)
    return emitOpError() << "to data type " << getTo()
                         << " is not supported yet";
  if (!from.isIntOrFloat() ||
      from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    // bool is 8 bits wide in ONNX tensors.
    if (!(from.isInteger(1) && to.getIntOrFloatBitWidth() == 8) &&
        !(to.isInteger(1) && from.isIntOrFloat() &&
          from.getIntOrFloatBitWidth() == 8))
      return emitOpError() << "expects element types of one width, got "
                           << from << " to " << to;
  return success();
}
LogicalResult BitCastOp::inferShapes() {
  Type elem = elementTypeOfDataType(getContext(), getTo());
  if (auto shape = rankedShape(getInput()))
    return setShape(*this, *shape, elem);
  return keepUnranked(*this, elem);
}

LogicalResult CastLikeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getTargetType());
  if (auto shape = rankedShape(getInput()))
    return setShape(*this, *shape, elem);
  return keepUnranked(*this, elem);
}

/// IsNaN and IsInf: a bool of the operand's shape.
static LogicalResult inferPredicate(Operation *op, Value x) {
  Type i1 = IntegerType::get(op->getContext(), 1);
  if (auto shape = rankedShape(x))
    return setShape(op, *shape, i1);
  return keepUnranked(op, i1);
}
LogicalResult IsNaNOp::inferShapes() { return inferPredicate(*this, getX()); }
LogicalResult IsInfOp::inferShapes() { return inferPredicate(*this, getX()); }

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError() << "has approximate '" << getApproximate()
                         << "'; expected none or tanh";
  return success();
}

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
  ElementsAttr attr;
  if (matchPattern(getTrainingMode(), m_Constant(&attr)) &&
      attr.getElementType().isInteger(1)) {
    if (!attr.getValues<bool>()[0])
      return success();
    return emitOpError() << "with training_mode=true is not supported";
  }
  return emitOpError() << "needs a constant false training_mode";
}

LogicalResult ClipOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}
LogicalResult DropoutOp::inferShapes() {
  getOutput().setType(getData().getType());
  if (Value mask = getMask()) {
    Type i1 = IntegerType::get(getContext(), 1);
    if (auto shape = rankedShape(getData()))
      mask.setType(RankedTensorType::get(*shape, i1));
    else
      mask.setType(UnrankedTensorType::get(i1));
  }
  return success();
}
