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
#include "mlir/IR/Threading.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cstring>
#include <map>
#include <set>
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

  /// Packs the panels of every plan of `work` ahead of pack(), on the
  /// context's threads: each is a pass over a weight tensor (85 M elements
  /// in BERT-base), independent of the others.
  void prepare(ArrayRef<std::pair<linalg::LinalgOp, TilePlan>> work) {
    std::vector<PanelJob> jobs;
    std::set<std::string> keys;
    for (const auto &[op, plan] : work)
      for (PanelJob &job : jobsFor(op, plan))
        if (!cache.count(job.key) && keys.insert(job.key).second)
          jobs.push_back(std::move(job));
    std::vector<AsmResourceBlob> blobs(jobs.size());
    mlir::parallelFor(module.getContext(), 0, jobs.size(),
                      [&](size_t i) { blobs[i] = fillPanels(jobs[i]); });
    for (auto [job, blob] : llvm::zip(jobs, blobs))
      prepared.try_emplace(job.key, std::move(blob));
  }

  /// Fills `plan.packed` with a view of the panels of each input the plan
  /// reads packed.
  void pack(linalg::LinalgOp op, TilePlan &plan) {
    SmallVector<PanelJob> jobs = jobsFor(op, plan);
    auto next = jobs.begin();
    for (auto [k, in] : llvm::enumerate(op.getDpsInputOperands())) {
      plan.packed.push_back(nullptr);
      plan.packOrder.emplace_back();
      if (plan.packPos[k] < 0)
        continue;
      PanelJob &job = *next++;
      plan.packOrder.back() = job.order;
      memref::GlobalOp panels = packedGlobal(job);
      ArrayRef<int64_t> shape = job.panelShape;
      OpBuilder b(op);
      auto flat = memref::GetGlobalOp::create(b, op.getLoc(), panels.getType(),
                                              panels.getSymName());
      plan.packed.back() = memref::ExpandShapeOp::create(
          b, op.getLoc(),
          MemRefType::get(shape, panels.getType().getElementType()), flat,
          tcc::wholeShapeGroup(shape.size()));
      replaced.insert(job.view.global);
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
  /// One input packed into panels: `view` read as `type`, split along dim
  /// `pos` into panels of `width`, its other dims in `order`:
  /// panels[t][i...][w] = data[the index with dim pos = t * width + w and
  /// dim order[j] = i[j]], zero past the end of dim `pos`. With `pairPos`
  /// (>= 0, one of `order`) the elements are in groups of `group` along
  /// that dim: panels[t][i...][group * w + e] at its index group * i[j] + e;
  /// f32 weights in pairs become bf16 (rounded to nearest even), 8-bit ones
  /// stay 8-bit.
  struct PanelJob {
    ConstantView view;
    MemRefType type;
    int pos = 0;
    SmallVector<int64_t> order;
    int64_t width = 0;
    int pairPos = -1;
    int64_t group = 1;
    /// [ceil(N / width), the other dims in order..., group * width].
    SmallVector<int64_t> panelShape;
    /// The panels' elements: i8 for 8-bit weights, bf16 for f32 ones in
    /// pairs, f32 otherwise.
    Type elementType;
    /// Identifies the panels: one global per key.
    std::string key;
  };

  /// The panels each input of `op` that `plan` reads packed needs, in
  /// operand order.
  SmallVector<PanelJob> jobsFor(linalg::LinalgOp op, const TilePlan &plan) {
    SmallVector<PanelJob> jobs;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (auto [k, in] : llvm::enumerate(op.getDpsInputOperands())) {
      if (plan.packPos[k] < 0)
        continue;
      PanelJob &job = jobs.emplace_back();
      job.type = cast<MemRefType>(in->get().getType());
      job.pos = plan.packPos[k];
      job.width = plan.vectors * plan.lanes;
      ArrayRef<AffineExpr> exprs = op.getMatchingIndexingMap(in).getResults();
      for (bool parallel : {true, false})
        for (auto [i, e] : llvm::enumerate(exprs)) {
          auto dim = dyn_cast<AffineDimExpr>(e);
          if ((int)i != job.pos &&
              parallel == (dim && iterators[dim.getPosition()] ==
                                      utils::IteratorType::parallel))
            job.order.push_back(i);
        }
      job.view = constantGlobal(in->get(), symbols);
      job.pairPos = plan.pairDim >= 0 ? plan.pairPos : -1;
      job.group = job.pairPos >= 0 ? plan.group : 1;
      job.panelShape = {
          (int64_t)llvm::divideCeil(job.type.getShape()[job.pos], job.width)};
      for (int64_t d : job.order)
        job.panelShape.push_back(d == job.pairPos
                                     ? job.type.getDimSize(d) / job.group
                                     : job.type.getDimSize(d));
      job.panelShape.push_back(job.group * job.width);
      Builder b(op.getContext());
      memref::GlobalOp global = job.view.global;
      job.elementType = constantData<int8_t>(*global.getInitialValue(),
                                             global.getType().getNumElements())
                            ? b.getI8Type()
                        : job.pairPos >= 0 ? Type(b.getBF16Type())
                                           : Type(b.getF32Type());
      llvm::raw_string_ostream os(job.key);
      os << job.view.global.getSymName() << "_" << job.view.offset << "_"
         << job.pos << "_" << job.width << "_" << job.type << "_" << job.pairPos
         << "_" << job.group;
      for (int64_t d : job.order)
        os << "_" << d;
    }
    return jobs;
  }

  /// The panels of `job` as a new blob. Reads the global's value and
  /// nothing else: prepare() runs it on threads.
  static AsmResourceBlob fillPanels(const PanelJob &job) {
    ArrayRef<int64_t> shape = job.type.getShape();
    SmallVector<int64_t> strides = computeStrides(shape);
    int64_t width = job.width, group = job.group;
    int64_t n = shape[job.pos], count = llvm::divideCeil(n, width);
    int64_t size = count * job.type.getNumElements() / n * width;
    // One step of the walk over the other dims: a group of the paired
    // dim's indices at a time.
    SmallVector<int64_t> extents, steps;
    for (int64_t d : job.order) {
      bool paired = d == job.pairPos;
      extents.push_back(paired ? shape[d] / group : shape[d]);
      steps.push_back(paired ? group * strides[d] : strides[d]);
    }
    int64_t next = job.pairPos >= 0 ? strides[job.pairPos] : 0;
    // Writes each panel element, converted by `get` from its source
    // element, straight into the blob (no index table, no second copy).
    auto fill = [&](auto zero, auto get) {
      using T = decltype(zero);
      AsmResourceBlob blob =
          HeapAsmResourceBlob::allocate(size * sizeof(T), alignof(T));
      T *dst = reinterpret_cast<T *>(blob.getMutableData().data());
      SmallVector<int64_t> at(job.order.size(), 0);
      for (int64_t t = 0; t < count; ++t)
        for (bool more = true; more;) {
          int64_t base = job.view.offset;
          for (auto [step, i] : llvm::zip(steps, at))
            base += i * step;
          for (int64_t w = 0; w < width; ++w)
            for (int64_t e = 0; e < group; ++e)
              dst[w * group + e] = t * width + w < n
                                       ? get(base + e * next +
                                             (t * width + w) * strides[job.pos])
                                       : zero;
          dst += width * group;
          // The next index of the other dims, the last fastest.
          more = false;
          for (int64_t j = at.size() - 1; j >= 0 && !more; --j)
            if (++at[j] < extents[j])
              more = true;
            else
              at[j] = 0;
        }
      return blob;
    };
    memref::GlobalOp global = job.view.global;
    Attribute init = *global.getInitialValue();
    int64_t numElements = global.getType().getNumElements();
    if (job.elementType.isInteger(8)) {
      Int8Data bytes = *constantData<int8_t>(init, numElements);
      return fill(int8_t(0), [&](int64_t i) { return bytes[i]; });
    }
    FloatData data = *constantData<float>(init, numElements);
    if (job.elementType.isBF16())
      return fill(uint16_t(0), [&](int64_t i) { return roundToBF16(data[i]); });
    return fill(0.0f, [&](int64_t i) { return data[i]; });
  }

  /// The global holding the panels of `job`, made once per key (from the
  /// blob prepare() filled, when it did).
  memref::GlobalOp packedGlobal(const PanelJob &job) {
    memref::GlobalOp &result = cache[job.key];
    if (result)
      return result;
    AsmResourceBlob values;
    if (auto it = prepared.find(job.key); it != prepared.end()) {
      values = std::move(it->second);
      prepared.erase(it);
    } else {
      values = fillPanels(job);
    }
    memref::GlobalOp global = job.view.global;
    OpBuilder b(global);
    Type elementType = job.elementType;
    std::string name = (global.getSymName() + "_panels").str();
    if (elementType.isBF16())
      name += "_bf16";
    auto flatType =
        MemRefType::get({computeProduct(job.panelShape)}, elementType);
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
  /// Panels prepare() filled that no global holds yet, by key.
  std::map<std::string, AsmResourceBlob> prepared;
  llvm::SetVector<memref::GlobalOp> replaced;
};

PanelPacker::PanelPacker(ModuleOp module)
    : impl(std::make_unique<Impl>(module)) {}
PanelPacker::~PanelPacker() = default;
bool PanelPacker::isPackable(Value value) { return impl->isPackable(value); }
void PanelPacker::prepare(
    ArrayRef<std::pair<linalg::LinalgOp, TilePlan>> work) {
  impl->prepare(work);
}
void PanelPacker::pack(linalg::LinalgOp op, TilePlan &plan) {
  impl->pack(op, plan);
}
void PanelPacker::eraseUnused() { impl->eraseUnused(); }
