//===- PanelPacker.cpp - constant operands packed into panels ------------===//
//
// tcc-vectorize-contractions' packing (Contractions.h): each constant
// operand a plan reads along the vector dim is repacked, once per (global,
// panel width), into panels [ceil(N / width), other dims..., width] that
// the tiles read as one contiguous stream.
//
//===----------------------------------------------------------------------===//
#include "Contractions.h"
#include "tcc/Target/CPU/Passes.h"

#include "llvm/Support/SaveAndRestore.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cstring>
#include <map>
#include <type_traits>

using namespace mlir;
using namespace tcc::cpu;

namespace {

/// A contiguous run of a constant global's elements: the global, and the
/// element at which the run starts.
struct ConstantView {
  memref::GlobalOp global;
  int64_t offset = 0;
  explicit operator bool() const { return bool(global); }
};

/// The constant global `value` reads as one contiguous row-major run (the
/// global itself, a reshape of it, or a view of one slice, such as one
/// direction's weights of an LSTM: W[d]), or null.
ConstantView constantGlobal(Value value, SymbolTable &symbols) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape())
    return {};
  // Views of the global's buffer: their layout's offset counts from the
  // global's first element.
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return {};
  SmallVector<int64_t> contiguous = computeStrides(type.getShape());
  for (auto [d, stride] : llvm::enumerate(strides))
    if (type.getDimSize(d) != 1 && stride != contiguous[d])
      return {};
  while (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp,
                         memref::SubViewOp>(value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  auto get = value.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return {};
  auto global = symbols.lookup<memref::GlobalOp>(get.getName());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      !global.getType().getLayout().isIdentity() ||
      offset + type.getNumElements() > global.getType().getNumElements())
    return {};
  return {global, offset};
}

/// The f32 or 8-bit integer elements of a constant global's value: raw
/// data, or a splat.
template <typename T> struct ConstantData {
  const T *data = nullptr;
  std::optional<T> splat;
  T operator[](int64_t i) const { return splat ? *splat : data[i]; }
};
using FloatData = ConstantData<float>;
using Int8Data = ConstantData<int8_t>;

template <typename T>
std::optional<ConstantData<T>> constantData(Attribute value,
                                            int64_t numElements) {
  ConstantData<T> result;
  ArrayRef<char> bytes;
  auto ofType = [](Type t) {
    return std::is_same_v<T, float> ? t.isF32() : t.isInteger(8);
  };
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || !ofType(resource.getElementType()))
      return std::nullopt;
    bytes = blob->getData();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (!ofType(dense.getElementType()))
      return std::nullopt;
    if (dense.isSplat()) {
      if constexpr (std::is_same_v<T, float>)
        result.splat = dense.getSplatValue<float>();
      else
        result.splat = (T)dense.getSplatValue<APInt>().getSExtValue();
      return result;
    }
    bytes = dense.getRawData();
  } else {
    return std::nullopt;
  }
  if ((int64_t)bytes.size() != numElements * (int64_t)sizeof(T))
    return std::nullopt;
  result.data = reinterpret_cast<const T *>(bytes.data());
  return result;
}

/// `value` rounded to the nearest bf16 (ties to even; a NaN stays a quiet
/// NaN), as its bits.
uint16_t roundToBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffff) > 0x7f800000)
    return (bits >> 16) | 0x40;
  bits += 0x7fff + ((bits >> 16) & 1);
  return bits >> 16;
}

} // namespace

struct PanelPacker::Impl {
  explicit Impl(ModuleOp module) : module(module), symbols(module) {}

  /// Whether `value` is a constant global this packer can repack.
  bool isPackable(Value value) {
    ConstantView view = constantGlobal(value, symbols);
    if (!view)
      return false;
    Attribute init = *view.global.getInitialValue();
    int64_t n = view.global.getType().getNumElements();
    return constantData<float>(init, n).has_value() ||
           constantData<int8_t>(init, n).has_value();
  }

  /// Fills `plan.packed` with a view of the panels of each input the plan
  /// reads packed.
  void pack(linalg::LinalgOp op, TilePlan &plan) {
    int64_t width = plan.vectors * plan.lanes;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (auto [k, in] : llvm::enumerate(op.getDpsInputOperands())) {
      plan.packed.push_back(nullptr);
      plan.packOrder.emplace_back();
      if (plan.packPos[k] < 0)
        continue;
      auto type = cast<MemRefType>(in->get().getType());
      int pos = plan.packPos[k];
      ArrayRef<AffineExpr> exprs = op.getMatchingIndexingMap(in).getResults();
      SmallVector<int64_t> &order = plan.packOrder.back();
      for (bool parallel : {true, false})
        for (auto [i, e] : llvm::enumerate(exprs)) {
          auto dim = dyn_cast<AffineDimExpr>(e);
          if ((int)i != pos &&
              parallel == (dim && iterators[dim.getPosition()] ==
                                      utils::IteratorType::parallel))
            order.push_back(i);
        }
      ConstantView view = constantGlobal(in->get(), symbols);
      int pairPos = plan.pairDim >= 0 ? plan.pairPos : -1;
      int64_t group = pairPos >= 0 ? plan.group : 1;
      memref::GlobalOp panels =
          packedGlobal(view, type, pos, order, width, pairPos, group);
      SmallVector<int64_t> shape{
          (int64_t)llvm::divideCeil(type.getShape()[pos], width)};
      for (int64_t d : order)
        shape.push_back(d == pairPos ? type.getDimSize(d) / group
                                     : type.getDimSize(d));
      shape.push_back(group * width);
      OpBuilder b(op);
      auto flat = memref::GetGlobalOp::create(b, op.getLoc(), panels.getType(),
                                              panels.getSymName());
      plan.packed.back() = memref::ExpandShapeOp::create(
          b, op.getLoc(),
          MemRefType::get(shape, panels.getType().getElementType()), flat,
          tcc::wholeShapeGroup(shape.size()));
      replaced.insert(view.global);
    }
  }

  /// Erases the globals packing replaced that nothing reads any more (the
  /// symbols in use from one walk of the module: a walk per global was
  /// quadratic, 7 s for 333 matmul layers).
  void eraseUnused() {
    llvm::DenseSet<StringAttr> used;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference());
    for (memref::GlobalOp global : replaced)
      if (!used.contains(global.getSymNameAttr()))
        global.erase();
  }

private:
  /// The panels of `view` read as `type`, split along dim `pos` into
  /// panels of `width`, its other dims in `order`: panels[t][i...][w] =
  /// data[the index with dim pos = t * width + w and dim order[j] = i[j]],
  /// zero past the end of dim `pos`. With `pairPos` (>= 0, one of `order`)
  /// the elements are in groups of `group` along that dim: panels[t][i...]
  /// [group * w + e] at its index group * i[j] + e; f32 weights in pairs
  /// become bf16 (rounded to nearest even), 8-bit ones stay 8-bit.
  memref::GlobalOp packedGlobal(ConstantView view, MemRefType type, int pos,
                                ArrayRef<int64_t> order, int64_t width,
                                int pairPos, int64_t group) {
    memref::GlobalOp global = view.global;
    std::string key;
    llvm::raw_string_ostream os(key);
    os << global.getSymName() << "_" << view.offset << "_" << pos << "_"
       << width << "_" << type << "_" << pairPos << "_" << group;
    for (int64_t d : order)
      os << "_" << d;
    memref::GlobalOp &result = cache[key];
    if (result)
      return result;
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<int64_t> strides = computeStrides(shape);
    int64_t n = shape[pos], count = llvm::divideCeil(n, width);
    // The source element of each panel element, -1 for padding.
    std::vector<int64_t> source(count * type.getNumElements() / n * width, -1);
    // One step of the walk over the other dims: a group of the paired
    // dim's indices at a time.
    SmallVector<int64_t> extents, steps;
    for (int64_t d : order) {
      bool paired = d == pairPos;
      extents.push_back(paired ? shape[d] / group : shape[d]);
      steps.push_back(paired ? group * strides[d] : strides[d]);
    }
    int64_t next = pairPos >= 0 ? strides[pairPos] : 0;
    int64_t *dst = source.data();
    SmallVector<int64_t> at(order.size(), 0);
    for (int64_t t = 0; t < count; ++t)
      for (bool more = true; more;) {
        int64_t base = view.offset;
        for (auto [step, i] : llvm::zip(steps, at))
          base += i * step;
        for (int64_t w = 0; w < width && t * width + w < n; ++w)
          for (int64_t e = 0; e < group; ++e)
            dst[w * group + e] =
                base + e * next + (t * width + w) * strides[pos];
        dst += width * group;
        // The next index of the other dims, the last fastest.
        more = false;
        for (int64_t j = at.size() - 1; j >= 0 && !more; --j)
          if (++at[j] < extents[j])
            more = true;
          else
            at[j] = 0;
      }
    OpBuilder b(global);
    Attribute init = *global.getInitialValue();
    int64_t numElements = global.getType().getNumElements();
    Type elementType;
    AsmResourceBlob values;
    std::string name = (global.getSymName() + "_panels").str();
    if (std::optional<Int8Data> bytes =
            constantData<int8_t>(init, numElements)) {
      elementType = b.getI8Type();
      std::vector<int8_t> out(source.size());
      for (auto [o, i] : llvm::zip(out, source))
        o = i < 0 ? 0 : (*bytes)[i];
      values =
          HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<int8_t>(out));
    } else if (FloatData data = *constantData<float>(init, numElements);
               pairPos >= 0) {
      elementType = b.getBF16Type();
      name += "_bf16";
      std::vector<uint16_t> out(source.size());
      for (auto [o, i] : llvm::zip(out, source))
        o = i < 0 ? 0 : roundToBF16(data[i]);
      values = HeapAsmResourceBlob::allocateAndCopyInferAlign(
          ArrayRef<uint16_t>(out));
    } else {
      elementType = b.getF32Type();
      std::vector<float> out(source.size());
      for (auto [o, i] : llvm::zip(out, source))
        o = i < 0 ? 0.0f : data[i];
      values =
          HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<float>(out));
    }
    auto flatType = MemRefType::get({(int64_t)source.size()}, elementType);
    auto value = DenseResourceElementsAttr::get(
        RankedTensorType::get(flatType.getShape(), elementType), name,
        std::move(values));
    result = memref::GlobalOp::create(
        b, global.getLoc(), name, b.getStringAttr("private"), flatType, value,
        /*constant=*/true, b.getI64IntegerAttr(64));
    symbols.insert(result);
    return result;
  }

  ModuleOp module;
  SymbolTable symbols;
  std::map<std::string, memref::GlobalOp> cache;
  llvm::SetVector<memref::GlobalOp> replaced;
};

PanelPacker::PanelPacker(ModuleOp module)
    : impl(std::make_unique<Impl>(module)) {}
PanelPacker::~PanelPacker() = default;
bool PanelPacker::isPackable(Value value) { return impl->isPackable(value); }
void PanelPacker::pack(linalg::LinalgOp op, TilePlan &plan) {
  impl->pack(op, plan);
}
void PanelPacker::eraseUnused() { impl->eraseUnused(); }
