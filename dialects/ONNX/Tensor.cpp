//===- Tensor.cpp - verifiers and shapes of constants and data movement ------- ===//
#include "dialects/ONNX/OpUtils.h"
#include "tcc/Sizes.h"

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
LogicalResult CheckConditionOp::inferShapes() { return success(); }

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
    if (s && !ShapedType::isDynamic((*s)[0]) && (*s)[0] <= kMaxRank)
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
  // A shape from the model may hold any int64: its known dims (and the
  // input's) must multiply within the size limit before anything else does.
  auto fits = [](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> known;
    for (int64_t d : dims)
      known.push_back(d < 0 ? 1 : d);
    return tcc::checkedNumElements(known).has_value();
  };
  if (!fits(shape) || (x && !fits(*x)))
    return emitOpError() << "cannot reshape"
                         << (x ? " " + formatShape(*x) : std::string())
                         << " to " << formatShape(*target)
                         << ": a tensor of over " << tcc::kMaxTensorBytesText;
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
  for (int64_t p : transposePermutation(*this))
    shape.push_back((*x)[p]);
  return setShape(*this, shape, elem);
}

SmallVector<int64_t> tcc::onnx::transposePermutation(TransposeOp op) {
  if (std::optional<ArrayRef<int64_t>> perm = op.getPerm())
    return llvm::to_vector(*perm);
  int64_t rank = cast<ShapedType>(op.getData().getType()).getRank();
  return llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank)));
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

//===----------------------------------------------------------------------===//
// Folds of reshapes and concatenation of constants
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  return foldedReshape(*this, adaptor.getData());
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!type || !type.hasStaticShape())
    return {};
  int64_t axis = normAxis(getAxis(), type.getRank());
  int64_t outer = mulDims(type.getShape().take_front(axis));
  // Small constants of any element type (float pads and scales are
  // computed from shapes too), element by element.
  if (type.getNumElements() > kMaxFoldElements)
    return {};
  SmallVector<SmallVector<Attribute>> values;
  SmallVector<int64_t> chunks;
  for (auto [v, attr] : llvm::zip_equal(getInputs(), adaptor.getInputs())) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
    auto s = rankedShape(v);
    if (!dense || !s || dense.getElementType() != type.getElementType())
      return {};
    values.push_back(llvm::to_vector(dense.getValues<Attribute>()));
    chunks.push_back(mulDims(s->drop_front(axis)));
  }
  SmallVector<Attribute> result;
  for (int64_t o = 0; o < outer; ++o)
    for (auto [elems, chunk] : llvm::zip_equal(values, chunks))
      result.append(elems.begin() + o * chunk, elems.begin() + (o + 1) * chunk);
  return DenseElementsAttr::get(type, result);
}

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto x = rankedShape(getData());
  if (!x)
    return success();
  if (x->empty())
    return emitOpError() << "expects data of rank >= 1";
  if (failed(verifyAxis(*this, getAxis(), x->size(), false)))
    return failure();
  int64_t dim = (*x)[normAxis(getAxis(), x->size())];
  if (auto indices = getConstantIntValues(getIndices());
      indices && !ShapedType::isDynamic(dim))
    for (int64_t i : *indices)
      if (i < -dim || i >= dim)
        return emitOpError() << "has index " << i << " out of range for dim "
                             << "of size " << dim;
  return success();
}

LogicalResult GatherOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  auto q = rankedShape(getIndices());
  if (!x || !q)
    return keepUnranked(*this, elem);
  int64_t axis = normAxis(getAxis(), x->size());
  SmallVector<int64_t> shape(x->take_front(axis));
  shape.append(q->begin(), q->end());
  shape.append(x->begin() + axis + 1, x->end());
  return setShape(*this, shape, elem);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = getIntValues(adaptor.getData());
  auto indices = getIntValues(adaptor.getIndices());
  auto x = rankedShape(getData());
  if (!data || !indices || !x || llvm::any_of(*x, ShapedType::isDynamic))
    return {};
  int64_t axis = normAxis(getAxis(), x->size());
  int64_t dim = (*x)[axis];
  int64_t outer = mulDims(x->take_front(axis));
  int64_t inner = mulDims(x->drop_front(axis + 1));
  SmallVector<int64_t> result;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i : *indices) {
      if (i < -dim || i >= dim)
        return {};
      int64_t base = (o * dim + (i < 0 ? i + dim : i)) * inner;
      result.append(data->begin() + base, data->begin() + base + inner);
    }
  return foldedInts(*this, result);
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

/// Slice parameters that are constant: starts, ends, axes, steps (nullopt
/// for a non-constant one; axes and steps get their defaults when `none`).
static std::array<std::optional<SmallVector<int64_t>>, 4>
sliceParams(SliceOp op) {
  auto starts = getConstantIntValues(op.getStarts());
  auto ends = getConstantIntValues(op.getEnds());
  std::optional<SmallVector<int64_t>> axes, steps;
  size_t n = starts ? starts->size() : ends ? ends->size() : 0;
  if (isa<NoneType>(op.getAxes().getType())) {
    if (starts || ends)
      axes = llvm::to_vector(llvm::seq<int64_t>(0, n));
  } else {
    axes = getConstantIntValues(op.getAxes());
  }
  if (isa<NoneType>(op.getSteps().getType())) {
    if (starts || ends)
      steps = SmallVector<int64_t>(n, 1);
  } else {
    steps = getConstantIntValues(op.getSteps());
  }
  return {starts, ends, axes, steps};
}

LogicalResult SliceOp::verify() {
  auto params = sliceParams(*this);
  std::optional<size_t> n;
  const char *names[] = {"starts", "ends", "axes", "steps"};
  for (auto [p, name] : llvm::zip_equal(params, names)) {
    if (!p)
      continue;
    if (n && p->size() != *n)
      return emitOpError() << "expects starts, ends, axes and steps of one "
                           << "length, got " << p->size() << " " << name;
    n = p->size();
  }
  if (params[3] && llvm::is_contained(*params[3], 0))
    return emitOpError() << "has a zero step";
  auto x = rankedShape(getData());
  if (x && params[2] && failed(normalizeAxes(*this, *params[2], x->size())))
    return failure();
  return success();
}

FailureOr<SmallVector<std::array<int64_t, 3>>> SliceOp::resolve() {
  auto x = rankedShape(getData());
  auto [starts, ends, axes, steps] = sliceParams(*this);
  if (!x || !starts || !ends || !axes || !steps)
    return failure();
  SmallVector<std::array<int64_t, 3>> result;
  for (int64_t d : *x)
    result.push_back({0, 1, d});
  for (size_t i = 0; i < axes->size(); ++i) {
    int64_t a = (*axes)[i];
    if (a < -(int64_t)x->size() || a >= (int64_t)x->size())
      return failure();
    a = normAxis(a, x->size());
    int64_t dim = (*x)[a], step = (*steps)[i];
    if (ShapedType::isDynamic(dim) || step == 0)
      return failure();
    int64_t start = (*starts)[i], end = (*ends)[i];
    // ONNX: negative indices count from the end, then clamp to the dim
    // ([0, dim] going forward, [-1, dim - 1] going backward).
    start = start < 0 ? std::max<int64_t>(start, -dim) + dim : start;
    end = end < 0 ? std::max<int64_t>(end, -dim - 1) + dim : end;
    // The span is at most dim + 1 and the step's magnitude is taken
    // unsigned, so no step (INT64_MIN included) overflows.
    int64_t span;
    if (step > 0) {
      start = std::min(start, dim);
      end = std::min(end, dim);
      span = end - start;
    } else {
      start = std::min(start, dim - 1);
      end = std::min(end, dim - 1);
      span = start - end;
    }
    uint64_t magnitude = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
    int64_t count = span > 0 ? 1 + (int64_t)((uint64_t)(span - 1) / magnitude) : 0;
    // An empty slice starts at 0, which is in bounds of any dim; a slice of
    // one element (or none) has step 1, whatever the step was.
    result[a] = {count ? start : 0, count > 1 ? step : 1, count};
  }
  return result;
}

LogicalResult SliceOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  if (!x)
    return keepUnranked(*this, elem);
  auto resolved = resolve();
  if (failed(resolved)) {
    // Non-constant parameters: the rank is known, and with constant axes
    // so are the dims that are not sliced.
    SmallVector<int64_t> shape(x->size(), ShapedType::kDynamic);
    if (auto axes = sliceParams(*this)[2]) {
      shape.assign(x->begin(), x->end());
      for (int64_t a : *axes)
        if (a >= -(int64_t)x->size() && a < (int64_t)x->size())
          shape[normAxis(a, x->size())] = ShapedType::kDynamic;
    }
    return setShape(*this, shape, elem);
  }
  SmallVector<int64_t> shape;
  for (auto &r : *resolved)
    shape.push_back(r[2]);
  return setShape(*this, shape, elem);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto data = getIntValues(adaptor.getData());
  auto x = rankedShape(getData());
  auto resolved = resolve();
  if (!data || !x || failed(resolved))
    return {};
  SmallVector<int64_t> strides = rowMajorStrides(*x), shape, result;
  for (auto &r : *resolved)
    shape.push_back(r[2]);
  forEachIndex(shape, [&](ArrayRef<int64_t> index) {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d)
      offset += ((*resolved)[d][0] + index[d] * (*resolved)[d][1]) * strides[d];
    result.push_back((*data)[offset]);
  });
  return foldedInts(*this, result);
}

//===----------------------------------------------------------------------===//
// Tile
//===----------------------------------------------------------------------===//

LogicalResult TileOp::verify() {
  auto x = rankedShape(getInput());
  auto repeats = getConstantInts(getRepeats());
  if (!repeats)
    return success();
  if (x && repeats->size() != x->size())
    return emitOpError() << "expects " << x->size() << " repeats, got "
                         << repeats->size();
  if (llvm::any_of(*repeats, [](int64_t r) { return r < 0; }))
    return emitOpError() << "has a negative repeat";
  return success();
}

LogicalResult TileOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  auto x = rankedShape(getInput());
  if (!x)
    return keepUnranked(*this, elem);
  auto repeats = getConstantInts(getRepeats());
  SmallVector<int64_t> shape(x->size(), ShapedType::kDynamic);
  for (size_t i = 0; repeats && i < x->size(); ++i)
    if (!ShapedType::isDynamic((*x)[i]))
      shape[i] = mulDim((*x)[i], (*repeats)[i]);
  return setShape(*this, shape, elem);
}
