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

#include <map>

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_CUTRUNTIMELOOPS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

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
        v = s;
        if (a != 1)
          v = arith::MulIOp::create(b, loc, v,
                                    arith::ConstantIndexOp::create(b, loc, a));
        if (c != 0)
          v = arith::AddIOp::create(b, loc, v,
                                    arith::ConstantIndexOp::create(b, loc, c));
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
