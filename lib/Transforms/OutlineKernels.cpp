//===- OutlineKernels.cpp - tcc-outline-kernels ---------------------------===//
//
// Outlines each compute op of the bufferized @main into a private function
// (a kernel), called from @main in its place.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Ops a kernel recreates instead of taking their result as an argument:
/// free to compute, and their results may be views a bare-pointer argument
/// cannot carry (strided subviews).
bool isRecreated(Operation *op) {
  return isa<arith::ConstantOp, memref::GetGlobalOp, memref::SubViewOp,
             memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::ReinterpretCastOp, memref::CastOp>(op);
}

/// Whether `value` can be a kernel argument: a scalar, or a static memref
/// with the identity layout (what the bare-pointer convention passes).
bool isArgument(Value value) {
  if (auto type = dyn_cast<MemRefType>(value.getType()))
    return type.hasStaticShape() && type.getLayout().isIdentity();
  return value.getType().isIntOrIndexOrFloat();
}

using tcc::attr::kEpilogue;
using tcc::attr::kEpilogueInit;

/// The bytes of memory `value` may touch: a root (the workspace, a function
/// argument, a global) and a byte range in it.
struct MemoryRange {
  Value root;
  int64_t begin = 0, end = std::numeric_limits<int64_t>::max();
};

std::optional<MemoryRange> memoryOf(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return MemoryRange{value};
  if (isa<memref::GetGlobalOp>(def))
    return MemoryRange{value};
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    std::optional<int64_t> offset =
        getConstantIntValue(view.getByteShift());
    auto type = view.getType();
    if (!offset || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat())
      return std::nullopt;
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    std::optional<MemoryRange> base = memoryOf(view.getSource());
    if (!base)
      return std::nullopt;
    return MemoryRange{base->root, *offset, *offset + bytes};
  }
  if (isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::CastOp, memref::ReinterpretCastOp>(def))
    return memoryOf(def->getOperand(0)); // all of the source, to be safe
  return std::nullopt;
}

/// Whether buffers `a` and `b` may share memory.
bool mayOverlap(Value a, Value b) {
  std::optional<MemoryRange> ra = memoryOf(a), rb = memoryOf(b);
  if (!ra || !rb)
    return true;
  return ra->root == rb->root && ra->begin < rb->end && rb->begin < ra->end;
}

/// Whether `op` overwrites all of its one output without reading it (a
/// fill, a broadcast of a bias): what a contraction can start its
/// accumulators from.
bool isOutputInit(Operation *op) {
  if (!isa<linalg::GenericOp, linalg::FillOp, linalg::MapOp>(op))
    return false;
  auto linalgOp = cast<linalg::LinalgOp>(op);
  if (!linalgOp.hasPureBufferSemantics() || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumReductionLoops() != 0)
    return false;
  OpOperand *out = linalgOp.getDpsInitOperand(0);
  if (!linalgOp.getMatchingIndexingMap(out).isIdentity() ||
      linalgOp.payloadUsesValueFromOperand(out))
    return false;
  for (OpOperand *in : linalgOp.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()) &&
        mayOverlap(in->get(), out->get()))
      return false;
  return true;
}

/// Whether `type` is an element type an epilogue computes on: f32 (and
/// i1), and with `integer` (an i32 contraction: the scale and requantization
/// of an 8-bit one) i8 and i32 too.
bool isEpilogueType(Type type, bool integer) {
  return type.isF32() || type.isInteger(1) ||
         (integer && (type.isInteger(8) || type.isInteger(32)));
}

/// Whether `body` only computes on isEpilogueType values with arith and
/// math ops: what can be evaluated on vectors of lanes.
bool isVectorizableBody(Block *body, bool integer) {
  for (Operation &op : body->without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
        op.getNumRegions())
      return false;
    for (Type t : llvm::concat<Type>(llvm::to_vector(op.getOperandTypes()),
                                     llvm::to_vector(op.getResultTypes())))
      if (!isEpilogueType(t, integer))
        return false;
  }
  return true;
}

/// Whether `op` is an elementwise op that reads the contraction's output
/// `buffer` (once, at the identity map) and can run on its tiles as they
/// are finished: into `buffer` itself or a buffer of its shape.
bool isEpilogue(Operation *op, Value buffer) {
  bool integer =
      cast<MemRefType>(buffer.getType()).getElementType().isInteger(32);
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !isVectorizableBody(generic.getBody(), integer))
    return false;
  OpOperand *out = generic.getDpsInitOperand(0);
  auto outType = cast<MemRefType>(out->get().getType());
  if (!generic.getMatchingIndexingMap(out).isIdentity() ||
      outType.getShape() != cast<MemRefType>(buffer.getType()).getShape() ||
      !isEpilogueType(outType.getElementType(), integer) ||
      (out->get() != buffer && (!outType.isLastDimUnitStride() ||
                                generic.payloadUsesValueFromOperand(out))))
    return false;
  int reads = 0;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    if (in->get() == buffer) {
      if (!generic.getMatchingIndexingMap(in).isIdentity())
        return false;
      ++reads;
      continue;
    }
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type || !isEpilogueType(type.getElementType(), integer) ||
        !type.hasStaticShape() ||
        !generic.getMatchingIndexingMap(in).isProjectedPermutation(
            /*allowZeroInResults=*/true) ||
        (in->get() != out->get() && mayOverlap(in->get(), out->get())))
      return false;
  }
  return reads == 1;
}

/// Whether nothing after `op` reads what `buffer` holds: its next use, if
/// any, overwrites all of it without reading it. Not for the caller's
/// buffers (an output, computed in place): the caller reads them after the
/// call. (The workspace, @main's last argument, is ours.)
bool deadAfter(Value buffer, Operation *op) {
  std::optional<MemoryRange> range = memoryOf(buffer);
  auto arg = range ? dyn_cast<BlockArgument>(range->root) : BlockArgument();
  if (!range || (arg && arg.getArgNumber() + 1 != arg.getOwner()->getNumArguments()))
    return false;
  Operation *first = nullptr;
  for (Operation *user : buffer.getUsers()) {
    Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
    if (!top)
      return false;
    if (op->isBeforeInBlock(top) && (!first || top->isBeforeInBlock(first)))
      first = top;
  }
  return !first ||
         (isOutputInit(first) &&
          cast<linalg::LinalgOp>(first).getDpsInitOperand(0)->get() == buffer);
}

/// The buffer a fill writes a part of (the source of its subviews).
Value filledBuffer(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill || !fill.hasPureBufferSemantics())
    return {};
  Value v = fill.getDpsInitOperand(0)->get();
  while (auto subview = v.getDefiningOp<memref::SubViewOp>())
    v = subview.getSource();
  return v;
}

/// Whether nothing between ops[i] and ops[last] (other than them) has
/// memory effects: the group can run where its last op is.
bool effectFreeBetween(ArrayRef<Operation *> ops, size_t i, size_t last) {
  for (Operation *between = ops[i]; between != ops[last];
       between = between->getNextNode())
    if (!llvm::is_contained(ops, between) && !isMemoryEffectFree(between))
      return false;
  return true;
}

/// Bytes of one row of a row group's largest buffer above which its rows
/// are not run together: they would not stay in L2 between the ops.
constexpr int64_t kMaxRowBytes = 256 * 1024;

/// Whether `op` (a fill or a generic on static buffers, not a
/// contraction) may join a row group. `rows` gets the extents of its row
/// dims (tcc::leadingRowDims) after the leading ones of extent 1, and
/// `units` the number of those.
bool rowCandidate(Operation *op, SmallVectorImpl<int64_t> &rows,
                  unsigned &units) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isa<linalg::FillOp, linalg::GenericOp>(op) ||
      !linalgOp.hasPureBufferSemantics() || tcc::isContraction(linalgOp))
    return false;
  for (OpOperand &operand : op->getOpOperands())
    if (auto type = dyn_cast<MemRefType>(operand.get().getType());
        type && !type.hasStaticShape())
      return false;
  rows = tcc::rowExtents(linalgOp, tcc::leadingRowDims(linalgOp), units);
  return !rows.empty();
}

/// `buffer` without the reshapes that only add or drop leading dims of
/// extent 1: its rows are the same memory.
Value rowBuffer(Value buffer) {
  auto dropUnits = [](ArrayRef<int64_t> shape) {
    while (!shape.empty() && shape.front() == 1)
      shape = shape.drop_front();
    return shape;
  };
  while (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(
      buffer.getDefiningOp())) {
    Value source = buffer.getDefiningOp()->getOperand(0);
    if (dropUnits(cast<MemRefType>(source.getType()).getShape()) !=
        dropUnits(cast<MemRefType>(buffer.getType()).getShape()))
      break;
    buffer = source;
  }
  return buffer;
}

/// The ops starting at ops[i] that run row by row in one kernel (a
/// softmax's max, exponentials, sum and quotient; a layer norm's mean,
/// variance and normalization): consecutive fills and non-contraction
/// generics that share leading row dims (tcc::leadingRowDims) of the same
/// extents, but for leading dims of extent 1, at least one a reduction
/// whose result a later one reads. Each buffer is indexed by the rows
/// everywhere or nowhere (and then only read, as the buffers their bodies
/// load from), and buffers share no
/// memory unless they are the same up to leading unit dims (the
/// workspace plan may reuse one's bytes for another, which holds only op
/// after op). Each op of the group is marked tcc.rows with its number of
/// row dims; empty when there is no group.
SmallVector<Operation *> rowGroup(ArrayRef<Operation *> ops, size_t i) {
  SmallVector<int64_t> rows, next;
  SmallVector<unsigned> units(1);
  if (!rowCandidate(ops[i], rows, units[0]))
    return {};
  // For each buffer: whether it is indexed by the rows, and written.
  llvm::MapVector<Value, std::pair<bool, bool>> buffers;
  auto addBuffers = [&](linalg::LinalgOp op) {
    auto saved = buffers;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      bool byRow = op.getMatchingIndexingMap(&operand).isFunctionOfDim(0);
      bool written = op.isDpsInit(&operand);
      auto [it, inserted] =
          buffers.insert({rowBuffer(operand.get()), {byRow, written}});
      if (!inserted) {
        if (it->second.first != byRow)
          return (buffers = saved), false;
        it->second.second |= written;
      }
    }
    // Buffers the body loads from (a gather's table and indices) are read
    // anywhere: as a broadcast.
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured)
      if (isa<MemRefType>(value.getType())) {
        auto [it, inserted] =
            buffers.insert({rowBuffer(value), {false, false}});
        if (!inserted && it->second.first)
          return (buffers = saved), false;
      }
    for (auto &[value, use] : buffers) {
      if (!use.first && use.second)
        return (buffers = saved), false;
      for (auto &[other, otherUse] : buffers)
        if (value != other && (use.second || otherUse.second) &&
            mayOverlap(value, other))
          return (buffers = saved), false;
    }
    return true;
  };
  // A fill that initializes the contraction after it stays with it.
  auto initsContraction = [&](size_t j) {
    auto next = j + 1 < ops.size() ? dyn_cast<linalg::LinalgOp>(ops[j + 1])
                                   : linalg::LinalgOp();
    return isOutputInit(ops[j]) && next && tcc::isContraction(next);
  };
  if (initsContraction(i) || !addBuffers(cast<linalg::LinalgOp>(ops[i])))
    return {};
  size_t last = i;
  for (size_t j = i + 1; j < ops.size(); ++j) {
    unsigned nextUnits;
    if (initsContraction(j) || !rowCandidate(ops[j], next, nextUnits))
      break;
    size_t common = 0;
    while (common < std::min(rows.size(), next.size()) &&
           rows[common] == next[common])
      ++common;
    if (common == 0 || !addBuffers(cast<linalg::LinalgOp>(ops[j])))
      break;
    rows.resize(common);
    units.push_back(nextUnits);
    last = j;
  }
  // Worth it: some reduction's result is read by a later op of the group.
  bool reused = false;
  for (size_t j = i; j <= last && !reused; ++j) {
    auto op = cast<linalg::LinalgOp>(ops[j]);
    if (op.getNumReductionLoops() == 0)
      continue;
    Value out = rowBuffer(op.getDpsInitOperand(0)->get());
    for (size_t l = j + 1; l <= last && !reused; ++l)
      reused = llvm::any_of(
          cast<linalg::LinalgOp>(ops[l]).getDpsInputs(),
          [&](Value in) { return rowBuffer(in) == out; });
  }
  int64_t numRows = 1;
  for (int64_t extent : rows)
    numRows *= extent;
  SmallVector<Value> byRow;
  for (auto &[value, use] : buffers)
    if (use.first)
      byRow.push_back(value);
  if (!reused || numRows < 2 || tcc::rowBytes(byRow, rows) > kMaxRowBytes ||
      !effectFreeBetween(ops, i, last))
    return {};
  SmallVector<Operation *> group(ops.begin() + i, ops.begin() + last + 1);
  for (auto [op, unitDims] : llvm::zip(group, units))
    op->setAttr(tcc::attr::kRows,
                IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                 unitDims + rows.size()));
  return group;
}

/// The ops starting at ops[i] that become one kernel: a contraction with
/// the op before it that initializes its output and the elementwise op
/// after it that consumes the output (either may be missing), marked
/// tcc.epilogue_init and tcc.epilogue for tcc-vectorize-contractions; the
/// fills of parts of one buffer (a padded buffer's border, one slab per
/// side, from tcc-pad-in-place); a row group (rowGroup), marked tcc.rows
/// for tcc-split-kernels; or ops[i] alone.
SmallVector<Operation *> fusionGroup(ArrayRef<Operation *> ops, size_t i) {
  if (Value buffer = filledBuffer(ops[i])) {
    size_t last = i;
    while (last + 1 < ops.size() && filledBuffer(ops[last + 1]) == buffer)
      ++last;
    if (last > i)
      return effectFreeBetween(ops, i, last)
                 ? SmallVector<Operation *>(ops.begin() + i,
                                            ops.begin() + last + 1)
                 : SmallVector<Operation *>{ops[i]};
  }
  if (SmallVector<Operation *> rows = rowGroup(ops, i); !rows.empty())
    return rows;
  auto contraction = [&](size_t k) -> linalg::LinalgOp {
    auto op = k < ops.size() ? dyn_cast<linalg::LinalgOp>(ops[k])
                             : linalg::LinalgOp();
    return op && op.hasPureBufferSemantics() && op.getNumDpsInits() == 1 &&
                   tcc::isContraction(op)
               ? op
               : linalg::LinalgOp();
  };
  size_t c = i;
  bool init = false;
  if (!contraction(i)) {
    if (!isOutputInit(ops[i]) || !contraction(i + 1) ||
        contraction(i + 1).getDpsInitOperand(0)->get() !=
            cast<linalg::LinalgOp>(ops[i]).getDpsInitOperand(0)->get())
      return {ops[i]};
    c = i + 1;
    init = true;
  }
  linalg::LinalgOp op = contraction(c);
  Value buffer = op.getDpsInitOperand(0)->get();
  bool epilogue = false;
  if (c + 1 < ops.size() && isEpilogue(ops[c + 1], buffer)) {
    Operation *next = ops[c + 1];
    Value out = cast<linalg::LinalgOp>(next).getDpsInitOperand(0)->get();
    epilogue = llvm::none_of(op.getDpsInputs(), [&](Value in) {
      return mayOverlap(in, out);
    });
    // The contraction's output is not written any more unless it is the
    // epilogue's: nothing after may read it then. (The workspace plan
    // reuses a view for later buffers: a use that overwrites it all first
    // starts a new one.)
    if (out != buffer && !deadAfter(buffer, next))
      epilogue = false;
  }
  if (!init && !epilogue)
    return {ops[i]};
  size_t last = c + epilogue;
  if (!effectFreeBetween(ops, i, last))
    return {ops[i]};
  if (init)
    ops[i]->setAttr(kEpilogueInit, UnitAttr::get(ops[i]->getContext()));
  if (epilogue)
    ops[last]->setAttr(kEpilogue, UnitAttr::get(ops[last]->getContext()));
  return SmallVector<Operation *>(ops.begin() + i, ops.begin() + last + 1);
}

struct OutlineKernels : tcc::impl::OutlineKernelsBase<OutlineKernels> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    SmallVector<Operation *> computeOps;
    for (Operation &op : main.getBody().front())
      if (tcc::isKernelOp(&op))
        computeOps.push_back(&op);
    SymbolTable symbols(module);
    int index = 0;
    for (size_t i = 0; i < computeOps.size();) {
      SmallVector<Operation *> group = fusionGroup(computeOps, i);
      Operation *named = group.size() > 1 && group[0]->hasAttr(kEpilogueInit)
                             ? group[1]
                             : group[0];
      // A border's fills are named for the whole buffer:
      // k2_fill_border_1x64x114x114.
      bool border = group.size() > 1 && llvm::all_of(group, [](Operation *op) {
                      return bool(filledBuffer(op));
                    });
      std::string name = tcc::kernelName(named, index);
      if (group[0]->hasAttr(tcc::attr::kRows)) {
        // k5_rows_4x4x256x256: the loop ranges of its first reduction.
        Operation *reduction = *llvm::find_if(group, [](Operation *op) {
          return cast<linalg::LinalgOp>(op).getNumReductionLoops() > 0;
        });
        name = "k" + std::to_string(index) + "_rows" + tcc::kernelRangesSuffix(reduction);
      }
      if (border) {
        name = "k" + std::to_string(index) + "_fill_border";
        for (auto [k, size] : llvm::enumerate(
                 cast<MemRefType>(filledBuffer(group[0]).getType()).getShape()))
          name += (k ? "x" : "_") + std::to_string(size);
      }
      ++index;
      outline(group, modelName + "_" + name, symbols);
      i += group.size();
    }
  }

  /// Moves `ops` (consecutive compute ops) into function `name`; leaves
  /// them in place when something they read cannot be passed.
  void outline(ArrayRef<Operation *> ops, const std::string &name,
               SymbolTable &symbols) {
    llvm::SetVector<Operation *> recreated;
    llvm::SetVector<Value> args;
    for (Operation *op : ops)
      if (!tcc::collectOutlinedInputs(op, recreated, args)) {
        for (Operation *op : ops) {
          op->removeAttr(kEpilogueInit);
          op->removeAttr(kEpilogue);
          op->removeAttr(tcc::attr::kRows);
        }
        return;
      }

    // At the last op: everything the group reads is defined by then, and
    // what lies between its ops has no effects (fusionGroup).
    Operation *op = ops.back();
    OpBuilder b(op);
    auto type = b.getFunctionType(ValueRange(args.getArrayRef()).getTypes(), {});
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(
        op->getParentOfType<ModuleOp>().getBody());
    auto kernel =
        func::FuncOp::create(moduleBuilder, op->getLoc(), name, type);
    kernel.setPrivate();
    kernel->setAttr(tcc::attr::kKernel, b.getUnitAttr());
    symbols.insert(kernel);
    Block *body = kernel.addEntryBlock();
    IRMapping map;
    map.map(args.getArrayRef(), body->getArguments());
    OpBuilder kb = OpBuilder::atBlockEnd(body);
    for (Operation *def : recreated)
      kb.clone(*def, map);
    for (Operation *grouped : ops)
      kb.clone(*grouped, map);
    func::ReturnOp::create(kb, op->getLoc());
    func::CallOp::create(b, op->getLoc(), kernel, args.getArrayRef());
    tcc::markDisjointArguments(kernel, args.getArrayRef());
    for (Operation *grouped : llvm::reverse(ops))
      grouped->erase();
  }
};

} // namespace

void tcc::markDisjointArguments(func::FuncOp fn, ArrayRef<Value> args) {
  auto trusted = [&](Value root) {
    if (auto arg = dyn_cast<BlockArgument>(root)) {
      auto owner = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (!owner || arg.getOwner() != &owner.getBody().front())
        return false;
      // @main's buffers are the caller's, which overlap no other (the C
      // API's contract); a kernel's are disjoint where marked so.
      if (!owner->hasAttr(attr::kKernel) &&
          !owner->hasAttr(attr::kParallelChunk))
        return true;
      return (bool)owner.getArgAttr(arg.getArgNumber(),
                                    LLVM::LLVMDialect::getNoAliasAttrName());
    }
    auto get = root.getDefiningOp<memref::GetGlobalOp>();
    auto global = get ? SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                            get, get.getNameAttr())
                      : memref::GlobalOp();
    return global && global.getConstant();
  };
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    std::optional<MemoryRange> range = memoryOf(arg);
    if (!range || !trusted(range->root))
      continue;
    bool disjoint = llvm::all_of(llvm::enumerate(args), [&](auto other) {
      return other.index() == i || !isa<MemRefType>(other.value().getType()) ||
             !mayOverlap(arg, other.value());
    });
    if (disjoint)
      fn.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    UnitAttr::get(fn.getContext()));
  }
}

bool tcc::collectOutlinedInputs(Operation *op,
                                llvm::SetVector<Operation *> &recreated,
                                llvm::SetVector<Value> &args) {
  llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  std::function<bool(Value)> collect = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && isRecreated(def)) {
      if (recreated.contains(def))
        return true;
      for (Value operand : def->getOperands())
        if (!collect(operand))
          return false;
      recreated.insert(def);
      return true;
    }
    if (!isArgument(v))
      return false;
    args.insert(v);
    return true;
  };
  return llvm::all_of(used, collect);
}
