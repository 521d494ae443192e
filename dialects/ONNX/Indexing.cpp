//===- Indexing.cpp - verifiers and shapes of gathers, scatters, masks ----===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

//===----------------------------------------------------------------------===//
// GatherElements, GatherND
//===----------------------------------------------------------------------===//

LogicalResult GatherElementsOp::verify() {
  auto x = rankedShape(getData()), q = rankedShape(getIndices());
  if (!x || !q)
    return success();
  if (x->size() != q->size())
    return emitOpError() << "expects indices of the data's rank " << x->size()
                         << ", got " << formatShape(*q);
  return verifyAxis(*this, getAxis(), x->size(), false);
}

LogicalResult GatherElementsOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  if (auto q = rankedShape(getIndices()))
    return setShape(*this, *q, elem);
  return keepUnranked(*this, elem);
}

LogicalResult GatherNDOp::verify() {
  auto x = rankedShape(getData()), q = rankedShape(getIndices());
  if (!x || !q)
    return success();
  int64_t b = getBatchDims();
  if (q->empty() || b < 0 || b >= (int64_t)std::min(x->size(), q->size()))
    return emitOpError() << "has batch_dims " << b << " out of range for data "
                         << formatShape(*x) << " and indices "
                         << formatShape(*q);
  int64_t k = q->back();
  if (!ShapedType::isDynamic(k) && (k < 1 || b + k > (int64_t)x->size()))
    return emitOpError() << "has index tuples of length " << k
                         << " for data of rank " << x->size()
                         << " and batch_dims " << b;
  return success();
}

LogicalResult GatherNDOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData()), q = rankedShape(getIndices());
  if (!x || !q || ShapedType::isDynamic(q->back()))
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape(q->drop_back());
  llvm::append_range(shape, x->drop_front(getBatchDims() + q->back()));
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// ScatterElements, ScatterND
//===----------------------------------------------------------------------===//

static LogicalResult verifyReduction(Operation *op, StringRef reduction) {
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, reduction))
    return op->emitOpError() << "has unknown reduction '" << reduction << "'";
  return success();
}

template <typename Op>
static LogicalResult verifyScatterElements(Op op) {
  if (failed(verifyReduction(op, op.getReduction())))
    return failure();
  auto x = rankedShape(op.getData()), q = rankedShape(op.getIndices()),
       u = rankedShape(op.getUpdates());
  if (q && u && *q != *u)
    return op.emitOpError() << "expects indices and updates of one shape, got "
                            << formatShape(*q) << " and " << formatShape(*u);
  if (x && q && x->size() != q->size())
    return op.emitOpError() << "expects indices of the data's rank "
                            << x->size() << ", got " << formatShape(*q);
  if (x)
    return verifyAxis(op, op.getAxis(), x->size(), false);
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  return verifyScatterElements(*this);
}
LogicalResult ScatterOp::verify() { return verifyScatterElements(*this); }

LogicalResult ScatterElementsOp::inferShapes() {
  return inferSameAsOperand(*this, getData());
}
LogicalResult ScatterOp::inferShapes() {
  return inferSameAsOperand(*this, getData());
}

LogicalResult ScatterNDOp::verify() {
  if (failed(verifyReduction(*this, getReduction())))
    return failure();
  auto x = rankedShape(getData()), q = rankedShape(getIndices()),
       u = rankedShape(getUpdates());
  if (!x || !q || !u || q->empty() || ShapedType::isDynamic(q->back()))
    return success();
  int64_t k = q->back();
  if (k > (int64_t)x->size())
    return emitOpError() << "has index tuples of length " << k
                         << " for data of rank " << x->size();
  SmallVector<int64_t> expected(q->drop_back());
  llvm::append_range(expected, x->drop_front(k));
  if (expected.size() != u->size() ||
      !llvm::all_of(llvm::zip_equal(expected, *u), [](auto p) {
        auto [a, b] = p;
        return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
      }))
    return emitOpError() << "expects updates of shape " << formatShape(expected)
                         << ", got " << formatShape(*u);
  return success();
}

LogicalResult ScatterNDOp::inferShapes() {
  return inferSameAsOperand(*this, getData());
}

//===----------------------------------------------------------------------===//
// OneHot
//===----------------------------------------------------------------------===//

LogicalResult OneHotOp::verify() {
  auto v = rankedShape(getValues());
  if (v && (v->size() != 1 || (*v)[0] != 2))
    return emitOpError() << "expects values of shape [2], got "
                         << formatShape(*v);
  if (auto q = rankedShape(getIndices()))
    return verifyAxis(*this, getAxis(), q->size() + 1, false);
  return success();
}

LogicalResult OneHotOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getValues());
  auto q = rankedShape(getIndices());
  if (!q)
    return keepUnranked(*this, elem);
  int64_t depth = ShapedType::kDynamic;
  if (auto d = getSingleElement(constantAttr(getDepth()))) {
    if (auto f = dyn_cast<FloatAttr>(d))
      depth = (int64_t)f.getValueAsDouble();
    else
      depth = cast<IntegerAttr>(d).getInt();
    if (depth < 1)
      return emitOpError() << "has depth " << depth << " < 1";
  }
  int64_t axis = normAxis(getAxis(), q->size() + 1);
  SmallVector<int64_t> shape(*q);
  shape.insert(shape.begin() + axis, depth);
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// Trilu, EyeLike
//===----------------------------------------------------------------------===//

LogicalResult TriluOp::verify() {
  auto x = rankedShape(getInput());
  if (x && x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  return success();
}

LogicalResult TriluOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}

LogicalResult EyeLikeOp::verify() {
  auto x = rankedShape(getInput());
  if (x && x->size() != 2)
    return emitOpError() << "expects a 2-d input, got " << formatShape(*x);
  if (getDtype() && !elementTypeOfDataType(getContext(), *getDtype()))
    return emitOpError() << "has unsupported dtype " << *getDtype();
  return success();
}

LogicalResult EyeLikeOp::inferShapes() {
  Type elem = getDtype() ? elementTypeOfDataType(getContext(), *getDtype())
                         : getElementTypeOrSelf(getInput());
  if (auto x = rankedShape(getInput()))
    return setShape(*this, *x, elem);
  return keepUnranked(*this, elem);
}

//===----------------------------------------------------------------------===//
// Compress
//===----------------------------------------------------------------------===//

LogicalResult CompressOp::verify() {
  auto c = rankedShape(getCondition());
  if (c && c->size() != 1)
    return emitOpError() << "expects a 1-D condition, got "
                         << formatShape(*c);
  auto x = rankedShape(getInput());
  if (x && getAxis())
    return verifyAxis(*this, *getAxis(), x->size(), false);
  return success();
}

LogicalResult CompressOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  auto x = rankedShape(getInput());
  if (!x)
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape{mulDims(*x)};
  int64_t axis = 0;
  if (getAxis()) {
    shape.assign(x->begin(), x->end());
    axis = normAxis(*getAxis(), x->size());
  }
  // A constant condition: the slices it keeps, up to the dim's end.
  int64_t count = ShapedType::kDynamic;
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(
          constantAttr(getCondition()));
      dense && !ShapedType::isDynamic(shape[axis])) {
    count = 0;
    auto keeps = dense.getValues<bool>();
    for (int64_t i = 0, e = std::min<int64_t>(dense.getNumElements(),
                                              shape[axis]);
         i < e; ++i)
      count += keeps[i];
  }
  shape[axis] = count;
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// NonZero
//===----------------------------------------------------------------------===//

/// The row-major positions of the non-zero elements of a dense constant.
static std::optional<SmallVector<int64_t>> nonZeroPositions(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> positions;
  int64_t i = 0;
  if (isa<FloatType>(dense.getElementType())) {
    for (const APFloat &v : dense.getValues<APFloat>()) {
      if (!v.isZero())
        positions.push_back(i);
      ++i;
    }
  } else if (dense.getElementType().isIntOrIndex()) {
    for (const APInt &v : dense.getValues<APInt>()) {
      if (!v.isZero())
        positions.push_back(i);
      ++i;
    }
  } else {
    return std::nullopt;
  }
  return positions;
}

LogicalResult NonZeroOp::inferShapes() {
  Type i64 = IntegerType::get(getContext(), 64);
  auto x = rankedShape(getX());
  if (!x)
    return setShape(*this, {ShapedType::kDynamic, ShapedType::kDynamic}, i64);
  int64_t count = ShapedType::kDynamic;
  if (auto positions = nonZeroPositions(constantAttr(getX())))
    count = positions->size();
  return setShape(*this, {(int64_t)x->size(), count}, i64);
}

OpFoldResult NonZeroOp::fold(FoldAdaptor adaptor) {
  auto x = rankedShape(getX());
  std::optional<SmallVector<int64_t>> positions =
      nonZeroPositions(adaptor.getX());
  if (!x || !positions)
    return {};
  // Row r holds dim r of each position's index.
  int64_t rank = x->size(), count = positions->size();
  SmallVector<int64_t> strides = rowMajorStrides(*x);
  SmallVector<int64_t> values(rank * count);
  for (int64_t k = 0; k < count; ++k)
    for (int64_t r = 0, rest = (*positions)[k]; r < rank; ++r) {
      values[r * count + k] = rest / strides[r];
      rest %= strides[r];
    }
  return foldedInts(*this, values);
}
