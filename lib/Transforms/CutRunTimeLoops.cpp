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

/// An op whose loops that follow S are all parallel, and whose body reads
/// nothing but its operands' elements (a contraction, an elementwise op),
/// computes rows of its output from rows of its inputs: it may compute the
/// padding rows too, reading the padding of its inputs (garbage, but inside
/// buffers sized for the bound) and writing its own. Such an op runs in blocks of a
/// static number of rows along its outermost such loop (a parallel loop
/// over S/R blocks), at the bound along the others, so that the register
/// tiling sees static shapes. Not when it reads a caller's input (sized for
/// the actual dims). Returns whether it did.
bool blockRows(linalg::LinalgOp op, ArrayRef<int64_t> p,
                      llvm::function_ref<Value(int64_t, int64_t)> extent,
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
    if (p[2 * l] == 0)
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
  int64_t rows = 32;
  while (rows > 1 && ranges[*blocked] % rows)
    rows /= 2;
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // ceil(extent / rows) * rows rows, at most the bound's (rows divides it).
  Value e = extent(p[2 * *blocked], p[2 * *blocked + 1]);
  Value upper = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, e, index(rows - 1)),
          index(rows)),
      index(rows));
  auto loop = scf::ForOp::create(b, loc, index(0), upper, index(rows));
  loop->setAttr(tcc::attr::kParallel, b.getUnitAttr());
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = type ? op.getMatchingIndexingMap(&operand) : AffineMap();
    if (!type || !map.isFunctionOfDim(*blocked)) {
      operands.push_back(operand.get());
      continue;
    }
    SmallVector<OpFoldResult> offsets, sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
      bool cut = dim && dim.getPosition() == *blocked;
      offsets.push_back(cut ? OpFoldResult(loop.getInductionVar())
                            : OpFoldResult(b.getIndexAttr(0)));
      sizes.push_back(b.getIndexAttr(cut ? rows : type.getDimSize(d)));
    }
    operands.push_back(memref::SubViewOp::create(
        b, loc, operand.get(), offsets, sizes,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1))));
  }
  IRMapping map;
  map.map(op->getOperands(), operands);
  b.clone(*op, map);
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
    std::map<std::pair<int64_t, int64_t>, Value> extents;
    auto extent = [&](int64_t a, int64_t c) {
      Value &v = extents[{a, c}];
      if (!v) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointAfterValue(s);
        v = tcc::buildExtent(b, loc, s, a, c);
      }
      return v;
    };
    WalkResult walk = main.walk([&](linalg::LinalgOp op) {
      auto pairs = op->getAttrOfType<DenseI64ArrayAttr>(tcc::kLoopExtentsAttr);
      if (!pairs)
        return WalkResult::advance();
      op->removeAttr(tcc::kLoopExtentsAttr);
      ArrayRef<int64_t> p = pairs.asArrayRef();
      if ((int64_t)p.size() != 2 * op.getNumLoops() || !op.hasPureBufferSemantics()) {
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
          if (dim && p[2 * l] != 0) {
            sizes.push_back(extent(p[2 * l], p[2 * l + 1]));
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
