//===- Quantization.cpp - verifiers and shapes of quantization ops --------===//
#include "dialects/ONNX/OpUtils.h"

#include "llvm/ADT/SmallString.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

/// Blocked parameters: x's shape but ceil(size / block_size) along `axis`.
template <typename Op>
static LogicalResult verifyBlockedShape(Op op, ArrayRef<int64_t> x,
                                        ArrayRef<int64_t> s,
                                        int64_t blockSize) {
  if (failed(verifyAxis(op, op.getAxis(), x.size(), false)))
    return failure();
  int64_t axis = normAxis(op.getAxis(), x.size());
  SmallVector<int64_t> want(x);
  if (!ShapedType::isDynamic(x[axis]))
    want[axis] = llvm::divideCeil(x[axis], blockSize);
  bool ok = s.size() == x.size();
  for (size_t i = 0; ok && i < s.size(); ++i)
    ok = ShapedType::isDynamic(s[i]) || ShapedType::isDynamic(want[i]) ||
         s[i] == want[i];
  if (!ok)
    return op.emitOpError()
           << "with block_size " << blockSize << " expects a scale of shape "
           << formatShape(want) << ", got " << formatShape(s);
  return success();
}

/// Per-tensor (scalar or [1]), per-axis (1-d of the axis' size) or blocked
/// (block_size > 0) scale and zero point.
template <typename Op>
static LogicalResult verifyQuantParams(Op op, Value input, Value scale,
                                       Value zeroPoint, int64_t blockSize) {
  if (blockSize < 0)
    return op.emitOpError() << "expects block_size >= 0, got " << blockSize;
  auto x = rankedShape(input), s = rankedShape(scale);
  if (blockSize > 0 && x && s &&
      failed(verifyBlockedShape(op, *x, *s, blockSize)))
    return failure();
  if (blockSize == 0 && s && s->size() > 1)
    return op.emitOpError() << "expects a scalar or 1-d scale, got "
                            << formatShape(*s);
  if (blockSize == 0 && x && s && s->size() == 1 && (*s)[0] != 1) {
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

/// A zero point (none allowed) of `data`'s element type.
static LogicalResult verifyZeroPointType(Operation *op, Value zeroPoint,
                                         Value data, StringRef zpName,
                                         StringRef dataName) {
  if (isa<NoneType>(zeroPoint.getType()) ||
      getElementTypeOrSelf(zeroPoint) == getElementTypeOrSelf(data))
    return success();
  return op->emitOpError() << "expects " << zpName << " of " << dataName
                           << "'s element type " << getElementTypeOrSelf(data)
                           << ", got " << getElementTypeOrSelf(zeroPoint);
}

/// A scale that is a constant holds finite values > 0: with 0, a negative
/// value, an infinity or a NaN, quantizing divides by zero or flips signs.
/// Scales computed in the graph are not checked.
static LogicalResult verifyScaleValues(Operation *op, Value scale,
                                       StringRef name) {
  ElementsAttr attr = constantAttr(scale);
  if (!attr || !isa<FloatType>(attr.getElementType()))
    return success();
  auto values = attr.tryGetValues<APFloat>();
  if (!values)
    return success();
  int64_t i = 0;
  for (APFloat v : *values) {
    if (v.isFinite() && !v.isZero() && !v.isNegative()) {
      ++i;
      continue;
    }
    SmallString<16> text;
    v.toString(text);
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects " << name
                              << " to be finite and > 0, got " << text;
    if (attr.getNumElements() > 1)
      diag << " at index " << i;
    return diag;
  }
  return success();
}

/// A constant zero point of an int32 tensor is 0 (ONNX: int32 has none).
static LogicalResult verifyInt32ZeroPoint(Operation *op, Value zeroPoint,
                                          StringRef name) {
  ElementsAttr attr = constantAttr(zeroPoint);
  if (!attr || !attr.getElementType().isInteger(32))
    return success();
  auto values = attr.tryGetValues<APInt>();
  if (!values)
    return success();
  for (APInt v : *values)
    if (!v.isZero())
      return op->emitOpError()
             << "expects " << name << " of an int32 tensor to be 0, got "
             << v.getSExtValue();
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
  if (failed(verifyScaleValues(*this, getYScale(), "y_scale")))
    return failure();
  return verifyQuantParams(*this, getX(), getYScale(), getYZeroPoint(),
                           getBlockSize());
}

LogicalResult DequantizeLinearOp::verify() {
  Type in = getElementTypeOrSelf(getX());
  if (!in.isInteger(8) && !in.isInteger(16) && !in.isInteger(32))
    return emitOpError() << "from " << in << " is not supported yet "
                         << "(8-, 16- and 32-bit integers are)";
  if (failed(verifyZeroPointType(*this, getXZeroPoint(), getX(), "x_zero_point",
                                 "x")) ||
      failed(verifyInt32ZeroPoint(*this, getXZeroPoint(), "x_zero_point")) ||
      failed(verifyScaleValues(*this, getXScale(), "x_scale")))
    return failure();
  return verifyQuantParams(*this, getX(), getXScale(), getXZeroPoint(),
                           getBlockSize());
}

LogicalResult MatMulIntegerOp::verify() {
  for (Value v : {getA(), getB()})
    if (!getElementTypeOrSelf(v).isInteger(8))
      return emitOpError() << "expects 8-bit integer operands";
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (a && b && (a->size() < 2 || b->size() != 2))
    return emitOpError() << "with a of rank below 2 or b of rank other than "
                         << "2 is not supported yet, got a " << formatShape(*a)
                         << " and b " << formatShape(*b);
  if (a && b && !ShapedType::isDynamic(a->back()) &&
      !ShapedType::isDynamic((*b)[0]) && a->back() != (*b)[0])
    return emitOpError() << "expects a's last dim (" << a->back()
                         << ") to equal b's first (" << (*b)[0] << ")";
  if (a && a->size() > 2 && !isa<NoneType>(getAZeroPoint().getType())) {
    auto z = rankedShape(getAZeroPoint());
    if (z && llvm::any_of(*z, [](int64_t d) { return d != 1; }))
      return emitOpError() << "with a of rank " << a->size()
                           << " expects a per-tensor a_zero_point, got "
                           << formatShape(*z);
  }
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
  SmallVector<int64_t> shape(a->begin(), a->end() - 1);
  shape.push_back((*b)[1]);
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// QLinearMatMul, ConvInteger, QLinearConv, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

static bool isInt8(Value v) { return getElementTypeOrSelf(v).isInteger(8); }

/// Whether `v` holds one value (a scalar, [1], [1, 1], ...) or is unranked.
static bool isPerTensor(Value v) {
  auto shape = rankedShape(v);
  return !shape || llvm::all_of(*shape, [](int64_t d) { return d == 1; });
}

/// A float scale holding one value.
static LogicalResult verifyPerTensorScale(Operation *op, Value scale,
                                          StringRef name) {
  if (!isa<FloatType>(getElementTypeOrSelf(scale)))
    return op->emitOpError() << "expects a float " << name;
  if (!isPerTensor(scale))
    return op->emitOpError() << "expects a per-tensor (one-element) " << name;
  return success();
}

/// A parameter (none allowed) per tensor or per output channel of W ([M]).
static LogicalResult verifyPerChannel(Operation *op, Value param, Value w,
                                      StringRef name) {
  if (isa<NoneType>(param.getType()) || isPerTensor(param))
    return success();
  auto p = rankedShape(param), ws = rankedShape(w);
  if (p->size() == 1 &&
      (!ws || ws->empty() || ShapedType::isDynamic((*p)[0]) ||
       ShapedType::isDynamic((*ws)[0]) || (*p)[0] == (*ws)[0]))
    return success();
  return op->emitOpError() << "expects " << name
                           << " per tensor or per output channel, got "
                           << formatShape(*p);
}

/// The quantized result type: y_zero_point's, else the input's.
static Type requantizedType(Value yZeroPoint, Value input) {
  return getElementTypeOrSelf(isa<NoneType>(yZeroPoint.getType()) ? input
                                                                  : yZeroPoint);
}

/// What the requantized outputs of QLinearMatMul and QLinearConv share: an
/// 8-bit y_zero_point held in one value, and per-tensor input and output
/// scales.
static LogicalResult verifyRequantization(Operation *op, Value inScale,
                                          StringRef inScaleName, Value yScale,
                                          Value yZeroPoint) {
  if (failed(verifyPerTensorScale(op, inScale, inScaleName)) ||
      failed(verifyPerTensorScale(op, yScale, "y_scale")))
    return failure();
  if (isa<NoneType>(yZeroPoint.getType()))
    return success();
  if (!isInt8(yZeroPoint))
    return op->emitOpError() << "expects an 8-bit integer y_zero_point";
  if (!isPerTensor(yZeroPoint))
    return op->emitOpError() << "expects a per-tensor (one-element) "
                             << "y_zero_point";
  return success();
}

LogicalResult QLinearMatMulOp::verify() {
  if (!isInt8(getA()) || !isInt8(getB()))
    return emitOpError() << "expects 8-bit integer a and b";
  if (failed(verifyZeroPointType(*this, getAZeroPoint(), getA(), "a_zero_point",
                                 "a")) ||
      failed(verifyZeroPointType(*this, getBZeroPoint(), getB(), "b_zero_point",
                                 "b")) ||
      failed(verifyRequantization(*this, getAScale(), "a_scale", getYScale(),
                                  getYZeroPoint())) ||
      failed(verifyPerTensorScale(*this, getBScale(), "b_scale")) ||
      failed(verifyScaleValues(*this, getAScale(), "a_scale")) ||
      failed(verifyScaleValues(*this, getBScale(), "b_scale")) ||
      failed(verifyScaleValues(*this, getYScale(), "y_scale")))
    return failure();
  for (Value zp : {getAZeroPoint(), getBZeroPoint()})
    if (!isa<NoneType>(zp.getType()) && !isPerTensor(zp))
      return emitOpError() << "with per-row or per-column zero points is not "
                           << "supported yet";
  return verifyMatMulShapes(*this, getA(), getB());
}

LogicalResult QLinearMatMulOp::inferShapes() {
  return inferMatMulShape(*this, getA(), getB(),
                          requantizedType(getYZeroPoint(), getA()));
}

LogicalResult ConvIntegerOp::verify() {
  if (!isInt8(getX()) || !isInt8(getW()))
    return emitOpError() << "expects 8-bit integer x and w";
  if (failed(verifyZeroPointType(*this, getXZeroPoint(), getX(), "x_zero_point",
                                 "x")) ||
      failed(verifyZeroPointType(*this, getWZeroPoint(), getW(), "w_zero_point",
                                 "w")))
    return failure();
  if (!isa<NoneType>(getXZeroPoint().getType()) &&
      !isPerTensor(getXZeroPoint()))
    return emitOpError() << "expects a per-tensor (one-element) x_zero_point";
  if (failed(verifyPerChannel(*this, getWZeroPoint(), getW(), "w_zero_point")))
    return failure();
  return verifyConvShapes(*this, getX(), getW(), Value(), getGroup(),
                          getKernelShape());
}

LogicalResult ConvIntegerOp::inferShapes() {
  return inferConvShape(*this, getX(), getW(),
                        IntegerType::get(getContext(), 32), getAutoPad(),
                        getPads(), getStrides(), getDilations());
}

LogicalResult NhwcConvIntegerOp::verify() {
  if (!getElementTypeOrSelf(getX()).isUnsignedInteger(8) ||
      !getElementTypeOrSelf(getW()).isSignlessInteger(8))
    return emitOpError() << "expects uint8 x and int8 w";
  if (getGroup() != 1)
    return emitOpError() << "expects group 1, got " << getGroup();
  if (auto x = rankedShape(getX()); x && x->size() != 4)
    return emitOpError() << "expects x of rank 4 [N, H, W, C], got "
                         << formatShape(*x);
  if (failed(verifyZeroPointType(*this, getXZeroPoint(), getX(), "x_zero_point",
                                 "x")))
    return failure();
  if (!isa<NoneType>(getXZeroPoint().getType()) &&
      !isPerTensor(getXZeroPoint()))
    return emitOpError() << "expects a per-tensor (one-element) x_zero_point";
  return verifyConvShapes(*this, getX(), getW(), Value(), getGroup(),
                          getKernelShape(), /*channelsLast=*/true);
}

LogicalResult NhwcConvIntegerOp::inferShapes() {
  return inferConvShape(*this, getX(), getW(),
                        IntegerType::get(getContext(), 32), getAutoPad(),
                        getPads(), getStrides(), getDilations(),
                        /*channelsLast=*/true);
}

LogicalResult QLinearConvOp::verify() {
  if (!isInt8(getX()) || !isInt8(getW()))
    return emitOpError() << "expects 8-bit integer x and w";
  if (failed(verifyZeroPointType(*this, getXZeroPoint(), getX(), "x_zero_point",
                                 "x")) ||
      failed(verifyZeroPointType(*this, getWZeroPoint(), getW(), "w_zero_point",
                                 "w")) ||
      failed(verifyRequantization(*this, getXScale(), "x_scale", getYScale(),
                                  getYZeroPoint())))
    return failure();
  if (!isa<NoneType>(getXZeroPoint().getType()) &&
      !isPerTensor(getXZeroPoint()))
    return emitOpError() << "expects a per-tensor (one-element) x_zero_point";
  if (!isa<FloatType>(getElementTypeOrSelf(getWScale())))
    return emitOpError() << "expects a float w_scale";
  if (failed(
          verifyPerChannel(*this, getWZeroPoint(), getW(), "w_zero_point")) ||
      failed(verifyPerChannel(*this, getWScale(), getW(), "w_scale")) ||
      failed(verifyScaleValues(*this, getXScale(), "x_scale")) ||
      failed(verifyScaleValues(*this, getWScale(), "w_scale")) ||
      failed(verifyScaleValues(*this, getYScale(), "y_scale")))
    return failure();
  if (!isa<NoneType>(getB().getType()) &&
      !getElementTypeOrSelf(getB()).isInteger(32))
    return emitOpError() << "expects an int32 bias";
  return verifyConvShapes(*this, getX(), getW(), getB(), getGroup(),
                          getKernelShape());
}

LogicalResult QLinearConvOp::inferShapes() {
  return inferConvShape(*this, getX(), getW(),
                        requantizedType(getYZeroPoint(), getX()), getAutoPad(),
                        getPads(), getStrides(), getDilations());
}

LogicalResult DynamicQuantizeLinearOp::verify() {
  if (!getElementTypeOrSelf(getX()).isF32())
    return emitOpError() << "expects a float32 input, got "
                         << getElementTypeOrSelf(getX());
  return success();
}

LogicalResult DynamicQuantizeLinearOp::inferShapes() {
  MLIRContext *ctx = getContext();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  if (auto x = rankedShape(getX()))
    (void)setShape(*this, *x, u8, 0);
  else
    getY().setType(UnrankedTensorType::get(u8));
  (void)setShape(*this, {}, Float32Type::get(ctx), 1);
  return setShape(*this, {}, u8, 2);
}
