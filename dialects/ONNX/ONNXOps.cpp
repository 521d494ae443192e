//===- ONNXOps.cpp - onnx op verifiers and shared helpers -----------------===//
#include "dialects/ONNX/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <map>

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
  // int32 too: CumSum's axis (and a few other ONNX scalars) may be int32.
  if (!attr || !(attr.getElementType().isInteger(64) ||
                 attr.getElementType().isInteger(32)))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr))
    return llvm::to_vector(llvm::map_range(
        dense.getValues<APInt>(), [](APInt v) { return v.getSExtValue(); }));
  std::optional<ArrayRef<char>> raw = getRawData(attr);
  if (!raw || !attr.getElementType().isInteger(64) ||
      raw->size() != attr.getNumElements() * sizeof(int64_t))
    return std::nullopt;
  SmallVector<int64_t> result(attr.getNumElements());
  std::memcpy(result.data(), raw->data(), raw->size());
  return result;
}

std::optional<int64_t> tcc::onnx::getConstantInt(Value value) {
  std::optional<SmallVector<int64_t>> values = getConstantInts(value);
  if (!values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
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

Value tcc::onnx::createFloatConstant(OpBuilder &b, Location loc,
                                    RankedTensorType type,
                                    ArrayRef<float> data, StringRef name) {
  auto attr = DenseResourceElementsAttr::get(
      type, name, HeapAsmResourceBlob::allocateAndCopyInferAlign(data));
  return ConstantOp::create(b, loc, type, attr);
}

std::optional<tcc::onnx::BatchNormAffine>
tcc::onnx::batchNormAffine(BatchNormalizationOp bn, int64_t channels) {
  auto scale = getConstantFloats(bn.getScale());
  auto beta = getConstantFloats(bn.getB());
  auto mean = getConstantFloats(bn.getInputMean());
  auto var = getConstantFloats(bn.getInputVar());
  size_t c = channels;
  if (!scale || !beta || !mean || !var || scale->size() != c ||
      beta->size() != c || mean->size() != c || var->size() != c)
    return std::nullopt;
  float eps = bn.getEpsilon().convertToFloat();
  BatchNormAffine affine;
  for (size_t i = 0; i < c; ++i) {
    double s = (*scale)[i] / std::sqrt((double)(*var)[i] + eps);
    affine.scale.push_back(s);
    affine.shift.push_back((*beta)[i] - (*mean)[i] * s);
  }
  return affine;
}

std::optional<SmallVector<int64_t>>
tcc::onnx::getIntValues(Attribute attr, int64_t maxElements) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements || elements.getNumElements() > maxElements)
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(elements.getElementType());
  if (!intType)
    return std::nullopt;
  bool zext = intType.isUnsigned() || intType.getWidth() == 1;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(elements))
    return llvm::to_vector(llvm::map_range(dense.getValues<APInt>(), [&](APInt v) {
      return zext ? (int64_t)v.getZExtValue() : v.getSExtValue();
    }));
  // Initializers are blobs; shape parameters are int64 or int32, quantized
  // weights 8-bit.
  std::optional<ArrayRef<char>> raw = getRawData(elements);
  unsigned width = intType.getWidth();
  if (!raw || (width != 64 && width != 32 && width != 8) ||
      (int64_t)raw->size() != elements.getNumElements() * width / 8)
    return std::nullopt;
  SmallVector<int64_t> result(elements.getNumElements());
  for (size_t i = 0; i < result.size(); ++i) {
    if (width == 64) {
      std::memcpy(&result[i], raw->data() + 8 * i, 8);
    } else if (width == 8) {
      uint8_t v = (*raw)[i];
      result[i] = zext ? (int64_t)v : (int64_t)(int8_t)v;
    } else {
      int32_t v;
      std::memcpy(&v, raw->data() + 4 * i, 4);
      result[i] = zext ? (int64_t)(uint32_t)v : v;
    }
  }
  return result;
}

std::optional<SmallVector<int64_t>>
tcc::onnx::getConstantIntValues(Value value) {
  return getIntValues(getConstantAttr(value));
}

Type tcc::onnx::elementTypeOfDataType(MLIRContext *ctx, int64_t dataType) {
  auto unsignedInt = [&](unsigned w) {
    return IntegerType::get(ctx, w, IntegerType::Unsigned);
  };
  // Values of onnx.proto's TensorProto.DataType (the importer has the same
  // table keyed by the protobuf enum).
  switch (dataType) {
  case 1: return Float32Type::get(ctx);
  case 2: return unsignedInt(8);
  case 3: return IntegerType::get(ctx, 8);
  case 4: return unsignedInt(16);
  case 5: return IntegerType::get(ctx, 16);
  case 6: return IntegerType::get(ctx, 32);
  case 7: return IntegerType::get(ctx, 64);
  case 9: return IntegerType::get(ctx, 1);
  case 10: return Float16Type::get(ctx);
  case 11: return Float64Type::get(ctx);
  case 12: return unsignedInt(32);
  case 13: return unsignedInt(64);
  case 16: return BFloat16Type::get(ctx);
  default: return {};
  }
}

TypedAttr tcc::onnx::getSingleElement(ElementsAttr attr) {
  if (!attr || attr.getNumElements() != 1)
    return {};
  Type elem = attr.getElementType();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return cast<TypedAttr>(dense.getValues<Attribute>()[0]);
  std::optional<ArrayRef<char>> raw = getRawData(attr);
  if (!raw || !elem.isIntOrFloat() ||
      raw->size() * 8 != elem.getIntOrFloatBitWidth())
    return {};
  unsigned width = elem.getIntOrFloatBitWidth();
  uint64_t bits = 0;
  std::memcpy(&bits, raw->data(), raw->size());
  APInt value(width, bits);
  if (auto ft = dyn_cast<FloatType>(elem))
    return FloatAttr::get(elem, APFloat(ft.getFloatSemantics(), value));
  return IntegerAttr::get(elem, value);
}

DenseElementsAttr tcc::onnx::makeIntElements(ShapedType type,
                                             ArrayRef<int64_t> values) {
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.emplace_back(width, (uint64_t)v, /*isSigned=*/true,
                      /*implicitTrunc=*/true);
  return DenseElementsAttr::get(type, ints);
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

LogicalResult tcc::onnx::checkWindowAttributes(
    Operation *op, ArrayRef<int64_t> inShape, size_t n,
    std::optional<ArrayRef<int64_t>> pads,
    std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations) {
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
  return success();
}

SmallVector<int64_t> tcc::onnx::nchwShape(ArrayRef<int64_t> shape,
                                          bool channelsLast) {
  SmallVector<int64_t> nchw(shape);
  if (channelsLast && nchw.size() > 2)
    std::rotate(nchw.begin() + 1, nchw.end() - 1, nchw.end());
  return nchw;
}

SmallVector<int64_t> tcc::onnx::windowedShape(int64_t n, int64_t c,
                                              ArrayRef<int64_t> outSizes,
                                              bool channelsLast) {
  SmallVector<int64_t> shape = {n};
  if (!channelsLast)
    shape.push_back(c);
  llvm::append_range(shape, outSizes);
  if (channelsLast)
    shape.push_back(c);
  return shape;
}

bool tcc::onnx::winogradPays(const WindowGeometry &g, int64_t batch,
                              int64_t channels, int64_t filters,
                              int64_t vectorBits) {
  if (g.kernel != llvm::ArrayRef<int64_t>{3, 3} ||
      llvm::any_of(g.strides, [](int64_t s) { return s != 1; }) ||
      llvm::any_of(g.dilations, [](int64_t d) { return d != 1; }) ||
      g.outSizes.size() != 2 ||
      llvm::any_of(g.outSizes, [](int64_t s) { return s < 2; }) ||
      mlir::ShapedType::isDynamic(batch))
    return false;
  // In double: the products of different tensors' sizes could overflow
  // int64 for a model built to (the sizes are each under 2^48 bytes).
  double outputs = double(batch) * g.outSizes[0] * g.outSizes[1];
  double tiles = double(batch) * llvm::divideCeil(g.outSizes[0], 2) *
                 llvm::divideCeil(g.outSizes[1], 2);
  constexpr int64_t kMinWinogradChannels = 16;
  const int64_t kMinWinogradFilters = vectorBits >= 512 ? 128 : 64;
  constexpr int64_t kMinWinogradMacs = int64_t(1) << 22;
  constexpr int64_t kMaxWinogradBytes = int64_t(16) << 20;
  constexpr int64_t kMinStreamedWinogradRatio = 40;
  constexpr int64_t kMinWinogradTiles = 32;
  return channels >= kMinWinogradChannels && filters >= kMinWinogradFilters &&
         tiles >= kMinWinogradTiles &&
         outputs * filters * channels * 9 >= kMinWinogradMacs &&
         (16 * tiles * (channels + filters) * 4 <= kMaxWinogradBytes ||
          channels * filters >=
              kMinStreamedWinogradRatio * (channels + filters));
}

TapReach tcc::onnx::tapReach(int64_t in, int64_t out, int64_t pad,
                             int64_t stride, int64_t dilation, int64_t k) {
  // Position o reads o * stride + offset: the first o at or past the
  // input's start, the last before its end.
  int64_t offset = k * dilation - pad;
  int64_t first = offset >= 0 ? 0 : llvm::divideCeil(-offset, stride);
  int64_t last =
      std::min(out - 1, llvm::divideFloorSigned(in - 1 - offset, stride));
  return {first, std::max<int64_t>(0, last - first + 1)};
}

bool tcc::onnx::tapwisePays(const WindowGeometry &g, ArrayRef<int64_t> in) {
  if (g.kernel.size() != 2 || in.size() != 2)
    return false;
  // In double: kernel x output sizes could overflow int64.
  double reached = 0;
  for (int64_t kh = 0; kh < g.kernel[0]; ++kh)
    for (int64_t kw = 0; kw < g.kernel[1]; ++kw)
      reached += double(tapReach(in[0], g.outSizes[0], g.padsBegin[0],
                                 g.strides[0], g.dilations[0], kh)
                            .count) *
                 tapReach(in[1], g.outSizes[1], g.padsBegin[1], g.strides[1],
                          g.dilations[1], kw)
                     .count;
  return 2 * reached <= double(g.kernel[0]) * g.kernel[1] * g.outSizes[0] *
                            g.outSizes[1];
}

/// The largest kernel size, stride, dilation or pad (the products of two
/// stay within int64, and with a dim of 2^48 bytes their sums too).
constexpr int64_t kMaxWindowAttr = int64_t(1) << 31;

FailureOr<WindowGeometry> tcc::onnx::resolveWindow(
    Operation *op, ArrayRef<int64_t> inShape, ArrayRef<int64_t> kernel,
    StringRef autoPad, std::optional<ArrayRef<int64_t>> pads,
    std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> dilations, bool ceilMode) {
  size_t n = kernel.size();
  if (failed(checkWindowAttributes(op, inShape, n, pads, strides, dilations)))
    return failure();

  WindowGeometry g;
  g.kernel.assign(kernel.begin(), kernel.end());
  g.strides = strides ? SmallVector<int64_t>(*strides) : SmallVector<int64_t>(n, 1);
  g.dilations =
      dilations ? SmallVector<int64_t>(*dilations) : SmallVector<int64_t>(n, 1);
  // Bounded too, so that the window arithmetic below cannot overflow.
  for (size_t i = 0; i < n; ++i) {
    if (g.strides[i] < 1 || g.dilations[i] < 1 || g.kernel[i] < 1)
      return op->emitOpError()
             << "expects kernel sizes, strides and dilations >= 1";
    if (g.strides[i] > kMaxWindowAttr || g.dilations[i] > kMaxWindowAttr ||
        g.kernel[i] > kMaxWindowAttr)
      return op->emitOpError()
             << "expects kernel sizes, strides and dilations up to 2^31";
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
        if (g.padsBegin[i] > kMaxWindowAttr || g.padsEnd[i] > kMaxWindowAttr)
          return op->emitOpError() << "expects pads up to 2^31";
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

FailureOr<EinsumSpec>
tcc::onnx::resolveEinsum(Operation *op, StringRef equation,
                         ArrayRef<ArrayRef<int64_t>> shapes) {
  std::string eq;
  for (char c : equation)
    if (c != ' ')
      eq += c;
  StringRef lhs = eq, rhs;
  bool explicitOutput = false;
  if (size_t arrow = StringRef(eq).find("->"); arrow != StringRef::npos) {
    lhs = StringRef(eq).take_front(arrow);
    rhs = StringRef(eq).drop_front(arrow + 2);
    explicitOutput = true;
  }
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != shapes.size())
    return op->emitOpError() << "equation '" << equation << "' has "
                             << terms.size() << " operand terms for "
                             << shapes.size() << " inputs";
  EinsumSpec spec;
  // Loops: one per letter, then the ellipsis dims (right-aligned, shared).
  std::map<char, int64_t> letterLoop;
  SmallVector<int64_t> ellipsisLoops; // innermost last
  std::map<char, int> letterCount;
  auto setSize = [&](int64_t loop, int64_t size) -> LogicalResult {
    int64_t &known = spec.loopSizes[loop];
    if (ShapedType::isDynamic(known) || known == 1)
      known = size;
    else if (!ShapedType::isDynamic(size) && size != known && size != 1)
      return op->emitOpError() << "equation '" << equation
                               << "' gives one label the sizes " << known
                               << " and " << size;
    return success();
  };
  auto parseTerm = [&](StringRef term, std::optional<ArrayRef<int64_t>> shape,
                       SmallVector<int64_t> &dims) -> LogicalResult {
    size_t dots = term.find("...");
    StringRef before = dots == StringRef::npos ? term : term.take_front(dots);
    StringRef after =
        dots == StringRef::npos ? StringRef() : term.drop_front(dots + 3);
    int64_t numLetters = before.size() + after.size();
    int64_t numEllipsis = 0;
    if (shape) {
      numEllipsis = (int64_t)shape->size() - numLetters;
      if (numEllipsis < 0 || (dots == StringRef::npos && numEllipsis != 0))
        return op->emitOpError()
               << "equation term '" << term << "' does not match an input of "
               << "rank " << shape->size();
    } else {
      numEllipsis = dots == StringRef::npos ? 0 : ellipsisLoops.size();
    }
    while ((int64_t)ellipsisLoops.size() < numEllipsis) {
      ellipsisLoops.insert(ellipsisLoops.begin(), spec.loopSizes.size());
      spec.loopSizes.push_back(1);
    }
    auto letter = [&](char c) -> LogicalResult {
      if (!llvm::isAlpha(c))
        return op->emitOpError() << "equation '" << equation
                                 << "' has an invalid label '" << c << "'";
      auto [it, inserted] = letterLoop.try_emplace(c, spec.loopSizes.size());
      if (inserted)
        spec.loopSizes.push_back(ShapedType::kDynamic);
      dims.push_back(it->second);
      if (shape)
        ++letterCount[c];
      return success();
    };
    for (char c : before)
      if (failed(letter(c)))
        return failure();
    for (int64_t i = 0; i < numEllipsis; ++i)
      dims.push_back(ellipsisLoops[ellipsisLoops.size() - numEllipsis + i]);
    for (char c : after)
      if (failed(letter(c)))
        return failure();
    if (shape)
      for (auto [loop, size] : llvm::zip_equal(dims, *shape))
        if (failed(setSize(loop, size)))
          return failure();
    return success();
  };
  for (auto [term, shape] : llvm::zip_equal(terms, shapes)) {
    spec.operands.emplace_back();
    if (failed(parseTerm(term, shape, spec.operands.back())))
      return failure();
  }
  if (explicitOutput) {
    if (failed(parseTerm(rhs, std::nullopt, spec.output)))
      return failure();
    for (char c : rhs)
      if (c != '.' && !letterCount.count(c))
        return op->emitOpError() << "equation '" << equation
                                 << "' has output label '" << c
                                 << "' that no input has";
  } else {
    spec.output.append(ellipsisLoops.begin(), ellipsisLoops.end());
    for (auto [c, count] : letterCount)
      if (count == 1)
        spec.output.push_back(letterLoop[c]);
  }
  return spec;
}
