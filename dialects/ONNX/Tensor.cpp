//===- Tensor.cpp - verifiers and shapes of constants and data movement ------- ===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
OpFoldResult NoValueOp::fold(FoldAdaptor) { return UnitAttr::get(getContext()); }

LogicalResult FlattenOp::verify() {
  if (auto x = rankedShape(getInput()))
    return verifyAxis(*this, getAxis(), x->size(), true);
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto s = rankedShape(getShape());
  if (s && s->size() != 1)
    return emitOpError() << "expects a 1-d shape operand, got "
                         << formatShape(*s);
  if (getAllowzero() != 0)
    if (auto shape = getConstantInts(getShape());
        shape && llvm::is_contained(*shape, 0) &&
        llvm::is_contained(*shape, -1))
      return emitOpError() << "with allowzero=1 cannot have both 0 and -1";
  return success();
}

LogicalResult TransposeOp::verify() {
  auto x = rankedShape(getData());
  auto perm = getPerm();
  if (!x || !perm)
    return success();
  SmallVector<bool> seen(x->size(), false);
  if (perm->size() != x->size())
    return emitOpError() << "has perm of size " << perm->size()
                         << " for an input of rank " << x->size();
  for (int64_t p : *perm) {
    if (p < 0 || p >= (int64_t)x->size() || seen[p])
      return emitOpError() << "has perm " << formatShape(*perm)
                           << " that is not a permutation";
    seen[p] = true;
  }
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expects at least one input";
  Type elem = getElementTypeOrSelf(getInputs().front());
  std::optional<ArrayRef<int64_t>> first;
  for (Value v : getInputs()) {
    if (getElementTypeOrSelf(v) != elem)
      return emitOpError() << "expects inputs of one element type";
    auto s = rankedShape(v);
    if (!s)
      continue;
    if (!first) {
      first = s;
      if (failed(verifyAxis(*this, getAxis(), s->size(), false)))
        return failure();
      continue;
    }
    if (s->size() != first->size())
      return emitOpError() << "expects inputs of one rank, got "
                           << formatShape(*first) << " and " << formatShape(*s);
    int64_t axis = getAxis() < 0 ? getAxis() + s->size() : getAxis();
    for (size_t i = 0; i < s->size(); ++i)
      if ((int64_t)i != axis && !ShapedType::isDynamic((*s)[i]) &&
          !ShapedType::isDynamic((*first)[i]) && (*s)[i] != (*first)[i])
        return emitOpError() << "expects inputs to match except on axis "
                             << axis << ", got " << formatShape(*first)
                             << " and " << formatShape(*s);
  }
  return success();
}

LogicalResult ConstantOp::inferShapes() { return success(); }
LogicalResult NoValueOp::inferShapes() { return success(); }

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
