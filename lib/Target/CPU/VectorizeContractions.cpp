//===- VectorizeContractions.cpp - tcc-vectorize-contractions -------------===//
//
// Register-tiles multiply-accumulate linalg ops on buffers (matmuls,
// convolutions, their batched and broadcast forms) into explicit vector
// code: a tile of the output lives in vector registers for the whole
// reduction, each step loading one row of the operand that runs along the
// vector and broadcasting scalars of the other.
//
//===----------------------------------------------------------------------===//
#include "Contractions.h"
#include "tcc/Target/CPU/Passes.h"

#include "llvm/Support/SaveAndRestore.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>

using namespace mlir;
using namespace tcc::cpu;

namespace tcc {
#define GEN_PASS_DEF_VECTORIZECONTRACTIONS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// Collapsed views of buffers, one per buffer and merged dim, made before
/// `before`: the ops of a fused group must see the same value for the same
/// buffer (the tile emitter tells the output from the other operands so).
struct MergedViews {
  Operation *before;
  std::map<std::pair<void *, int64_t>, Value> views;

  /// `value` (static, identity layout) with dims `first` and `first + 1`
  /// merged.
  Value merge(OpBuilder &b, Value value, int64_t first) {
    Value &view = views[{value.getAsOpaquePointer(), first}];
    if (view)
      return view;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(before);
    int64_t rank = cast<MemRefType>(value.getType()).getRank();
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank; ++d)
      if (d == first + 1)
        groups.back().push_back(d);
      else
        groups.push_back({d});
    return view = memref::CollapseShapeOp::create(b, value.getLoc(), value,
                                                  groups);
  }
};

/// Whether `value` is a static buffer with the identity layout.
bool isContiguous(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

/// `op` with its loops `d` and `d + 1` (of one kind) merged into one, on
/// views of its buffers with those dims collapsed: an elementwise op on
/// (n, f, h, w) becomes one on (n, f, p) with p = h * W + w. Made after
/// `op`, which stays. Null when some operand reads one of them but not both
/// as neighbouring results in that order of a contiguous buffer, or the
/// body reads loop indices.
linalg::GenericOp mergeLoops(RewriterBase &b, linalg::GenericOp op,
                             unsigned d, MergedViews &views) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned n = iterators.size();
  if (d + 1 >= n || iterators[d] != iterators[d + 1] ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return {};
  MLIRContext *ctx = op.getContext();
  AffineExpr first = getAffineDimExpr(d, ctx),
             second = getAffineDimExpr(d + 1, ctx);
  SmallVector<AffineExpr> renamed;
  for (unsigned i = 0; i < n; ++i)
    renamed.push_back(getAffineDimExpr(i <= d ? i : i - 1, ctx));
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ArrayRef<AffineExpr> results = map.getResults();
    if (!map.isFunctionOfDim(d) && !map.isFunctionOfDim(d + 1)) {
      maps.push_back(map.replaceDimsAndSymbols(renamed, {}, n - 1, 0));
      operands.push_back(operand.get());
      continue;
    }
    std::optional<unsigned> pos = map.getResultPosition(first);
    if (!map.isProjectedPermutation() || !pos || *pos + 1 >= results.size() ||
        results[*pos + 1] != second || !isContiguous(operand.get()))
      return {};
    SmallVector<AffineExpr> merged;
    for (auto [i, e] : llvm::enumerate(results))
      if (i != *pos + 1)
        merged.push_back(e.replaceDims(renamed));
    maps.push_back(AffineMap::get(n - 1, 0, merged, ctx));
    operands.push_back(views.merge(b, operand.get(), *pos));
  }
  iterators.erase(iterators.begin() + d + 1);
  unsigned numInputs = op.getNumDpsInputs();
  // After `op`, so that the views made later stay before it.
  b.setInsertionPointAfter(op);
  auto merged = linalg::GenericOp::create(
      b, op.getLoc(), TypeRange(), ArrayRef(operands).take_front(numInputs),
      ArrayRef(operands).drop_front(numInputs), maps, iterators);
  b.cloneRegionBefore(op.getRegion(), merged.getRegion(),
                      merged.getRegion().begin());
  merged->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  return merged;
}

/// The ops beside `op` that tcc-outline-kernels fused into it: its output
/// init (a generic or a fill) and its elementwise epilogue (a generic),
/// null where there is none.
std::pair<Operation *, Operation *> fusedNeighbours(Operation *op) {
  Operation *init = op->getPrevNode(), *epilogue = op->getNextNode();
  if (init && !init->hasAttr(tcc::attr::kEpilogueInit))
    init = nullptr;
  if (epilogue && !epilogue->hasAttr(tcc::attr::kEpilogue))
    epilogue = nullptr;
  return {init, epilogue};
}

/// Replaces a contraction's init and epilogue (`fused`, null for none) by
/// the same ops with their loops `pos` and `pos + 1` (the output's dims)
/// merged; false, changing nothing, where one of them does not merge.
bool mergeNeighbours(RewriterBase &b,
                     std::pair<Operation *, Operation *> fused, unsigned pos,
                     MergedViews &views) {
  SmallVector<std::pair<Operation *, Operation *>> done;
  for (Operation *other : {fused.first, fused.second}) {
    if (!other)
      continue;
    Operation *replacement = nullptr;
    if (auto generic = dyn_cast<linalg::GenericOp>(other);
        generic && generic.getNumLoops() == generic.getNumParallelLoops()) {
      replacement = mergeLoops(b, generic, pos, views);
    } else if (auto fill = dyn_cast<linalg::FillOp>(other);
               fill && isContiguous(fill.getOutputs()[0])) {
      Value out = views.merge(b, fill.getOutputs()[0], pos);
      b.setInsertionPointAfter(fill);
      replacement =
          linalg::FillOp::create(b, fill.getLoc(), fill.getInputs()[0], out);
      replacement->setDiscardableAttrs(fill->getDiscardableAttrDictionary());
    }
    if (!replacement) {
      for (auto [old, made] : done)
        b.eraseOp(made);
      return false;
    }
    done.push_back({other, replacement});
  }
  for (auto [old, made] : done) {
    if (views.before == old)
      views.before = made;
    b.replaceOp(old, made);
  }
  return true;
}

/// Erases the views of `views` (whose users are gone).
void eraseViews(RewriterBase &b, MergedViews &views) {
  for (auto &[key, view] : views.views)
    b.eraseOp(view.getDefiningOp());
  views.views.clear();
}

/// Merges the neighbouring loops of contraction `op` that every operand
/// reads together, as neighbouring dims of a contiguous buffer, with its
/// init and epilogue. Whisper-tiny's Q/K/V projections, out(t, h, d) +=
/// x(t, k) * w(k, h, d), become one 1500x384x384 matmul whose row blocks
/// serve all 12 panels, not 6 1500x64x384 ones that each read all of x
/// again; its output projection sums over (h, d) as one loop of 384.
/// Loops of one trip, or of a dynamic size (negative), are left as they
/// are.
void mergeContractionLoops(RewriterBase &b, linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      !tcc::isMultiplyAccumulate(op))
    return;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (unsigned d = 0; d + 1 < sizes.size(); ++d) {
    if (sizes[d] <= 1 || sizes[d + 1] <= 1)
      continue;
    auto fused = fusedNeighbours(op);
    MergedViews views{fused.first ? fused.first : op.getOperation(), {}};
    linalg::GenericOp merged = mergeLoops(b, op, d, views);
    // Parallel loops are the output's dims: its init and epilogue merge
    // the same ones.
    std::optional<unsigned> pos =
        outMap.getResultPosition(getAffineDimExpr(d, op.getContext()));
    if (merged && pos && !mergeNeighbours(b, fused, *pos, views)) {
      b.eraseOp(merged);
      merged = {};
    }
    if (!merged) {
      eraseViews(b, views);
      continue;
    }
    b.eraseOp(op);
    return mergeContractionLoops(b, merged);
  }
}

/// A 1x1 convolution with unit strides on contiguous NCHW buffers is a
/// matmul per image over the flattened map:
///   out[n, f, p] += in[n, c, p] * w[f, c],  p = h * W + w.
/// It becomes that generic on collapsed views (with its init and epilogue,
/// when they flatten too), so the vector dim runs along H * W: a 7x7 map
/// is 49 columns instead of rows of 7, a 14x14 map 196.
void flattenOneByOne(RewriterBase &b, linalg::Conv2DNchwFchwOp conv) {
  Value in = conv.getInputs()[0], filter = conv.getInputs()[1],
        out = conv.getOutputs()[0];
  if (!isContiguous(in) || !isContiguous(out) || !isContiguous(filter) ||
      !llvm::all_of(conv.getStrides().getValues<int64_t>(),
                    [](int64_t s) { return s == 1; }) ||
      !llvm::all_of(conv.getDilations().getValues<int64_t>(),
                    [](int64_t d) { return d == 1; }))
    return;
  ArrayRef<int64_t> fShape = cast<MemRefType>(filter.getType()).getShape();
  ArrayRef<int64_t> inShape = cast<MemRefType>(in.getType()).getShape();
  ArrayRef<int64_t> outShape = cast<MemRefType>(out.getType()).getShape();
  if (fShape[2] != 1 || fShape[3] != 1 || inShape[2] != outShape[2] ||
      inShape[3] != outShape[3] || !tcc::isMultiplyAccumulate(conv))
    return;
  // The init and epilogue tcc-outline-kernels put beside it are flattened
  // too, or the convolution stays as it is.
  auto fused = fusedNeighbours(conv);
  MergedViews views{fused.first ? fused.first : conv.getOperation(), {}};
  if (!mergeNeighbours(b, fused, 2, views))
    return eraseViews(b, views);
  Location loc = conv.getLoc();
  MLIRContext *ctx = b.getContext();
  AffineExpr n = getAffineDimExpr(0, ctx), f = getAffineDimExpr(1, ctx),
             p = getAffineDimExpr(2, ctx), c = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> maps{AffineMap::get(4, 0, {n, c, p}, ctx),
                              AffineMap::get(4, 0, {f, c}, ctx),
                              AffineMap::get(4, 0, {n, f, p}, ctx)};
  Value in3 = views.merge(b, in, 2), out3 = views.merge(b, out, 2);
  Value weights;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(views.before);
    weights = memref::CollapseShapeOp::create(
        b, loc, filter, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  }
  b.setInsertionPoint(conv);
  auto matmul = linalg::GenericOp::create(
      b, loc, TypeRange(), ValueRange{in3, weights}, ValueRange{out3}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::parallel, utils::IteratorType::reduction});
  b.cloneRegionBefore(conv->getRegion(0), matmul.getRegion(),
                      matmul.getRegion().begin());
  b.eraseOp(conv);
}

struct VectorizeContractions
    : tcc::impl::VectorizeContractionsBase<VectorizeContractions> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits < 128 || vectorBits % 32 || registers < 8) {
      getOperation().emitError("vectorize-contractions: bad vector-bits or "
                               "registers option");
      return signalPassFailure();
    }
    int64_t lanes = vectorBits / 32;
    // Leave room for the loaded row and the broadcast scalars: 24
    // accumulators of 32 registers (AVX-512: 12 rows x 2 vectors, not 8 x
    // 2, as BLIS's 32x12 kernel: each loaded row feeds 12 FMAs; 1 thread,
    // tcc bench, 128x768x768 0.75 -> 0.70 ms, 128x3072x768 3.2 -> 2.9),
    // 12 of 16 (AVX2: 6 rows x 2 vectors, not 4 x 2: half as many tiles
    // reread the vector operand, about 10% on a 128x768x768 matmul).
    int64_t accumulators =
        std::min<int64_t>(registers - 4, registers * 3 / 4);
    IRRewriter flattener(&getContext());
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNchwFchwOp conv) { convs.push_back(conv); });
    for (linalg::Conv2DNchwFchwOp conv : convs)
      if (conv.hasPureBufferSemantics())
        flattenOneByOne(flattener, conv);
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.getNumReductionLoops())
        generics.push_back(op);
    });
    for (linalg::GenericOp op : generics)
      mergeContractionLoops(flattener, op);
    PanelPacker packer(getOperation());
    auto isPackable = [&](Value v) { return packer.isPackable(v); };
    std::vector<std::pair<linalg::LinalgOp, TilePlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<TilePlan> plan = planTiles(
              op, lanes, accumulators, l2Bytes, isPackable, int8Dot)) {
        plan->vnni = vnni;
        if (bf16 && !plan->int8)
          (void)planPairs(op, *plan);
        work.push_back({op, std::move(*plan)});
      }
    });
    packer.prepare(work);
    IRRewriter rewriter(&getContext());
    BF16Scratch scratch(getOperation());
    for (auto &[op, plan] : work) {
      // The output init and epilogue tcc-outline-kernels put beside it
      // (before packing puts the panels' views in between).
      auto neighbour = [&](Operation *other, StringRef mark) {
        auto fused = dyn_cast_or_null<linalg::LinalgOp>(other);
        return fused && fused->hasAttr(mark) && canFuse(op, fused, plan)
                   ? fused
                   : linalg::LinalgOp();
      };
      linalg::LinalgOp init = neighbour(op->getPrevNode(), tcc::attr::kEpilogueInit);
      linalg::LinalgOp epilogue = neighbour(op->getNextNode(), tcc::attr::kEpilogue);
      packer.pack(op, plan);
      scratch.round(rewriter, op, plan);
      if (auto kernel = op->getParentOfType<func::FuncOp>())
        kernel->setAttr(tcc::attr::kRegisterTiled, rewriter.getUnitAttr());
      rewriter.setInsertionPoint(op);
      emitTiles(rewriter, op, plan, init, epilogue, l2Bytes);
      SmallVector<Value> inputs = op.getDpsInputs();
      rewriter.eraseOp(op);
      for (linalg::LinalgOp fused : {init, epilogue})
        if (fused)
          rewriter.eraseOp(fused);
      // The views of weights now read packed, down to their get_global.
      for (auto [input, pos] : llvm::zip(inputs, plan.packPos))
        for (Operation *def = input.getDefiningOp();
             pos >= 0 && def && def->use_empty();) {
          Operation *source = isa<memref::GetGlobalOp>(def)
                                  ? nullptr
                                  : def->getOperand(0).getDefiningOp();
          rewriter.eraseOp(def);
          def = source;
        }
    }
    packer.eraseUnused();
    scratch.growWorkspaces();
  }
};

} // namespace
