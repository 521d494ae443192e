//===- VectorizePools.cpp - tcc-vectorize-pools ---------------------------===//
//
// Emits vector code for 2-d NCHW pooling ops (max, sum) on f32 buffers: a
// vector of output columns at a time, each window tap one vector load (two
// and a shuffle of the even lanes at stride 2) combined in a register.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_VECTORIZEPOOLS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

/// A pool this pass handles: in [N, C, IH, IW], window [KH, KW], out
/// [N, C, OH, OW], static f32 buffers with unit-stride rows, column stride
/// 1 or 2, and a body of elementwise ops on the output and input elements.
struct PoolShape {
  ArrayRef<int64_t> in, out;
  int64_t kh, kw, strideH, strideW, dilationH, dilationW;
};

std::optional<PoolShape> poolShape(linalg::LinalgOp op) {
  if (!isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op) ||
      !op.hasPureBufferSemantics())
    return std::nullopt;
  auto in = dyn_cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  auto window = dyn_cast<MemRefType>(op.getDpsInputOperand(1)->get().getType());
  auto out = dyn_cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  for (MemRefType t : {in, out})
    if (!t || !t.hasStaticShape() || !t.getElementType().isF32() ||
        t.getRank() != 4 || !t.isLastDimUnitStride())
      return std::nullopt;
  if (!window || !window.hasStaticShape() || window.getRank() != 2 ||
      op.payloadUsesValueFromOperand(op.getDpsInputOperand(1)))
    return std::nullopt;
  for (Operation &bodyOp : op.getBlock()->without_terminator())
    if (!bodyOp.hasTrait<OpTrait::Elementwise>() ||
        bodyOp.getNumResults() != 1 || bodyOp.getNumRegions())
      return std::nullopt;
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  if (!strides || !dilations)
    return std::nullopt;
  SmallVector<int64_t> s(strides.getValues<int64_t>()),
      d(dilations.getValues<int64_t>());
  if (s.size() != 2 || d.size() != 2 || s[1] < 1 || s[1] > 2)
    return std::nullopt;
  return PoolShape{in.getShape(),
                   out.getShape(),
                   window.getDimSize(0),
                   window.getDimSize(1),
                   s[0],
                   s[1],
                   d[0],
                   d[1]};
}

/// Accumulator vectors of one step: rows of output columns carried
/// through the loop over the window's rows at once. Each row's taps form a
/// chain of dependent ops (a NaN-propagating max is three); with one row of
/// one or two vectors the loop waited on that chain (a 3x3 max pool over
/// 256x27x27 ran 176 us against onnxruntime's 62).
constexpr int64_t kPoolAccumulators = 8;

/// Emits one pool as loops over (n, c) and blocks of output rows; inside,
/// each row's column vectors unrolled, all of the block's carried through
/// the loop over kh in registers and combined with the kw taps (unrolled).
class PoolEmitter {
public:
  PoolEmitter(RewriterBase &b, linalg::LinalgOp op, const PoolShape &shape,
              int64_t lanes)
      : b(b), op(op), shape(shape), lanes(lanes), loc(op.getLoc()),
        vecType(VectorType::get({lanes}, b.getF32Type())) {}

  void emit() {
    b.setInsertionPoint(op);
    in = op.getDpsInputOperand(0)->get();
    out = op.getDpsInitOperand(0)->get();
    zero = arith::ConstantOp::create(b, loc, vecType,
                                     DenseElementsAttr::get(vecType, 0.0f));
    int64_t ow = shape.out[3];
    for (int64_t c0 = 0; c0 < ow; c0 += lanes)
      columns.push_back({c0, std::min(lanes, ow - c0)});

    auto loop = [&](int64_t size) {
      auto f = scf::ForOp::create(b, loc, index(0), index(size), index(1));
      b.setInsertionPointToStart(f.getBody());
      return f.getInductionVar();
    };
    n = loop(shape.out[0]);
    c = loop(shape.out[1]);
    int64_t oh = shape.out[2];
    int64_t rows =
        std::clamp<int64_t>(kPoolAccumulators / (int64_t)columns.size(), 1, oh);
    int64_t full = oh - oh % rows;
    if (full == rows) {
      emitRows(index(0), rows);
    } else {
      OpBuilder::InsertionGuard guard(b);
      auto block =
          scf::ForOp::create(b, loc, index(0), index(full), index(rows));
      b.setInsertionPointToStart(block.getBody());
      emitRows(block.getInductionVar(), rows);
    }
    if (full < oh)
      emitRows(index(full), oh - full);
    b.eraseOp(op);
  }

private:
  /// Output rows oh0 ... oh0 + rows - 1 of the current (n, c).
  void emitRows(Value oh0, int64_t rows) {
    SmallVector<Value> ohs, ihBases, accs;
    for (int64_t r = 0; r < rows; ++r) {
      Value oh =
          r ? arith::AddIOp::create(b, loc, oh0, index(r)).getResult() : oh0;
      ohs.push_back(oh);
      ihBases.push_back(mul(oh, shape.strideH));
      for (auto [c0, count] : columns)
        accs.push_back(load(out, {n, c, oh, index(c0)}, count));
    }
    auto khLoop = scf::ForOp::create(
        b, loc, index(0), index(shape.kh), index(1), accs,
        [&](OpBuilder &, Location, Value kh, ValueRange carried) {
          Value khOffset = mul(kh, shape.dilationH);
          SmallVector<Value> next(carried);
          for (int64_t r = 0; r < rows; ++r) {
            Value ih = arith::AddIOp::create(b, loc, ihBases[r], khOffset);
            for (int64_t kw = 0; kw < shape.kw; ++kw)
              for (auto [i, column] : llvm::enumerate(columns)) {
                auto [c0, count] = column;
                int64_t iw = c0 * shape.strideW + kw * shape.dilationW;
                Value &acc = next[r * columns.size() + i];
                acc = combine(acc, tap({n, c, ih}, iw, count));
              }
          }
          scf::YieldOp::create(b, loc, next);
        });
    for (int64_t r = 0; r < rows; ++r)
      for (auto [i, column] : llvm::enumerate(columns))
        store(khLoop.getResult(r * columns.size() + i), out,
              {n, c, ohs[r], index(column.first)}, column.second);
  }

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value mul(Value v, int64_t k) {
    return k == 1 ? v : arith::MulIOp::create(b, loc, v, index(k)).getResult();
  }
  Value mask(int64_t count) {
    return vector::ConstantMaskOp::create(
        b, loc, VectorType::get({lanes}, b.getI1Type()),
        ArrayRef<int64_t>{count});
  }

  /// `count` elements at `at` (the rest zero).
  Value load(Value buffer, ArrayRef<Value> at, int64_t count) {
    if (count == lanes)
      return vector::LoadOp::create(b, loc, vecType, buffer, at);
    return vector::MaskedLoadOp::create(b, loc, vecType, buffer, at,
                                        mask(count), zero);
  }
  void store(Value v, Value buffer, ArrayRef<Value> at, int64_t count) {
    if (count == lanes)
      vector::StoreOp::create(b, loc, v, buffer, at);
    else
      vector::MaskedStoreOp::create(b, loc, buffer, at, mask(count), v);
  }

  /// The input elements a vector of `count` output columns reads at one
  /// tap: row `rowAt`, columns iw, iw + s, ... (s the column stride).
  Value tap(ArrayRef<Value> rowAt, int64_t iw, int64_t count) {
    auto at = [&](int64_t col) {
      SmallVector<Value> idx(rowAt);
      idx.push_back(index(col));
      return idx;
    };
    if (shape.strideW == 1)
      return load(in, at(iw), count);
    // Stride 2: the 2 * count - 1 elements from iw, the even ones kept.
    int64_t span = 2 * (count - 1) + 1;
    Value lo = load(in, at(iw), std::min(lanes, span));
    Value hi = span > lanes ? load(in, at(iw + lanes), span - lanes) : zero;
    SmallVector<int64_t> even;
    for (int64_t l = 0; l < lanes; ++l)
      even.push_back(2 * l);
    return vector::ShuffleOp::create(b, loc, lo, hi, even);
  }

  /// The op's body on vectors: its output argument `acc`, its input `v`.
  Value combine(Value acc, Value v) {
    Block *body = op.getBlock();
    IRMapping map;
    map.map(body->getArgument(0), v);
    map.map(body->getArgument(op.getNumDpsInputs()), acc);
    for (Operation &bodyOp : body->without_terminator()) {
      SmallVector<Value> operands;
      for (Value operand : bodyOp.getOperands()) {
        Value mapped = map.lookupOrDefault(operand);
        if (!isa<VectorType>(mapped.getType()))
          mapped = vector::BroadcastOp::create(b, loc, vecType, mapped);
        operands.push_back(mapped);
      }
      OperationState state(loc, bodyOp.getName(), operands, {vecType},
                           bodyOp.getAttrs());
      Operation *vectorOp = b.create(state);
      // A max pool's max need not order -0 below +0 (ONNX leaves it open;
      // onnxruntime's MLAS takes either): without that, x86 orders the
      // operands by sign bit first, two more ops in each tap's chain. NaNs
      // still propagate.
      if (auto fastmath = dyn_cast<arith::ArithFastMathInterface>(vectorOp);
          fastmath && isa<arith::MaximumFOp, arith::MinimumFOp>(vectorOp))
        vectorOp->setAttr(
            fastmath.getFastMathAttrName(),
            arith::FastMathFlagsAttr::get(
                b.getContext(), fastmath.getFastMathFlagsAttr().getValue() |
                                    arith::FastMathFlags::nsz));
      map.map(bodyOp.getResult(0), vectorOp->getResult(0));
    }
    return map.lookup(body->getTerminator()->getOperand(0));
  }

  RewriterBase &b;
  linalg::LinalgOp op;
  const PoolShape &shape;
  int64_t lanes;
  Location loc;
  VectorType vecType;
  Value zero, in, out, n, c;
  /// The row's column vectors: first column, columns.
  SmallVector<std::pair<int64_t, int64_t>> columns;
};

struct VectorizePools : tcc::impl::VectorizePoolsBase<VectorizePools> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits < 128 || vectorBits % 32) {
      getOperation().emitError("vectorize-pools: bad vector-bits option");
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::LinalgOp, PoolShape>> pools;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<PoolShape> shape = poolShape(op))
        pools.push_back({op, *shape});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, shape] : pools)
      PoolEmitter(rewriter, op, shape, vectorBits / 32).emit();
  }
};

} // namespace
