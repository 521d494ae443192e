//===- Reduction.cpp - verifiers and shapes of reductions -----------------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

namespace {

/// Checks the axes of a Reduce* op: a 1-d int tensor whose constant values
/// are in range and distinct.
LogicalResult verifyReduce(Operation *op, Value data, Value axes) {
  if (isa<NoneType>(axes.getType()))
    return success();
  auto axesType = dyn_cast<RankedTensorType>(axes.getType());
  if (axesType && axesType.getRank() != 1)
    return op->emitOpError()
           << "expects 1-d axes, got " << formatShape(axesType.getShape());
  auto shape = rankedShape(data);
  std::optional<SmallVector<int64_t>> values = getConstantInts(axes);
  if (!shape || !values)
    return success();
  int64_t rank = shape->size();
  SmallVector<bool> seen(rank, false);
  for (int64_t axis : *values) {
    if (failed(verifyAxis(op, axis, rank, false)))
      return failure();
    if (seen[normAxis(axis, rank)])
      return op->emitOpError() << "has axis " << axis << " twice";
    seen[normAxis(axis, rank)] = true;
  }
  return success();
}

/// The result shape of a Reduce*: reduced dims become 1 (keepdims) or go.
LogicalResult inferReduce(Operation *op, Value data, Value axes, bool keepdims,
                          bool noopWithEmptyAxes) {
  Type elem = getElementTypeOrSelf(data.getType());
  auto shape = rankedShape(data);
  if (!shape)
    return keepUnranked(op, elem);
  std::optional<SmallVector<bool>> reduced =
      reducedDims(axes, shape->size(), noopWithEmptyAxes);
  if (!reduced)
    return keepUnranked(op, elem);
  SmallVector<int64_t> result;
  for (auto [dim, isReduced] : llvm::zip_equal(*shape, *reduced)) {
    if (!isReduced)
      result.push_back(dim);
    else if (keepdims)
      result.push_back(1);
  }
  return setShape(op, result, elem);
}

} // namespace

std::optional<SmallVector<bool>>
tcc::onnx::reducedDims(Value axes, int64_t rank, bool noopWithEmptyAxes) {
  SmallVector<int64_t> values;
  if (!isa<NoneType>(axes.getType())) {
    std::optional<SmallVector<int64_t>> constant = getConstantInts(axes);
    if (!constant)
      return std::nullopt;
    values = std::move(*constant);
  }
  if (values.empty())
    return SmallVector<bool>(rank, !noopWithEmptyAxes);
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : values)
    reduced[axis < 0 ? axis + rank : axis] = true;
  return reduced;
}

// Every Reduce* op shares its verifier and shape function.
#define TCC_REDUCE_OP(Op)                                                      \
  LogicalResult Op::verify() {                                                 \
    return verifyReduce(*this, getData(), getAxes());                          \
  }                                                                            \
  LogicalResult Op::inferShapes() {                                            \
    return inferReduce(*this, getData(), getAxes(), getKeepdims() != 0,        \
                       getNoopWithEmptyAxes() != 0);                           \
  }
TCC_REDUCE_OP(ReduceL1Op)
TCC_REDUCE_OP(ReduceL2Op)
TCC_REDUCE_OP(ReduceLogSumOp)
TCC_REDUCE_OP(ReduceLogSumExpOp)
TCC_REDUCE_OP(ReduceMaxOp)
TCC_REDUCE_OP(ReduceMeanOp)
TCC_REDUCE_OP(ReduceMinOp)
TCC_REDUCE_OP(ReduceProdOp)
TCC_REDUCE_OP(ReduceSumOp)
TCC_REDUCE_OP(ReduceSumSquareOp)
#undef TCC_REDUCE_OP

namespace {

LogicalResult verifyArg(Operation *op, Value data, int64_t axis) {
  if (auto shape = rankedShape(data))
    return verifyAxis(op, axis, shape->size(), false);
  return success();
}

LogicalResult inferArg(Operation *op, Value data, int64_t axis, bool keepdims) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  auto shape = rankedShape(data);
  if (!shape)
    return keepUnranked(op, i64);
  SmallVector<int64_t> result(*shape);
  axis = normAxis(axis, shape->size());
  if (keepdims)
    result[axis] = 1;
  else
    result.erase(result.begin() + axis);
  return setShape(op, result, i64);
}

} // namespace

LogicalResult ArgMaxOp::verify() {
  return verifyArg(*this, getData(), getAxis());
}
LogicalResult ArgMinOp::verify() {
  return verifyArg(*this, getData(), getAxis());
}
LogicalResult ArgMaxOp::inferShapes() {
  return inferArg(*this, getData(), getAxis(), getKeepdims() != 0);
}
LogicalResult ArgMinOp::inferShapes() {
  return inferArg(*this, getData(), getAxis(), getKeepdims() != 0);
}

LogicalResult GlobalMaxPoolOp::verify() {
  auto x = rankedShape(getX());
  if (x && x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  return success();
}

LogicalResult GlobalMaxPoolOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX().getType());
  auto x = rankedShape(getX());
  if (!x)
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape(*x);
  std::fill(shape.begin() + 2, shape.end(), 1);
  return setShape(*this, shape, elem);
}

/// Checks that `v` is a scalar or a one-element 1-d tensor.
static LogicalResult verifyScalarOperand(Operation *op, Value v,
                                         StringRef name) {
  auto s = rankedShape(v);
  if (s && !(s->empty() || (s->size() == 1 && (*s)[0] == 1)))
    return op->emitOpError()
           << "expects " << name << " to be a scalar or of shape [1], got "
           << formatShape(*s);
  return success();
}

template <typename OpTy>
static LogicalResult verifyCumulative(OpTy op) {
  if (failed(verifyScalarOperand(op, op.getAxis(), "axis")))
    return failure();
  auto x = rankedShape(op.getX());
  std::optional<int64_t> axis = getConstantInt(op.getAxis());
  if (x && axis)
    return verifyAxis(op, *axis, x->size(), false);
  return success();
}

LogicalResult CumSumOp::verify() { return verifyCumulative(*this); }
LogicalResult CumProdOp::verify() { return verifyCumulative(*this); }

LogicalResult CumSumOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
LogicalResult CumProdOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}

LogicalResult TopKOp::verify() {
  if (failed(verifyScalarOperand(*this, getK(), "K")))
    return failure();
  auto x = rankedShape(getX());
  if (!x)
    return success();
  if (failed(verifyAxis(*this, getAxis(), x->size(), false)))
    return failure();
  int64_t dim = (*x)[normAxis(getAxis(), x->size())];
  std::optional<int64_t> k = getConstantInt(getK());
  if (k && (*k < 0 || (!ShapedType::isDynamic(dim) && *k > dim)))
    return emitOpError() << "has K " << *k << " out of range [0, " << dim
                         << "]";
  return success();
}

LogicalResult TopKOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX().getType());
  Type i64 = IntegerType::get(getContext(), 64);
  auto x = rankedShape(getX());
  std::optional<int64_t> k = getConstantInt(getK());
  if (!x) {
    getValues().setType(UnrankedTensorType::get(elem));
    getIndices().setType(UnrankedTensorType::get(i64));
    return success();
  }
  // A K known only at run time: the axis' size too (at most the input's).
  SmallVector<int64_t> shape(*x);
  shape[normAxis(getAxis(), x->size())] = k ? *k : ShapedType::kDynamic;
  (void)setShape(*this, shape, elem, 0);
  return setShape(*this, shape, i64, 1);
}
