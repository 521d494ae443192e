//===- Quantization.cpp - verifiers and shapes of quantization ops --------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

/// Per-tensor (scalar or [1]) or per-axis (1-d of the axis' size) scale and
/// zero point; blocked forms are refused.
template <typename Op>
static LogicalResult verifyQuantParams(Op op, Value input, Value scale,
                                       Value zeroPoint, int64_t blockSize) {
  if (blockSize != 0)
    return op.emitOpError() << "with block_size (blocked quantization) is "
                            << "not supported yet";
  auto x = rankedShape(input), s = rankedShape(scale);
  if (s && s->size() > 1)
    return op.emitOpError() << "expects a scalar or 1-d scale, got "
                            << formatShape(*s);
  if (x && s && s->size() == 1 && (*s)[0] != 1) {
    if (failed(verifyAxis(op, op.getAxis(), x->size(), false)))
      return failure();
    int64_t dim = (*x)[normAxis(op.getAxis(), x->size())];
    if (!ShapedType::isDynamic(dim) && !ShapedType::isDynamic((*s)[0]) &&
        (*s)[0] != dim)
      return op.emitOpError() << "has a scale of " << (*s)[0]
                              << " values for an axis of size " << dim;
  }
  if (auto z = rankedShape(zeroPoint); z && s && *z != *s)
    return op.emitOpError() << "expects the zero point shaped like the scale";
  return success();
}

/// The quantized type: the zero point's, else `output_dtype`, else uint8.
static Type quantizedType(QuantizeLinearOp op) {
  MLIRContext *ctx = op.getContext();
  if (!isa<NoneType>(op.getYZeroPoint().getType()))
    return getElementTypeOrSelf(op.getYZeroPoint());
  switch (op.getOutputDtype()) {
  case 0:
  case 2:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case 3:
    return IntegerType::get(ctx, 8);
  case 4:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case 5:
    return IntegerType::get(ctx, 16);
  default:
    return {};
  }
}

LogicalResult QuantizeLinearOp::verify() {
  Type out = quantizedType(*this);
  if (!out || !(out.isInteger(8) || out.isInteger(16)))
    return emitOpError() << "to this type is not supported yet (8- and "
                         << "16-bit integers are)";
  return verifyQuantParams(*this, getX(), getYScale(), getYZeroPoint(),
                           getBlockSize());
}

LogicalResult DequantizeLinearOp::verify() {
  Type in = getElementTypeOrSelf(getX());
  if (!in.isInteger(8) && !in.isInteger(16) && !in.isInteger(32))
    return emitOpError() << "from " << in << " is not supported yet "
                         << "(8-, 16- and 32-bit integers are)";
  return verifyQuantParams(*this, getX(), getXScale(), getXZeroPoint(),
                           getBlockSize());
}

LogicalResult MatMulIntegerOp::verify() {
  for (Value v : {getA(), getB()})
    if (!getElementTypeOrSelf(v).isInteger(8))
      return emitOpError() << "expects 8-bit integer operands";
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (a && b && (a->size() != 2 || b->size() != 2))
    return emitOpError() << "with operands of rank other than 2 is not "
                         << "supported yet";
  return success();
}

LogicalResult QuantizeLinearOp::inferShapes() {
  Type elem = quantizedType(*this);
  if (auto x = rankedShape(getX()))
    return setShape(*this, *x, elem);
  return keepUnranked(*this, elem);
}

LogicalResult DequantizeLinearOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getXScale());
  if (auto x = rankedShape(getX()))
    return setShape(*this, *x, elem);
  return keepUnranked(*this, elem);
}

LogicalResult MatMulIntegerOp::inferShapes() {
  Type elem = IntegerType::get(getContext(), 32);
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (!a || !b)
    return keepUnranked(*this, elem);
  return setShape(*this, {(*a)[0], (*b)[1]}, elem);
}
