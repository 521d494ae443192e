//===- Rearrange.cpp - verifiers and shapes of split, pad, block moves ----===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

//===----------------------------------------------------------------------===//
// Split
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> SplitOp::getPartSizes() {
  if (!isa<NoneType>(getSplit().getType()))
    return getConstantInts(getSplit());
  auto x = rankedShape(getInput());
  if (!x)
    return std::nullopt;
  int64_t dim = (*x)[normAxis(getAxis(), x->size())];
  int64_t n = getNumResults();
  if (ShapedType::isDynamic(dim))
    return std::nullopt;
  int64_t chunk = llvm::divideCeil(dim, n);
  SmallVector<int64_t> sizes(n - 1, chunk);
  sizes.push_back(dim - chunk * (n - 1));
  return sizes;
}

LogicalResult SplitOp::verify() {
  if (getNumResults() == 0)
    return emitOpError() << "expects at least one output";
  if (getNumOutputs() && *getNumOutputs() != (int64_t)getNumResults())
    return emitOpError() << "has num_outputs " << *getNumOutputs() << " but "
                         << getNumResults() << " outputs";
  auto x = rankedShape(getInput());
  if (!x)
    return success();
  if (failed(verifyAxis(*this, getAxis(), x->size(), false)))
    return failure();
  int64_t dim = (*x)[normAxis(getAxis(), x->size())];
  auto sizes = getPartSizes();
  if (!sizes || ShapedType::isDynamic(dim))
    return success();
  if (sizes->size() != getNumResults())
    return emitOpError() << "has " << sizes->size() << " split sizes for "
                         << getNumResults() << " outputs";
  if (isa<NoneType>(getSplit().getType()) && sizes->back() < 0)
    return emitOpError() << "cannot split dim " << dim << " into "
                         << getNumResults() << " parts";
  int64_t sum = 0;
  for (int64_t s : *sizes) {
    if (s < 0)
      return emitOpError() << "has a negative split size";
    sum += s;
  }
  if (sum != dim)
    return emitOpError() << "has split sizes " << formatShape(*sizes)
                         << " that do not add up to dim " << dim;
  return success();
}

/// A small integer constant splits into constants (shape sub-graphs split
/// a shape into its dims, as ONNX's AffineGrid function body does).
LogicalResult SplitOp::fold(FoldAdaptor adaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  auto values = getIntValues(adaptor.getInput());
  auto x = rankedShape(getInput());
  auto sizes = getPartSizes();
  if (!values || !x || !sizes || sizes->size() != getNumResults())
    return failure();
  int64_t axis = normAxis(getAxis(), x->size());
  SmallVector<int64_t> strides = rowMajorStrides(*x);
  int64_t offset = 0;
  SmallVector<OpFoldResult> parts;
  for (auto [i, size] : llvm::enumerate(*sizes)) {
    SmallVector<int64_t> shape(*x), part;
    shape[axis] = size;
    forEachIndex(shape, [&](ArrayRef<int64_t> index) {
      int64_t flat = 0;
      for (size_t d = 0; d < index.size(); ++d)
        flat += (index[d] + ((int64_t)d == axis ? offset : 0)) * strides[d];
      part.push_back((*values)[flat]);
    });
    Attribute folded = foldedInts(*this, part, i);
    if (!folded)
      return failure();
    parts.push_back(folded);
    offset += size;
  }
  results.append(parts.begin(), parts.end());
  return success();
}

LogicalResult SplitOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  auto x = rankedShape(getInput());
  auto sizes = getPartSizes();
  for (unsigned i = 0; i < getNumResults(); ++i) {
    if (!x) {
      getResult(i).setType(UnrankedTensorType::get(elem));
      continue;
    }
    SmallVector<int64_t> shape(*x);
    shape[normAxis(getAxis(), x->size())] =
        sizes && i < sizes->size() ? (*sizes)[i] : ShapedType::kDynamic;
    (void)setShape(*this, shape, elem, i);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

std::optional<std::pair<SmallVector<int64_t>, SmallVector<int64_t>>>
PadOp::getStaticPads() {
  auto x = rankedShape(getData());
  auto pads = getConstantInts(getPads());
  if (!x || !pads)
    return std::nullopt;
  int64_t rank = x->size();
  SmallVector<int64_t> axes;
  if (isa<NoneType>(getAxes().getType())) {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  } else if (auto a = getConstantIntValues(getAxes())) {
    for (int64_t v : *a)
      axes.push_back(normAxis(v, rank));
  } else {
    return std::nullopt;
  }
  if (pads->size() != 2 * axes.size())
    return std::nullopt;
  SmallVector<int64_t> begin(rank, 0), end(rank, 0);
  for (auto [i, a] : llvm::enumerate(axes)) {
    if (a < 0 || a >= rank)
      return std::nullopt;
    begin[a] = (*pads)[i];
    end[a] = (*pads)[i + axes.size()];
  }
  return std::make_pair(begin, end);
}

/// The dims CenterCropPad resizes (all when `axes` is absent), normalized;
/// nullopt when an axis is out of range or repeated.
static std::optional<SmallVector<int64_t>>
centerCropAxes(std::optional<ArrayRef<int64_t>> axes, int64_t rank) {
  if (!axes)
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  SmallVector<int64_t> result;
  for (int64_t a : *axes) {
    if (a < -rank || a >= rank)
      return std::nullopt;
    a = normAxis(a, rank);
    if (llvm::is_contained(result, a))
      return std::nullopt;
    result.push_back(a);
  }
  return result;
}

std::optional<std::pair<SmallVector<int64_t>, SmallVector<int64_t>>>
CenterCropPadOp::getStaticPads() {
  auto x = rankedShape(getInputData());
  auto shape = getConstantIntValues(getShape());
  if (!x || !shape)
    return std::nullopt;
  auto axes = centerCropAxes(getAxes(), x->size());
  if (!axes || axes->size() != shape->size())
    return std::nullopt;
  SmallVector<int64_t> begin(x->size(), 0), end(x->size(), 0);
  for (auto [a, size] : llvm::zip_equal(*axes, *shape)) {
    if (ShapedType::isDynamic((*x)[a]))
      return std::nullopt;
    // Crop: the first (d / 2) go; pad: (d / 2) zeros first, the rest after.
    int64_t d = size - (*x)[a];
    int64_t sign = d < 0 ? -1 : 1;
    begin[a] = sign * (std::abs(d) / 2);
    end[a] = d - begin[a];
  }
  return std::make_pair(begin, end);
}

LogicalResult CenterCropPadOp::verify() {
  auto x = rankedShape(getInputData());
  if (!x)
    return success();
  auto axes = centerCropAxes(getAxes(), x->size());
  if (!axes)
    return emitOpError() << "has axes out of range or repeated for rank "
                         << x->size();
  auto s = rankedShape(getShape());
  if (s && (s->size() != 1 || (!ShapedType::isDynamic((*s)[0]) &&
                               (*s)[0] != (int64_t)axes->size())))
    return emitOpError() << "expects shape of shape [" << axes->size()
                         << "], got " << formatShape(*s);
  if (auto shape = getConstantIntValues(getShape()))
    if (llvm::any_of(*shape, [](int64_t v) { return v < 0; }))
      return emitOpError() << "expects non-negative sizes in shape";
  return success();
}

LogicalResult CenterCropPadOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInputData());
  auto x = rankedShape(getInputData());
  if (!x)
    return keepUnranked(*this, elem);
  SmallVector<int64_t> shape(*x);
  auto axes = centerCropAxes(getAxes(), x->size());
  auto sizes = getConstantIntValues(getShape());
  for (size_t i = 0; axes && i < axes->size(); ++i)
    shape[(*axes)[i]] = sizes && sizes->size() == axes->size()
                            ? (*sizes)[i]
                            : ShapedType::kDynamic;
  return setShape(*this, shape, elem);
}

LogicalResult ReverseSequenceOp::verify() {
  int64_t b = getBatchAxis(), t = getTimeAxis();
  if ((b != 0 && b != 1) || (t != 0 && t != 1) || b == t)
    return emitOpError() << "expects batch_axis and time_axis to be 0 and 1 "
                            "in some order, got "
                         << b << " and " << t;
  auto x = rankedShape(getInput());
  if (x && x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  auto lens = rankedShape(getSequenceLens());
  if (x && lens &&
      (lens->size() != 1 || (!ShapedType::isDynamic((*lens)[0]) &&
                             !ShapedType::isDynamic((*x)[b]) &&
                             (*lens)[0] != (*x)[b])))
    return emitOpError() << "expects sequence_lens of shape [" << (*x)[b]
                         << "] (the batch dim), got " << formatShape(*lens);
  return success();
}
LogicalResult ReverseSequenceOp::inferShapes() {
  return inferSameAsOperand(*this, getInput());
}

LogicalResult PadOp::verify() {
  if (!llvm::is_contained({"constant", "reflect", "edge", "wrap"}, getMode()))
    return emitOpError() << "has unknown mode '" << getMode() << "'";
  auto x = rankedShape(getData());
  auto pads = getConstantInts(getPads());
  if (!x || !pads)
    return success();
  size_t n = x->size();
  if (!isa<NoneType>(getAxes().getType())) {
    auto axes = getConstantIntValues(getAxes());
    if (!axes)
      return success();
    if (failed(normalizeAxes(*this, *axes, n)))
      return failure();
    n = axes->size();
  }
  if (pads->size() != 2 * n)
    return emitOpError() << "expects " << 2 * n << " pads, got "
                         << pads->size();
  return success();
}

LogicalResult PadOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getData());
  auto x = rankedShape(getData());
  if (!x)
    return keepUnranked(*this, elem);
  auto pads = getStaticPads();
  SmallVector<int64_t> shape(x->size(), ShapedType::kDynamic);
  for (size_t i = 0; pads && i < x->size(); ++i) {
    if (ShapedType::isDynamic((*x)[i]))
      continue;
    shape[i] = (*x)[i] + pads->first[i] + pads->second[i];
    if (shape[i] < 0)
      return emitOpError() << "crops dim " << i << " of size " << (*x)[i]
                           << " below zero";
  }
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// DepthToSpace, SpaceToDepth
//===----------------------------------------------------------------------===//

template <typename Op>
static LogicalResult verifyBlockOp(Op op, bool toSpace) {
  // Bounded, so that blocksize^2 and a dim times it cannot overflow.
  if (op.getBlocksize() < 1 || op.getBlocksize() > (int64_t(1) << 20))
    return op.emitOpError() << "expects a blocksize from 1 to 2^20, got "
                            << op.getBlocksize();
  if (op.getMode() != "DCR" && op.getMode() != "CRD")
    return op.emitOpError() << "has unknown mode '" << op.getMode() << "'";
  auto x = rankedShape(op.getInput());
  if (!x)
    return success();
  if (x->size() != 4)
    return op.emitOpError() << "expects a 4-d input, got " << formatShape(*x);
  int64_t b = op.getBlocksize();
  if (toSpace && !ShapedType::isDynamic((*x)[1]) && (*x)[1] % (b * b) != 0)
    return op.emitOpError() << "expects channels " << (*x)[1]
                            << " divisible by blocksize^2 = " << b * b;
  for (int d = 2; !toSpace && d < 4; ++d)
    if (!ShapedType::isDynamic((*x)[d]) && (*x)[d] % b != 0)
      return op.emitOpError() << "expects spatial dims divisible by blocksize "
                              << b << ", got " << formatShape(*x);
  return success();
}

template <typename Op>
static LogicalResult inferBlockOp(Op op, bool toSpace) {
  Type elem = getElementTypeOrSelf(op.getInput());
  auto x = rankedShape(op.getInput());
  if (!x)
    return keepUnranked(op, elem);
  int64_t b = op.getBlocksize();
  auto scale = [](int64_t d, int64_t num, int64_t den) {
    return ShapedType::isDynamic(d) ? d : d * num / den;
  };
  SmallVector<int64_t> shape{(*x)[0]};
  if (toSpace)
    shape.append({scale((*x)[1], 1, b * b), scale((*x)[2], b, 1),
                  scale((*x)[3], b, 1)});
  else
    shape.append({scale((*x)[1], b * b, 1), scale((*x)[2], 1, b),
                  scale((*x)[3], 1, b)});
  return setShape(op, shape, elem);
}

LogicalResult DepthToSpaceOp::verify() { return verifyBlockOp(*this, true); }
LogicalResult SpaceToDepthOp::verify() { return verifyBlockOp(*this, false); }
LogicalResult DepthToSpaceOp::inferShapes() {
  return inferBlockOp(*this, true);
}
LogicalResult SpaceToDepthOp::inferShapes() {
  return inferBlockOp(*this, false);
}
