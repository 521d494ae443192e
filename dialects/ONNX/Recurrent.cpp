//===- Recurrent.cpp - verifiers and shapes of RNN, GRU and LSTM ----------===//
#include "dialects/ONNX/OpUtils.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

namespace {

/// What distinguishes the three ops: the number of gates (row blocks of W
/// and R) and the default activation functions of one direction.
struct RecurrentKind {
  int64_t gates;
  SmallVector<StringRef> activations;
};

RecurrentKind kindOf(RNNOp) { return {1, {"Tanh"}}; }
RecurrentKind kindOf(GRUOp) { return {3, {"Sigmoid", "Tanh"}}; }
RecurrentKind kindOf(LSTMOp) { return {4, {"Sigmoid", "Tanh", "Tanh"}}; }

/// Dims that are not known on either side match anything.
bool dimsMatch(ArrayRef<int64_t> actual, ArrayRef<int64_t> expected) {
  if (actual.size() != expected.size())
    return false;
  for (auto [a, e] : llvm::zip_equal(actual, expected))
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(e) && a != e)
      return false;
  return true;
}

/// Checks operand `name` (when ranked and present) against `expected`;
/// `what` names its dims for the message.
LogicalResult checkOperand(Operation *op, StringRef name, Value value,
                           ArrayRef<int64_t> expected, StringRef what) {
  auto shape = rankedShape(value);
  if (!shape || dimsMatch(*shape, expected))
    return success();
  return op->emitOpError() << "expects " << name << " of shape "
                           << formatShape(expected) << " (" << what << "), got "
                           << formatShape(*shape);
}

int64_t dimOf(Value v, size_t i) {
  auto shape = rankedShape(v);
  return shape && shape->size() > i ? (*shape)[i] : ShapedType::kDynamic;
}

/// `a` when known, else `b`.
int64_t known(int64_t a, int64_t b) { return ShapedType::isDynamic(a) ? b : a; }

/// Sizes of a recurrent op in layout-0 terms, from whichever operand or
/// attribute knows them (kDynamic when none does).
struct Sizes {
  int64_t seq, batch, input, hidden, directions;
};

template <typename Op> Sizes sizesOf(Op op) {
  int64_t gates = kindOf(op).gates;
  bool batchFirst = op.getLayout() == 1;
  Sizes s;
  s.seq = dimOf(op.getX(), batchFirst ? 1 : 0);
  s.batch = dimOf(op.getX(), batchFirst ? 0 : 1);
  s.input = known(dimOf(op.getX(), 2), dimOf(op.getW(), 2));
  int64_t rows = known(dimOf(op.getW(), 1), dimOf(op.getR(), 1));
  s.hidden = op.getHiddenSize()
                 ? *op.getHiddenSize()
                 : known(dimOf(op.getR(), 2),
                         ShapedType::isDynamic(rows) ? rows : rows / gates);
  s.directions = op.getDirection() == "bidirectional" ? 2 : 1;
  return s;
}

template <typename Op> LogicalResult verifyRecurrent(Op op) {
  RecurrentKind kind = kindOf(op);
  StringRef direction = op.getDirection();
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return op.emitOpError() << "has unknown direction '" << direction
                            << "' (expected forward, reverse or bidirectional)";
  if (op.getLayout() != 0 && op.getLayout() != 1)
    return op.emitOpError()
           << "has layout " << op.getLayout() << ", expected 0 or 1";
  // Bounded, so that the gates' rows (4 * hidden_size) cannot overflow.
  if (op.getHiddenSize() &&
      (*op.getHiddenSize() <= 0 || *op.getHiddenSize() > (int64_t(1) << 32)))
    return op.emitOpError() << "expects a hidden_size from 1 to 2^32, got "
                            << *op.getHiddenSize();
  if (auto clip = op.getClip(); clip && clip->convertToDouble() <= 0)
    return op.emitOpError()
           << "expects a positive clip, got " << clip->convertToDouble();
  Sizes s = sizesOf(op);
  if (failed(resolveRecurrentActivations(op, s.directions, kind.activations)))
    return failure();
  if (auto x = rankedShape(op.getX()); x && x->size() != 3)
    return op.emitOpError() << "expects X of rank 3, got " << formatShape(*x);
  int64_t d = s.directions, h = s.hidden, g = kind.gates;
  int64_t gh = ShapedType::isDynamic(h) ? h : g * h;
  std::string gates = g == 1 ? "" : std::to_string(g) + "*";
  bool batchFirst = op.getLayout() == 1;
  SmallVector<int64_t> state = batchFirst ? SmallVector<int64_t>{s.batch, d, h}
                                          : SmallVector<int64_t>{d, s.batch, h};
  StringRef stateDims = batchFirst ? "batch_size, num_directions, hidden_size"
                                   : "num_directions, batch_size, hidden_size";
  if (failed(checkOperand(op, "W", op.getW(), {d, gh, s.input},
                          "num_directions, " + gates +
                              "hidden_size, input_size")) ||
      failed(checkOperand(op, "R", op.getR(), {d, gh, h},
                          "num_directions, " + gates +
                              "hidden_size, hidden_size")) ||
      failed(checkOperand(
          op, "B", op.getB(), {d, ShapedType::isDynamic(gh) ? gh : 2 * gh},
          "num_directions, " + std::to_string(2 * g) + "*hidden_size")) ||
      failed(checkOperand(op, "sequence_lens", op.getSequenceLens(), {s.batch},
                          "batch_size")) ||
      failed(checkOperand(op, "initial_h", op.getInitialH(), state, stateDims)))
    return failure();
  if (!isa<NoneType>(op.getSequenceLens().getType()) &&
      !getElementTypeOrSelf(op.getSequenceLens()).isInteger(32))
    return op.emitOpError() << "expects int32 sequence_lens, got "
                            << getElementTypeOrSelf(op.getSequenceLens());
  return success();
}

template <typename Op> LogicalResult inferRecurrent(Op op) {
  Type elem = getElementTypeOrSelf(op.getX());
  Sizes s = sizesOf(op);
  bool batchFirst = op.getLayout() == 1;
  if (batchFirst) {
    (void)setShape(op, {s.batch, s.seq, s.directions, s.hidden}, elem, 0);
    for (unsigned i = 1; i < op->getNumResults(); ++i)
      (void)setShape(op, {s.batch, s.directions, s.hidden}, elem, i);
  } else {
    (void)setShape(op, {s.seq, s.directions, s.batch, s.hidden}, elem, 0);
    for (unsigned i = 1; i < op->getNumResults(); ++i)
      (void)setShape(op, {s.directions, s.batch, s.hidden}, elem, i);
  }
  return success();
}

/// Activation functions and the alpha/beta they take (with defaults), as
/// onnxruntime reads them.
struct ActivationInfo {
  bool known, takesAlpha, takesBeta;
  float alpha, beta;
};

ActivationInfo activationInfo(StringRef lower) {
  return llvm::StringSwitch<ActivationInfo>(lower)
      .Case("relu", {true, false, false, 0, 0})
      .Case("tanh", {true, false, false, 0, 0})
      .Case("sigmoid", {true, false, false, 0, 0})
      .Case("softsign", {true, false, false, 0, 0})
      .Case("softplus", {true, false, false, 0, 0})
      .Case("affine", {true, true, true, 1, 0})
      .Case("leakyrelu", {true, true, false, 0.01f, 0})
      .Case("thresholdedrelu", {true, true, false, 1, 0})
      .Case("scaledtanh", {true, true, true, 1, 1})
      .Case("hardsigmoid", {true, true, true, 0.2f, 0.5f})
      .Case("elu", {true, true, false, 1, 0})
      .Default({false, false, false, 0, 0});
}

} // namespace

FailureOr<SmallVector<RecurrentActivation>>
tcc::onnx::resolveRecurrentActivations(Operation *op, int64_t numDirections,
                                       ArrayRef<StringRef> defaults) {
  SmallVector<std::string> names;
  if (auto attr = op->getAttrOfType<ArrayAttr>("activations")) {
    for (Attribute a : attr)
      names.push_back(cast<StringAttr>(a).getValue().lower());
  }
  if (names.empty())
    for (StringRef d : defaults)
      names.push_back(d.lower());
  size_t per = defaults.size();
  if (names.size() == per && numDirections == 2)
    names.append(SmallVector<std::string>(names));
  if ((int64_t)names.size() != (int64_t)per * numDirections)
    return op->emitOpError()
           << "expects " << per * numDirections << " activations (" << per
           << " per direction), got " << names.size();
  ArrayRef<float> alphas, betas;
  if (auto a = op->getAttrOfType<DenseF32ArrayAttr>("activation_alpha"))
    alphas = a.asArrayRef();
  if (auto b = op->getAttrOfType<DenseF32ArrayAttr>("activation_beta"))
    betas = b.asArrayRef();
  SmallVector<RecurrentActivation> result;
  for (const std::string &name : names) {
    ActivationInfo info = activationInfo(name);
    if (!info.known)
      return op->emitOpError()
             << "has unknown activation function '" << name << "'";
    RecurrentActivation act{name, info.alpha, info.beta};
    if (info.takesAlpha && !alphas.empty()) {
      act.alpha = alphas.front();
      alphas = alphas.drop_front();
    }
    if (info.takesBeta && !betas.empty()) {
      act.beta = betas.front();
      betas = betas.drop_front();
    }
    result.push_back(act);
  }
  return result;
}

LogicalResult RNNOp::verify() { return verifyRecurrent(*this); }
LogicalResult GRUOp::verify() {
  if (getLinearBeforeReset() != 0 && getLinearBeforeReset() != 1)
    return emitOpError() << "has linear_before_reset " << getLinearBeforeReset()
                         << ", expected 0 or 1";
  return verifyRecurrent(*this);
}
LogicalResult LSTMOp::verify() {
  if (getInputForget() != 0 && getInputForget() != 1)
    return emitOpError() << "has input_forget " << getInputForget()
                         << ", expected 0 or 1";
  if (failed(verifyRecurrent(*this)))
    return failure();
  Sizes s = sizesOf(*this);
  bool batchFirst = getLayout() == 1;
  SmallVector<int64_t> state =
      batchFirst ? SmallVector<int64_t>{s.batch, s.directions, s.hidden}
                 : SmallVector<int64_t>{s.directions, s.batch, s.hidden};
  return failure(
      failed(checkOperand(*this, "initial_c", getInitialC(), state,
                          batchFirst
                              ? "batch_size, num_directions, hidden_size"
                              : "num_directions, batch_size, hidden_size")) ||
      failed(checkOperand(*this, "P", getP(),
                          {s.directions, ShapedType::isDynamic(s.hidden)
                                             ? s.hidden
                                             : 3 * s.hidden},
                          "num_directions, 3*hidden_size")));
}

LogicalResult RNNOp::inferShapes() { return inferRecurrent(*this); }
LogicalResult GRUOp::inferShapes() { return inferRecurrent(*this); }
LogicalResult LSTMOp::inferShapes() { return inferRecurrent(*this); }
