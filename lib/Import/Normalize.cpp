//===- Normalize.cpp - ONNX node forms of older opsets, made current ------===//
#include "Normalize.h"

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

/// Opsets before 7 marked inputs as consumed and had a test-mode flag;
/// neither matters for inference.
void dropLegacyAttributes(NodeBuild &nb) {
  nb.state.attributes.erase("consumed_inputs");
  if (nb.opset < 7)
    nb.state.attributes.erase("is_test");
}

/// Add/Sub/Mul/Div (and Gemm's C) before opset 7: `broadcast=1` aligns B
/// with A at `axis` (default: the trailing dims). Reshaping B with trailing
/// 1s gives the same numpy broadcast.
LogicalResult legacyBroadcast(NodeBuild &nb) {
  Attribute broadcast = nb.state.attributes.erase("broadcast");
  Attribute axisAttr = nb.state.attributes.erase("axis");
  if (!broadcast || cast<IntegerAttr>(broadcast).getInt() == 0 || !axisAttr)
    return success();
  auto a = dyn_cast<RankedTensorType>(nb.state.operands[0].getType());
  auto bType = dyn_cast<RankedTensorType>(nb.state.operands[1].getType());
  if (!a || !bType || !bType.hasStaticShape())
    return nb.error() << "legacy broadcasting needs ranked, static operands";
  int64_t axis = cast<IntegerAttr>(axisAttr).getInt();
  if (axis < 0)
    axis += a.getRank();
  int64_t trailing = a.getRank() - axis - bType.getRank();
  if (trailing < 0)
    return nb.error() << "broadcast axis " << axis << " does not fit";
  if (trailing == 0)
    return success();
  SmallVector<int64_t> shape(bType.getShape());
  shape.append(trailing, 1);
  auto reshaped = tcc::onnx::ReshapeOp::create(
      nb.b, nb.loc, UnrankedTensorType::get(bType.getElementType()),
      nb.state.operands[1], nb.i64Constant(shape), nb.b.getI64IntegerAttr(0));
  if (failed(reshaped.inferShapes()))
    return failure();
  nb.state.operands[1] = reshaped.getResult();
  return success();
}

/// Softmax before opset 13 works on the input flattened to 2-d at `axis`
/// (default 1): Flatten, softmax over dim 1, Reshape back.
LogicalResult coercedSoftmax(NodeBuild &nb) {
  if (nb.opset >= 13)
    return success();
  auto in = dyn_cast<RankedTensorType>(nb.state.operands[0].getType());
  Attribute axisAttr = nb.state.attributes.get("axis");
  int64_t axis = axisAttr ? cast<IntegerAttr>(axisAttr).getInt() : 1;
  if (!in)
    return nb.error() << "needs a ranked input";
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
  if (failed(flat.inferShapes()))
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

/// Clip before opset 11 had min/max attributes.
LogicalResult clip(NodeBuild &nb) {
  if (nb.opset >= 11)
    return success();
  Type elem = getElementTypeOrSelf(nb.state.operands[0]);
  nb.padOperands(3);
  const char *bounds[] = {"min", "max"};
  for (auto [index, bound] : llvm::enumerate(bounds)) {
    Attribute v = nb.state.attributes.erase(bound);
    if (!v)
      continue;
    auto type = RankedTensorType::get({}, elem);
    nb.state.operands[index + 1] = nb.constant(DenseElementsAttr::get(
        type, nb.b.getFloatAttr(elem, cast<FloatAttr>(v).getValueAsDouble())));
  }
  return success();
}

/// Dropout before opset 12 had a `ratio` attribute (irrelevant at inference).
LogicalResult dropout(NodeBuild &nb) {
  nb.state.attributes.erase("ratio");
  nb.padOperands(3);
  return success();
}

/// BatchNormalization before opset 9 had `spatial` (1: per channel).
LogicalResult batchNorm(NodeBuild &nb) {
  Attribute spatial = nb.state.attributes.erase("spatial");
  if (spatial && cast<IntegerAttr>(spatial).getInt() != 1)
    return nb.error() << "spatial=0 is not supported";
  return success();
}

/// Reshape before opset 5 had a `shape` attribute.
LogicalResult reshape(NodeBuild &nb) {
  if (nb.state.attributes.get("shape"))
    nb.attributeToInput("shape", 1);
  return success();
}

/// Concat before opset 4 defaulted to axis 1.
LogicalResult concat(NodeBuild &nb) {
  if (!nb.state.attributes.get("axis"))
    nb.state.attributes.set("axis", nb.b.getI64IntegerAttr(1));
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
  if (Attribute value = nb.state.attributes.erase("value")) {
    Type elem = getElementTypeOrSelf(nb.state.operands[0]);
    double v = cast<FloatAttr>(value).getValueAsDouble();
    Attribute scalar = isa<FloatType>(elem)
                           ? Attribute(nb.b.getFloatAttr(elem, v))
                           : Attribute(nb.b.getIntegerAttr(elem, (int64_t)v));
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
      {"BatchNormalization", batchNorm},
      {"Clip", clip},
      {"Concat", concat},
      {"Div", legacyBroadcast},
      {"Dropout", dropout},
      {"Gemm", legacyBroadcast},
      {"Mul", legacyBroadcast},
      {"Pad", pad},
      {"Reshape", reshape},
      {"Slice", slice},
      {"Softmax", coercedSoftmax},
      {"Split", split},
      {"Squeeze", axesToInput},
      {"Sub", legacyBroadcast},
      {"Unsqueeze", axesToInput},
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

unsigned tcc::import::numResults(const ::onnx::NodeProto &node) {
  // Split has one result per output the node names.
  if (node.op_type() == "Split")
    return std::max(1, node.output_size());
  return 1;
}
