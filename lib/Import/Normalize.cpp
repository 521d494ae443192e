//===- Normalize.cpp - ONNX node forms of older opsets, made current ------===//
#include "Normalize.h"

#include "mlir/IR/Verifier.h"

#include <algorithm>

#include "dialects/ONNX/ONNXOps.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tcc::import;

InFlightDiagnostic NodeBuild::error() {
  return emitError(loc) << "node '" << name << "' (" << node.op_type()
                        << ", opset " << opset << "): ";
}

Value NodeBuild::noValue() {
  return tcc::onnx::NoValueOp::create(b, loc, b.getNoneType()).getResult();
}

Value NodeBuild::constant(ElementsAttr value) {
  return tcc::onnx::ConstantOp::create(b, loc, value.getType(), value)
      .getResult();
}

Value NodeBuild::i64Constant(ArrayRef<int64_t> values, bool scalar) {
  SmallVector<int64_t> shape;
  if (!scalar)
    shape.push_back(values.size());
  auto type = RankedTensorType::get(shape, b.getI64Type());
  return constant(DenseElementsAttr::get(type, values));
}

LogicalResult NodeBuild::requireInputs(size_t count) {
  if (state.operands.size() < count)
    return error() << "takes at least " << count << " input"
                   << (count == 1 ? "" : "s") << ", got "
                   << state.operands.size();
  for (size_t i = 0; i < count; ++i)
    if (!isa<TensorType>(state.operands[i].getType()))
      return error() << "input " << i << " is required, but it is empty";
  return success();
}

void NodeBuild::padOperands(size_t count) {
  while (state.operands.size() < count)
    state.operands.push_back(noValue());
}

void NodeBuild::attributeToInput(StringRef attr, size_t index) {
  padOperands(index + 1);
  Attribute value = state.attributes.erase(attr);
  if (auto ints = dyn_cast_or_null<DenseI64ArrayAttr>(value))
    state.operands[index] = i64Constant(ints.asArrayRef());
}

namespace {

using Normalizer = LogicalResult (*)(NodeBuild &);

/// `attr`, attribute `name` of the node, as `T` (null when absent), or an
/// error naming the node when it is of another kind: the ops ONNX's
/// schemas lack (GroupNormalization before libonnx knew it) reach their
/// normalizer with their attributes' kinds unchecked.
template <typename T>
FailureOr<T> attrAs(NodeBuild &nb, Attribute attr, StringRef name) {
  if (!attr)
    return T();
  if (auto typed = dyn_cast<T>(attr))
    return typed;
  const char *kind = std::is_same_v<T, IntegerAttr> ? "an int"
                     : std::is_same_v<T, FloatAttr> ? "a float"
                                                    : "a string";
  return nb.error() << "attribute '" << name << "' must be " << kind;
}

/// Verifies an op a normalizer made from the node's values, then infers its
/// shape: shape inference takes a verified op (an axis in range).
LogicalResult verifyAndInfer(tcc::onnx::ShapeInferenceOpInterface op) {
  return failure(failed(mlir::verify(op)) || failed(op.inferShapes()));
}

/// Opsets before 7 marked inputs as consumed and had a test-mode flag;
/// neither matters for inference.
void dropLegacyAttributes(NodeBuild &nb) {
  nb.state.attributes.erase("consumed_inputs");
  if (nb.opset < 7)
    nb.state.attributes.erase("is_test");
}

/// Reshapes operand `index` (static) to its shape followed by `count` 1s.
LogicalResult appendUnitDims(NodeBuild &nb, size_t index, int64_t count) {
  auto type = dyn_cast<RankedTensorType>(nb.state.operands[index].getType());
  if (!type || !type.hasStaticShape())
    return nb.error() << "legacy broadcasting needs ranked, static operands";
  SmallVector<int64_t> shape(type.getShape());
  shape.append(count, 1);
  auto reshaped = tcc::onnx::ReshapeOp::create(
      nb.b, nb.loc, UnrankedTensorType::get(type.getElementType()),
      nb.state.operands[index], nb.i64Constant(shape),
      nb.b.getI64IntegerAttr(0));
  if (failed(verifyAndInfer(reshaped)))
    return failure();
  nb.state.operands[index] = reshaped.getResult();
  return success();
}

/// Binary ops before opset 7 (Add/Sub/Mul/Div, Pow, And/Or/Xor, the
/// comparisons; and Gemm's C): `broadcast=1` aligns B
/// with A at `axis` (default: the trailing dims). Reshaping B with trailing
/// 1s gives the same numpy broadcast.
LogicalResult legacyBroadcast(NodeBuild &nb) {
  FailureOr<IntegerAttr> broadcast = attrAs<IntegerAttr>(
      nb, nb.state.attributes.erase("broadcast"), "broadcast");
  FailureOr<IntegerAttr> axisAttr =
      attrAs<IntegerAttr>(nb, nb.state.attributes.erase("axis"), "axis");
  if (failed(broadcast) || failed(axisAttr))
    return failure();
  if (!*broadcast || broadcast->getInt() == 0 || !*axisAttr)
    return success();
  if (failed(nb.requireInputs(2)))
    return failure();
  auto a = dyn_cast<RankedTensorType>(nb.state.operands[0].getType());
  auto bType = dyn_cast<RankedTensorType>(nb.state.operands[1].getType());
  if (!a || !bType || !bType.hasStaticShape())
    return nb.error() << "legacy broadcasting needs ranked, static operands";
  int64_t axis = axisAttr->getInt();
  if (axis < 0)
    axis += a.getRank();
  int64_t trailing = a.getRank() - axis - bType.getRank();
  if (trailing < 0)
    return nb.error() << "broadcast axis " << axis << " does not fit";
  if (trailing == 0)
    return success();
  return appendUnitDims(nb, 1, trailing);
}

/// PRelu before opset 7: a slope of shape [C] is per channel (dim 1 of X),
/// as PyTorch exports it; numpy broadcasting needs it as [C, 1, ...].
LogicalResult legacyPRelu(NodeBuild &nb) {
  if (nb.opset >= 7)
    return success();
  if (failed(nb.requireInputs(2)))
    return failure();
  auto x = dyn_cast<RankedTensorType>(nb.state.operands[0].getType());
  auto slope = dyn_cast<RankedTensorType>(nb.state.operands[1].getType());
  if (!x || !slope || slope.getRank() != 1 || x.getRank() < 3 ||
      slope.getDimSize(0) == 1 || slope.getDimSize(0) != x.getDimSize(1))
    return success();
  return appendUnitDims(nb, 1, x.getRank() - 2);
}

/// Softmax, LogSoftmax and Hardmax before opset 13 work on the input
/// flattened to 2-d at `axis` (default 1): Flatten, the op over dim 1,
/// Reshape back.
LogicalResult coercedSoftmax(NodeBuild &nb) {
  if (nb.opset >= 13)
    return success();
  if (failed(nb.requireInputs(1)))
    return failure();
  auto in = dyn_cast<RankedTensorType>(nb.state.operands[0].getType());
  FailureOr<IntegerAttr> axisAttr =
      attrAs<IntegerAttr>(nb, nb.state.attributes.get("axis"), "axis");
  if (failed(axisAttr))
    return failure();
  int64_t axis = *axisAttr ? axisAttr->getInt() : 1;
  if (!in)
    return nb.error() << "needs a ranked input";
  if (axis < -in.getRank() || axis >= in.getRank())
    return nb.error() << "axis " << axis << " is out of range [" << -in.getRank()
                      << ", " << in.getRank() - 1 << "] for rank "
                      << in.getRank();
  if (axis < 0)
    axis += in.getRank();
  nb.state.attributes.set("axis", nb.b.getI64IntegerAttr(-1));
  if (axis == in.getRank() - 1)
    return success();
  if (!in.hasStaticShape())
    return nb.error() << "with axis " << axis << " needs a static shape";
  auto flat = tcc::onnx::FlattenOp::create(
      nb.b, nb.loc, UnrankedTensorType::get(in.getElementType()),
      nb.state.operands[0], nb.b.getI64IntegerAttr(axis));
  if (failed(verifyAndInfer(flat)))
    return failure();
  nb.state.operands[0] = flat.getResult();
  SmallVector<int64_t> shape(in.getShape());
  nb.post = [&nb, shape](Value result) -> Value {
    auto reshaped = tcc::onnx::ReshapeOp::create(
        nb.b, nb.loc, UnrankedTensorType::get(getElementTypeOrSelf(result)),
        result, nb.i64Constant(shape), nb.b.getI64IntegerAttr(0));
    (void)reshaped.inferShapes();
    return reshaped.getResult();
  };
  return success();
}

/// Reduce* ops took `axes` as an attribute before opset 18 (ReduceSum: 13);
/// the dialect takes it as input 1 (absent: `none`).
LogicalResult reduction(NodeBuild &nb) {
  if (nb.state.attributes.get("axes"))
    nb.attributeToInput("axes", 1);
  nb.padOperands(2);
  return success();
}

/// GroupNormalization before opset 21 took scale and bias per group; the
/// dialect takes them per channel: constant ones are repeated C/G times.
LogicalResult groupNorm(NodeBuild &nb) {
  if (nb.opset >= 21)
    return success();
  if (failed(nb.requireInputs(3)))
    return failure();
  auto x = dyn_cast<RankedTensorType>(nb.state.operands[0].getType());
  FailureOr<IntegerAttr> groupsAttr = attrAs<IntegerAttr>(
      nb, nb.state.attributes.get("num_groups"), "num_groups");
  if (failed(groupsAttr))
    return failure();
  if (!x || x.getRank() < 2 || x.isDynamicDim(1) || !*groupsAttr)
    return nb.error() << "needs a ranked input with static channels";
  int64_t channels = x.getDimSize(1);
  int64_t groups = groupsAttr->getInt();
  if (groups <= 0 || channels % groups != 0)
    return nb.error() << "num_groups " << groups << " does not divide "
                      << channels << " channels";
  for (size_t i : {1, 2}) {
    std::optional<SmallVector<float>> values =
        tcc::onnx::getConstantFloats(nb.state.operands[i]);
    if (!values || (int64_t)values->size() != groups)
      return nb.error() << "per-group scale and bias (opset < 21) must be "
                           "f32 constants of "
                        << groups << " values";
    SmallVector<float> perChannel;
    for (float v : *values)
      perChannel.append(channels / groups, v);
    auto type = RankedTensorType::get({channels}, nb.b.getF32Type());
    nb.state.operands[i] =
        nb.constant(DenseElementsAttr::get(type, ArrayRef<float>(perChannel)));
  }
  return success();
}

/// TopK before opset 10 had `k` as an attribute.
LogicalResult topK(NodeBuild &nb) {
  FailureOr<IntegerAttr> k =
      attrAs<IntegerAttr>(nb, nb.state.attributes.erase("k"), "k");
  if (failed(k))
    return failure();
  nb.padOperands(2);
  if (*k)
    nb.state.operands[1] = nb.i64Constant({k->getInt()});
  return success();
}

/// Clip before opset 11 had min/max attributes.
LogicalResult clip(NodeBuild &nb) {
  if (nb.opset >= 11)
    return success();
  if (failed(nb.requireInputs(1)))
    return failure();
  Type elem = getElementTypeOrSelf(nb.state.operands[0]);
  if (!isa<FloatType>(elem))
    return nb.error() << "(opset " << nb.opset << ") clips floats, not "
                      << elem;
  nb.padOperands(3);
  const char *bounds[] = {"min", "max"};
  for (auto [index, bound] : llvm::enumerate(bounds)) {
    FailureOr<FloatAttr> v =
        attrAs<FloatAttr>(nb, nb.state.attributes.erase(bound), bound);
    if (failed(v))
      return failure();
    if (!*v)
      continue;
    auto type = RankedTensorType::get({}, elem);
    nb.state.operands[index + 1] = nb.constant(DenseElementsAttr::get(
        type, nb.b.getFloatAttr(elem, v->getValueAsDouble())));
  }
  return success();
}

/// Dropout before opset 12 had a `ratio` attribute (irrelevant at inference).
LogicalResult dropout(NodeBuild &nb) {
  nb.state.attributes.erase("ratio");
  nb.padOperands(3);
  return success();
}

/// Attention (opset 23) has no nonpad_kv_seqlen; libonnx may not know the
/// op at all, so its optional inputs are padded here.
LogicalResult attention(NodeBuild &nb) {
  nb.padOperands(7);
  return success();
}

/// RotaryEmbedding (opset 23): libonnx may not know the op, so its
/// optional position_ids is padded here.
LogicalResult rotaryEmbedding(NodeBuild &nb) {
  nb.padOperands(4);
  return success();
}

/// DFT before opset 20 took `axis` as an attribute (default 1); the dialect
/// takes it as input 2 (absent: -2, the newest default).
LogicalResult dft(NodeBuild &nb) {
  nb.padOperands(2);
  if (nb.opset < 20) {
    FailureOr<IntegerAttr> axis =
        attrAs<IntegerAttr>(nb, nb.state.attributes.erase("axis"), "axis");
    if (failed(axis))
      return failure();
    int64_t value = *axis ? axis->getInt() : 1;
    nb.state.operands.push_back(nb.i64Constant({value}, /*scalar=*/true));
  }
  nb.padOperands(3);
  return success();
}

/// BatchNormalization before opset 9 had `spatial` (1: per channel).
LogicalResult batchNorm(NodeBuild &nb) {
  FailureOr<IntegerAttr> spatial =
      attrAs<IntegerAttr>(nb, nb.state.attributes.erase("spatial"), "spatial");
  if (failed(spatial))
    return failure();
  if (*spatial && spatial->getInt() != 1)
    return nb.error() << "spatial=0 is not supported";
  return success();
}

/// Reshape before opset 5 had a `shape` attribute.
LogicalResult reshape(NodeBuild &nb) {
  if (nb.state.attributes.get("shape"))
    nb.attributeToInput("shape", 1);
  return success();
}

/// Cast before opset 6 named its target type (`to = "FLOAT"`).
LogicalResult cast(NodeBuild &nb) {
  auto name = dyn_cast_or_null<StringAttr>(nb.state.attributes.get("to"));
  if (!name)
    return success();
  ::onnx::TensorProto::DataType dtype;
  if (!::onnx::TensorProto::DataType_Parse(name.str(), &dtype))
    return nb.error() << "unknown data type '" << name.getValue() << "'";
  nb.state.attributes.set("to", nb.b.getI64IntegerAttr(dtype));
  return success();
}

/// Concat before opset 4 defaulted to axis 1.
LogicalResult concat(NodeBuild &nb) {
  if (!nb.state.attributes.get("axis"))
    nb.state.attributes.set("axis", nb.b.getI64IntegerAttr(1));
  return success();
}

/// Resize-10 (X, scales) and Upsample (scales attribute in opset 7, input
/// in 9) used asymmetric coordinates and floor for nearest; both become the
/// opset 11+ Resize(X, roi, scales, sizes).
LogicalResult legacyResize(NodeBuild &nb) {
  bool upsample = nb.node.op_type() == "Upsample";
  if (!upsample && nb.opset >= 11)
    return success();
  if (upsample && nb.opset < 7)
    return nb.error() << "Upsample before opset 7 is not supported";
  if (failed(nb.requireInputs(1)))
    return failure();
  Value x = nb.state.operands[0];
  Value scales;
  if (Attribute attr = nb.state.attributes.erase("scales")) {
    auto floats = dyn_cast<DenseF32ArrayAttr>(attr);
    if (!floats)
      return nb.error() << "attribute 'scales' must be floats";
    ArrayRef<float> values = floats.asArrayRef();
    auto type = RankedTensorType::get({(int64_t)values.size()},
                                      nb.b.getF32Type());
    scales = nb.constant(DenseElementsAttr::get(type, values));
  } else if (nb.state.operands.size() > 1) {
    scales = nb.state.operands[1];
  } else {
    return nb.error() << "has no scales";
  }
  nb.state.operands.assign({x, nb.noValue(), scales, nb.noValue()});
  nb.state.attributes.set("coordinate_transformation_mode",
                          nb.b.getStringAttr("asymmetric"));
  FailureOr<StringAttr> mode =
      attrAs<StringAttr>(nb, nb.state.attributes.get("mode"), "mode");
  if (failed(mode))
    return failure();
  if (!*mode || mode->getValue() == "nearest")
    nb.state.attributes.set("nearest_mode", nb.b.getStringAttr("floor"));
  else if (mode->getValue() == "bilinear")
    nb.state.attributes.set("mode", nb.b.getStringAttr("linear"));
  return success();
}

/// GridSample-16 named its modes bilinear and bicubic (opset 20: linear,
/// cubic).
LogicalResult gridSample(NodeBuild &nb) {
  auto mode = dyn_cast_or_null<StringAttr>(nb.state.attributes.get("mode"));
  if (!mode)
    return success();
  if (mode.getValue() == "bilinear")
    nb.state.attributes.set("mode", nb.b.getStringAttr("linear"));
  else if (mode.getValue() == "bicubic")
    nb.state.attributes.set("mode", nb.b.getStringAttr("cubic"));
  return success();
}

/// RoiAlign before opset 16 had no coordinate_transformation_mode and
/// worked as output_half_pixel (16's name for it; its default is
/// half_pixel).
LogicalResult roiAlign(NodeBuild &nb) {
  if (nb.opset < 16 &&
      !nb.state.attributes.get("coordinate_transformation_mode"))
    nb.state.attributes.set("coordinate_transformation_mode",
                            nb.b.getStringAttr("output_half_pixel"));
  return success();
}

/// Squeeze and Unsqueeze before opset 13 had an `axes` attribute.
LogicalResult axesToInput(NodeBuild &nb) {
  if (nb.state.attributes.get("axes"))
    nb.attributeToInput("axes", 1);
  return success();
}

/// Slice before opset 10 had starts/ends/axes attributes (and no steps).
LogicalResult slice(NodeBuild &nb) {
  if (!nb.state.attributes.get("starts"))
    return success();
  nb.attributeToInput("starts", 1);
  nb.attributeToInput("ends", 2);
  nb.attributeToInput("axes", 3);
  nb.padOperands(5);
  return success();
}

/// Split before opset 13 had a `split` attribute.
LogicalResult split(NodeBuild &nb) {
  if (nb.state.attributes.get("split"))
    nb.attributeToInput("split", 1);
  return success();
}

/// Pad before opset 11 had `pads` (`paddings` in Pad-1) and a float `value`
/// attribute; opset 18 added an `axes` input.
LogicalResult pad(NodeBuild &nb) {
  if (Attribute paddings = nb.state.attributes.erase("paddings"))
    nb.state.attributes.set("pads", paddings);
  if (nb.state.attributes.get("pads"))
    nb.attributeToInput("pads", 1);
  FailureOr<FloatAttr> value =
      attrAs<FloatAttr>(nb, nb.state.attributes.erase("value"), "value");
  if (failed(value))
    return failure();
  if (*value) {
    if (failed(nb.requireInputs(1)))
      return failure();
    Type elem = getElementTypeOrSelf(nb.state.operands[0]);
    double v = value->getValueAsDouble();
    if (!isa<FloatType>(elem) && !isa<IntegerType>(elem))
      return nb.error() << "pads a tensor of " << elem;
    // An integer tensor's value, saturated (a double past int64 is UB).
    constexpr double kLimit = 9.2e18;
    Attribute scalar =
        isa<FloatType>(elem)
            ? Attribute(nb.b.getFloatAttr(elem, v))
            : Attribute(nb.b.getIntegerAttr(
                  elem, v != v ? 0 : (int64_t)std::clamp(v, -kLimit, kLimit)));
    nb.padOperands(3);
    nb.state.operands[2] = nb.constant(
        DenseElementsAttr::get(RankedTensorType::get({}, elem), scalar));
  }
  nb.padOperands(4);
  return success();
}

const llvm::StringMap<Normalizer> &normalizers() {
  static const llvm::StringMap<Normalizer> table = {
      {"Add", legacyBroadcast},
      {"And", legacyBroadcast},
      {"Attention", attention},
      {"BatchNormalization", batchNorm},
      {"Cast", cast},
      {"DFT", dft},
      {"Clip", clip},
      {"Concat", concat},
      {"Div", legacyBroadcast},
      {"Dropout", dropout},
      {"Equal", legacyBroadcast},
      {"Gemm", legacyBroadcast},
      {"Greater", legacyBroadcast},
      {"GridSample", gridSample},
      {"GroupNormalization", groupNorm},
      {"Hardmax", coercedSoftmax},
      {"Less", legacyBroadcast},
      {"LogSoftmax", coercedSoftmax},
      {"Mul", legacyBroadcast},
      {"Or", legacyBroadcast},
      {"PRelu", legacyPRelu},
      {"Pad", pad},
      {"Pow", legacyBroadcast},
      {"RoiAlign", roiAlign},
      {"ReduceL1", reduction},
      {"ReduceL2", reduction},
      {"ReduceLogSum", reduction},
      {"ReduceLogSumExp", reduction},
      {"ReduceMax", reduction},
      {"ReduceMean", reduction},
      {"ReduceMin", reduction},
      {"ReduceProd", reduction},
      {"ReduceSum", reduction},
      {"ReduceSumSquare", reduction},
      {"Reshape", reshape},
      {"RotaryEmbedding", rotaryEmbedding},
      {"Resize", legacyResize},
      {"Slice", slice},
      {"Softmax", coercedSoftmax},
      {"Split", split},
      {"Squeeze", axesToInput},
      {"Sub", legacyBroadcast},
      {"TopK", topK},
      {"Unsqueeze", axesToInput},
      {"Upsample", legacyResize},
      {"Xor", legacyBroadcast},
  };
  return table;
}

} // namespace

LogicalResult tcc::import::normalizeNode(NodeBuild &nb) {
  dropLegacyAttributes(nb);
  auto it = normalizers().find(nb.node.op_type());
  if (it == normalizers().end())
    return success();
  return it->second(nb);
}

StringRef tcc::import::dialectOpType(StringRef opType) {
  return opType == "Upsample" ? "Resize" : opType;
}

unsigned tcc::import::numResults(const ::onnx::NodeProto &node) {
  // Split has one result per output the node names.
  if (node.op_type() == "Split")
    return std::max(1, node.output_size());
  // Dropout's mask and MaxPool's Indices are optional results, there when
  // asked for.
  if ((node.op_type() == "Dropout" || node.op_type() == "MaxPool") &&
      node.output_size() >= 2 && !node.output(1).empty())
    return 2;
  static const llvm::StringMap<unsigned> counts = {
      {"Attention", 4}, // Y, present_key, present_value, qk_matmul_output
      {"DynamicQuantizeLinear", 3},   // y, y_scale, y_zero_point
      {"GRU", 2},                     // Y, Y_h
      {"LSTM", 3},                    // Y, Y_h, Y_c
      {"LayerNormalization", 3},      // Y, Mean, InvStdDev
      {"RNN", 2},                     // Y, Y_h
      {"SoftmaxCrossEntropyLoss", 2}, // output, log_prob
      {"TopK", 2},                    // Values, Indices
  };
  auto it = counts.find(node.op_type());
  return it == counts.end() ? 1 : it->second;
}
