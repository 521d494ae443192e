//===- WidenHalf.cpp - tcc-onnx-widen-half --------------------------------===//
//
// float16 and bfloat16 models computed in f32. The CPUs tcc targets have
// no half-precision arithmetic (or only as conversions): each op on half
// tensors runs on f32 ones between Casts, so that its products and sums
// are f32 and only its result is rounded to half, as ONNX defines its
// output (onnxruntime's CPU provider rounds only where a chain of such
// ops ends, so the two differ by a few half ulps). Constants are widened
// at compile time, so the f32 kernels (register tiling, Winograd,
// channels-last) take the weights as they take an f32 model's.
//
//===----------------------------------------------------------------------===//
#include "dialects/ONNX/Transforms/Passes.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

using namespace mlir;
using namespace tcc::onnx;

namespace tcc::onnx {
#define GEN_PASS_DEF_ONNXWIDENHALF
#include "dialects/ONNX/Transforms/Passes.h.inc"
} // namespace tcc::onnx

namespace {

/// ONNX's TensorProto.DataType of f32, f16 and bf16 ...
constexpr int64_t kFloat = 1, kFloat16 = 10, kBFloat16 = 16;
/// ... and of uint8 and int8.
constexpr int64_t kUInt8 = 2, kInt8 = 3;
/// Constants of at most this many elements are dense attributes, larger
/// ones resource blobs (as the importer's kMaxInlineElements).
constexpr size_t kMaxInlineElements = 64;

bool isHalf(Type t) { return isa<Float16Type, BFloat16Type>(t); }

/// The half element type of `v` (a ranked tensor), or null.
Type halfElement(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isHalf(type.getElementType()) ? type.getElementType() : Type();
}

RankedTensorType withElement(Type type, Type element) {
  return cast<RankedTensorType>(type).clone(element);
}

/// The f32 value of IEEE half `h` (exact: every half is an f32).
float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f,
           mantissa = h & 0x3ff, bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | mantissa << 13; // inf, nan
  } else if (exponent != 0) {
    bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
  } else if (mantissa == 0) {
    bits = sign; // zero
  } else {
    // A subnormal: mantissa x 2^-24, normalized.
    int32_t e = 127 - 15 + 1;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      --e;
    }
    bits = sign | uint32_t(e) << 23 | (mantissa & 0x3ff) << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// The f32 values of a half constant's elements, or nullopt.
std::optional<SmallVector<float>> widenedElements(ElementsAttr attr) {
  Type element = attr.getElementType();
  int64_t n = attr.getNumElements();
  SmallVector<float> out;
  out.reserve(n);
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
      out.push_back(v.convertToFloat());
    }
    return out;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob || (int64_t)blob->getData().size() != 2 * n)
    return std::nullopt;
  ArrayRef<char> bytes = blob->getData();
  for (int64_t i = 0; i < n; ++i) {
    uint16_t bits;
    std::memcpy(&bits, bytes.data() + 2 * i, 2);
    if (element.isBF16()) {
      uint32_t wide = uint32_t(bits) << 16;
      float f;
      std::memcpy(&f, &wide, 4);
      out.push_back(f);
    } else {
      out.push_back(halfToFloat(bits));
    }
  }
  return out;
}

/// Ops that stay as they are: those that choose or produce an element
/// type (Cast, CastLike, constants, random numbers, quantization), and
/// those with regions.
bool keepsType(Operation *op) {
  static const llvm::StringSet<> kept = {"onnx.Cast",
                                         "onnx.CastLike",
                                         "onnx.Constant",
                                         "onnx.ConstantOfShape",
                                         "onnx.QuantizeLinear",
                                         "onnx.DequantizeLinear",
                                         "onnx.DynamicQuantizeLinear"};
  return kept.contains(op->getName().getStringRef()) ||
         op->getNumRegions() != 0 || op->hasAttr("dtype") || op->hasAttr("to");
}

struct ONNXWidenHalf : tcc::onnx::impl::ONNXWidenHalfBase<ONNXWidenHalf> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    OpBuilder b(&getContext());
    Type f32 = b.getF32Type();
    // Constants widened, by the half constant.
    DenseMap<Value, Value> widenedConstants;
    llvm::DenseSet<Operation *> halfConstants;
    auto cast = [&](Value v, Type element, int64_t to) {
      return CastOp::create(b, v.getLoc(), withElement(v.getType(), element), v,
                            b.getI64IntegerAttr(to), IntegerAttr());
    };
    auto widened = [&](Value v) -> Value {
      Operation *def = v.getDefiningOp();
      if (auto it = widenedConstants.find(v); it != widenedConstants.end())
        return it->second;
      ElementsAttr attr;
      if (def && matchPattern(v, m_Constant(&attr)))
        if (std::optional<SmallVector<float>> data = widenedElements(attr)) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointAfter(def);
          halfConstants.insert(def);
          RankedTensorType type = withElement(v.getType(), f32);
          // Small ones inline, as the importer makes them (folds read
          // their values).
          if (data->size() <= kMaxInlineElements)
            return widenedConstants[v] = ConstantOp::create(
                       b, def->getLoc(), type,
                       DenseElementsAttr::get(type, ArrayRef<float>(*data)));
          return widenedConstants[v] = createFloatConstant(
                     b, def->getLoc(), type, *data, "widened_half");
        }
      return cast(v, f32, kFloat).getResult();
    };

    for (Operation &op :
         llvm::make_early_inc_range(func.getBody().front().getOperations())) {
      if (keepsType(&op) || op.getNumResults() == 0)
        continue;
      // Every float operand and result of one half type or f32 (a
      // LayerNormalization's f32 mean, a Resize's f32 scales), some operand
      // and some result half.
      Type half;
      bool widenable = true, readsHalf = false, writesHalf = false;
      auto take = [&](Value v) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        if (!type || !isa<FloatType>(type.getElementType()) ||
            type.getElementType().isF32())
          return false;
        if (!half)
          half = type.getElementType();
        widenable &= type.getElementType() == half && isHalf(half);
        return true;
      };
      for (Value v : op.getOperands())
        readsHalf |= take(v);
      for (Value v : op.getResults())
        writesHalf |= take(v);
      if (!widenable || !readsHalf || !writesHalf)
        continue;
      b.setInsertionPoint(&op);
      for (OpOperand &operand : op.getOpOperands())
        if (halfElement(operand.get()))
          operand.set(widened(operand.get()));
      b.setInsertionPointAfter(&op);
      int64_t to = half.isF16() ? kFloat16 : kBFloat16;
      for (OpResult result : op.getResults()) {
        if (!halfElement(result))
          continue;
        result.setType(withElement(result.getType(), f32));
        CastOp narrow = cast(result, half, to);
        result.replaceAllUsesExcept(narrow.getResult(), narrow);
      }
    }
    // A MaxPool of 8-bit integers (opset 12 on) pools their f32 values:
    // exact, and the pool kernels are f32.
    func.walk([&](MaxPoolOp pool) {
      auto type = dyn_cast<RankedTensorType>(pool.getX().getType());
      if (!type || !type.getElementType().isInteger(8))
        return;
      Type element = type.getElementType();
      b.setInsertionPoint(pool);
      pool.getXMutable().set(cast(pool.getX(), f32, kFloat));
      b.setInsertionPointAfter(pool);
      Value y = pool.getY();
      y.setType(withElement(y.getType(), f32));
      CastOp narrow =
          cast(y, element, element.isUnsignedInteger() ? kUInt8 : kInt8);
      y.replaceAllUsesExcept(narrow.getResult(), narrow);
    });
    // Half constants nothing reads any more.
    for (Operation *op : halfConstants)
      if (op->use_empty())
        op->erase();
  }
};

} // namespace
