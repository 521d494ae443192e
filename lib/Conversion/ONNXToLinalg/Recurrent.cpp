//===- Recurrent.cpp - ONNX RNN, GRU and LSTM to an scf.for over time -----===//
//
// Per direction: the input projection of every time step at once (one
// contraction X Wᵀ + biases, [seq, batch, gates*hidden]), then an scf.for
// over the time steps carrying the hidden (and cell) state as tensors: a
// contraction H Rᵀ, then a loop nest over [batch, hidden] computing the
// gates and updating the states and Y with tensor.insert. (Not a generic:
// its outputs would not be read, and linalg's elementwise fusion gives such
// outputs a fresh tensor.empty, an allocation inside the loop.) Every
// tensor the loop body writes is carried (the contractions' scratch too), so
// bufferization finds them in place and the body allocates nothing.
//
// Run-time sequence_lens mask the steps past each sequence's end: the state
// is kept and Y gets zeros. The reverse direction then reads each sequence
// reversed within its own length (a gather before and after the loop).
// f16/bf16 recurrences run in f32, rounded once at the end.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

enum class Cell { RNN, GRU, LSTM };

/// The operands and attributes of one RNN/GRU/LSTM, converted.
struct Recurrence {
  Cell cell;
  Value x, w, r, bias, lens, initH, initC, peepholes; // null when absent
  StringRef direction;
  bool batchFirst;
  std::optional<double> clip;
  bool linearBeforeReset = false, inputForget = false;
  SmallVector<onnx::RecurrentActivation> activations;
  bool needY;
  /// sequence_lens is present and not a constant of seq_length everywhere.
  bool masked;
};

int64_t gatesOf(Cell cell) {
  return cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
}

SmallVector<OpFoldResult> ofrs(OpBuilder &b, ArrayRef<Value> dynamic,
                               ArrayRef<int64_t> offsets) {
  SmallVector<OpFoldResult> result;
  for (auto [i, o] : llvm::enumerate(offsets))
    result.push_back(i < dynamic.size() && dynamic[i]
                         ? OpFoldResult(dynamic[i])
                         : OpFoldResult(b.getIndexAttr(o)));
  return result;
}

/// source[offsets : sizes] as a tensor of `shape` (the slice with unit dims
/// dropped); `dynamic[i]`, when set, replaces offsets[i].
Value slice(OpBuilder &b, Location loc, Value source, ArrayRef<int64_t> offsets,
            ArrayRef<int64_t> sizes, ArrayRef<int64_t> shape,
            ArrayRef<Value> dynamic = {}) {
  auto type = RankedTensorType::get(
      shape, cast<RankedTensorType>(source.getType()).getElementType());
  SmallVector<OpFoldResult> ones(sizes.size(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizeAttrs;
  for (int64_t s : sizes)
    sizeAttrs.push_back(b.getIndexAttr(s));
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, ofrs(b, dynamic, offsets), sizeAttrs, ones);
}

/// Inserts `source` into dest[offsets : sizes] (the inverse of `slice`).
Value insert(OpBuilder &b, Location loc, Value source, Value dest,
             ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
             ArrayRef<Value> dynamic = {}) {
  SmallVector<OpFoldResult> ones(sizes.size(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizeAttrs;
  for (int64_t s : sizes)
    sizeAttrs.push_back(b.getIndexAttr(s));
  return tensor::InsertSliceOp::create(
      b, loc, source, dest, ofrs(b, dynamic, offsets), sizeAttrs, ones);
}

/// init[..., n] += lhs[..., k] * weight[n, k]: rows of `lhs` times weightᵀ.
Value matmulTransposed(OpBuilder &b, Location loc, Value lhs, Value weight,
                       Value init) {
  MLIRContext *ctx = b.getContext();
  int64_t batch = cast<RankedTensorType>(lhs.getType()).getRank() - 1;
  int64_t numDims = batch + 2;
  SmallVector<AffineExpr> lhsExprs, outExprs;
  for (int64_t i = 0; i < batch; ++i) {
    lhsExprs.push_back(getAffineDimExpr(i, ctx));
    outExprs.push_back(getAffineDimExpr(i, ctx));
  }
  AffineExpr n = getAffineDimExpr(batch, ctx),
             k = getAffineDimExpr(batch + 1, ctx);
  lhsExprs.push_back(k);
  outExprs.push_back(n);
  SmallVector<AffineMap> maps = {AffineMap::get(numDims, 0, lhsExprs, ctx),
                                 AffineMap::get(numDims, 0, {n, k}, ctx),
                                 AffineMap::get(numDims, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iterators(numDims,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{lhs, weight},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nb, Location l, ValueRange args) {
               Value prod = arith::MulFOp::create(nb, l, args[0], args[1]);
               linalg::YieldOp::create(
                   nb, l,
                   arith::AddFOp::create(nb, l, args[2], prod).getResult());
             })
      .getResult(0);
}

Value zeroFilled(OpBuilder &b, Location loc, Value dest) {
  Type elem = cast<RankedTensorType>(dest.getType()).getElementType();
  return linalg::FillOp::create(b, loc,
                                ValueRange{constantScalar(b, loc, elem, 0)},
                                ValueRange{dest})
      .getResult(0);
}

/// f(x) for one of the activation functions ONNX's recurrent ops take,
/// after clipping x to [-clip, clip].
Value activate(OpBuilder &b, Location loc, const onnx::RecurrentActivation &act,
               std::optional<double> clip, Value x) {
  auto c = [&](double v) { return constantScalar(b, loc, x.getType(), v); };
  if (clip)
    x = arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, x, c(-*clip)), c(*clip));
  auto lt = [&](Value l, Value r) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, l, r);
  };
  auto mul = [&](Value l, Value r) -> Value {
    return arith::MulFOp::create(b, loc, l, r);
  };
  auto add = [&](Value l, Value r) -> Value {
    return arith::AddFOp::create(b, loc, l, r);
  };
  StringRef name = act.name;
  Value alpha = c(act.alpha), beta = c(act.beta), zero = c(0), one = c(1);
  Value y;
  if (name == "relu") {
    y = arith::MaximumFOp::create(b, loc, x, zero);
  } else if (name == "tanh") {
    y = math::TanhOp::create(b, loc, x);
  } else if (name == "sigmoid") {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    y = arith::DivFOp::create(b, loc, one, add(one, e));
  } else if (name == "affine") {
    y = add(mul(alpha, x), beta);
  } else if (name == "leakyrelu") {
    y = arith::SelectOp::create(b, loc, lt(x, zero), mul(alpha, x), x);
  } else if (name == "thresholdedrelu") {
    y = arith::SelectOp::create(b, loc, lt(alpha, x), x, zero);
  } else if (name == "scaledtanh") {
    y = mul(alpha, math::TanhOp::create(b, loc, mul(beta, x)));
  } else if (name == "hardsigmoid") {
    Value v = add(mul(alpha, x), beta);
    y = arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, v, zero), one);
  } else if (name == "elu") {
    Value e =
        arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x), one);
    y = arith::SelectOp::create(b, loc, lt(x, zero), mul(alpha, e), x);
  } else if (name == "softsign") {
    y = arith::DivFOp::create(b, loc, x,
                              add(one, math::AbsFOp::create(b, loc, x)));
  } else { // softplus: max(x, 0) + log1p(exp(-|x|))
    Value negAbs =
        arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x));
    y = add(arith::MaximumFOp::create(b, loc, x, zero),
            math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, negAbs)));
  }
  return y;
}

/// A length of `lens` (i32, [batch]) at `batch` as an index clamped to
/// [0, seq].
Value lengthAt(OpBuilder &b, Location loc, Value lens, Value batch,
               int64_t seq) {
  Value len = tensor::ExtractOp::create(b, loc, lens, ValueRange{batch});
  Value idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), len);
  idx = arith::MaxSIOp::create(b, loc, idx, constantIndex(b, loc, 0));
  return arith::MinSIOp::create(b, loc, idx, constantIndex(b, loc, seq));
}

/// out[s, b, ...] = src[len[b] - 1 - s, b, ...] for s < len[b], else 0:
/// each sequence reversed within its length. `src` is [seq, batch, n];
/// the result is [seq, batch, n] or, `batchFirst`, [batch, seq, n].
Value reverseSequences(OpBuilder &b, Location loc, Value src, Value lens,
                       bool batchFirst) {
  auto type = cast<RankedTensorType>(src.getType());
  int64_t seq = type.getDimSize(0);
  SmallVector<int64_t> shape(type.getShape());
  if (batchFirst)
    std::swap(shape[0], shape[1]);
  return buildIndexed(
      b, loc, RankedTensorType::get(shape, type.getElementType()),
      [&](OpBuilder &nb, Location l, ValueRange ivs) -> Value {
        Value s = ivs[batchFirst ? 1 : 0], batch = ivs[batchFirst ? 0 : 1];
        Value len = lengthAt(nb, l, lens, batch, seq);
        Value active =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, s, len);
        Value last = arith::SubIOp::create(nb, l, len, constantIndex(nb, l, 1));
        Value from = arith::SelectOp::create(
            nb, l, active, arith::SubIOp::create(nb, l, last, s), s);
        Value v = tensor::ExtractOp::create(nb, l, src,
                                            ValueRange{from, batch, ivs[2]});
        return arith::SelectOp::create(
            nb, l, active, v, constantScalar(nb, l, type.getElementType(), 0));
      });
}

/// A loop nest over [rows, cols] carrying `iterArgs` (tensors the body
/// updates with tensor.insert, in place once bufferized); returns their
/// final values.
SmallVector<Value>
elementLoop(OpBuilder &b, Location loc, int64_t rows, int64_t cols,
            ValueRange iterArgs,
            function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value,
                                            ValueRange)>
                body) {
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, {zero, zero},
      {constantIndex(b, loc, rows), constantIndex(b, loc, cols)}, {one, one},
      iterArgs,
      [&](OpBuilder &nb, Location l, ValueRange ivs,
          ValueRange iter) -> scf::ValueVector {
        SmallVector<Value> result = body(nb, l, ivs[0], ivs[1], iter);
        return scf::ValueVector(result.begin(), result.end());
      });
  return SmallVector<Value>(nest.results);
}

/// Lowers one direction; returns the final hidden state [batch, hidden],
/// the final cell state (LSTM) and Y with this direction's steps written.
struct DirectionResult {
  Value h, c, y;
};

DirectionResult lowerDirection(OpBuilder &b, Location loc, const Recurrence &p,
                               int64_t d, Value x, Value y) {
  auto xType = cast<RankedTensorType>(x.getType()); // [seq, batch, input]
  Type elem = xType.getElementType();
  int64_t seq = xType.getDimSize(0), batch = xType.getDimSize(1),
          input = xType.getDimSize(2);
  auto rType = cast<RankedTensorType>(p.r.getType());
  int64_t hidden = rType.getDimSize(2), g = gatesOf(p.cell), gh = g * hidden;
  bool reverse = p.direction == "reverse" || d == 1;
  auto perDirection =
      ArrayRef(p.activations)
          .slice(d * (p.activations.size() /
                      (p.direction == "bidirectional" ? 2 : 1)));
  Value w = slice(b, loc, p.w, {d, 0, 0}, {1, gh, input}, {gh, input});
  Value r = slice(b, loc, p.r, {d, 0, 0}, {1, gh, hidden}, {gh, hidden});
  if (p.masked && reverse)
    x = reverseSequences(b, loc, x, p.lens, false);

  // XW[t, b, :] = X[t, b] Wᵀ + Wb + Rb (GRU with linear_before_reset: the
  // h gate's Rb is added inside r * (...) instead).
  bool splitH = p.cell == Cell::GRU && p.linearBeforeReset;
  auto xwType = RankedTensorType::get({seq, batch, gh}, elem);
  Value xw;
  if (p.bias) {
    Value bd = slice(b, loc, p.bias, {d, 0}, {1, 2 * gh}, {2 * gh});
    Value wb = slice(b, loc, bd, {0}, {gh}, {gh});
    Value rb = slice(b, loc, bd, {gh}, {gh}, {gh});
    xw = buildElementwise(
        b, loc, xwType, {wb, rb},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value sum = arith::AddFOp::create(nb, l, args[0], args[1]);
          if (!splitH)
            return sum;
          Value col = linalg::IndexOp::create(nb, l, 2);
          Value inH =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, col,
                                    constantIndex(nb, l, 2 * hidden));
          return arith::SelectOp::create(nb, l, inH, args[0], sum);
        });
  } else {
    xw = zeroFilled(b, loc,
                    tensor::EmptyOp::create(b, loc, xwType.getShape(), elem));
  }
  xw = matmulTransposed(b, loc, x, w, xw);

  // GRU without linear_before_reset: Rh multiplies r ⊙ H in a second
  // contraction.
  bool twoStep = p.cell == Cell::GRU && !p.linearBeforeReset;
  Value rH = twoStep ? slice(b, loc, r, {2 * hidden, 0}, {hidden, hidden},
                             {hidden, hidden})
                     : Value();

  // The loop carries, each a value of its own type (identical initial
  // values, which CSE would merge, would share one buffer): the states
  // [h(, c)] as [num_states, batch, hidden], Y (or its temporary, [seq, 1,
  // batch, hidden]), the scratch of H Rᵀ [batch, gates*hidden] and, for
  // GRU's second contraction, [batch, hidden].
  int64_t numStates = p.cell == Cell::LSTM ? 2 : 1;
  Value states = zeroFilled(
      b, loc,
      tensor::EmptyOp::create(b, loc, {numStates, batch, hidden}, elem));
  Value inits[] = {p.initH, p.initC};
  for (auto [k, init] : llvm::enumerate(inits)) {
    if (!init || (int64_t)k >= numStates)
      continue;
    Value s = p.batchFirst ? slice(b, loc, init, {0, d, 0}, {batch, 1, hidden},
                                   {batch, hidden})
                           : slice(b, loc, init, {d, 0, 0}, {1, batch, hidden},
                                   {batch, hidden});
    states = insert(b, loc, s, states, {(int64_t)k, 0, 0}, {1, batch, hidden});
  }
  // Y of this direction goes straight into the result, except when
  // sequences are reversed within their lengths: then into a temporary,
  // reversed back after the loop.
  bool yTemp = p.needY && p.masked && reverse;
  auto newEmpty = [&](ArrayRef<int64_t> shape) -> Value {
    return tensor::EmptyOp::create(b, loc, shape, elem);
  };
  SmallVector<Value> iterArgs = {states};
  if (p.needY)
    iterArgs.push_back(yTemp ? newEmpty({seq, 1, batch, hidden}) : y);
  iterArgs.push_back(newEmpty({batch, gh}));
  if (twoStep)
    iterArgs.push_back(newEmpty({batch, hidden}));

  auto loop = scf::ForOp::create(
      b, loc, constantIndex(b, loc, 0), constantIndex(b, loc, seq),
      constantIndex(b, loc, 1), iterArgs,
      [&](OpBuilder &nb, Location l, Value s, ValueRange args) {
        Value statesIt = args[0];
        Value yAcc = p.needY ? args[1] : Value();
        Value accScratch = args[p.needY ? 2 : 1];
        Value t = s;
        if (reverse && !p.masked)
          t = arith::SubIOp::create(nb, l, constantIndex(nb, l, seq - 1), s);
        Value h = slice(nb, l, statesIt, {0, 0, 0}, {1, batch, hidden},
                        {batch, hidden});
        Value acc =
            matmulTransposed(nb, l, h, r, zeroFilled(nb, l, accScratch));

        // Scalar helpers for the loop nests below.
        auto at = [](OpBuilder &bb, Location ll, Value tensor,
                     ArrayRef<Value> indices) -> Value {
          return tensor::ExtractOp::create(bb, ll, tensor, indices);
        };
        auto idx = [](OpBuilder &bb, Location ll, int64_t k) {
          return constantIndex(bb, ll, k);
        };
        auto plus = [](OpBuilder &bb, Location ll, Value i, int64_t k) {
          return k == 0 ? i
                        : arith::AddIOp::create(bb, ll, i,
                                                constantIndex(bb, ll, k))
                              .getResult();
        };
        auto addf = [](OpBuilder &bb, Location ll, Value a, Value v) -> Value {
          return arith::AddFOp::create(bb, ll, a, v);
        };
        auto mulf = [](OpBuilder &bb, Location ll, Value a, Value v) -> Value {
          return arith::MulFOp::create(bb, ll, a, v);
        };
        auto act = [&](OpBuilder &bb, Location ll, int64_t k, Value v) {
          return activate(bb, ll, perDirection[k], p.clip, v);
        };
        // X Wᵀ + biases + H Rᵀ of gate k at (bi, j).
        auto gateInput = [&](OpBuilder &bb, Location ll, Value bi, Value j,
                             int64_t k) {
          Value col = plus(bb, ll, j, k * hidden);
          return addf(bb, ll, at(bb, ll, xw, {t, bi, col}),
                      at(bb, ll, acc, {bi, col}));
        };

        Value acc2;
        if (twoStep) {
          // r ⊙ H, in place of r's part of the scratch, then (r ⊙ H) Rhᵀ.
          acc = elementLoop(
              nb, l, batch, hidden, {acc},
              [&](OpBuilder &bb, Location ll, Value bi, Value j,
                  ValueRange it) -> SmallVector<Value> {
                // Reads r's part of the scratch from the value being
                // updated, so that the update stays in place.
                Value col = plus(bb, ll, j, hidden);
                Value rg = act(bb, ll, 0,
                               addf(bb, ll, at(bb, ll, xw, {t, bi, col}),
                                    at(bb, ll, it[0], {bi, col})));
                Value v = mulf(bb, ll, rg,
                               at(bb, ll, statesIt, {idx(bb, ll, 0), bi, j}));
                return {tensor::InsertOp::create(bb, ll, v, it[0],
                                                 ValueRange{bi, col})};
              })[0];
          Value rh =
              slice(nb, l, acc, {0, hidden}, {batch, hidden}, {batch, hidden});
          acc2 =
              matmulTransposed(nb, l, rh, rH, zeroFilled(nb, l, args.back()));
        }

        // The cell: new states and Y, one element at a time, in place.
        SmallVector<Value> cellArgs = {statesIt};
        if (p.needY)
          cellArgs.push_back(yAcc);
        SmallVector<Value> updated = elementLoop(
            nb, l, batch, hidden, cellArgs,
            [&](OpBuilder &bb, Location ll, Value bi, Value j,
                ValueRange it) -> SmallVector<Value> {
              Value st = it[0];
              Value hAt[] = {idx(bb, ll, 0), bi, j};
              Value cAt[] = {idx(bb, ll, 1), bi, j};
              Value one = constantScalar(bb, ll, elem, 1);
              auto prevH = [&] { return at(bb, ll, st, hAt); };
              Value hNew, cNew, cPrev;
              if (p.cell == Cell::RNN) {
                hNew = act(bb, ll, 0, gateInput(bb, ll, bi, j, 0));
              } else if (p.cell == Cell::LSTM) {
                cPrev = at(bb, ll, st, cAt);
                // Gates i, o, f, c; peepholes Pi, Po, Pf.
                auto withPeep = [&](Value v, int64_t k, Value state) {
                  if (!p.peepholes)
                    return v;
                  Value pk = at(bb, ll, p.peepholes,
                                {idx(bb, ll, d), plus(bb, ll, j, k * hidden)});
                  return addf(bb, ll, v, mulf(bb, ll, pk, state));
                };
                Value i = act(bb, ll, 0,
                              withPeep(gateInput(bb, ll, bi, j, 0), 0, cPrev));
                Value f =
                    p.inputForget
                        ? arith::SubFOp::create(bb, ll, one, i).getResult()
                        : act(bb, ll, 0,
                              withPeep(gateInput(bb, ll, bi, j, 2), 2, cPrev));
                Value cc = act(bb, ll, 1, gateInput(bb, ll, bi, j, 3));
                cNew =
                    addf(bb, ll, mulf(bb, ll, f, cPrev), mulf(bb, ll, i, cc));
                Value o = act(bb, ll, 0,
                              withPeep(gateInput(bb, ll, bi, j, 1), 1, cNew));
                hNew = mulf(bb, ll, o, act(bb, ll, 2, cNew));
              } else { // GRU: gates z, r, h
                Value z = act(bb, ll, 0, gateInput(bb, ll, bi, j, 0));
                Value xh = at(bb, ll, xw, {t, bi, plus(bb, ll, j, 2 * hidden)});
                Value hh;
                if (twoStep) {
                  hh = act(bb, ll, 1,
                           addf(bb, ll, xh, at(bb, ll, acc2, {bi, j})));
                } else {
                  Value rg = act(bb, ll, 0, gateInput(bb, ll, bi, j, 1));
                  Value rec =
                      at(bb, ll, acc, {bi, plus(bb, ll, j, 2 * hidden)});
                  if (p.bias)
                    rec = addf(
                        bb, ll, rec,
                        at(bb, ll, p.bias,
                           {idx(bb, ll, d), plus(bb, ll, j, gh + 2 * hidden)}));
                  hh = act(bb, ll, 1, addf(bb, ll, xh, mulf(bb, ll, rg, rec)));
                }
                // (1 - z) * hh + z * H
                hNew = addf(
                    bb, ll,
                    mulf(bb, ll, arith::SubFOp::create(bb, ll, one, z), hh),
                    mulf(bb, ll, z, prevH()));
              }
              Value hOut = hNew, cOut = cNew, yOut = hNew;
              if (p.masked) {
                // Past the sequence's end: keep the states, Y gets 0.
                Value len = arith::IndexCastOp::create(
                    bb, ll, bb.getIndexType(), at(bb, ll, p.lens, {bi}));
                Value active = arith::CmpIOp::create(
                    bb, ll, arith::CmpIPredicate::slt, s, len);
                hOut = arith::SelectOp::create(bb, ll, active, hNew, prevH());
                if (cNew)
                  cOut = arith::SelectOp::create(bb, ll, active, cNew, cPrev);
                yOut = arith::SelectOp::create(bb, ll, active, hNew,
                                               constantScalar(bb, ll, elem, 0));
              }
              st = tensor::InsertOp::create(bb, ll, hOut, st, hAt);
              if (cNew)
                st = tensor::InsertOp::create(bb, ll, cOut, st, cAt);
              SmallVector<Value> result = {st};
              if (p.needY) {
                Value dIdx = idx(bb, ll, d);
                SmallVector<Value> yAt =
                    yTemp ? SmallVector<Value>{s, idx(bb, ll, 0), bi, j}
                    : p.batchFirst ? SmallVector<Value>{bi, t, dIdx, j}
                                   : SmallVector<Value>{t, dIdx, bi, j};
                result.push_back(
                    tensor::InsertOp::create(bb, ll, yOut, it.back(), yAt));
              }
              return result;
            });
        SmallVector<Value> yields(updated);
        yields.push_back(acc);
        if (acc2)
          yields.push_back(acc2);
        scf::YieldOp::create(nb, l, yields);
      });
  // ONNX's recurrences run each sample on its own: the body indexes every
  // batched value by the sample it computes.
  loop->setAttr(tcc::attr::kSamplesApart, b.getUnitAttr());

  DirectionResult result;
  Value finalStates = loop.getResult(0);
  result.h = slice(b, loc, finalStates, {0, 0, 0}, {1, batch, hidden},
                   {batch, hidden});
  if (p.cell == Cell::LSTM)
    result.c = slice(b, loc, finalStates, {1, 0, 0}, {1, batch, hidden},
                     {batch, hidden});
  result.y = y;
  if (p.needY) {
    result.y = loop.getResult(1);
    if (yTemp) {
      auto flat = RankedTensorType::get({seq, batch, hidden}, elem);
      Value temp = tensor::CollapseShapeOp::create(
          b, loc, flat, result.y,
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
      Value back = reverseSequences(b, loc, temp, p.lens, p.batchFirst);
      result.y =
          p.batchFirst
              ? insert(b, loc, back, y, {0, 0, d, 0}, {batch, seq, 1, hidden})
              : insert(b, loc, back, y, {0, d, 0, 0}, {seq, 1, batch, hidden});
    }
  }
  return result;
}

LogicalResult lowerRecurrence(Operation *op, Recurrence &p,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  for (Value v : {p.x, p.w, p.r}) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return op->emitOpError() << "with dynamic shapes is not supported yet";
  }
  SmallVector<RankedTensorType> resultTypes;
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape())
      return op->emitOpError() << "with dynamic shapes is not supported yet";
    resultTypes.push_back(type);
  }
  // 16-bit floats are computed in f32 (operands widened, results rounded
  // once at the end).
  Type elem = cast<RankedTensorType>(p.x.getType()).getElementType();
  Type compute = accumulatorType(elem);
  auto convert = [&](Value v, Type to) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() == to)
      return v;
    return buildElementwise(rewriter, loc, type.clone(to), {v},
                            [&](OpBuilder &b, Location l, ValueRange args) {
                              return castScalar(b, l, args[0], false, to,
                                                false);
                            });
  };
  for (Value *v : {&p.x, &p.w, &p.r, &p.bias, &p.initH, &p.initC, &p.peepholes})
    if (*v)
      *v = convert(*v, compute);
  auto xType = cast<RankedTensorType>(p.x.getType());
  Value x = p.x;
  if (p.batchFirst) {
    SmallVector<int64_t> shape = {xType.getDimSize(1), xType.getDimSize(0),
                                  xType.getDimSize(2)};
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, compute);
    x = linalg::TransposeOp::create(rewriter, loc, x, empty,
                                    ArrayRef<int64_t>{1, 0, 2})
            ->getResult(0);
  }
  int64_t directions = p.direction == "bidirectional" ? 2 : 1;
  auto newEmpty = [&](RankedTensorType type) -> Value {
    return tensor::EmptyOp::create(rewriter, loc, type.getShape(), compute);
  };
  Value y = newEmpty(resultTypes[0]);
  Value yh = newEmpty(resultTypes[1]);
  Value yc = p.cell == Cell::LSTM ? newEmpty(resultTypes[2]) : Value();
  int64_t batch = cast<RankedTensorType>(x.getType()).getDimSize(1);
  int64_t hidden = resultTypes[1].getDimSize(2);
  for (int64_t d = 0; d < directions; ++d) {
    DirectionResult r = lowerDirection(rewriter, loc, p, d, x, y);
    y = r.y;
    auto put = [&](Value state, Value dest) {
      return p.batchFirst ? insert(rewriter, loc, state, dest, {0, d, 0},
                                   {batch, 1, hidden})
                          : insert(rewriter, loc, state, dest, {d, 0, 0},
                                   {1, batch, hidden});
    };
    yh = put(r.h, yh);
    if (yc)
      yc = put(r.c, yc);
  }
  SmallVector<Value> results = {y, yh};
  if (yc)
    results.push_back(yc);
  for (Value &result : results)
    result = convert(result, elem);
  rewriter.replaceOp(op, results);
  return success();
}

Value orNull(Value v) { return isa<NoneType>(v.getType()) ? Value() : v; }

template <typename OnnxOp>
struct RecurrentPattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Recurrence p;
    SmallVector<StringRef> defaults;
    if constexpr (std::is_same_v<OnnxOp, onnx::RNNOp>) {
      p.cell = Cell::RNN;
      defaults = {"Tanh"};
    } else if constexpr (std::is_same_v<OnnxOp, onnx::GRUOp>) {
      p.cell = Cell::GRU;
      defaults = {"Sigmoid", "Tanh"};
      p.linearBeforeReset = op.getLinearBeforeReset() != 0;
    } else {
      p.cell = Cell::LSTM;
      defaults = {"Sigmoid", "Tanh", "Tanh"};
      p.initC = orNull(adaptor.getInitialC());
      p.peepholes = orNull(adaptor.getP());
      p.inputForget = op.getInputForget() != 0;
    }
    p.x = adaptor.getX();
    p.w = adaptor.getW();
    p.r = adaptor.getR();
    p.bias = orNull(adaptor.getB());
    p.lens = orNull(adaptor.getSequenceLens());
    p.initH = orNull(adaptor.getInitialH());
    p.direction = op.getDirection();
    p.batchFirst = op.getLayout() == 1;
    if (auto clip = op.getClip())
      p.clip = clip->convertToDouble();
    p.needY = !op.getY().use_empty();
    int64_t directions = p.direction == "bidirectional" ? 2 : 1;
    auto acts = onnx::resolveRecurrentActivations(op, directions, defaults);
    if (failed(acts))
      return failure();
    p.activations = std::move(*acts);
    p.masked = false;
    if (p.lens) {
      auto x = cast<RankedTensorType>(p.x.getType());
      int64_t seq = x.getDimSize(p.batchFirst ? 1 : 0);
      auto values = onnx::getConstantIntValues(op.getSequenceLens());
      p.masked =
          !values || llvm::any_of(*values, [&](int64_t v) { return v != seq; });
    }
    return lowerRecurrence(op, p, rewriter);
  }
};

} // namespace

void tcc::onnx_to_linalg::populateRecurrentPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RecurrentPattern<onnx::RNNOp>, RecurrentPattern<onnx::GRUOp>,
               RecurrentPattern<onnx::LSTMOp>>(converter,
                                               patterns.getContext());
}
