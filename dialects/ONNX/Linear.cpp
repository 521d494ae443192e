//===- Linear.cpp - verifiers and shapes of Gemm and MatMul ------------------- ===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

LogicalResult GemmOp::verify() {
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (a && a->size() != 2)
    return emitOpError() << "expects A of rank 2, got " << formatShape(*a);
  if (b && b->size() != 2)
    return emitOpError() << "expects B of rank 2, got " << formatShape(*b);
  if (a && b) {
    int64_t ka = (*a)[getTransA() ? 0 : 1], kb = (*b)[getTransB() ? 1 : 0];
    if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
      return emitOpError() << "has mismatched inner dims: A " << formatShape(*a)
                           << (getTransA() ? " (transposed)" : "") << ", B "
                           << formatShape(*b) << (getTransB() ? " (transposed)" : "");
  }
  if (auto c = rankedShape(getC()); c && c->size() > 2)
    return emitOpError() << "expects C of rank <= 2, got " << formatShape(*c);
  return success();
}

LogicalResult tcc::onnx::detail::verifyMatMulShapes(Operation *op, Value aValue,
                                                    Value bValue) {
  auto a = rankedShape(aValue), b = rankedShape(bValue);
  if (!a || !b)
    return success();
  if (a->empty() || b->empty())
    return op->emitOpError() << "expects operands of rank >= 1";
  int64_t ka = a->back(), kb = b->size() == 1 ? (*b)[0] : (*b)[b->size() - 2];
  if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
    return op->emitOpError() << "has mismatched inner dims: " << formatShape(*a)
                             << " x " << formatShape(*b);
  auto batchA = a->size() > 2 ? a->drop_back(2) : ArrayRef<int64_t>();
  auto batchB = b->size() > 2 ? b->drop_back(2) : ArrayRef<int64_t>();
  if (failed(broadcastShapes(batchA, batchB)))
    return op->emitOpError() << "cannot broadcast batch dims of "
                             << formatShape(*a) << " and " << formatShape(*b);
  return success();
}

LogicalResult MatMulOp::verify() {
  if (getElementTypeOrSelf(getA()) != getElementTypeOrSelf(getB()))
    return emitOpError() << "expects operands of one element type";
  return verifyMatMulShapes(*this, getA(), getB());
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

LogicalResult tcc::onnx::detail::inferMatMulShape(Operation *op, Value aValue,
                                                  Value bValue, Type elem) {
  auto a = rankedShape(aValue), b = rankedShape(bValue);
  if (!a || !b)
    return keepUnranked(op, elem);
  auto batchA = a->size() > 2 ? a->drop_back(2) : ArrayRef<int64_t>();
  auto batchB = b->size() > 2 ? b->drop_back(2) : ArrayRef<int64_t>();
  SmallVector<int64_t> shape = *broadcastShapes(batchA, batchB);
  if (a->size() >= 2)
    shape.push_back((*a)[a->size() - 2]);
  if (b->size() >= 2)
    shape.push_back(b->back());
  return setShape(op, shape, elem);
}

LogicalResult MatMulOp::inferShapes() {
  return inferMatMulShape(*this, getA(), getB(), getElementTypeOrSelf(getA()));
}

/// The operands' shapes when all are ranked.
static std::optional<SmallVector<ArrayRef<int64_t>>>
rankedShapes(ValueRange values) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : values) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return std::nullopt;
    shapes.push_back(type.getShape());
  }
  return shapes;
}

LogicalResult EinsumOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expects at least one input";
  Type elem = getElementTypeOrSelf(getInputs().front());
  for (Value v : getInputs())
    if (getElementTypeOrSelf(v) != elem)
      return emitOpError() << "expects inputs of one element type";
  if (auto shapes = rankedShapes(getInputs()))
    return resolveEinsum(*this, getEquation(), *shapes);
  return success();
}

LogicalResult EinsumOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInputs().front());
  auto shapes = rankedShapes(getInputs());
  if (!shapes)
    return keepUnranked(*this, elem);
  FailureOr<EinsumSpec> spec = resolveEinsum(*this, getEquation(), *shapes);
  if (failed(spec))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t loop : spec->output)
    shape.push_back(spec->loopSizes[loop]);
  return setShape(*this, shape, elem);
}
