//===- ModelMutator.cpp - structure-aware mutations of ONNX models --------===//
#include "ModelMutator.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

using Rng = std::minstd_rand;

template <typename T> const T &pick(Rng &rng, const std::vector<T> &v) {
  return v[rng() % v.size()];
}

/// Sizes and indices at the edges: zero, one, negatives, powers of two
/// around 32-bit and 64-bit overflow.
int64_t interestingInt(Rng &rng) {
  static const std::vector<int64_t> values = {
      0, 1, 2, 3, 4, 7, 8, 16, 64, -1, -2, -3, 255, 256, 65536,
      int64_t(1) << 31, int64_t(1) << 32, int64_t(1) << 40, int64_t(1) << 62,
      std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
      std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()};
  return rng() % 4 ? pick(rng, values) : int64_t(rng() % 17) - 8;
}

float interestingFloat(Rng &rng) {
  static const std::vector<float> values = {
      0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-30f, 1e30f, 3.4e38f,
      std::numeric_limits<float>::infinity(),
      -std::numeric_limits<float>::infinity(),
      std::numeric_limits<float>::quiet_NaN()};
  return pick(rng, values);
}

std::string interestingString(Rng &rng) {
  static const std::vector<std::string> values = {
      "", "x", "*/", "/*", "a b", "N", "batch", "??/", "\n#error x\n",
      "\xff\xfe", "constant", "NOTSET", "SAME_UPPER", "reflect", "linear",
      "nearest", "../w.bin", "/etc/passwd", std::string(300, 'a')};
  return pick(rng, values);
}

/// Every value name the graph defines or reads, to rewire nodes with.
std::vector<std::string> valueNames(const onnx::GraphProto &g) {
  std::vector<std::string> names;
  for (const auto &v : g.input())
    names.push_back(v.name());
  for (const auto &t : g.initializer())
    names.push_back(t.name());
  for (const auto &n : g.node())
    for (const auto &o : n.output())
      names.push_back(o);
  names.push_back("");
  names.push_back("nowhere");
  return names;
}

/// The value infos of the graph: inputs, outputs and value_info.
std::vector<onnx::ValueInfoProto *> valueInfos(onnx::GraphProto &g) {
  std::vector<onnx::ValueInfoProto *> infos;
  for (auto &v : *g.mutable_input())
    infos.push_back(&v);
  for (auto &v : *g.mutable_output())
    infos.push_back(&v);
  for (auto &v : *g.mutable_value_info())
    infos.push_back(&v);
  return infos;
}

void mutateTensor(onnx::TensorProto &t, Rng &rng) {
  switch (rng() % 6) {
  case 0:
    if (t.dims_size())
      t.set_dims(rng() % t.dims_size(), interestingInt(rng));
    else
      t.add_dims(interestingInt(rng));
    break;
  case 1:
    t.set_data_type(rng() % 4 ? rng() % 17 : rng());
    break;
  case 2:
    if (t.has_raw_data())
      t.mutable_raw_data()->resize(rng() % (t.raw_data().size() + 16));
    break;
  case 3:
    t.clear_dims();
    break;
  case 4: {
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    auto *entry = t.add_external_data();
    entry->set_key(rng() % 2 ? "location" : (rng() % 2 ? "offset" : "length"));
    entry->set_value(rng() % 2 ? interestingString(rng)
                               : std::to_string(interestingInt(rng)));
    break;
  }
  default:
    t.add_float_data(interestingFloat(rng));
    break;
  }
}

void mutateAttribute(onnx::AttributeProto &a, Rng &rng) {
  switch (rng() % 8) {
  case 0: // another kind, its value fields left as they are
    a.set_type(static_cast<onnx::AttributeProto::AttributeType>(rng() % 15));
    break;
  case 1:
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(interestingInt(rng));
    break;
  case 2: {
    a.set_type(onnx::AttributeProto::INTS);
    a.clear_ints();
    for (unsigned n = rng() % 9; n; --n)
      a.add_ints(interestingInt(rng));
    break;
  }
  case 3:
    a.set_type(onnx::AttributeProto::FLOAT);
    a.set_f(interestingFloat(rng));
    break;
  case 4:
    a.set_type(onnx::AttributeProto::STRING);
    a.set_s(interestingString(rng));
    break;
  case 5:
    if (a.ints_size())
      a.set_ints(rng() % a.ints_size(), interestingInt(rng));
    break;
  case 6:
    a.set_type(onnx::AttributeProto::TENSOR);
    mutateTensor(*a.mutable_t(), rng);
    break;
  default:
    a.set_type(onnx::AttributeProto::FLOATS);
    a.add_floats(interestingFloat(rng));
    break;
  }
}

const std::vector<std::string> kOpTypes = {
    "Add", "Sub", "Mul", "Div", "Relu", "Neg", "Abs", "Exp", "Log", "Sqrt",
    "MatMul", "Gemm", "Conv", "ConvTranspose", "MaxPool", "AveragePool",
    "GlobalAveragePool", "BatchNormalization", "Softmax", "LayerNormalization",
    "Reshape", "Transpose", "Concat", "Split", "Slice", "Gather", "GatherND",
    "ScatterND", "Expand", "Tile", "Pad", "Squeeze", "Unsqueeze", "Flatten",
    "Shape", "Size", "Cast", "Where", "Equal", "Less", "Not", "ReduceSum",
    "ReduceMean", "ReduceMax", "ArgMax", "TopK", "CumSum", "Range",
    "ConstantOfShape", "NonZero", "Resize", "DepthToSpace", "Einsum", "Clip",
    "Identity", "Dropout", "If", "Loop", "Constant", "Sigmoid", "Tanh", "Erf",
    "Pow", "Mod", "Trilu", "OneHot", "QuantizeLinear", "DequantizeLinear",
    "LSTM", "GRU", "Attention", "Foo"};

const std::vector<std::string> kAttrNames = {
    "axis", "axes", "perm", "strides", "pads", "kernel_shape", "dilations",
    "group", "to", "value", "keepdims", "starts", "ends", "shape", "mode",
    "auto_pad", "transA", "transB", "alpha", "beta", "epsilon", "k",
    "direction", "hidden_size", "blocksize", "equation", "split", "body"};

void mutateGraph(onnx::GraphProto &g, Rng &rng) {
  std::vector<std::string> names = valueNames(g);
  int nodes = g.node_size();
  switch (rng() % 12) {
  case 0:
  case 1: { // a dim of an input, output or value_info
    std::vector<onnx::ValueInfoProto *> infos = valueInfos(g);
    if (infos.empty())
      break;
    auto *shape = pick(rng, infos)->mutable_type()->mutable_tensor_type()->mutable_shape();
    onnx::TensorShapeProto::Dimension *dim =
        shape->dim_size() && rng() % 4 ? shape->mutable_dim(rng() % shape->dim_size())
                                       : shape->add_dim();
    if (rng() % 4)
      dim->set_dim_value(interestingInt(rng));
    else
      dim->set_dim_param(interestingString(rng));
    break;
  }
  case 2: { // an element type
    std::vector<onnx::ValueInfoProto *> infos = valueInfos(g);
    if (!infos.empty())
      pick(rng, infos)->mutable_type()->mutable_tensor_type()->set_elem_type(
          rng() % 4 ? rng() % 17 : rng());
    break;
  }
  case 3: // an initializer
    if (g.initializer_size())
      mutateTensor(*g.mutable_initializer(rng() % g.initializer_size()), rng);
    break;
  case 4:
  case 5: { // an attribute of a node, or a new one
    if (!nodes)
      break;
    onnx::NodeProto *n = g.mutable_node(rng() % nodes);
    onnx::AttributeProto *a;
    if (n->attribute_size() && rng() % 3) {
      a = n->mutable_attribute(rng() % n->attribute_size());
    } else {
      a = n->add_attribute();
      a->set_name(pick(rng, kAttrNames));
    }
    mutateAttribute(*a, rng);
    break;
  }
  case 6: // an op type
    if (nodes)
      g.mutable_node(rng() % nodes)->set_op_type(pick(rng, kOpTypes));
    break;
  case 7: { // rewire an input, add or drop one
    if (!nodes)
      break;
    onnx::NodeProto *n = g.mutable_node(rng() % nodes);
    unsigned what = rng() % 3;
    if (what == 0 && n->input_size())
      n->set_input(rng() % n->input_size(), pick(rng, names));
    else if (what == 1)
      n->add_input(pick(rng, names));
    else if (n->input_size())
      n->mutable_input()->RemoveLast();
    break;
  }
  case 8: { // an output named like another value
    if (!nodes)
      break;
    onnx::NodeProto *n = g.mutable_node(rng() % nodes);
    if (n->output_size())
      n->set_output(rng() % n->output_size(), pick(rng, names));
    else
      n->add_output(pick(rng, names));
    break;
  }
  case 9: // a node twice, or one node less
    if (nodes && rng() % 2)
      *g.add_node() = g.node(rng() % nodes);
    else if (nodes)
      g.mutable_node()->DeleteSubrange(rng() % nodes, 1);
    break;
  case 10: // two nodes swapped
    if (nodes > 1)
      g.mutable_node()->SwapElements(rng() % nodes, rng() % nodes);
    break;
  default: { // a graph output added or renamed
    if (g.output_size() && rng() % 2)
      g.mutable_output(rng() % g.output_size())->set_name(pick(rng, names));
    else
      g.add_output()->set_name(pick(rng, names));
    break;
  }
  }
}

} // namespace

size_t tcc::fuzz::mutateModel(uint8_t *data, size_t size, size_t maxSize,
                              unsigned seed) {
  Rng rng(seed);
  onnx::ModelProto model;
  if (rng() % 8 == 0 || !model.ParseFromArray(data, (int)size))
    return LLVMFuzzerMutate(data, size, maxSize);
  if (rng() % 10 == 0) {
    // The opset.
    static const std::vector<int64_t> opsets = {0, 1, 6, 7, 11, 13, 17, 18,
                                                21, 23, 28, 29, 999, -1};
    if (model.opset_import_size())
      model.mutable_opset_import(0)->set_version(pick(rng, opsets));
  } else {
    onnx::GraphProto *g = model.mutable_graph();
    // Now and then a subgraph: an If branch or a Loop body.
    for (auto &n : *g->mutable_node())
      for (auto &a : *n.mutable_attribute())
        if (a.has_g() && rng() % 4 == 0)
          g = a.mutable_g();
    for (unsigned n = 1 + rng() % 2; n; --n)
      mutateGraph(*g, rng);
  }
  std::string out;
  if (!model.SerializeToString(&out) || out.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
