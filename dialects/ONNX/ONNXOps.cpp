//===- ONNXOps.cpp - onnx op verifiers and shared helpers -----------------===//
#include "dialects/ONNX/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tcc::onnx;

#define GET_OP_CLASSES
#include "dialects/ONNX/ONNXOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Raw bytes behind a constant of either storage kind, or nullopt.
static std::optional<ArrayRef<char>> getRawData(ElementsAttr attr) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  return std::nullopt;
}

static ElementsAttr getConstantAttr(Value value) {
  ElementsAttr attr;
  if (value && matchPattern(value, m_Constant(&attr)))
    return attr;
  return {};
}

std::optional<SmallVector<int64_t>> tcc::onnx::getConstantInts(Value value) {
  ElementsAttr attr = getConstantAttr(value);
  if (!attr || !attr.getElementType().isInteger(64))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr))
    return llvm::to_vector(llvm::map_range(
        dense.getValues<APInt>(), [](APInt v) { return v.getSExtValue(); }));
  std::optional<ArrayRef<char>> raw = getRawData(attr);
  if (!raw || raw->size() != attr.getNumElements() * sizeof(int64_t))
    return std::nullopt;
  SmallVector<int64_t> result(attr.getNumElements());
  std::memcpy(result.data(), raw->data(), raw->size());
  return result;
}

std::optional<SmallVector<float>> tcc::onnx::getConstantFloats(Value value) {
  ElementsAttr attr = getConstantAttr(value);
  if (!attr || !attr.getElementType().isF32())
    return std::nullopt;
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return llvm::to_vector(dense.getValues<float>());
  std::optional<ArrayRef<char>> raw = getRawData(attr);
  if (!raw || raw->size() != attr.getNumElements() * sizeof(float))
    return std::nullopt;
  SmallVector<float> result(attr.getNumElements());
  std::memcpy(result.data(), raw->data(), raw->size());
  return result;
}

FailureOr<SmallVector<int64_t>>
tcc::onnx::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == 1) {
      result[i] = db;
    } else if (db == 1) {
      result[i] = da;
    } else if (ShapedType::isDynamic(da)) {
      result[i] = db; // A dynamic dim must match the static one (or be 1).
    } else if (ShapedType::isDynamic(db) || da == db) {
      result[i] = da;
    } else {
      return failure();
    }
  }
  return result;
}

std::string tcc::onnx::formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << "?";
        else
          os << d;
      },
      ",");
  os << "]";
  return s;
}

FailureOr<WindowGeometry> tcc::onnx::resolveWindow(
    Operation *op, ArrayRef<int64_t> inShape, ArrayRef<int64_t> kernel,
    StringRef autoPad, std::optional<ArrayRef<int64_t>> pads,
    std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations, bool ceilMode) {
  size_t n = kernel.size();
  if (inShape.size() != n + 2)
    return op->emitOpError() << "expects an input of rank " << n + 2
                             << " for a " << n << "-d kernel, got shape "
                             << formatShape(inShape);
  auto checkSize = [&](std::optional<ArrayRef<int64_t>> attr, size_t size,
                       StringRef name) -> LogicalResult {
    if (attr && attr->size() != size)
      return op->emitOpError() << "expects '" << name << "' to have " << size
                               << " values, got " << attr->size();
    return success();
  };
  if (failed(checkSize(pads, 2 * n, "pads")) ||
      failed(checkSize(strides, n, "strides")) ||
      failed(checkSize(dilations, n, "dilations")))
    return failure();

  WindowGeometry g;
  g.kernel.assign(kernel.begin(), kernel.end());
  g.strides = strides ? SmallVector<int64_t>(*strides) : SmallVector<int64_t>(n, 1);
  g.dilations =
      dilations ? SmallVector<int64_t>(*dilations) : SmallVector<int64_t>(n, 1);
  for (size_t i = 0; i < n; ++i) {
    if (g.strides[i] < 1 || g.dilations[i] < 1 || g.kernel[i] < 1)
      return op->emitOpError()
             << "expects kernel sizes, strides and dilations >= 1";
  }
  g.padsBegin.assign(n, 0);
  g.padsEnd.assign(n, 0);
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (autoPad == "NOTSET") {
    if (pads) {
      for (size_t i = 0; i < n; ++i) {
        g.padsBegin[i] = (*pads)[i];
        g.padsEnd[i] = (*pads)[i + n];
        if (g.padsBegin[i] < 0 || g.padsEnd[i] < 0)
          return op->emitOpError() << "expects non-negative pads";
      }
    }
  } else if (!same && autoPad != "VALID") {
    return op->emitOpError() << "has unknown auto_pad '" << autoPad << "'";
  }

  for (size_t i = 0; i < n; ++i) {
    int64_t in = inShape[i + 2];
    int64_t effKernel = (g.kernel[i] - 1) * g.dilations[i] + 1;
    if (ShapedType::isDynamic(in)) {
      if (same)
        return op->emitOpError()
               << "needs static spatial dims for auto_pad " << autoPad;
      g.outSizes.push_back(ShapedType::kDynamic);
      continue;
    }
    if (same) {
      int64_t out = llvm::divideCeil(in, g.strides[i]);
      int64_t total =
          std::max<int64_t>(0, (out - 1) * g.strides[i] + effKernel - in);
      g.padsBegin[i] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.padsEnd[i] = total - g.padsBegin[i];
      g.outSizes.push_back(out);
      continue;
    }
    int64_t span = in + g.padsBegin[i] + g.padsEnd[i] - effKernel;
    if (span < 0)
      return op->emitOpError()
             << "has a window of " << effKernel << " larger than the padded "
             << "input dim " << i + 2 << " of size "
             << in + g.padsBegin[i] + g.padsEnd[i] << " (input shape "
             << formatShape(inShape) << ")";
    int64_t out = (ceilMode ? llvm::divideCeil(span, g.strides[i])
                            : span / g.strides[i]) + 1;
    // With ceil_mode, a last window starting in the end padding is dropped.
    if (ceilMode && (out - 1) * g.strides[i] >= in + g.padsBegin[i])
      --out;
    g.outSizes.push_back(out);
  }
  return g;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
OpFoldResult NoValueOp::fold(FoldAdaptor) { return UnitAttr::get(getContext()); }
OpFoldResult IdentityOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  return {};
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

static std::optional<ArrayRef<int64_t>> rankedShape(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t.getShape();
  return std::nullopt;
}

template <typename Op>
static LogicalResult verifyBinary(Op op) {
  auto a = rankedShape(op.getA()), b = rankedShape(op.getB());
  if (getElementTypeOrSelf(op.getA()) != getElementTypeOrSelf(op.getB()))
    return op.emitOpError() << "expects operands of one element type, got "
                            << op.getA().getType() << " and "
                            << op.getB().getType();
  if (a && b && failed(broadcastShapes(*a, *b)))
    return op.emitOpError() << "cannot broadcast shapes " << formatShape(*a)
                            << " and " << formatShape(*b);
  return success();
}
LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }
LogicalResult DivOp::verify() { return verifyBinary(*this); }

LogicalResult ClipOp::verify() {
  for (Value bound : {getMin(), getMax()}) {
    if (isa<NoneType>(bound.getType()))
      continue;
    auto shape = rankedShape(bound);
    if (shape && !shape->empty() &&
        !(shape->size() == 1 && (*shape)[0] == 1))
      return emitOpError() << "expects scalar min/max, got shape "
                           << formatShape(*shape);
    if (getElementTypeOrSelf(bound) != getElementTypeOrSelf(getInput()))
      return emitOpError() << "expects min/max of the input's element type";
  }
  return success();
}

LogicalResult DropoutOp::verify() {
  if (isa<NoneType>(getTrainingMode().getType()))
    return success();
  auto mode = getConstantInts(getTrainingMode());
  ElementsAttr attr;
  if (matchPattern(getTrainingMode(), m_Constant(&attr)) &&
      attr.getElementType().isInteger(1)) {
    if (!attr.getValues<bool>()[0])
      return success();
    return emitOpError() << "with training_mode=true is not supported";
  }
  (void)mode;
  return emitOpError() << "needs a constant false training_mode";
}

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

LogicalResult BatchNormalizationOp::verify() {
  if (getTrainingMode() != 0)
    return emitOpError() << "with training_mode=1 is not supported";
  auto x = rankedShape(getX());
  if (!x)
    return success();
  if (x->size() < 2)
    return emitOpError() << "expects an input of rank >= 2, got "
                         << formatShape(*x);
  int64_t c = (*x)[1];
  for (Value v : {getScale(), getB(), getInputMean(), getInputVar()}) {
    auto s = rankedShape(v);
    if (s && (s->size() != 1 || (!ShapedType::isDynamic(c) &&
                                 !ShapedType::isDynamic((*s)[0]) &&
                                 (*s)[0] != c)))
      return emitOpError() << "expects scale, B, mean and var of shape [" << c
                           << "], got " << formatShape(*s);
  }
  return success();
}

static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                                bool inclusiveEnd) {
  int64_t hi = inclusiveEnd ? rank : rank - 1;
  if (axis < -rank || axis > hi)
    return op->emitOpError() << "has axis " << axis << " out of range ["
                             << -rank << ", " << hi << "] for rank " << rank;
  return success();
}

LogicalResult SoftmaxOp::verify() {
  if (auto x = rankedShape(getInput()))
    return verifyAxis(*this, getAxis(), x->size(), false);
  return success();
}

LogicalResult GemmOp::verify() {
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (a && a->size() != 2)
    return emitOpError() << "expects A of rank 2, got " << formatShape(*a);
  if (b && b->size() != 2)
    return emitOpError() << "expects B of rank 2, got " << formatShape(*b);
  if (a && b) {
    int64_t ka = (*a)[getTransA() ? 0 : 1], kb = (*b)[getTransB() ? 1 : 0];
    if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
      return emitOpError() << "has mismatched inner dims: A " << formatShape(*a)
                           << (getTransA() ? " (transposed)" : "") << ", B "
                           << formatShape(*b) << (getTransB() ? " (transposed)" : "");
  }
  if (auto c = rankedShape(getC()); c && c->size() > 2)
    return emitOpError() << "expects C of rank <= 2, got " << formatShape(*c);
  return success();
}

LogicalResult MatMulOp::verify() {
  auto a = rankedShape(getA()), b = rankedShape(getB());
  if (getElementTypeOrSelf(getA()) != getElementTypeOrSelf(getB()))
    return emitOpError() << "expects operands of one element type";
  if (!a || !b)
    return success();
  if (a->empty() || b->empty())
    return emitOpError() << "expects operands of rank >= 1";
  int64_t ka = a->back(), kb = b->size() == 1 ? (*b)[0] : (*b)[b->size() - 2];
  if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
    return emitOpError() << "has mismatched inner dims: " << formatShape(*a)
                         << " x " << formatShape(*b);
  auto batchA = a->size() > 2 ? a->drop_back(2) : ArrayRef<int64_t>();
  auto batchB = b->size() > 2 ? b->drop_back(2) : ArrayRef<int64_t>();
  if (failed(broadcastShapes(batchA, batchB)))
    return emitOpError() << "cannot broadcast batch dims of " << formatShape(*a)
                         << " and " << formatShape(*b);
  return success();
}

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
