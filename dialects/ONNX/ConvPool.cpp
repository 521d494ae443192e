//===- ConvPool.cpp - verifiers and shapes of Conv and pooling --------------- ===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

/// What Conv and ConvTranspose check alike: group >= 1 and X, W of one rank
/// >= 3. Returns the shapes when both are ranked and the checks passed.
static FailureOr<std::optional<std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>>>
verifyConvOperands(Operation *op, Value xValue, Value wValue, int64_t group) {
  auto x = rankedShape(xValue), w = rankedShape(wValue);
  if (group < 1)
    return op->emitOpError() << "expects group >= 1, got " << group;
  if (!x || !w)
    return std::optional<std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>>();
  if (x->size() < 3 || x->size() != w->size())
    return op->emitOpError() << "expects X and W of one rank >= 3, got shapes "
                             << formatShape(*x) << " and " << formatShape(*w);
  return std::optional(std::make_pair(*x, *w));
}

LogicalResult tcc::onnx::detail::verifyConvShapes(
    Operation *op, Value xValue, Value wValue, Value bias, int64_t group,
    std::optional<ArrayRef<int64_t>> kernelShape, bool channelsLast) {
  auto shapes = verifyConvOperands(op, xValue, wValue, group);
  if (failed(shapes) || !*shapes)
    return failure(failed(shapes));
  std::optional<ArrayRef<int64_t>> x = (*shapes)->first, w = (*shapes)->second;
  int64_t c = channelsLast ? x->back() : (*x)[1], wc = (*w)[1], m = (*w)[0];
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(wc) &&
      c != wc * group)
    return op->emitOpError()
           << "expects input channels " << c << " = W.shape[1] (" << wc
           << ") * group (" << group << ")";
  if (!ShapedType::isDynamic(m) && m % group != 0)
    return op->emitOpError() << "expects output channels " << m
                             << " divisible by group " << group;
  if (kernelShape) {
    if (kernelShape->size() != w->size() - 2 ||
        !llvm::equal(*kernelShape, w->drop_front(2)))
      return op->emitOpError()
             << "has kernel_shape " << formatShape(*kernelShape)
             << " that does not match W's shape " << formatShape(*w);
  }
  if (auto b = bias ? rankedShape(bias) : std::nullopt) {
    if (b->size() != 1 || (!ShapedType::isDynamic((*b)[0]) && (*b)[0] != m))
      return op->emitOpError()
             << "expects bias of shape [" << m << "], got " << formatShape(*b);
  }
  return success();
}

LogicalResult ConvOp::verify() {
  return verifyConvShapes(*this, getX(), getW(), getB(), getGroup(),
                          getKernelShape());
}

LogicalResult NhwcConvOp::verify() {
  if (auto x = rankedShape(getX()); x && x->size() != 4)
    return emitOpError() << "expects X of rank 4 [N, H, W, C], got "
                         << formatShape(*x);
  return verifyConvShapes(*this, getX(), getW(), getB(), getGroup(),
                          getKernelShape(), /*channelsLast=*/true);
}

template <typename Op>
static LogicalResult verifyPool(Op op) {
  auto x = rankedShape(op.getX());
  if (op.getKernelShape().empty())
    return op.emitOpError() << "expects a non-empty kernel_shape";
  if (x && x->size() != op.getKernelShape().size() + 2)
    return op.emitOpError() << "expects an input of rank "
                            << op.getKernelShape().size() + 2 << ", got "
                            << formatShape(*x);
  return success();
}
LogicalResult MaxPoolOp::verify() {
  if (getStorageOrder() != 0 && getStorageOrder() != 1)
    return emitOpError() << "expects storage_order 0 or 1, got "
                         << getStorageOrder();
  return verifyPool(*this);
}
LogicalResult AveragePoolOp::verify() { return verifyPool(*this); }
LogicalResult NhwcMaxPoolOp::verify() {
  if (getStorageOrder() != 0)
    return emitOpError() << "with storage_order=1 is not supported";
  if (getKernelShape().size() != 2)
    return emitOpError() << "expects a 2-d kernel_shape";
  return verifyPool(*this);
}
LogicalResult NhwcAveragePoolOp::verify() {
  if (getKernelShape().size() != 2)
    return emitOpError() << "expects a 2-d kernel_shape";
  return verifyPool(*this);
}
LogicalResult LpPoolOp::verify() {
  if (getP() < 1)
    return emitOpError() << "expects p >= 1, got " << getP();
  return verifyPool(*this);
}

LogicalResult GlobalAveragePoolOp::verify() {
  auto x = rankedShape(getX());
  if (x && x->size() < 3)
    return emitOpError() << "expects an input of rank >= 3, got "
                         << formatShape(*x);
  return success();
}

LogicalResult
tcc::onnx::detail::inferConvShape(Operation *op, Value xValue, Value wValue,
                                  Type elem, StringRef autoPad,
                                  std::optional<ArrayRef<int64_t>> pads,
                                  std::optional<ArrayRef<int64_t>> strides,
                                  std::optional<ArrayRef<int64_t>> dilations,
                                  bool channelsLast) {
  auto x = rankedShape(xValue), w = rankedShape(wValue);
  if (!x || !w)
    return keepUnranked(op, elem);
  FailureOr<WindowGeometry> g =
      resolveWindow(op, nchwShape(*x, channelsLast), w->drop_front(2), autoPad,
                    pads, strides, dilations, /*ceilMode=*/false);
  if (failed(g))
    return failure();
  return setShape(op,
                  windowedShape((*x)[0], (*w)[0], g->outSizes, channelsLast),
                  elem);
}

LogicalResult ConvOp::inferShapes() {
  return inferConvShape(*this, getX(), getW(), getElementTypeOrSelf(getX()),
                        getAutoPad(), getPads(), getStrides(), getDilations());
}

LogicalResult NhwcConvOp::inferShapes() {
  return inferConvShape(*this, getX(), getW(), getElementTypeOrSelf(getX()),
                        getAutoPad(), getPads(), getStrides(), getDilations(),
                        /*channelsLast=*/true);
}

template <typename Op>
static LogicalResult inferPool(Op op, bool channelsLast = false) {
  Type elem = getElementTypeOrSelf(op.getX());
  auto x = rankedShape(op.getX());
  if (!x)
    return keepUnranked(op, elem);
  SmallVector<int64_t> nchw = nchwShape(*x, channelsLast);
  FailureOr<WindowGeometry> g =
      resolveWindow(op, nchw, op.getKernelShape(), op.getAutoPad(),
                    op.getPads(), op.getStrides(), op.getDilations(),
                    op.getCeilMode() != 0);
  if (failed(g))
    return failure();
  return setShape(op, windowedShape(nchw[0], nchw[1], g->outSizes, channelsLast),
                  elem);
}
LogicalResult MaxPoolOp::inferShapes() {
  if (failed(inferPool(*this)))
    return failure();
  if (getIndices()) {
    auto y = dyn_cast<RankedTensorType>(getY().getType());
    Type i64 = IntegerType::get(getContext(), 64);
    Value indices = getIndices();
    indices.setType(y ? Type(y.clone(i64)) : UnrankedTensorType::get(i64));
  }
  return success();
}
LogicalResult AveragePoolOp::inferShapes() { return inferPool(*this); }
LogicalResult NhwcMaxPoolOp::inferShapes() {
  return inferPool(*this, /*channelsLast=*/true);
}
LogicalResult NhwcAveragePoolOp::inferShapes() {
  return inferPool(*this, /*channelsLast=*/true);
}
LogicalResult LpPoolOp::inferShapes() { return inferPool(*this); }

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

FailureOr<WindowGeometry> tcc::onnx::resolveTransposedWindow(
    Operation *op, ArrayRef<int64_t> inShape, ArrayRef<int64_t> kernel,
    StringRef autoPad, std::optional<ArrayRef<int64_t>> pads,
    std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations,
    std::optional<ArrayRef<int64_t>> outputPadding,
    std::optional<ArrayRef<int64_t>> outputShape) {
  size_t n = kernel.size();
  if (failed(checkWindowAttributes(op, inShape, n, pads, strides, dilations)))
    return failure();
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return op->emitOpError() << "has unknown auto_pad '" << autoPad << "'";
  WindowGeometry r;
  r.kernel.assign(kernel.begin(), kernel.end());
  r.strides = strides ? SmallVector<int64_t>(*strides) : SmallVector<int64_t>(n, 1);
  r.dilations =
      dilations ? SmallVector<int64_t>(*dilations) : SmallVector<int64_t>(n, 1);
  SmallVector<int64_t> outPad =
      outputPadding ? SmallVector<int64_t>(*outputPadding)
                    : SmallVector<int64_t>(n, 0);
  if (outPad.size() != n)
    return op->emitOpError() << "expects 'output_padding' to have " << n
                             << " values, got " << outPad.size();
  if (outputShape && outputShape->size() != n && outputShape->size() != n + 2)
    return op->emitOpError() << "expects 'output_shape' to have " << n
                             << " values, got " << outputShape->size();
  for (size_t i = 0; i < n; ++i) {
    int64_t in = inShape[i + 2];
    if (ShapedType::isDynamic(in))
      return op->emitOpError() << "needs static spatial dims";
    if (r.strides[i] < 1 || r.dilations[i] < 1 || r.kernel[i] < 1)
      return op->emitOpError()
             << "expects kernel sizes, strides and dilations >= 1";
    // Bounded as in resolveWindow; the output, up to stride x the input,
    // is computed in 128 bits and must stay a size tcc can hold.
    constexpr int64_t kMaxAttr = int64_t(1) << 31, kMaxDim = int64_t(1) << 62;
    if (r.strides[i] > kMaxAttr || r.dilations[i] > kMaxAttr ||
        r.kernel[i] > kMaxAttr || outPad[i] < 0 || outPad[i] > kMaxAttr)
      return op->emitOpError() << "expects kernel sizes, strides, dilations "
                                  "and output_padding up to 2^31";
    __int128 effKernel = __int128(r.kernel[i] - 1) * r.dilations[i] + 1;
    __int128 wide = __int128(r.strides[i]) * (in - 1) + outPad[i] + effKernel;
    __int128 wideSame = __int128(in) * r.strides[i];
    if (wide > kMaxDim || wideSame > kMaxDim)
      return op->emitOpError() << "has an output along spatial dim " << i
                               << " too large for tcc (over 2^62)";
    int64_t full = (int64_t)wide;
    int64_t out;
    if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      out = outputShape ? outputShape->drop_front(outputShape->size() - n)[i]
                        : (int64_t)wideSame;
      if (out < 1 || out > kMaxDim)
        return op->emitOpError() << "expects 'output_shape' values from 1 to "
                                    "2^62, got "
                                 << out << " along spatial dim " << i;
      int64_t total = std::max<int64_t>(full - out, 0);
      bool upper = autoPad == "SAME_UPPER";
      r.padsBegin.push_back(upper ? total / 2 : total - total / 2);
      r.padsEnd.push_back(total - r.padsBegin.back());
    } else {
      int64_t begin = pads && autoPad == "NOTSET" ? (*pads)[i] : 0;
      int64_t end = pads && autoPad == "NOTSET" ? (*pads)[i + n] : 0;
      if (begin < 0 || end < 0 || begin > kMaxAttr || end > kMaxAttr)
        return op->emitOpError() << "expects pads from 0 to 2^31";
      r.padsBegin.push_back(begin);
      r.padsEnd.push_back(end);
      out = full - begin - end;
    }
    if (out < 1)
      return op->emitOpError() << "has an empty output along spatial dim "
                               << i;
    r.outSizes.push_back(out);
  }
  return r;
}

LogicalResult ConvTransposeOp::verify() {
  auto shapes = verifyConvOperands(*this, getX(), getW(), getGroup());
  if (failed(shapes) || !*shapes)
    return failure(failed(shapes));
  std::optional<ArrayRef<int64_t>> x = (*shapes)->first, w = (*shapes)->second;
  if (!ShapedType::isDynamic((*x)[1]) && !ShapedType::isDynamic((*w)[0]) &&
      (*x)[1] != (*w)[0])
    return emitOpError() << "expects input channels " << (*x)[1]
                         << " = W.shape[0] (" << (*w)[0] << ")";
  if (!ShapedType::isDynamic((*w)[0]) && (*w)[0] % getGroup() != 0)
    return emitOpError() << "expects input channels " << (*w)[0]
                         << " divisible by group " << getGroup();
  if (auto ks = getKernelShape();
      ks && (ks->size() != w->size() - 2 || !llvm::equal(*ks, w->drop_front(2))))
    return emitOpError() << "has kernel_shape " << formatShape(*ks)
                         << " that does not match W's shape " << formatShape(*w);
  return success();
}

LogicalResult ConvTransposeOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX()), w = rankedShape(getW());
  if (!x || !w)
    return keepUnranked(*this, elem);
  FailureOr<WindowGeometry> g = resolveTransposedWindow(
      *this, *x, w->drop_front(2), getAutoPad(), getPads(), getStrides(),
      getDilations(), getOutputPadding(), getOutputShape());
  if (failed(g))
    return failure();
  int64_t m = ShapedType::isDynamic((*w)[1]) ? ShapedType::kDynamic
                                             : mulDim((*w)[1], getGroup());
  SmallVector<int64_t> shape = {(*x)[0], m};
  shape.append(g->outSizes);
  return setShape(*this, shape, elem);
}

std::optional<WindowGeometry> Col2ImOp::getStaticWindow() {
  auto image = getConstantIntValues(getImageShape());
  auto block = getConstantIntValues(getBlockShape());
  if (!image || !block || image->size() != block->size())
    return std::nullopt;
  size_t n = image->size();
  auto orDefault = [&](std::optional<ArrayRef<int64_t>> v, int64_t fill,
                       size_t size) {
    return v && v->size() == size ? SmallVector<int64_t>(*v)
                                  : SmallVector<int64_t>(size, fill);
  };
  WindowGeometry g;
  g.kernel = *block;
  g.strides = orDefault(getStrides(), 1, n);
  g.dilations = orDefault(getDilations(), 1, n);
  SmallVector<int64_t> pads = orDefault(getPads(), 0, 2 * n);
  g.padsBegin.assign(pads.begin(), pads.begin() + n);
  g.padsEnd.assign(pads.begin() + n, pads.end());
  // Values a window can have (as resolveWindow bounds them): the sums and
  // products below then stay within int64.
  auto inRange = [](ArrayRef<int64_t> v, int64_t lo) {
    return llvm::all_of(v, [&](int64_t x) { return x >= lo && x <= (int64_t(1) << 31); });
  };
  if (!inRange(*image, 0) || !inRange(g.kernel, 1) || !inRange(g.strides, 1) ||
      !inRange(g.dilations, 1) || !inRange(pads, 0))
    return std::nullopt;
  for (size_t i = 0; i < n; ++i)
    g.outSizes.push_back(((*image)[i] + g.padsBegin[i] + g.padsEnd[i] -
                          g.dilations[i] * (g.kernel[i] - 1) - 1) /
                             g.strides[i] +
                         1);
  return g;
}

LogicalResult Col2ImOp::verify() {
  auto x = rankedShape(getInput());
  if (x && x->size() != 3)
    return emitOpError() << "expects an input of rank 3 (N, C*prod(block), "
                            "L), got "
                         << formatShape(*x);
  auto image = getConstantIntValues(getImageShape());
  auto block = getConstantIntValues(getBlockShape());
  if (image && block && image->size() != block->size())
    return emitOpError() << "expects image_shape and block_shape of one "
                            "size, got "
                         << image->size() << " and " << block->size();
  if (!image || !block)
    return success();
  size_t n = image->size();
  for (auto [name, attr, size] :
       {std::make_tuple("strides", getStrides(), n),
        std::make_tuple("dilations", getDilations(), n),
        std::make_tuple("pads", getPads(), 2 * n)})
    if (attr && attr->size() != size)
      return emitOpError() << "expects '" << name << "' to have " << size
                           << " values, got " << attr->size();
  if (!x)
    return success();
  std::optional<WindowGeometry> g = getStaticWindow();
  int64_t blockSize = 1, numBlocks = 1;
  for (size_t i = 0; i < n; ++i) {
    if (g->outSizes[i] <= 0)
      return emitOpError() << "has no block along spatial dim " << i;
    blockSize *= g->kernel[i];
    numBlocks *= g->outSizes[i];
  }
  if (!ShapedType::isDynamic((*x)[1]) && (*x)[1] % blockSize != 0)
    return emitOpError() << "expects dim 1 of the input divisible by the "
                            "block size "
                         << blockSize << ", got " << formatShape(*x);
  if (!ShapedType::isDynamic((*x)[2]) && (*x)[2] != numBlocks)
    return emitOpError() << "expects " << numBlocks
                         << " blocks (dim 2 of the input), got "
                         << formatShape(*x);
  return success();
}

LogicalResult Col2ImOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  auto x = rankedShape(getInput());
  auto image = getConstantIntValues(getImageShape());
  auto block = getConstantIntValues(getBlockShape());
  if (!x || !image || !block)
    return keepUnranked(*this, elem);
  int64_t blockSize = 1;
  for (int64_t k : *block)
    blockSize *= k;
  SmallVector<int64_t> shape = {(*x)[0], ShapedType::isDynamic((*x)[1])
                                             ? ShapedType::kDynamic
                                             : (*x)[1] / blockSize};
  shape.append(image->begin(), image->end());
  return setShape(*this, shape, elem);
}
