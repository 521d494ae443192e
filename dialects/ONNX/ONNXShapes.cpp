//===- ONNXShapes.cpp - static shape inference for onnx ops ---------------===//
//
// Each op's ShapeInferenceOpInterface::inferShapes: result types from operand
// types, attributes and constant operands. The op has been verified.
//
//===----------------------------------------------------------------------===//
#include "dialects/ONNX/ONNXOps.h"

using namespace mlir;
using namespace tcc::onnx;

static LogicalResult setShape(Operation *op, ArrayRef<int64_t> shape,
                              Type elementType, unsigned idx = 0) {
  op->getResult(idx).setType(RankedTensorType::get(shape, elementType));
  return success();
}

static std::optional<ArrayRef<int64_t>> rankedShape(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t.getShape();
  return std::nullopt;
}

/// Keeps the result unranked (of the right element type) when an operand's
/// rank is unknown: a later inference run can refine it.
static LogicalResult keepUnranked(Operation *op, Type elementType) {
  op->getResult(0).setType(UnrankedTensorType::get(elementType));
  return success();
}

static int64_t normAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

static int64_t mulDims(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) {
    if (ShapedType::isDynamic(d))
      return ShapedType::kDynamic;
    p *= d;
  }
  return p;
}

LogicalResult ConstantOp::inferShapes() { return success(); }
LogicalResult NoValueOp::inferShapes() { return success(); }

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

static LogicalResult inferSameAsOperand(Operation *op, Value operand) {
  op->getResult(0).setType(operand.getType());
  return success();
}
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
LogicalResult BatchNormalizationOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult SoftmaxOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}

LogicalResult ConvOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX()), w = rankedShape(getW());
  if (!x || !w)
    return keepUnranked(*this, elem);
  FailureOr<WindowGeometry> g = resolveWindow(
      *this, *x, w->drop_front(2), getAutoPad(), getPads(), getStrides(),
      getDilations(), /*ceilMode=*/false);
  if (failed(g))
    return failure();
  SmallVector<int64_t> shape = {(*x)[0], (*w)[0]};
  shape.append(g->outSizes);
  return setShape(*this, shape, elem);
}

template <typename Op>
static LogicalResult inferPool(Op op) {
  Type elem = getElementTypeOrSelf(op.getX());
  auto x = rankedShape(op.getX());
  if (!x)
    return keepUnranked(op, elem);
  FailureOr<WindowGeometry> g =
      resolveWindow(op, *x, op.getKernelShape(), op.getAutoPad(), op.getPads(),
                    op.getStrides(), op.getDilations(), op.getCeilMode() != 0);
  if (failed(g))
    return failure();
  SmallVector<int64_t> shape = {(*x)[0], (*x)[1]};
  shape.append(g->outSizes);
  return setShape(op, shape, elem);
}
LogicalResult MaxPoolOp::inferShapes() { return inferPool(*this); }
LogicalResult AveragePoolOp::inferShapes() { return inferPool(*this); }

LogicalResult GlobalAveragePoolOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX());
  if (!x)
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape(x->size(), 1);
  shape[0] = (*x)[0];
  shape[1] = (*x)[1];
  return setShape(*this, shape, elem);
}

LogicalResult GemmOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getA());
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (!a || !b)
    return keepUnranked(*this, elem);
  int64_t m = (*a)[getTransA() ? 1 : 0], n = (*b)[getTransB() ? 0 : 1];
  if (auto c = rankedShape(getC())) {
    if (failed(broadcastShapes(*c, {m, n})))
      return emitOpError() << "cannot broadcast C of shape " << formatShape(*c)
                           << " to the result shape " << formatShape({m, n});
  }
  return setShape(*this, {m, n}, elem);
}

LogicalResult MatMulOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getA());
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (!a || !b)
    return keepUnranked(*this, elem);
  auto batchA = a->size() > 2 ? a->drop_back(2) : ArrayRef<int64_t>();
  auto batchB = b->size() > 2 ? b->drop_back(2) : ArrayRef<int64_t>();
  SmallVector<int64_t> shape = *broadcastShapes(batchA, batchB);
  if (a->size() >= 2)
    shape.push_back((*a)[a->size() - 2]);
  if (b->size() >= 2)
    shape.push_back(b->back());
  return setShape(*this, shape, elem);
}

LogicalResult FlattenOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  auto x = rankedShape(getInput());
  if (!x)
    return keepUnranked(*this, elem);
  int64_t axis = normAxis(getAxis(), x->size());
  return setShape(*this,
                  {mulDims(x->take_front(axis)), mulDims(x->drop_front(axis))},
                  elem);
}

LogicalResult ReshapeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  std::optional<SmallVector<int64_t>> target = getConstantInts(getShape());
  if (!target) {
    // The rank is still known from the shape operand's static size.
    auto s = rankedShape(getShape());
    if (s && !ShapedType::isDynamic((*s)[0]))
      return setShape(*this, SmallVector<int64_t>((*s)[0], ShapedType::kDynamic),
                      elem);
    return keepUnranked(*this, elem);
  }
  SmallVector<int64_t> shape(*target);
  int64_t inferred = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && getAllowzero() == 0) {
      if (!x || i >= x->size())
        return x ? emitOpError() << "copies dim " << i
                                 << " (0 in the shape) of an input of rank "
                                 << x->size()
                 : keepUnranked(*this, elem);
      shape[i] = (*x)[i];
    } else if (shape[i] == -1) {
      if (inferred >= 0)
        return emitOpError() << "has more than one -1 in its shape "
                             << formatShape(*target);
      inferred = i;
    } else if (shape[i] < -1) {
      return emitOpError() << "has an invalid dim " << shape[i]
                           << " in its shape";
    }
  }
  int64_t total = x ? mulDims(*x) : ShapedType::kDynamic;
  if (inferred >= 0) {
    shape[inferred] = 1;
    int64_t known = mulDims(shape);
    if (ShapedType::isDynamic(total) || ShapedType::isDynamic(known))
      shape[inferred] = ShapedType::kDynamic;
    else if (known == 0 || total % known != 0)
      return emitOpError() << "cannot reshape " << formatShape(*x) << " to "
                           << formatShape(*target);
    else
      shape[inferred] = total / known;
  }
  int64_t result = mulDims(shape);
  if (!ShapedType::isDynamic(total) && !ShapedType::isDynamic(result) &&
      total != result)
    return emitOpError() << "cannot reshape " << formatShape(*x) << " ("
                         << total << " elements) to " << formatShape(*target)
                         << " (" << result << " elements)";
  return setShape(*this, shape, elem);
}

LogicalResult TransposeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  if (!x)
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < x->size(); ++i)
    shape.push_back((*x)[getPerm() ? (*getPerm())[i] : x->size() - 1 - i]);
  return setShape(*this, shape, elem);
}

LogicalResult ConcatOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInputs().front());
  SmallVector<int64_t> shape;
  for (Value v : getInputs()) {
    auto s = rankedShape(v);
    if (!s)
      return keepUnranked(*this, elem);
    int64_t axis = normAxis(getAxis(), s->size());
    if (shape.empty()) {
      shape.assign(s->begin(), s->end());
      continue;
    }
    for (size_t i = 0; i < s->size(); ++i) {
      if ((int64_t)i == axis)
        shape[i] = ShapedType::isDynamic(shape[i]) ||
                           ShapedType::isDynamic((*s)[i])
                       ? ShapedType::kDynamic
                       : shape[i] + (*s)[i];
      else if (ShapedType::isDynamic(shape[i]))
        shape[i] = (*s)[i];
    }
  }
  return setShape(*this, shape, elem);
}
