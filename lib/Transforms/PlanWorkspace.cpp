//===- PlanWorkspace.cpp - tcc-plan-workspace -----------------------------===//
//
// Replaces the static allocations of the bufferized @main with views into
// one caller-provided workspace, reusing memory of buffers that are dead.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_PLANWORKSPACE
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

constexpr int64_t kAlignment = 64;

struct Buffer {
  memref::AllocOp alloc;
  int64_t size;       // bytes, rounded up to kAlignment
  int64_t begin, end; // live range, in top-level op indices
  int64_t offset = -1;
  /// Set when the buffer lives inside another's memory (a concat's input
  /// computed in its slice): that buffer and the byte offset in it.
  memref::AllocOp parent;
  int64_t offsetInParent = 0;
};

/// The bytes of a static buffer of `type`.
static int64_t byteSize(MemRefType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// The top-level op of `block` that contains `op`.
static Operation *topLevelAncestor(Block &block, Operation *op) {
  while (op && op->getBlock() != &block)
    op = op->getParentOp();
  return op;
}

/// The first top-level op that uses `value` or a view of it (the views
/// themselves aside), and the last position where either is used.
struct Uses {
  Operation *first = nullptr;
  int64_t last = -1;
};

static Uses uses(Block &block, Value value,
                 const DenseMap<Operation *, int64_t> &position) {
  Uses result;
  int64_t first = INT64_MAX / 2;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *top = topLevelAncestor(block, user);
      int64_t at = top ? position.lookup(top) : INT64_MAX / 2;
      result.last = std::max(result.last, at);
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v) {
          llvm::append_range(worklist, user->getResults());
          continue;
        }
      if (top && at < first) {
        first = at;
        result.first = top;
      }
      // A returned buffer would outlive the call: keep it to the end.
      if (isa<func::ReturnOp>(user))
        result.last = INT64_MAX / 2;
    }
  }
  return result;
}

/// Last top-level position where `value` or a view of it is used.
static int64_t lastUse(Block &block, Value value,
                       const DenseMap<Operation *, int64_t> &position) {
  return uses(block, value, position).last;
}

/// Where a buffer allocated at `begin` and first used by `user` starts to
/// live: at the alloc, or earlier at the contraction just before `user`.
/// That op may become the contraction's epilogue (tcc-outline-kernels),
/// writing the buffer tile by tile while the contraction still reads its
/// inputs: sharing memory with one of them would keep the two apart
/// (ResNet-50's first residual add, over the input of the 1x1 convolution
/// before it, ran as a kernel of its own).
static int64_t liveFrom(int64_t begin, Operation *user,
                        const DenseMap<Operation *, int64_t> &position) {
  Operation *op = user ? user->getPrevNode() : nullptr;
  while (op && !tcc::isKernelOp(op))
    op = op->getPrevNode();
  auto contraction = dyn_cast_or_null<linalg::LinalgOp>(op);
  return contraction && tcc::isContraction(contraction)
             ? std::min(begin, position.lookup(op))
             : begin;
}

/// Gives arguments without elements (memref<2x0x4xf32>) the type
/// memref<0xT>, which the bare-pointer calling convention can lower, and lets
/// their uses see an empty stack buffer of the original type instead: no
/// element of it is ever read or written.
static void flattenEmptyArguments(func::FuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  SmallVector<Type> argTypes(func.getArgumentTypes());
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() != 0 ||
        type.getRank() == 1)
      continue;
    auto empty = memref::AllocaOp::create(b, func.getLoc(), type);
    arg.replaceAllUsesWith(empty);
    arg.setType(MemRefType::get({0}, type.getElementType()));
    argTypes[arg.getArgNumber()] = arg.getType();
  }
  func.setType(b.getFunctionType(argTypes, func.getResultTypes()));
}

/// Makes the ops that compute an output write it in place: a buffer whose
/// last use is a copy of it whole into an output argument (what
/// BufferResultsToOutParams leaves for each result) is replaced by that
/// argument, and the copy goes. Not when the argument has other uses (the
/// same value returned twice: the first output gets the buffer, the second
/// stays a copy of it).
static void forwardOutputs(func::FuncOp func, Block &block,
                           const DenseMap<Operation *, int64_t> &position) {
  auto numInputs = func->getAttrOfType<IntegerAttr>("tcc.num_inputs");
  for (auto copy : llvm::make_early_inc_range(block.getOps<memref::CopyOp>())) {
    auto out = dyn_cast<BlockArgument>(copy.getTarget());
    auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
    if (!out || out.getOwner() != &block || !numInputs ||
        out.getArgNumber() < numInputs.getInt() || !out.hasOneUse() || !alloc ||
        alloc->getBlock() != &block || alloc.getType() != out.getType() ||
        lastUse(block, alloc, position) != position.lookup(copy))
      continue;
    copy.erase();
    alloc.replaceAllUsesWith(out);
    alloc.erase();
  }
}

/// The elements of a static identity buffer that a static, unit-stride
/// subview of it covers, as [begin, end) per dim; the whole buffer for any
/// other view.
using Rect = SmallVector<std::pair<int64_t, int64_t>>;

static Rect wholeRect(MemRefType type) {
  Rect r;
  for (int64_t size : type.getShape())
    r.push_back({0, size});
  return r;
}

static std::optional<Rect> subviewRect(memref::SubViewOp view) {
  if (!view.hasUnitStride() || view.getSourceType().getRank() !=
                                   (int64_t)view.getStaticSizes().size())
    return std::nullopt;
  Rect r;
  for (auto [offset, size] :
       llvm::zip(view.getStaticOffsets(), view.getStaticSizes())) {
    if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(size))
      return std::nullopt;
    r.push_back({offset, offset + size});
  }
  return r;
}

static bool overlaps(const Rect &a, const Rect &b) {
  for (auto [x, y] : llvm::zip(a, b))
    if (x.second <= y.first || y.second <= x.first)
      return false;
  return true;
}

/// Each top-level position at which `buffer` (or a view of it, or a
/// buffer placed inside it) is accessed, with the part accessed.
static void accessesOf(Block &block, Value buffer, const Rect &whole,
                       const DenseMap<Operation *, int64_t> &position,
                       const DenseMap<Value, SmallVector<std::pair<Value, Rect>>>
                           &children,
                       SmallVectorImpl<std::pair<int64_t, Rect>> &out) {
  for (Operation *user : buffer.getUsers()) {
    Operation *top = topLevelAncestor(block, user);
    int64_t at = top ? position.lookup(top) : INT64_MAX / 2;
    auto view = dyn_cast<memref::SubViewOp>(user);
    std::optional<Rect> rect = view ? subviewRect(view) : std::nullopt;
    if (!rect) {
      out.push_back({at, whole});
      if (auto viewLike = dyn_cast<ViewLikeOpInterface>(user))
        if (viewLike.getViewSource() == buffer)
          for (Value result : user->getResults())
            accessesOf(block, result, whole, position,
                       DenseMap<Value, SmallVector<std::pair<Value, Rect>>>(),
                       out);
      continue;
    }
    for (Operation *viewUser : view->getUsers()) {
      Operation *viewTop = topLevelAncestor(block, viewUser);
      out.push_back({viewTop ? position.lookup(viewTop) : INT64_MAX / 2,
                     *rect});
    }
  }
  auto it = children.find(buffer);
  if (it == children.end())
    return;
  for (const auto &[child, rect] : it->second) {
    SmallVector<std::pair<int64_t, Rect>> inner;
    accessesOf(block, child, wholeRect(cast<MemRefType>(child.getType())),
               position, children, inner);
    for (auto &[at, r] : inner)
      out.push_back({at, rect});
  }
}

/// Concat in place: a buffer whose last use copies it whole into a
/// contiguous slice of another buffer (`memref.copy %a, subview(%d)`, what
/// bufferization leaves for each input of a concat) is placed inside that
/// slice, so the ops that compute it write the concat's memory and the
/// copy goes. Not when anything else accesses that part of %d while %a is
/// live, which would then see %a's values early.
static void forwardIntoSlices(
    Block &block, const DenseMap<Operation *, int64_t> &position,
    DenseMap<memref::AllocOp, std::pair<memref::AllocOp, int64_t>> &placedIn) {
  DenseMap<Value, SmallVector<std::pair<Value, Rect>>> children;
  for (auto copy : llvm::make_early_inc_range(block.getOps<memref::CopyOp>())) {
    auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
    auto slice = copy.getTarget().getDefiningOp<memref::SubViewOp>();
    auto dest = slice ? slice.getSource().getDefiningOp<memref::AllocOp>()
                      : memref::AllocOp();
    if (!alloc || !dest || alloc == dest || alloc->getBlock() != &block ||
        dest->getBlock() != &block || placedIn.count(alloc) ||
        placedIn.count(dest) || children.count(alloc.getResult()) ||
        !alloc.getType().getLayout().isIdentity() ||
        !dest.getType().getLayout().isIdentity() ||
        !alloc.getType().hasStaticShape() || !dest.getType().hasStaticShape() ||
        alloc.getType().getShape() != slice.getType().getShape() ||
        !memref::isStaticShapeAndContiguousRowMajor(slice.getType()) ||
        lastUse(block, alloc, position) != position.lookup(copy))
      continue;
    std::optional<Rect> rect = subviewRect(slice);
    if (!rect)
      continue;
    int64_t begin = position.lookup(alloc), at = position.lookup(copy);
    SmallVector<std::pair<int64_t, Rect>> accesses;
    accessesOf(block, dest, wholeRect(dest.getType()), position, children,
               accesses);
    bool clash = llvm::any_of(accesses, [&](const auto &access) {
      return access.first >= begin && access.first < at &&
             overlaps(access.second, *rect);
    });
    if (clash)
      continue;
    auto [strides, offset] = slice.getType().getStridesAndOffset();
    int64_t bits = dest.getType().getElementTypeBitWidth();
    placedIn[alloc] = {dest, offset * llvm::divideCeil(bits, 8)};
    children[dest].push_back({alloc, *rect});
    copy.erase();
  }
}

/// Moves the static allocations inside loops of `block` to its start:
/// each iteration of a loop (tcc-fuse-attention's blocks of rows) then
/// reuses one buffer. Not one that a loop yields, which the next iteration
/// reads. Inside a loop marked tcc.parallel, whose iterations run at once
/// on several threads, each iteration gets a copy of its own: the buffer
/// is made that many times the size, and each iteration views its part.
static void hoistLoopAllocs(Block &block) {
  SmallVector<memref::AllocOp> nested;
  for (Operation &op : block)
    if (isa<scf::ForOp>(op))
      op.walk([&](memref::AllocOp alloc) { nested.push_back(alloc); });
  for (memref::AllocOp alloc : nested) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        alloc->getNumOperands())
      continue;
    bool yielded = false;
    SmallVector<Value> worklist{alloc};
    while (!worklist.empty() && !yielded)
      for (Operation *user : worklist.pop_back_val().getUsers()) {
        yielded |= isa<scf::YieldOp>(user);
        if (isa<ViewLikeOpInterface>(user))
          llvm::append_range(worklist, user->getResults());
      }
    if (yielded)
      continue;
    auto parallel = alloc->getParentOfType<scf::ForOp>();
    while (parallel && !parallel->hasAttr(tcc::attr::kParallel))
      parallel = parallel->getParentOfType<scf::ForOp>();
    std::optional<int64_t> trips;
    if (std::optional<APInt> n =
            parallel ? parallel.getStaticTripCount() : std::nullopt)
      trips = n->getSExtValue();
    if (!parallel || !trips || !type.getElementType().isIntOrFloat()) {
      // One buffer for all the iterations: they run one after another.
      if (parallel)
        parallel->removeAttr(tcc::attr::kParallel);
      alloc->moveBefore(&block, block.begin());
      continue;
    }
    int64_t bytes = llvm::alignTo(byteSize(type), kAlignment);
    OpBuilder b = OpBuilder::atBlockBegin(&block);
    Location loc = alloc.getLoc();
    auto copies = memref::AllocOp::create(
        b, loc, MemRefType::get({*trips * bytes}, b.getI8Type()),
        alloc.getAlignmentAttr());
    b.setInsertionPointToStart(parallel.getBody());
    // ((iv - lb) / step) * bytes.
    Value iteration = arith::DivUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, parallel.getInductionVar(),
                              parallel.getLowerBound()),
        parallel.getStep());
    Value offset = arith::MulIOp::create(
        b, loc, iteration, arith::ConstantIndexOp::create(b, loc, bytes));
    Value own = memref::ViewOp::create(b, loc, type, copies, offset,
                                       ValueRange());
    alloc.replaceAllUsesWith(own);
    alloc.erase();
  }
}

struct PlanWorkspace : tcc::impl::PlanWorkspaceBase<PlanWorkspace> {
  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!func || func.isExternal())
      return;
    Block &block = func.getBody().front();
    if (!func.getBody().hasOneBlock()) {
      func.emitError("tcc-plan-workspace expects a single-block @main");
      return signalPassFailure();
    }
    flattenEmptyArguments(func);
    hoistLoopAllocs(block);

    DenseMap<Operation *, int64_t> position;
    auto number = [&] {
      position.clear();
      int64_t index = 0;
      for (Operation &op : block)
        position[&op] = index++;
    };
    number();
    forwardOutputs(func, block, position);
    number();
    DenseMap<memref::AllocOp, std::pair<memref::AllocOp, int64_t>> placedIn;
    forwardIntoSlices(block, position, placedIn);

    SmallVector<Buffer> buffers;
    WalkResult walk = func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        alloc.emitError("dynamic shapes need a run-time memory plan, which "
                        "is not supported yet");
        return WalkResult::interrupt();
      }
      if (alloc->getBlock() != &block) {
        alloc.emitError("allocation inside a region is not supported");
        return WalkResult::interrupt();
      }
      int64_t bytes = byteSize(type);
      Uses used = uses(block, alloc, position);
      buffers.push_back({alloc, (int64_t)llvm::alignTo(std::max<int64_t>(bytes, 1),
                                                       kAlignment),
                         liveFrom(position.lookup(alloc), used.first, position),
                         used.last});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    // A buffer placed inside another takes no memory of its own; the other
    // lives from the earlier of the two allocs.
    DenseMap<memref::AllocOp, Buffer *> byAlloc;
    for (Buffer &b : buffers)
      byAlloc[b.alloc] = &b;
    for (Buffer &b : buffers) {
      auto it = placedIn.find(b.alloc);
      if (it == placedIn.end())
        continue;
      b.parent = it->second.first;
      b.offsetInParent = it->second.second;
      Buffer *parent = byAlloc.lookup(b.parent);
      parent->begin = std::min(parent->begin, b.begin);
      parent->end = std::max(parent->end, b.end);
    }

    // Greedy by size: each buffer takes the lowest offset that does not
    // overlap a placed buffer whose live range intersects its own.
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers)
      if (!b.parent)
        order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->size > b->size; });
    int64_t total = 0;
    SmallVector<Buffer *> placed;
    for (Buffer *buf : order) {
      SmallVector<std::pair<int64_t, int64_t>> busy;
      for (Buffer *other : placed)
        if (other->begin <= buf->end && buf->begin <= other->end)
          busy.push_back({other->offset, other->offset + other->size});
      llvm::sort(busy);
      int64_t offset = 0;
      for (auto [lo, hi] : busy) {
        if (offset + buf->size <= lo)
          break;
        offset = std::max(offset, hi);
      }
      buf->offset = offset;
      total = std::max(total, offset + buf->size);
      placed.push_back(buf);
    }

    // The workspace argument comes last.
    MLIRContext *ctx = &getContext();
    auto wsType = MemRefType::get({total}, IntegerType::get(ctx, 8));
    unsigned wsIndex = func.getNumArguments();
    if (failed(func.insertArgument(wsIndex, wsType, {}, func.getLoc())))
      return signalPassFailure();
    Value workspace = func.getArgument(wsIndex);
    for (Buffer &buf : buffers)
      if (buf.parent)
        buf.offset = byAlloc.lookup(buf.parent)->offset + buf.offsetInParent;
    for (Buffer &buf : buffers) {
      OpBuilder b(buf.alloc);
      Value offset =
          arith::ConstantIndexOp::create(b, buf.alloc.getLoc(), buf.offset);
      Value view = memref::ViewOp::create(b, buf.alloc.getLoc(),
                                          buf.alloc.getType(), workspace,
                                          offset, ValueRange{});
      buf.alloc.replaceAllUsesWith(view);
      buf.alloc.erase();
    }
    // Copies between strided views (from tensor.pad and concat) would lower
    // to a call of MLIR's C runner library; as linalg.copy they become loops.
    func.walk([](memref::CopyOp copy) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
    // For `tcc compile --stats`: what each buffer having its own memory
    // would take, and the lower bound of any plan, the largest total of
    // buffers live at one point.
    int64_t sum = 0, lowerBound = 0;
    for (const Buffer &buf : buffers)
      if (!buf.parent)
        sum += buf.size;
    for (const Buffer &at : buffers) {
      int64_t live = 0;
      for (const Buffer &other : buffers)
        if (!other.parent && other.begin <= at.begin && at.begin <= other.end)
          live += other.size;
      lowerBound = std::max(lowerBound, live);
    }
    auto i64 = IntegerType::get(ctx, 64);
    func->setAttr("tcc.workspace_size", IntegerAttr::get(i64, total));
    func->setAttr("tcc.workspace_buffers",
                  IntegerAttr::get(i64, (int64_t)buffers.size()));
    func->setAttr("tcc.workspace_buffers_bytes", IntegerAttr::get(i64, sum));
    func->setAttr("tcc.workspace_lower_bound",
                  IntegerAttr::get(i64, lowerBound));
  }
};

} // namespace
