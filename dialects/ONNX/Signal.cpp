//===- Signal.cpp - verifiers and shapes of DFT and STFT ------------------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

/// Checks that `value` (an optional parameter input) is an integer scalar
/// (or a one-element 1-d tensor), positive when constant and `positive`.
static LogicalResult verifyScalarParam(Operation *op, Value value,
                                       StringRef name, bool positive = true) {
  if (isa<NoneType>(value.getType()))
    return success();
  if (!isa<IntegerType>(getElementTypeOrSelf(value)))
    return op->emitOpError() << "expects an integer " << name;
  if (auto s = rankedShape(value);
      s && !(s->empty() || (s->size() == 1 && (*s)[0] == 1)))
    return op->emitOpError()
           << "expects a scalar " << name << ", got " << formatShape(*s);
  if (auto v = getConstantInt(value); positive && v && *v <= 0)
    return op->emitOpError() << "expects a positive " << name << ", got " << *v;
  return success();
}

/// Checks the last dim of a signal: 1 (real) or 2 (complex).
static LogicalResult verifyComplexDim(Operation *op, ArrayRef<int64_t> shape,
                                      StringRef name) {
  if (!ShapedType::isDynamic(shape.back()) && shape.back() != 1 &&
      shape.back() != 2)
    return op->emitOpError()
           << "expects the last dim of " << name
           << " to be 1 (real) or 2 (complex), got " << formatShape(shape);
  return success();
}

//===----------------------------------------------------------------------===//
// DFT
//===----------------------------------------------------------------------===//

std::optional<std::pair<int64_t, int64_t>> DFTOp::getAxisAndLength() {
  auto shape = rankedShape(getInput());
  if (!shape)
    return std::nullopt;
  int64_t rank = shape->size(), axis = -2;
  if (!isa<NoneType>(getAxis().getType())) {
    std::optional<int64_t> a = getConstantInt(getAxis());
    if (!a)
      return std::nullopt;
    axis = *a;
  }
  axis = normAxis(axis, rank);
  int64_t length = ShapedType::kDynamic;
  if (!isa<NoneType>(getDftLength().getType())) {
    std::optional<int64_t> l = getConstantInt(getDftLength());
    if (!l)
      return std::nullopt;
    length = *l;
  } else if (int64_t n = (*shape)[axis]; !ShapedType::isDynamic(n)) {
    length = getInverse() && getOnesided() ? 2 * (n - 1) : n;
  }
  return std::make_pair(axis, length);
}

LogicalResult DFTOp::verify() {
  if (getInverse() != 0 && getInverse() != 1)
    return emitOpError() << "expects inverse 0 or 1, got " << getInverse();
  if (getOnesided() != 0 && getOnesided() != 1)
    return emitOpError() << "expects onesided 0 or 1, got " << getOnesided();
  if (failed(verifyScalarParam(*this, getDftLength(), "dft_length")) ||
      failed(verifyScalarParam(*this, getAxis(), "axis", /*positive=*/false)))
    return failure();
  auto shape = rankedShape(getInput());
  if (!shape)
    return success();
  int64_t rank = shape->size();
  if (rank < 2)
    return emitOpError() << "expects an input of rank >= 2 (signal dims and "
                            "a last dim of 1 or 2), got "
                         << formatShape(*shape);
  if (failed(verifyComplexDim(*this, *shape, "the input")))
    return failure();
  if (std::optional<int64_t> axis = getConstantInt(getAxis());
      axis && (*axis < -rank || *axis > rank - 2 || *axis == -1))
    return emitOpError() << "expects axis in [" << -rank << ", -2] or [0, "
                         << rank - 2 << "], got " << *axis;
  if (auto d = getAxisAndLength(); d && getInverse() && getOnesided() &&
                                   !ShapedType::isDynamic(d->second) &&
                                   d->second <= 0)
    return emitOpError() << "expects a one-sided inverse of at least 2 "
                            "frequencies, got "
                         << formatShape(*shape);
  return success();
}

LogicalResult DFTOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getInput());
  std::optional<std::pair<int64_t, int64_t>> d = getAxisAndLength();
  if (!d)
    return keepUnranked(*this, elem);
  auto [axis, length] = *d;
  SmallVector<int64_t> shape(*rankedShape(getInput()));
  bool realResult = getInverse() && getOnesided();
  if (!realResult && getOnesided() && !ShapedType::isDynamic(length))
    length = length / 2 + 1;
  shape[axis] = length;
  shape.back() = realResult ? 1 : 2;
  return setShape(*this, shape, elem);
}

//===----------------------------------------------------------------------===//
// STFT
//===----------------------------------------------------------------------===//

std::optional<std::pair<int64_t, int64_t>> STFTOp::getStepAndLength() {
  std::optional<int64_t> step = getConstantInt(getFrameStep());
  if (!step)
    return std::nullopt;
  if (!isa<NoneType>(getFrameLength().getType())) {
    std::optional<int64_t> length = getConstantInt(getFrameLength());
    if (!length)
      return std::nullopt;
    return std::make_pair(*step, *length);
  }
  // Else the window's length, or the whole signal.
  auto window = rankedShape(getWindow());
  auto signal = rankedShape(getSignal());
  int64_t length = ShapedType::kDynamic;
  if (window && window->size() == 1)
    length = (*window)[0];
  else if (isa<NoneType>(getWindow().getType()) && signal &&
           signal->size() == 3)
    length = (*signal)[1];
  if (ShapedType::isDynamic(length))
    return std::nullopt;
  return std::make_pair(*step, length);
}

LogicalResult STFTOp::verify() {
  if (getOnesided() != 0 && getOnesided() != 1)
    return emitOpError() << "expects onesided 0 or 1, got " << getOnesided();
  if (failed(verifyScalarParam(*this, getFrameStep(), "frame_step")) ||
      failed(verifyScalarParam(*this, getFrameLength(), "frame_length")))
    return failure();
  Type elem = getElementTypeOrSelf(getSignal());
  auto signal = rankedShape(getSignal());
  if (signal && signal->size() != 3)
    return emitOpError() << "expects a signal of shape [batch, length, 1 or "
                            "2], got "
                         << formatShape(*signal);
  if (signal && failed(verifyComplexDim(*this, *signal, "the signal")))
    return failure();
  if (!isa<NoneType>(getWindow().getType())) {
    if (getElementTypeOrSelf(getWindow()) != elem)
      return emitOpError() << "expects a window of the signal's element type";
    auto window = rankedShape(getWindow());
    if (window && window->size() != 1)
      return emitOpError() << "expects a 1-d window, got "
                           << formatShape(*window);
    std::optional<int64_t> length = getConstantInt(getFrameLength());
    if (window && length && !ShapedType::isDynamic((*window)[0]) &&
        (*window)[0] != *length)
      return emitOpError() << "expects a window of frame_length (" << *length
                           << ") points, got " << formatShape(*window);
  }
  if (auto d = getStepAndLength(); d && signal &&
                                   !ShapedType::isDynamic((*signal)[1]) &&
                                   d->second > (*signal)[1])
    return emitOpError() << "expects frames of at most the signal's length ("
                         << (*signal)[1] << "), got " << d->second;
  return success();
}

LogicalResult STFTOp::inferShapes() {
  Type elem = getElementTypeOrSelf(getSignal());
  auto signal = rankedShape(getSignal());
  std::optional<std::pair<int64_t, int64_t>> d = getStepAndLength();
  int64_t dyn = ShapedType::kDynamic;
  if (!signal)
    return setShape(*this, {dyn, dyn, dyn, 2}, elem);
  int64_t frames = dyn, bins = dyn;
  if (d) {
    auto [step, length] = *d;
    if (!ShapedType::isDynamic((*signal)[1]))
      frames = 1 + ((*signal)[1] - length) / step;
    bins = getOnesided() ? length / 2 + 1 : length;
  }
  return setShape(*this, {(*signal)[0], frames, bins, 2}, elem);
}
