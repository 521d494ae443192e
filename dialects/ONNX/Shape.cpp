//===- Shape.cpp - verifiers, shapes and folds of the onnx shape ops ------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

//===----------------------------------------------------------------------===//
// Shape, Size
//===----------------------------------------------------------------------===//

std::pair<int64_t, int64_t> ShapeOp::getDimRange(int64_t rank) {
  auto clampDim = [&](int64_t d) {
    return std::clamp<int64_t>(d < 0 ? d + rank : d, 0, rank);
  };
  int64_t start = clampDim(getStart());
  int64_t end = getEnd() ? clampDim(*getEnd()) : rank;
  return {start, std::max(start, end)};
}

LogicalResult ShapeOp::inferShapes() {
  auto i64 = IntegerType::get(getContext(), 64);
  auto x = rankedShape(getData());
  if (!x)
    return setShape(*this, {ShapedType::kDynamic}, i64);
  auto [start, end] = getDimRange(x->size());
  return setShape(*this, {end - start}, i64);
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto x = rankedShape(getData());
  if (!x)
    return {};
  auto [start, end] = getDimRange(x->size());
  ArrayRef<int64_t> dims = x->slice(start, end - start);
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return {};
  return foldedInts(*this, dims);
}

LogicalResult SizeOp::inferShapes() {
  return setShape(*this, {}, IntegerType::get(getContext(), 64));
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  auto x = rankedShape(getData());
  if (!x || ShapedType::isDynamic(mulDims(*x)))
    return {};
  return foldedInts(*this, {mulDims(*x)});
}

//===----------------------------------------------------------------------===//
// Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

LogicalResult SqueezeOp::verify() {
  auto x = rankedShape(getData());
  auto axes = getConstantInts(getAxes());
  if (!x || !axes)
    return success();
  FailureOr<SmallVector<int64_t>> norm = normalizeAxes(*this, *axes, x->size());
  if (failed(norm))
    return failure();
  for (int64_t a : *norm)
    if (!ShapedType::isDynamic((*x)[a]) && (*x)[a] != 1)
      return emitOpError() << "cannot squeeze dim " << a << " of size "
                           << (*x)[a] << " (input shape " << formatShape(*x)
                           << ")";
  return success();
}

LogicalResult SqueezeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  if (!x)
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape;
  if (isa<NoneType>(getAxes().getType())) {
    // Without axes every size-1 dim goes: a dynamic dim leaves the rank open.
    if (llvm::any_of(*x, ShapedType::isDynamic))
      return keepUnranked(*this, elem);
    for (int64_t d : *x)
      if (d != 1)
        shape.push_back(d);
    return setShape(*this, shape, elem);
  }
  auto axes = getConstantInts(getAxes());
  if (!axes)
    return keepUnranked(*this, elem);
  FailureOr<SmallVector<int64_t>> norm = normalizeAxes(*this, *axes, x->size());
  if (failed(norm))
    return failure();
  for (size_t i = 0; i < x->size(); ++i)
    if (!llvm::is_contained(*norm, (int64_t)i))
      shape.push_back((*x)[i]);
  return setShape(*this, shape, elem);
}

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return foldedReshape(*this, adaptor.getData());
}

LogicalResult UnsqueezeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  auto axes = getConstantInts(getAxes());
  if (!x || !axes)
    return keepUnranked(*this, elem);
  int64_t rank = x->size() + axes->size();
  FailureOr<SmallVector<int64_t>> norm = normalizeAxes(*this, *axes, rank);
  if (failed(norm))
    return failure();
  SmallVector<int64_t> shape;
  const int64_t *next = x->begin();
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(llvm::is_contained(*norm, i) ? 1 : *next++);
  return setShape(*this, shape, elem);
}

OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return foldedReshape(*this, adaptor.getData());
}

//===----------------------------------------------------------------------===//
// ConstantOfShape, Range, Expand
//===----------------------------------------------------------------------===//

/// A 1-d int64 shape operand: the result's shape when constant, else as
/// many dynamic dims as it has elements; nullopt when even that is unknown.
static std::optional<SmallVector<int64_t>> shapeFromOperand(Value shape) {
  if (auto values = getConstantInts(shape))
    return values;
  auto s = rankedShape(shape);
  if (s && s->size() == 1 && !ShapedType::isDynamic((*s)[0]) &&
      (*s)[0] <= kMaxRank)
    return SmallVector<int64_t>((*s)[0], ShapedType::kDynamic);
  return std::nullopt;
}

static LogicalResult verifyShapeOperand(Operation *op, Value shape) {
  auto s = rankedShape(shape);
  if (s && s->size() != 1)
    return op->emitOpError() << "expects a 1-d shape operand, got "
                             << formatShape(*s);
  if (s && !ShapedType::isDynamic((*s)[0]) && (*s)[0] > kMaxRank)
    return op->emitOpError() << "makes a tensor of rank " << (*s)[0]
                             << "; tcc supports ranks up to " << kMaxRank;
  if (auto values = getConstantInts(shape))
    for (int64_t d : *values)
      if (d < 0)
        return op->emitOpError() << "has a negative dim in its shape "
                                 << formatShape(*values);
  return success();
}

LogicalResult ConstantOfShapeOp::verify() {
  if (getValue() && getValue()->getNumElements() != 1)
    return emitOpError() << "expects a one-element value, got "
                         << getValue()->getNumElements() << " elements";
  return verifyShapeOperand(*this, getInput());
}

LogicalResult ConstantOfShapeOp::inferShapes() {
  Type elem = getValue() ? getValue()->getElementType()
                         : Type(Float32Type::get(getContext()));
  if (auto shape = shapeFromOperand(getInput()))
    return setShape(*this, *shape, elem);
  return keepUnranked(*this, elem);
}

OpFoldResult ConstantOfShapeOp::fold(FoldAdaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  Attribute value =
      getValue() ? Attribute(getSingleElement(*getValue()))
                 : FloatAttr::get(Float32Type::get(getContext()), 0.0);
  if (!value)
    return {};
  return DenseElementsAttr::get(type, value);
}

LogicalResult RangeOp::verify() {
  Type elem = getElementTypeOrSelf(getStart());
  for (Value v : {getStart(), getLimit(), getDelta()}) {
    if (getElementTypeOrSelf(v) != elem)
      return emitOpError() << "expects start, limit and delta of one type";
    // One-element 1-d tensors pass too, as in onnxruntime (ONNX's own
    // function bodies, AffineGrid's say, feed Range slices of a shape).
    auto s = rankedShape(v);
    if (s && !s->empty() && (s->size() != 1 || (*s)[0] != 1))
      return emitOpError() << "expects scalar start, limit and delta, got "
                           << formatShape(*s);
  }
  if (auto delta = getSingleElement(constantAttr(getDelta())))
    if ((isa<IntegerAttr>(delta) && cast<IntegerAttr>(delta).getInt() == 0) ||
        (isa<FloatAttr>(delta) &&
         cast<FloatAttr>(delta).getValueAsDouble() == 0))
      return emitOpError() << "has a zero delta";
  return success();
}

/// start, limit and delta of a Range as doubles when all are constant.
static std::optional<std::array<double, 3>> rangeParams(RangeOp op) {
  std::array<double, 3> params;
  Value operands[] = {op.getStart(), op.getLimit(), op.getDelta()};
  for (int i = 0; i < 3; ++i) {
    auto attr = getSingleElement(constantAttr(operands[i]));
    if (auto f = dyn_cast_or_null<FloatAttr>(attr))
      params[i] = f.getValueAsDouble();
    else if (auto n = dyn_cast_or_null<IntegerAttr>(attr))
      params[i] = (double)n.getInt();
    else
      return std::nullopt;
  }
  return params;
}

LogicalResult RangeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getStart());
  auto params = rangeParams(*this);
  if (!params || (*params)[2] == 0)
    return setShape(*this, {ShapedType::kDynamic}, elem);
  auto [start, limit, delta] = *params;
  int64_t n = std::max<int64_t>(0, doubleToDim(std::ceil((limit - start) / delta)));
  return setShape(*this, {n}, elem);
}

OpFoldResult RangeOp::fold(FoldAdaptor) {
  auto params = rangeParams(*this);
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!params || !type || !type.hasStaticShape() ||
      !isa<IntegerType>(type.getElementType()) ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  // Folded only while each value fits int64 exactly.
  constexpr double kExact = double(int64_t(1) << 53);
  double last = (*params)[0] + double(type.getNumElements()) * (*params)[2];
  if (std::abs((*params)[0]) > kExact || std::abs(last) > kExact)
    return {};
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    values.push_back((int64_t)(*params)[0] + i * (int64_t)(*params)[2]);
  return foldedInts(*this, values);
}

LogicalResult ExpandOp::verify() {
  return verifyShapeOperand(*this, getShape());
}

LogicalResult ExpandOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  auto x = rankedShape(getInput());
  auto shape = shapeFromOperand(getShape());
  if (!x || !shape)
    return keepUnranked(*this, elem);
  FailureOr<SmallVector<int64_t>> result = broadcastShapes(*x, *shape);
  if (failed(result))
    return emitOpError() << "cannot expand " << formatShape(*x) << " to "
                         << formatShape(*shape);
  return setShape(*this, *result, elem);
}

template <typename OpTy>
static LogicalResult verifyWindow(OpTy op) {
  if (!elementTypeOfDataType(op.getContext(), op.getOutputDatatype()))
    return op.emitOpError() << "output_datatype " << op.getOutputDatatype()
                            << " is not supported yet";
  if (auto s = rankedShape(op.getSize()); s && !s->empty())
    return op.emitOpError() << "expects a scalar size, got " << formatShape(*s);
  if (auto size = getConstantInt(op.getSize()); size && *size < 0)
    return op.emitOpError() << "expects a non-negative size, got " << *size;
  return success();
}

template <typename OpTy>
static LogicalResult inferWindow(OpTy op) {
  std::optional<int64_t> size = getConstantInt(op.getSize());
  return setShape(op, {size ? *size : ShapedType::kDynamic},
                  elementTypeOfDataType(op.getContext(), op.getOutputDatatype()));
}

#define TCC_WINDOW_OP(Op)                                                      \
  LogicalResult Op::verify() { return verifyWindow(*this); }                   \
  LogicalResult Op::inferShapes() { return inferWindow(*this); }
TCC_WINDOW_OP(HannWindowOp)
TCC_WINDOW_OP(HammingWindowOp)
TCC_WINDOW_OP(BlackmanWindowOp)
#undef TCC_WINDOW_OP
