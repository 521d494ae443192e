//===- CutRunTimeLoops.cpp - tcc-cut-run-time-loops -----------------------===//
//
// Cuts the operands of the linalg ops that tcc::boundRunTimeDim marked to
// their loops' actual extents, after bufferization: the views alias the
// bound-sized buffers, so nothing is copied.
//
//===----------------------------------------------------------------------===//
#include "tcc/BoundedDims.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <map>

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_CUTRUNTIMELOOPS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Whether `value` is a view of one of @main's first `numInputs` arguments
/// (the caller's input buffers, which hold the actual elements only).
bool viewsInput(Value value, int64_t numInputs) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
         arg.getArgNumber() < numInputs;
}

/// For an operand index `expr` that depends on loop `blocked` other than as
/// the loop itself (a convolution's input row, oh x stride + kh): its
/// coefficient of the loop, and one more than its largest value with the
/// loop at 0 and the others over `ranges` (so that a block of `rows` of the
/// loop reads expr's elements [c x iv, c x iv + c x (rows - 1) + that)).
/// Nullopt unless expr is affine with coefficients at least 0.
std::optional<std::pair<int64_t, int64_t>>
blockedSpan(AffineExpr expr, unsigned blocked, ArrayRef<int64_t> ranges) {
  MLIRContext *ctx = expr.getContext();
  unsigned n = ranges.size();
  auto at = [&](function_ref<int64_t(unsigned)> value) -> std::optional<int64_t> {
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0; d < n; ++d)
      dims.push_back(getAffineConstantExpr(value(d), ctx));
    auto c = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr.replaceDims(dims), n, 0));
    return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
  };
  std::optional<int64_t> base = at([](unsigned) { return 0; });
  if (!base)
    return std::nullopt;
  int64_t coefficient = 0, largest = *base;
  for (unsigned d = 0; d < n; ++d) {
    if (!expr.isFunctionOfDim(d))
      continue;
    std::optional<int64_t> one = at([&](unsigned x) { return x == d ? 1 : 0; });
    // Affine in each dim: the value at 2 is twice the step.
    std::optional<int64_t> two = at([&](unsigned x) { return x == d ? 2 : 0; });
    if (!one || !two || *one < *base || *two - *one != *one - *base)
      return std::nullopt;
    if (d == blocked)
      coefficient = *one - *base;
    else
      largest += (*one - *base) * (ranges[d] - 1);
  }
  if (coefficient <= 0 || *base < 0)
    return std::nullopt;
  return std::make_pair(coefficient, largest + 1);
}

/// Clones `op` (at b's insertion point) on `rows` rows of loop `blocked`
/// from `offset`: the operands it indexes by the loop are views of them
/// (of their spans, for operands indexed by the loop other than as itself).
void cloneOnRows(OpBuilder &b, linalg::LinalgOp op, unsigned blocked,
                 ArrayRef<int64_t> ranges, Value offset, int64_t rows) {
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = type ? op.getMatchingIndexingMap(&operand) : AffineMap();
    if (!type || !map.isFunctionOfDim(blocked)) {
      operands.push_back(operand.get());
      continue;
    }
    SmallVector<OpFoldResult> offsets, sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      AffineExpr e = map.getResult(d);
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (dim && dim.getPosition() == blocked) {
        offsets.push_back(offset);
        sizes.push_back(b.getIndexAttr(rows));
      } else if (e.isFunctionOfDim(blocked)) {
        auto [coefficient, rest] = *blockedSpan(e, blocked, ranges);
        offsets.push_back(arith::MulIOp::create(b, loc, offset,
                                                arith::ConstantIndexOp::create(
                                                    b, loc, coefficient))
                              .getResult());
        sizes.push_back(b.getIndexAttr(coefficient * (rows - 1) + rest));
      } else {
        offsets.push_back(b.getIndexAttr(0));
        sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      }
    }
    operands.push_back(memref::SubViewOp::create(
        b, loc, operand.get(), offsets, sizes,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1))));
  }
  IRMapping map;
  map.map(op->getOperands(), operands);
  b.clone(*op, map);
}

/// An op whose loops that follow S are all parallel, and whose body reads
/// nothing but its operands' elements (a contraction, an elementwise op),
/// computes rows of its output from rows of its inputs. Such an op runs in
/// blocks of 8 rows along its outermost such loop (a parallel loop over
/// them), at the bound along the others, so that the register tiling sees
/// static shapes:
///  - when 8 divides the bound's extent, in ceil(extent / 8) blocks: it may
///    compute the padding rows too, reading the padding of its inputs
///    (garbage, but inside buffers sized for the bound) and writing its
///    own;
///  - else, in floor(extent / 8) blocks, then one of 4, 2 and 1 rows each
///    where the extent's bits say (the last extent % 8 rows).
/// Not when it reads a caller's input (sized for the actual dims). Returns
/// whether it did.
bool blockRows(linalg::LinalgOp op, ArrayRef<int64_t> p,
               llvm::function_ref<Value(ArrayRef<int64_t>)> extent,
               int64_t numInputs) {
  // Computed from the operands' elements alone: no reads at indices that
  // come from data (a gather's indices in the padding are garbage).
  WalkResult reads = op.getBlock()->walk([](Operation *inner) {
    return isa<arith::ArithDialect, math::MathDialect>(inner->getDialect()) ||
                   isa<linalg::YieldOp, linalg::IndexOp>(inner)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  if (reads.wasInterrupted())
    return false;
  std::optional<unsigned> blocked;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [l, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (p[4 * l] == 0)
      continue;
    if (iterator != utils::IteratorType::parallel ||
        ShapedType::isDynamic(ranges[l]))
      return false;
    if (!blocked)
      blocked = l;
  }
  if (!blocked ||
      llvm::any_of(op->getOperands(),
                   [&](Value v) { return viewsInput(v, numInputs); }))
    return false;
  // Operands indexed by the blocked loop other than as itself (a strided
  // convolution's input rows) are read in spans: each must be affine.
  for (OpOperand &operand : op->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()))
      for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults())
        if (e.isFunctionOfDim(*blocked) && !isa<AffineDimExpr>(e) &&
            !blockedSpan(e, *blocked, ranges))
          return false;
  // 8 rows: with 32 (AVX-512's 12-row tiles whole), a CRNN at a quarter
  // of its bound ran 3 blocks on 2 threads; 8 was as fast or faster (2
  // threads, the CRNN at widths 160 and 640 of 640: 1.35 and 4.9 ms, not
  // 1.95 and 4.9; BERT-base at seq 256 of 384: 248 ms, not 272).
  constexpr int64_t rows = 8;
  bool peel = ranges[*blocked] % rows != 0;
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value e = extent(p.slice(4 * *blocked, 4));
  // Blocks of `rows`: up to ceil(extent / rows) * rows rows (rows divides
  // the bound's extent), or, peeled, floor(extent / rows) * rows.
  Value upper = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(
          b, loc, peel ? e : arith::AddIOp::create(b, loc, e, index(rows - 1)),
          index(rows)),
      index(rows));
  auto loop = scf::ForOp::create(b, loc, index(0), upper, index(rows));
  loop->setAttr(tcc::attr::kParallel, b.getUnitAttr());
  b.setInsertionPointToStart(loop.getBody());
  cloneOnRows(b, op, *blocked, ranges, loop.getInductionVar(), rows);
  // The rest, extent % rows: a piece of `piece` rows at extent & ~(2 x
  // piece - 1) when the extent has that bit.
  b.setInsertionPointAfter(loop);
  for (int64_t piece = rows / 2; peel && piece >= 1; piece /= 2) {
    Value has = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, e, index(piece)), index(0));
    auto ifOp = scf::IfOp::create(b, loc, has, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value at = arith::AndIOp::create(b, loc, e, index(~(2 * piece - 1)));
    cloneOnRows(b, op, *blocked, ranges, at, piece);
  }
  op->erase();
  return true;
}

struct CutRunTimeLoops : tcc::impl::CutRunTimeLoopsBase<CutRunTimeLoops> {
  void runOnOperation() override {
    func::FuncOp main = getOperation();
    auto numInputs = main->getAttrOfType<IntegerAttr>("tcc.num_inputs");
    if (!main->hasAttr(tcc::kRunTimeInputsAttr))
      return;
    if (!numInputs || numInputs.getInt() < 1 ||
        numInputs.getInt() > (int64_t)main.getNumArguments() ||
        !isa<MemRefType>(main.getArgument(numInputs.getInt() - 1).getType())) {
      main.emitError("tcc-cut-run-time-loops: @main lacks its input_dims "
                     "buffer (its last input)");
      return signalPassFailure();
    }
    OpBuilder b(main.getBody());
    Location loc = main.getLoc();
    Value s = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        memref::LoadOp::create(b, loc,
                               main.getArgument(numInputs.getInt() - 1),
                               ValueRange{arith::ConstantIndexOp::create(b, loc, 0)}));
    std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, Value> extents;
    auto extent = [&](ArrayRef<int64_t> e) {
      Value &v = extents[{e[0], e[1], e[2], e[3]}];
      if (!v) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointAfterValue(s);
        v = tcc::buildExtent(b, loc, s, e);
      }
      return v;
    };
    WalkResult walk = main.walk([&](linalg::LinalgOp op) {
      auto quads =
          op->getAttrOfType<DenseI64ArrayAttr>(tcc::kLoopExtentsAttr);
      if (!quads)
        return WalkResult::advance();
      op->removeAttr(tcc::kLoopExtentsAttr);
      ArrayRef<int64_t> p = quads.asArrayRef();
      if ((int64_t)p.size() != 4 * op.getNumLoops() ||
          llvm::any_of(llvm::seq<size_t>(0, op.getNumLoops()),
                       [&](size_t l) {
                         return p[4 * l + 2] < 1 || p[4 * l + 3] < 1;
                       }) ||
          !op.hasPureBufferSemantics()) {
        op.emitError("tcc-cut-run-time-loops: malformed ")
            << tcc::kLoopExtentsAttr;
        return WalkResult::interrupt();
      }
      b.setInsertionPoint(op);
      if (blockRows(op, p, extent, numInputs.getInt()))
        return WalkResult::advance();
      for (OpOperand &operand : op->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type)
          continue;
        AffineMap map = op.getMatchingIndexingMap(&operand);
        SmallVector<OpFoldResult> sizes;
        bool cut = false;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
          unsigned l = dim ? dim.getPosition() : 0;
          if (dim && p[4 * l] != 0) {
            sizes.push_back(extent(p.slice(4 * l, 4)));
            cut = true;
          } else {
            sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
          }
        }
        if (!cut)
          continue;
        int64_t rank = type.getRank();
        operand.set(memref::SubViewOp::create(
            b, op.getLoc(), operand.get(),
            SmallVector<OpFoldResult>(rank, b.getIndexAttr(0)), sizes,
            SmallVector<OpFoldResult>(rank, b.getIndexAttr(1))));
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
