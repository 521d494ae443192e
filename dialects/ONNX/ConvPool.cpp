//===- ConvPool.cpp - verifiers and shapes of Conv and pooling --------------- ===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

LogicalResult ConvOp::verify() {
  auto x = rankedShape(getX()), w = rankedShape(getW());
  if (getGroup() < 1)
    return emitOpError() << "expects group >= 1, got " << getGroup();
  if (!x || !w)
    return success();
  if (x->size() < 3 || x->size() != w->size())
    return emitOpError() << "expects X and W of one rank >= 3, got shapes "
                         << formatShape(*x) << " and " << formatShape(*w);
  int64_t c = (*x)[1], wc = (*w)[1], m = (*w)[0];
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(wc) &&
      c != wc * getGroup())
    return emitOpError() << "expects input channels " << c << " = W.shape[1] ("
                         << wc << ") * group (" << getGroup() << ")";
  if (!ShapedType::isDynamic(m) && m % getGroup() != 0)
    return emitOpError() << "expects output channels " << m
                         << " divisible by group " << getGroup();
  if (auto ks = getKernelShape()) {
    if (ks->size() != w->size() - 2 ||
        !llvm::equal(*ks, w->drop_front(2)))
      return emitOpError() << "has kernel_shape " << formatShape(*ks)
                           << " that does not match W's shape "
                           << formatShape(*w);
  }
  if (auto b = rankedShape(getB())) {
    if (b->size() != 1 || (!ShapedType::isDynamic((*b)[0]) && (*b)[0] != m))
      return emitOpError() << "expects bias of shape [" << m << "], got "
                           << formatShape(*b);
  }
  return success();
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
  if (getStorageOrder() != 0)
    return emitOpError() << "with storage_order=1 is not supported";
  return verifyPool(*this);
}
LogicalResult AveragePoolOp::verify() { return verifyPool(*this); }

LogicalResult GlobalAveragePoolOp::verify() {
  auto x = rankedShape(getX());
  if (x && x->size() < 3)
    return emitOpError() << "expects an input of rank >= 3, got "
                         << formatShape(*x);
  return success();
}

LogicalResult ConvOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getX());
  auto x = rankedShape(getX()), w = rankedShape(getW());
  if (!x || !w)
    return keepUnranked(*this, elem);
  FailureOr<WindowGeometry> g = resolveWindow(
      *this, *x, w->drop_front(2), getAutoPad(), getPads(), getStrides(),
      getDilations(), /*ceilMode=*/false);
  if (failed(g))
    return failure();
  SmallVector<int64_t> shape = {(*x)[0], (*w)[0]};
  shape.append(g->outSizes);
  return setShape(*this, shape, elem);
}

template <typename Op>
static LogicalResult inferPool(Op op) {
  Type elem = getElementTypeOrSelf(op.getX());
  auto x = rankedShape(op.getX());
  if (!x)
    return keepUnranked(op, elem);
  FailureOr<WindowGeometry> g =
      resolveWindow(op, *x, op.getKernelShape(), op.getAutoPad(), op.getPads(),
                    op.getStrides(), op.getDilations(), op.getCeilMode() != 0);
  if (failed(g))
    return failure();
  SmallVector<int64_t> shape = {(*x)[0], (*x)[1]};
  shape.append(g->outSizes);
  return setShape(op, shape, elem);
}
LogicalResult MaxPoolOp::inferShapes() { return inferPool(*this); }
LogicalResult AveragePoolOp::inferShapes() { return inferPool(*this); }

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
