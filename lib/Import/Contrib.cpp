//===- Contrib.cpp - Ops expanded as ONNX functions -----------------------===//
//
// Each fused op becomes the default-domain ops it fuses, with the semantics
// of onnxruntime's contrib kernels (onnxruntime/core/graph/contrib_ops):
//
//   Gelu(X)                      Gelu(X)
//   BiasGelu(A, B)               Gelu(A + B)
//   FastGelu(X, bias?)           Gelu(X + bias, approximate="tanh")
//   QuickGelu(X; alpha)          X * Sigmoid(alpha * X)
//   BiasAdd(X, bias, skip)       X + bias + skip
//   SkipLayerNormalization(input, skip, gamma, beta?, bias?; epsilon)
//       s = input + skip + bias; LayerNormalization(s, gamma, beta, axis=-1)
//       -> (output, mean?, inv_std_var?, s?)
//   SkipSimplifiedLayerNormalization(input, skip, gamma, bias?; epsilon)
//       s = input + skip + bias; RMSNormalization(s, gamma, axis=-1) ->
//       (output, s at 3)
//   SimplifiedLayerNormalization(X, scale; axis, epsilon)
//       RMSNormalization(X, scale)
//   FusedMatMul(A, B; alpha, transA, transB)
//       alpha * MatMul(A or A^T, B or B^T) (last two axes)
//   FusedConv(X, W, B?, Z?; activation, activation_params, Conv's)
//       activation(Conv(X, W, B) + Z): Relu, Tanh, Sigmoid, LeakyRelu(alpha),
//       Clip(min, max), HardSigmoid(alpha, beta)
//   FusedGemm(A, B, C?; Gemm's, activation, activation_alpha, _beta)
//       activation(Gemm(A, B, C))
//   EmbedLayerNormalization(ids, segment_ids?, word, position, segment?,
//                           gamma, beta, mask?, position_ids?; epsilon)
//       LayerNormalization(word[ids] + position[position_ids or 0..S-1]
//       + segment[segment_ids]) -> (output, mask index: how many of each
//       mask row are 1, the sum)
//   QEmbedLayerNormalization(input_ids, segment_ids?, word, position,
//                            segment?, gamma, beta?, mask?, their scales
//                            and zero points)
//       EmbedLayerNormalization of the dequantized word ... beta
//   Attention(input, weights, bias?, mask_index?, past?, attention_bias?;
//             num_heads, qkv_hidden_sizes, unidirectional, scale,
//             mask_filter_value)
//       Q, K, V = split(input W + bias); onnx Attention(Q, K, V, mask +
//       attention_bias, past[0], past[1]; is_causal = unidirectional)
//       -> (output, present = stack(present_key, present_value))
//   MultiHeadAttention(query, key, value, bias?, key_padding_mask?,
//                      attention_bias?, past_key?, past_value?)
//       the same on query + bias_q, key + bias_k, value + bias_v (key and
//       value of rank 4 are merged to rank 3 first)
//   QAttention(input, weight, bias, input_scale, weight_scale, mask_index?,
//              input_zero_point?, weight_zero_point?, past?)
//       Attention on Cast(MatMulInteger(input, weight, zero points)) *
//       (input_scale * weight_scale) + bias (8-bit input and weights)
//   where the mask is additive, 0 for a kept key and mask_filter_value
//   (-10000) for a masked one, as onnxruntime's CPU kernels build it.
//
// the quantized com.microsoft ops of onnxruntime's QOperator format, each
// in float between DequantizeLinear and QuantizeLinear (DQ(x) = (x - zp) *
// scale; a missing zero point is 0 of x's type, the output's of the first
// input's), as onnxruntime's CPU kernels compute them:
//
//   QLinearAdd(A, As, Az?, B, Bs, Bz?, Cs, Cz?)      Q(DQ(A) + DQ(B))
//   QLinearMul(A, As, Az?, B, Bs, Bz?, Cs, Cz?)      Q(DQ(A) * DQ(B))
//   QLinearGlobalAveragePool(X, Xs, Xz?, Ys, Yz?; channels_last)
//       Q(Cast(ReduceSum(X - Xz)) * (Xs / (Ys * size)), 1, Yz) over the
//       spatial dims (channels_last: the middle ones), of static size
//   QLinearConcat(Ys, Yz, (X_i, Xs_i, Xz_i)...; axis)  Q(Concat(DQ(X_i)))
//   QGemm(A, As, Az, B, Bs, Bz, C?, Ys?, Yz?; alpha, transA, transB)
//       Cast(MatMulInteger(A', B', Az, Bz) + C) * (alpha * As * Bs / Ys),
//       quantized by 1, Yz when Ys is given, else float (without / Ys):
//       Bs and Bz per tensor or per column of B'; C is the int32 bias in
//       the accumulator's scale
//   MatMulIntegerToFloat(A, B, As, Bs, Az?, Bz?, bias?)
//       Cast(MatMulInteger(A, B, Az, Bz)) * (As * Bs) + bias
//   DynamicQuantizeMatMul(A, B, Bs, Bz?, bias?)
//       DynamicQuantizeLinear(A) -> Aq, As, Az, then as MatMulIntegerToFloat
//   DynamicQuantizeLSTM(X, W, R, B?, sequence_lens?, initial_h?, initial_c?,
//                       P?, Ws, Wz, Rs, Rz; LSTM's)
//       LSTM(X, T(DQ(W)), T(DQ(R)), B, ...) with W, R [directions, in,
//       4 * hidden] and their scales per direction or per column, in float
//       (onnxruntime also quantizes X and each H to uint8)
//   QLinearSigmoid(X, Xs, Xz?, Ys, Yz?)              Q(Sigmoid(DQ(X)))
//   QLinearLeakyRelu(X, Xs, Xz?, Ys, Yz?; alpha)     Q(LeakyRelu(DQ(X)))
//
// and the default-domain ops ONNX defines by a function (opset 27), as
// ONNX's own function bodies write them:
//
//   CausalConvWithState(input, weight, bias?, past_state?; activation)
//       p = Concat(past_state or zeros, input) along the length;
//       activation(Conv(p, weight, bias, group = channels)), the last k - 1
//       positions of p
//   LinearAttention(query, key, value, past_state?, decay?, beta?;
//                   q_num_heads, kv_num_heads, update_rule, scale)
//       a Scan over the tokens updating the state (B, H_kv, d_k, d_v) by
//       the update rule, each output token scale * q_t^T S_t
////
// and TensorScatter (opset 24), a ScatterElements of the update into the
// cache at write_indices[b] + s along the sequence axis (modulo its length
// in circular mode).
//
// MaxUnpool (opsets 9-22) writes X at its flat Indices (MaxPool's) into
// zeros of the output shape: a ScatterElements on the flattened tensors.
//
//===----------------------------------------------------------------------===//
#include "Contrib.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

using namespace tcc::import;

namespace {

/// The most inputs an expanded op has (EmbedLayerNormalization's 9).
constexpr size_t kMaxContribInputs = 16;

/// The default-domain opset the expansions are written against.
constexpr int64_t kBodyOpset = 23;

/// Builds the function of one node: positional formals, fresh temporaries.
class Body {
public:
  explicit Body(const onnx::NodeProto &node) : node(node) {
    fn.set_domain(node.domain());
    fn.set_name(node.op_type());
    onnx::OperatorSetIdProto *imp = fn.add_opset_import();
    imp->set_domain("");
    imp->set_version(kBodyOpset);
    for (int i = 0; i < node.input_size(); ++i)
      fn.add_input(in(i));
    for (int i = 0; i < node.output_size(); ++i)
      fn.add_output(out(i));
    nodes = fn.mutable_node();
  }

  bool has(int i) const {
    return i >= 0 && i < node.input_size() && !node.input(i).empty();
  }
  bool wants(int i) const {
    return i < node.output_size() && !node.output(i).empty();
  }
  static std::string in(int i) { return "in" + std::to_string(i); }
  static std::string out(int i) { return "out" + std::to_string(i); }
  /// Output `i` when the node asks for it, else a temporary.
  std::string outOrTemp(int i) { return wants(i) ? out(i) : temp(); }
  std::string temp() { return "t" + std::to_string(nextTemp++); }

  onnx::NodeProto &add(const char *op, std::vector<std::string> inputs,
                       std::vector<std::string> outputs) {
    onnx::NodeProto *n = nodes->Add();
    n->set_op_type(op);
    for (std::string &i : inputs)
      n->add_input(std::move(i));
    for (std::string &o : outputs)
      n->add_output(std::move(o));
    return *n;
  }
  /// A one-output node with a fresh result name, returned.
  std::string apply(const char *op, std::vector<std::string> inputs) {
    std::string result = temp();
    add(op, std::move(inputs), {result});
    return result;
  }

  const onnx::AttributeProto *attr(llvm::StringRef name) const {
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  float floatAttr(llvm::StringRef name, float dflt) const {
    const onnx::AttributeProto *a = attr(name);
    return a ? a->f() : dflt;
  }
  int64_t intAttr(llvm::StringRef name, int64_t dflt) const {
    const onnx::AttributeProto *a = attr(name);
    return a ? a->i() : dflt;
  }
  std::string stringAttr(llvm::StringRef name, const std::string &dflt) const {
    const onnx::AttributeProto *a = attr(name);
    return a ? a->s() : dflt;
  }

  /// A 1-D int64 constant.
  std::string ints(const std::vector<int64_t> &v) {
    onnx::AttributeProto *a = add("Constant", {}, {temp()}).add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto *t = a->mutable_t();
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(v.size());
    for (int64_t x : v)
      t->add_int64_data(x);
    return nodes->rbegin()->output(0);
  }
  /// An int64 scalar constant.
  std::string scalarInt(int64_t v) {
    std::string c = temp();
    setInt(add("Constant", {}, {c}), "value_int", v);
    return c;
  }
  /// [0, 1, ..., n - 1] for a 1-element int64 `n`.
  std::string positions(const std::string &n) {
    return apply("Range", {scalarInt(0), apply("Squeeze", {n}), scalarInt(1)});
  }
  /// Dims [start, end) of the shape of `x`.
  std::string shapeOf(const std::string &x, int64_t start, int64_t end) {
    std::string s = temp();
    onnx::NodeProto &n = add("Shape", {x}, {s});
    setInt(n, "start", start);
    setInt(n, "end", end);
    return s;
  }
  /// A one-output node with attribute `attrName` = `v`.
  std::string applyInt(const char *op, std::vector<std::string> inputs,
                       const char *attrName, int64_t v) {
    std::string result = temp();
    setInt(add(op, std::move(inputs), {result}), attrName, v);
    return result;
  }
  std::string applyInts(const char *op, std::vector<std::string> inputs,
                        const char *attrName, const std::vector<int64_t> &v) {
    std::string result = temp();
    setInts(add(op, std::move(inputs), {result}), attrName, v);
    return result;
  }

  /// Nodes `add` appends to from here on go into `graph` (a subgraph of the
  /// function) until the returned guard's scope ends.
  struct Into {
    Body &body;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> *outer;
    ~Into() { body.nodes = outer; }
  };
  Into into(onnx::GraphProto &graph) {
    return Into{*this, std::exchange(nodes, graph.mutable_node())};
  }

  static void setFloat(onnx::NodeProto &n, const char *name, float v) {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void setInt(onnx::NodeProto &n, const char *name, int64_t v) {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void setInts(onnx::NodeProto &n, const char *name,
                      const std::vector<int64_t> &v) {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
      a->add_ints(x);
  }
  static void setString(onnx::NodeProto &n, const char *name,
                        const std::string &v) {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }

  /// Copies the node's attributes to `n`, but those named in `except`.
  void copyAttrs(onnx::NodeProto &n,
                 std::initializer_list<llvm::StringRef> except) const {
    for (const onnx::AttributeProto &a : node.attribute())
      if (llvm::none_of(except, [&](llvm::StringRef e) { return a.name() == e; }))
        *n.add_attribute() = a;
  }

  /// A float scalar of the element type of `like`.
  std::string scalarLike(float v, const std::string &like) {
    std::string c = temp();
    setFloat(add("Constant", {}, {c}), "value_float", v);
    return apply("CastLike", {c, like});
  }

  /// input + skip (+ bias), the residual sum the skip norms normalize.
  std::string skipSum(int biasInput) {
    std::string sum = apply("Add", {in(0), in(1)});
    if (has(biasInput))
      sum = apply("Add", {sum, in(biasInput)});
    return sum;
  }

  const onnx::NodeProto &node;
  onnx::FunctionProto fn;

private:
  google::protobuf::RepeatedPtrField<onnx::NodeProto> *nodes;
  int nextTemp = 0;
};

/// Writes the body; false (with `error` set) for forms tcc does not expand.
using Expander = bool (*)(Body &, llvm::ArrayRef<InputShape> shapes,
                          std::string &error);

bool gelu(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  f.add("Gelu", {Body::in(0)}, {Body::out(0)});
  return true;
}

bool biasGelu(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  f.add("Gelu", {f.apply("Add", {Body::in(0), Body::in(1)})}, {Body::out(0)});
  return true;
}

bool fastGelu(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  std::string x = f.has(1) ? f.apply("Add", {Body::in(0), Body::in(1)})
                           : Body::in(0);
  Body::setString(f.add("Gelu", {x}, {Body::out(0)}), "approximate", "tanh");
  return true;
}

bool quickGelu(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  std::string alpha = f.scalarLike(f.floatAttr("alpha", 1.702f), Body::in(0));
  std::string s = f.apply("Sigmoid", {f.apply("Mul", {Body::in(0), alpha})});
  f.add("Mul", {Body::in(0), s}, {Body::out(0)});
  return true;
}

bool biasAdd(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  f.add("Add", {f.apply("Add", {Body::in(0), Body::in(1)}), Body::in(2)},
        {Body::out(0)});
  return true;
}

bool skipLayerNorm(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  std::string sum = f.skipSum(/*biasInput=*/4);
  std::vector<std::string> inputs = {sum, Body::in(2)};
  if (f.has(3))
    inputs.push_back(Body::in(3));
  onnx::NodeProto &ln = f.add("LayerNormalization", inputs,
                              {Body::out(0), f.outOrTemp(1), f.outOrTemp(2)});
  Body::setInt(ln, "axis", -1);
  Body::setFloat(ln, "epsilon", f.floatAttr("epsilon", 1e-12f));
  if (f.wants(3))
    f.add("Identity", {sum}, {Body::out(3)});
  return true;
}

bool skipSimplifiedLayerNorm(Body &f, llvm::ArrayRef<InputShape>,
                             std::string &error) {
  if (f.wants(1) || f.wants(2)) {
    error = "the mean and inv_std_var outputs are not supported";
    return false;
  }
  std::string sum = f.skipSum(/*biasInput=*/3);
  onnx::NodeProto &rms =
      f.add("RMSNormalization", {sum, Body::in(2)}, {Body::out(0)});
  Body::setInt(rms, "axis", -1);
  Body::setFloat(rms, "epsilon", f.floatAttr("epsilon", 1e-12f));
  if (f.wants(3))
    f.add("Identity", {sum}, {Body::out(3)});
  return true;
}

bool simplifiedLayerNorm(Body &f, llvm::ArrayRef<InputShape>,
                         std::string &error) {
  if (f.wants(1)) {
    error = "the inv_std_var output is not supported";
    return false;
  }
  onnx::NodeProto &rms =
      f.add("RMSNormalization", {Body::in(0), Body::in(1)}, {Body::out(0)});
  Body::setInt(rms, "axis", f.intAttr("axis", -1));
  Body::setFloat(rms, "epsilon", f.floatAttr("epsilon", 1e-5f));
  return true;
}

/// Transposes the last two axes of formal input `i` of rank `rank`.
std::string transposeLast2(Body &f, int i, int64_t rank) {
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d);
  std::swap(perm[rank - 2], perm[rank - 1]);
  std::string t = f.temp();
  Body::setInts(f.add("Transpose", {Body::in(i)}, {t}), "perm", perm);
  return t;
}

bool fusedMatMul(Body &f, llvm::ArrayRef<InputShape> shapes, std::string &error) {
  if (f.intAttr("transBatchA", 0) || f.intAttr("transBatchB", 0)) {
    error = "transBatchA and transBatchB are not supported";
    return false;
  }
  if (shapes.size() < 2 || !shapes[0] || !shapes[1] || shapes[0]->size() < 2 ||
      shapes[1]->size() < 2) {
    error = "both inputs must have rank 2 or more";
    return false;
  }
  int64_t rankA = shapes[0]->size(), rankB = shapes[1]->size();
  std::string a =
      f.intAttr("transA", 0) ? transposeLast2(f, 0, rankA) : Body::in(0);
  std::string b =
      f.intAttr("transB", 0) ? transposeLast2(f, 1, rankB) : Body::in(1);
  std::string product = f.apply("MatMul", {a, b});
  std::string alpha = f.scalarLike(f.floatAttr("alpha", 1.0f), product);
  f.add("Mul", {product, alpha}, {Body::out(0)});
  return true;
}

/// Output 0 = `activation`(x), as onnxruntime's fused kernels apply it
/// (MLAS activations); `params`: LeakyRelu's alpha, HardSigmoid's alpha and
/// beta, Clip's min and max.
bool activate(Body &f, const std::string &x, const std::string &activation,
              const std::vector<float> &params, std::string &error) {
  auto param = [&](size_t i, float dflt) {
    return i < params.size() ? params[i] : dflt;
  };
  if (activation.empty() || activation == "Identity") {
    f.add("Identity", {x}, {Body::out(0)});
  } else if (activation == "Relu" || activation == "Tanh" ||
             activation == "Sigmoid") {
    f.add(activation == "Relu"   ? "Relu"
          : activation == "Tanh" ? "Tanh"
                                 : "Sigmoid",
          {x}, {Body::out(0)});
  } else if (activation == "LeakyRelu") {
    Body::setFloat(f.add("LeakyRelu", {x}, {Body::out(0)}), "alpha",
                   param(0, 0.01f));
  } else if (activation == "HardSigmoid") {
    onnx::NodeProto &n = f.add("HardSigmoid", {x}, {Body::out(0)});
    Body::setFloat(n, "alpha", param(0, 0.2f));
    Body::setFloat(n, "beta", param(1, 0.5f));
  } else if (activation == "Clip") {
    if (params.size() < 2) {
      error = "activation Clip needs its min and max";
      return false;
    }
    f.add("Clip", {x, f.scalarLike(params[0], x), f.scalarLike(params[1], x)},
          {Body::out(0)});
  } else {
    error = "activation '" + activation + "' is not supported";
    return false;
  }
  return true;
}

/// The node's `activation` attribute ("" when none).
std::string activationOf(const Body &f) {
  const onnx::AttributeProto *a = f.attr("activation");
  return a ? a->s() : "";
}

bool fusedConv(Body &f, llvm::ArrayRef<InputShape>, std::string &error) {
  std::vector<float> params;
  if (const onnx::AttributeProto *a = f.attr("activation_params"))
    params.assign(a->floats().begin(), a->floats().end());
  std::vector<std::string> convInputs = {Body::in(0), Body::in(1)};
  if (f.has(2))
    convInputs.push_back(Body::in(2));
  std::string x = f.temp();
  f.copyAttrs(f.add("Conv", convInputs, {x}),
              {"activation", "activation_params"});
  if (f.has(3))
    x = f.apply("Add", {x, Body::in(3)});
  return activate(f, x, activationOf(f), params, error);
}

bool fusedGemm(Body &f, llvm::ArrayRef<InputShape>, std::string &error) {
  std::vector<float> params;
  for (const char *name : {"activation_alpha", "activation_beta"})
    if (const onnx::AttributeProto *a = f.attr(name))
      params.push_back(a->f());
  std::vector<std::string> inputs = {Body::in(0), Body::in(1)};
  if (f.has(2))
    inputs.push_back(Body::in(2));
  std::string x = f.temp();
  f.copyAttrs(f.add("Gemm", inputs, {x}),
              {"activation", "activation_alpha", "activation_beta",
               "activation_gamma"});
  return activate(f, x, activationOf(f), params, error);
}

/// DequantizeLinear(in(x), in(scale), in(zp) if given).
std::string dequantize(Body &f, int x, int scale, int zp) {
  std::vector<std::string> inputs = {Body::in(x), Body::in(scale)};
  if (f.has(zp))
    inputs.push_back(Body::in(zp));
  return f.apply("DequantizeLinear", inputs);
}

/// QuantizeLinear(y, in(scale), in(zp), or a 0 of in(like)'s type) into
/// output 0.
void quantizeInto(Body &f, const std::string &y, int scale, int zp, int like) {
  std::string zero =
      f.has(zp) ? Body::in(zp)
                : f.apply("CastLike", {f.scalarInt(0), Body::in(like)});
  f.add("QuantizeLinear", {y, Body::in(scale), zero}, {Body::out(0)});
}

/// QLinearAdd and QLinearMul: A (0, 1, 2) op B (3, 4, 5) into C (6, 7).
template <const char *Op>
bool qlinearBinary(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  std::string y = f.apply(Op, {dequantize(f, 0, 1, 2), dequantize(f, 3, 4, 5)});
  quantizeInto(f, y, 6, 7, 0);
  return true;
}
constexpr char kAdd[] = "Add", kMul[] = "Mul";

bool qlinearGlobalAveragePool(Body &f, llvm::ArrayRef<InputShape> shapes,
                              std::string &error) {
  bool channelsLast = f.intAttr("channels_last", 0);
  if (!shapes[0] && !channelsLast) {
    // Of unknown rank: the mean of the dequantized values, rounded once.
    std::string y = f.apply("GlobalAveragePool", {dequantize(f, 0, 1, 2)});
    quantizeInto(f, y, 3, 4, 0);
    return true;
  }
  if (!shapes[0] || shapes[0]->size() < 3) {
    error = channelsLast ? "channels_last needs an input of known rank >= 3"
                         : "expects an input of rank >= 3, got rank " +
                               std::to_string(shapes[0]->size());
    return false;
  }
  int64_t rank = shapes[0]->size();
  // The spatial dims: the middle ones channels-last, else those after C.
  std::vector<int64_t> axes;
  int64_t size = 1;
  for (int64_t d = channelsLast ? 1 : 2; d < rank - (channelsLast ? 1 : 0);
       ++d) {
    axes.push_back(d);
    int64_t dim = (*shapes[0])[d];
    size = dim < 0 || size < 0 ? -1 : size * dim;
  }
  if (size < 0 || size >= (1 << 24)) {
    // Of dynamic size (or past f32's exact integers): the float mean.
    std::string y =
        f.apply("ReduceMean", {dequantize(f, 0, 1, 2), f.ints(axes)});
    quantizeInto(f, y, 3, 4, 0);
    return true;
  }
  // As onnxruntime's kernel computes it: the int32 sum of x - x_zero_point
  // over the image, times x_scale / (y_scale * size) in f32, rounded once.
  auto toInt = [&](const std::string &x) {
    return f.applyInt("Cast", {x}, "to", onnx::TensorProto::INT32);
  };
  auto toFloat = [&](const std::string &x) {
    return f.applyInt("Cast", {x}, "to", onnx::TensorProto::FLOAT);
  };
  std::string sum = f.apply("ReduceSum", {toInt(Body::in(0)), f.ints(axes)});
  if (f.has(2))
    sum = f.apply("Sub", {sum, f.apply("Mul", {toInt(Body::in(2)),
                                               toInt(f.scalarInt(size))})});
  std::string scale = f.apply(
      "Div",
      {Body::in(1), f.apply("Mul", {Body::in(3), toFloat(f.scalarInt(size))})});
  std::string y = f.apply("Mul", {toFloat(sum), scale});
  std::string zero = f.has(4)
                         ? Body::in(4)
                         : f.apply("CastLike", {f.scalarInt(0), Body::in(0)});
  f.add("QuantizeLinear", {y, toFloat(f.scalarInt(1)), zero}, {Body::out(0)});
  return true;
}

bool qlinearConcat(Body &f, llvm::ArrayRef<InputShape>, std::string &error) {
  int n = f.node.input_size();
  if (n < 5 || (n - 2) % 3) {
    error = "expects Y_scale, Y_zero_point and (X, scale, zero point) "
            "triples, got " +
            std::to_string(n) + " inputs";
    return false;
  }
  std::vector<std::string> parts;
  for (int i = 2; i < n; i += 3)
    parts.push_back(dequantize(f, i, i + 1, i + 2));
  std::string y = f.temp();
  Body::setInt(f.add("Concat", parts, {y}), "axis", f.intAttr("axis", 0));
  quantizeInto(f, y, 0, 1, 2);
  return true;
}

/// Whether `f`'s node has its first inputs, `names` (a message in `error`
/// naming them if not).
bool hasInputs(Body &f, llvm::ArrayRef<const char *> names,
               std::string &error) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (f.has(i))
      continue;
    error = "expects inputs " + llvm::join(names, ", ") + "; " + names[i] +
            " (input " + std::to_string(i) + ") is missing";
    return false;
  }
  return true;
}

bool qgemm(Body &f, llvm::ArrayRef<InputShape>, std::string &error) {
  if (!hasInputs(
          f, {"A", "a_scale", "a_zero_point", "B", "b_scale", "b_zero_point"},
          error))
    return false;
  // As onnxruntime's kernel computes it: the exact int32 sums of the 8-bit
  // products (less the zero points) plus the int32 bias C, times
  // alpha * A_scale * B_scale / Y_scale in f32 (per column of B'), rounded
  // once into Y's 8 bits when Y_scale is given.
  auto transposed = [&](int i, const char *attr) {
    return f.intAttr(attr, 0) ? f.apply("Transpose", {Body::in(i)})
                              : Body::in(i);
  };
  std::vector<std::string> inputs = {transposed(0, "transA"),
                                     transposed(3, "transB")};
  if (f.has(2) || f.has(5))
    inputs.push_back(f.has(2) ? Body::in(2) : "");
  if (f.has(5))
    inputs.push_back(Body::in(5));
  std::string acc = f.apply("MatMulInteger", inputs);
  if (f.has(6))
    acc = f.apply("Add", {acc, Body::in(6)});
  std::string scale = Body::in(1);
  float alpha = f.floatAttr("alpha", 1.0f);
  if (alpha != 1.0f) {
    std::string a = f.temp();
    Body::setFloat(f.add("Constant", {}, {a}), "value_float", alpha);
    scale = f.apply("Mul", {a, scale});
  }
  scale = f.apply("Mul", {scale, Body::in(4)});
  if (f.has(7))
    scale = f.apply("Div", {scale, Body::in(7)});
  std::string accf = f.applyInt("Cast", {acc}, "to", onnx::TensorProto::FLOAT);
  if (!f.has(7)) {
    f.add("Mul", {accf, scale}, {Body::out(0)});
    return true;
  }
  std::string y = f.apply("Mul", {accf, scale});
  std::string zero = f.has(8) ? Body::in(8)
                              : f.apply("CastLike", {f.scalarInt(0), Body::in(0)});
  f.add("QuantizeLinear",
        {y, f.applyInt("Cast", {f.scalarInt(1)}, "to", onnx::TensorProto::FLOAT),
         zero},
        {Body::out(0)});
  return true;
}

/// Cast(MatMulInteger(a, in(b), az, in(bz)?)) * (as * in(bs)) (+ in(bias)),
/// into `result`: the tail of MatMulIntegerToFloat, DynamicQuantizeMatMul
/// (into output 0) and QAttention's projection.
void integerMatMulToFloatInto(Body &f, const std::string &result,
                              const std::string &a, const std::string &as,
                              const std::string &az, int b, int bs, int bz,
                              int bias) {
  std::vector<std::string> inputs = {a, Body::in(b)};
  if (!az.empty() || f.has(bz))
    inputs.push_back(az);
  if (f.has(bz))
    inputs.push_back(Body::in(bz));
  std::string acc = f.applyInt("Cast", {f.apply("MatMulInteger", inputs)}, "to",
                               onnx::TensorProto::FLOAT);
  std::string scale = f.apply("Mul", {as, Body::in(bs)});
  if (!f.has(bias)) {
    f.add("Mul", {acc, scale}, {result});
    return;
  }
  f.add("Add", {f.apply("Mul", {acc, scale}), Body::in(bias)}, {result});
}

bool matMulIntegerToFloat(Body &f, llvm::ArrayRef<InputShape>,
                          std::string &error) {
  if (!hasInputs(f, {"A", "B", "a_scale", "b_scale"}, error))
    return false;
  integerMatMulToFloatInto(f, Body::out(0), Body::in(0), Body::in(2),
                           f.has(4) ? Body::in(4) : "", 1, 3, 5, 6);
  return true;
}

bool dynamicQuantizeMatMul(Body &f, llvm::ArrayRef<InputShape>,
                           std::string &error) {
  if (!hasInputs(f, {"A", "B", "b_scale"}, error))
    return false;
  std::string q = f.temp(), qs = f.temp(), qz = f.temp();
  f.add("DynamicQuantizeLinear", {Body::in(0)}, {q, qs, qz});
  integerMatMulToFloatInto(f, Body::out(0), q, qs, qz, 1, 2, 3, 4);
  return true;
}

/// DynamicQuantizeLSTM's weights in[w] ([directions, in, 4 * hidden], int8
/// or uint8) dequantized by in[scale] and in[zp] (per direction
/// [directions] or per column [directions, 4 * hidden]) and transposed to
/// LSTM's [directions, 4 * hidden, in].
std::string dequantizedLstmWeights(Body &f, int w, int scale, int zp) {
  // The scale and zero point as [directions, 1, 1 or 4 * hidden].
  auto perColumn = [&](const std::string &v) {
    return f.apply("Reshape", {v, f.ints({0, 1, -1})});
  };
  std::string x = f.applyInt("Cast", {Body::in(w)}, "to",
                             onnx::TensorProto::FLOAT);
  x = f.apply("Sub", {x, perColumn(f.applyInt("Cast", {Body::in(zp)}, "to",
                                              onnx::TensorProto::FLOAT))});
  x = f.apply("Mul", {x, perColumn(Body::in(scale))});
  return f.applyInts("Transpose", {x}, "perm", {0, 2, 1});
}

bool dynamicQuantizeLstm(Body &f, llvm::ArrayRef<InputShape>,
                         std::string &error) {
  if (!hasInputs(f, {"X", "W", "R"}, error))
    return false;
  for (int i : {8, 9, 10, 11})
    if (!f.has(i)) {
      error = "expects W_scale, W_zero_point, R_scale and R_zero_point "
              "(inputs 8 to 11); input " +
              std::to_string(i) + " is missing";
      return false;
    }
  // The weights in float (exact: 8-bit integers times their scale), then
  // ONNX's LSTM: onnxruntime's kernel also quantizes X and each step's H to
  // uint8, which this does not (its results are that much closer to the
  // float model's).
  std::vector<std::string> inputs = {Body::in(0),
                                     dequantizedLstmWeights(f, 1, 8, 9),
                                     dequantizedLstmWeights(f, 2, 10, 11)};
  for (int i = 3; i < 8; ++i)
    inputs.push_back(f.has(i) ? Body::in(i) : "");
  while (inputs.back().empty())
    inputs.pop_back();
  f.copyAttrs(f.add("LSTM", inputs,
                    {f.outOrTemp(0), f.outOrTemp(1), f.outOrTemp(2)}),
              {});
  return true;
}

bool qlinearSigmoid(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  quantizeInto(f, f.apply("Sigmoid", {dequantize(f, 0, 1, 2)}), 3, 4, 0);
  return true;
}

bool qlinearLeakyRelu(Body &f, llvm::ArrayRef<InputShape>, std::string &) {
  std::string y = f.temp();
  Body::setFloat(f.add("LeakyRelu", {dequantize(f, 0, 1, 2)}, {y}), "alpha",
                 f.floatAttr("alpha", 0.01f));
  quantizeInto(f, y, 3, 4, 0);
  return true;
}

/// `x` by SiLU, computed in float as ONNX's function does.
std::string silu(Body &f, const std::string &x) {
  std::string xf = f.applyInt("Cast", {x}, "to", onnx::TensorProto::FLOAT);
  std::string product = f.apply("Mul", {xf, f.apply("Sigmoid", {xf})});
  return f.apply("CastLike", {product, x});
}

bool causalConvWithState(Body &f, llvm::ArrayRef<InputShape> shapes,
                         std::string &error) {
  std::string activation = f.stringAttr("activation", "none");
  if (activation != "none" && activation != "silu" && activation != "swish") {
    error = "activation '" + activation + "' is not one of silu, swish, none";
    return false;
  }
  if (!shapes[0] || shapes[0]->size() != 3 || (*shapes[0])[1] < 0) {
    error = "input must have rank 3 (batch, channels, length) and a known "
            "number of channels";
    return false;
  }
  if (shapes.size() < 2 || !shapes[1] || shapes[1]->size() != 3) {
    error = "weight must have rank 3 (channels, 1, kernel size)";
    return false;
  }
  std::string input = Body::in(0);
  std::string km1 =
      f.apply("Sub", {f.shapeOf(Body::in(1), 2, 3), f.ints({1})});
  std::string past = Body::in(3);
  if (!f.has(3)) {
    std::string shape = f.applyInt(
        "Concat", {f.shapeOf(input, 0, 1), f.shapeOf(input, 1, 2), km1},
        "axis", 0);
    past = f.apply("CastLike", {f.apply("ConstantOfShape", {shape}), input});
  }
  std::string padded = f.applyInt("Concat", {past, input}, "axis", 2);
  std::vector<std::string> convInputs = {padded, Body::in(1)};
  if (f.has(2))
    convInputs.push_back(Body::in(2));
  std::string conv = f.applyInt("Conv", convInputs, "group", (*shapes[0])[1]);
  f.add("Identity", {activation == "none" ? conv : silu(f, conv)},
        {Body::out(0)});
  if (f.wants(1)) {
    std::string length = f.shapeOf(padded, 2, 3);
    f.add("Slice",
          {padded, f.apply("Sub", {length, km1}), length, f.ints({2})},
          {Body::out(1)});
  }
  return true;
}

bool linearAttention(Body &f, llvm::ArrayRef<InputShape> shapes,
                     std::string &error) {
  std::string rule = f.stringAttr("update_rule", "gated_delta");
  bool gated = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  if (!gated && !delta && rule != "linear") {
    error = "update_rule '" + rule +
            "' is not one of linear, gated, delta, gated_delta";
    return false;
  }
  int64_t hq = f.intAttr("q_num_heads", 0), hkv = f.intAttr("kv_num_heads", 0);
  if (hq <= 0 || hkv <= 0 || hq % hkv) {
    error = "q_num_heads (" + std::to_string(hq) +
            ") must be a positive multiple of kv_num_heads (" +
            std::to_string(hkv) + ")";
    return false;
  }
  for (int i = 0; i < 3; ++i)
    if (i >= (int)shapes.size() || !shapes[i] || shapes[i]->size() != 3) {
      error = "query, key and value must have rank 3 (batch, tokens, "
              "heads x head size)";
      return false;
    }
  if ((gated && !f.has(4)) || (delta && !f.has(5))) {
    error = "update_rule '" + rule + "' needs the " +
            (gated && !f.has(4) ? "decay (input 4)" : "beta (input 5)");
    return false;
  }
  auto toFloat = [&](const std::string &x) {
    return f.applyInt("Cast", {x}, "to", onnx::TensorProto::FLOAT);
  };
  std::string negOne = f.ints({-1}), one = f.ints({1}), hqDim = f.ints({hq}),
              hkvDim = f.ints({hkv}), negTwo = f.ints({-2});
  std::string batch = f.shapeOf(Body::in(0), 0, 1);
  std::string tokens = f.shapeOf(Body::in(0), 1, 2);
  // [B, T, heads x size] -> [T, B, heads, size], the Scan's layout.
  auto tokensFirst = [&](const std::string &x, const std::string &shape) {
    return f.applyInts("Transpose", {f.apply("Reshape", {x, shape})}, "perm",
                       {1, 0, 2, 3});
  };
  auto concat = [&](std::vector<std::string> dims) {
    return f.applyInt("Concat", std::move(dims), "axis", 0);
  };
  std::string q = tokensFirst(Body::in(0), concat({batch, tokens, hqDim, negOne}));
  std::string kvShape = concat({batch, tokens, hkvDim, negOne});
  std::string k = tokensFirst(Body::in(1), kvShape);
  std::string v = tokensFirst(Body::in(2), kvShape);
  std::vector<std::string> scanInputs = {q, k, v};
  if (gated)
    scanInputs.push_back(tokensFirst(Body::in(4), kvShape));
  if (delta)
    scanInputs.push_back(
        tokensFirst(Body::in(5), concat({batch, tokens, negOne, one})));
  std::string dk = f.apply("Div", {f.shapeOf(Body::in(0), 2, 3), hqDim});
  std::string dv = f.apply("Div", {f.shapeOf(Body::in(2), 2, 3), hkvDim});
  std::string state0 =
      f.has(3) ? toFloat(Body::in(3))
               : f.apply("ConstantOfShape", {concat({batch, hkvDim, dk, dv})});
  std::string scale;
  if (float explicitScale = f.floatAttr("scale", 0.0f)) {
    scale = f.temp();
    Body::setFloat(f.add("Constant", {}, {scale}), "value_float", explicitScale);
  } else {
    std::string size = toFloat(f.apply("Squeeze", {dk}));
    scale = f.apply("Reciprocal", {f.apply("Sqrt", {size})});
  }
  std::string expandShape, readShape;
  if (hq != hkv) {
    expandShape = concat({batch, hkvDim, f.ints({hq / hkv}), dk, dv});
    readShape = concat({batch, hqDim, dk, dv});
  }

  // One token: S = exp(g) S (gated); S += k (x) (v or beta (v - S^T k));
  // output scale q^T S.
  onnx::GraphProto step;
  step.set_name("linear_attention_step");
  std::string stateOut = f.temp(), outputT = f.temp();
  {
    Body::Into scope = f.into(step);
    std::vector<std::string> formals = {f.temp()};
    for (size_t i = 0; i < scanInputs.size(); ++i)
      formals.push_back(f.temp());
    for (const std::string &formal : formals)
      step.add_input()->set_name(formal);
    std::string state = formals[0];
    std::string qt = toFloat(formals[1]), kt = toFloat(formals[2]),
                vt = toFloat(formals[3]);
    size_t next = 4;
    if (gated) {
      std::string decay = f.apply("Exp", {toFloat(formals[next++])});
      state = f.apply("Mul", {state, f.apply("Unsqueeze", {decay, negOne})});
    }
    std::string kCol = f.apply("Unsqueeze", {kt, negOne});
    std::string write = vt;
    if (delta) {
      std::string stateT =
          f.applyInts("Transpose", {state}, "perm", {0, 1, 3, 2});
      std::string retrieved = f.apply(
          "Squeeze", {f.apply("MatMul", {stateT, kCol}), negOne});
      write = f.apply("Mul", {toFloat(formals[next++]),
                              f.apply("Sub", {vt, retrieved})});
    }
    std::string outer =
        f.apply("MatMul", {kCol, f.apply("Unsqueeze", {write, negTwo})});
    f.add("Add", {state, outer}, {stateOut});
    std::string read = stateOut;
    if (hq != hkv)
      read = f.apply(
          "Reshape",
          {f.apply("Expand",
                   {f.apply("Unsqueeze", {stateOut, f.ints({2})}), expandShape}),
           readShape});
    std::string out = f.apply(
        "Squeeze",
        {f.apply("MatMul", {f.apply("Unsqueeze", {qt, negTwo}), read}), negTwo});
    f.add("CastLike", {f.apply("Mul", {scale, out}), formals[1]}, {outputT});
    step.add_output()->set_name(stateOut);
    step.add_output()->set_name(outputT);
  }
  std::string finalState = f.temp(), outputs = f.temp();
  std::vector<std::string> operands = {state0};
  operands.insert(operands.end(), scanInputs.begin(), scanInputs.end());
  onnx::NodeProto &scan = f.add("Scan", operands, {finalState, outputs});
  Body::setInt(scan, "num_scan_inputs", scanInputs.size());
  onnx::AttributeProto *body = scan.add_attribute();
  body->set_name("body");
  body->set_type(onnx::AttributeProto::GRAPH);
  *body->mutable_g() = std::move(step);
  std::string batchFirst =
      f.applyInts("Transpose", {outputs}, "perm", {1, 0, 2, 3});
  f.add("Reshape", {batchFirst, concat({batch, tokens, negOne})},
        {Body::out(0)});
  if (f.wants(1))
    f.add("CastLike", {finalState, f.has(3) ? Body::in(3) : Body::in(0)},
          {Body::out(1)});
  return true;
}

bool tensorScatter(Body &f, llvm::ArrayRef<InputShape> shapes,
                   std::string &error) {
  std::string mode = f.stringAttr("mode", "linear");
  if (mode != "linear" && mode != "circular") {
    error = "mode '" + mode + "' is not one of linear, circular";
    return false;
  }
  if (!shapes[0] || shapes.size() < 2 || !shapes[1] ||
      shapes[0]->size() != shapes[1]->size()) {
    error = "past_cache and update must have one rank";
    return false;
  }
  int64_t rank = shapes[0]->size(), axis = f.intAttr("axis", -2);
  if (axis < 0)
    axis += rank;
  if (axis < 1 || axis >= rank) {
    error = "axis " + std::to_string(f.intAttr("axis", -2)) +
            " is not a sequence axis of a rank-" + std::to_string(rank) +
            " cache (not 0, the batch axis)";
    return false;
  }
  // Position s of the update along the axis, shaped to broadcast there.
  std::vector<int64_t> column(rank, 1);
  column[axis] = -1;
  std::string index = f.apply(
      "Reshape",
      {f.positions(f.shapeOf(Body::in(1), axis, axis + 1)), f.ints(column)});
  if (f.has(2)) {
    std::vector<int64_t> batch(rank, 1);
    batch[0] = -1;
    index = f.apply("Add",
                    {f.apply("Reshape", {Body::in(2), f.ints(batch)}), index});
  }
  if (mode == "circular")
    index = f.apply("Mod", {index, f.shapeOf(Body::in(0), axis, axis + 1)});
  index = f.apply("Expand", {index, f.shapeOf(Body::in(1), 0, rank)});
  Body::setInt(f.add("ScatterElements", {Body::in(0), index, Body::in(1)},
                     {Body::out(0)}),
               "axis", axis);
  return true;
}

bool maxUnpool(Body &f, llvm::ArrayRef<InputShape> shapes,
               std::string &error) {
  if (!shapes[0] || shapes[0]->size() < 3 ||
      llvm::is_contained(*shapes[0], -1)) {
    error = "X must have rank 3 or more and known dims";
    return false;
  }
  std::vector<int64_t> in(shapes[0]->begin(), shapes[0]->end());
  size_t k = in.size() - 2;
  std::vector<int64_t> kernel, strides(k, 1), pads(2 * k, 0);
  if (const onnx::AttributeProto *a = f.attr("kernel_shape"))
    kernel.assign(a->ints().begin(), a->ints().end());
  if (const onnx::AttributeProto *a = f.attr("strides"))
    strides.assign(a->ints().begin(), a->ints().end());
  if (const onnx::AttributeProto *a = f.attr("pads"))
    pads.assign(a->ints().begin(), a->ints().end());
  if (kernel.size() != k || strides.size() != k || pads.size() != 2 * k) {
    error = "kernel_shape, strides and pads must have " + std::to_string(k) +
            ", " + std::to_string(k) + " and " + std::to_string(2 * k) +
            " values for X of rank " + std::to_string(in.size());
    return false;
  }
  // X goes at its Indices into zeros of the shape MaxPool's input had;
  // output_shape, when given, pads (or crops) that at the end, as ONNX's
  // reference does.
  std::vector<int64_t> out = {in[0], in[1]};
  {
    for (size_t i = 0; i < k; ++i) {
      int64_t size =
          (in[2 + i] - 1) * strides[i] - pads[i] - pads[k + i] + kernel[i];
      if (size < 1 || kernel[i] < 1 || strides[i] < 1) {
        error = "spatial dim " + std::to_string(i) + " of the output would " +
                "be " + std::to_string(size);
        return false;
      }
      out.push_back(size);
    }
  }
  std::string shape = f.ints(out);
  std::string flat = f.ints({-1});
  std::string zeros = f.apply(
      "Reshape",
      {f.apply("CastLike", {f.apply("ConstantOfShape", {shape}), Body::in(0)}),
       flat});
  std::string scattered = f.applyInt(
      "ScatterElements",
      {zeros, f.apply("Reshape", {Body::in(1), flat}),
       f.apply("Reshape", {Body::in(0), flat})},
      "axis", 0);
  if (!f.has(2)) {
    f.add("Reshape", {scattered, shape}, {Body::out(0)});
    return true;
  }
  std::string padding = f.applyInt(
      "Concat",
      {f.ints(std::vector<int64_t>(in.size(), 0)),
       f.apply("Sub", {Body::in(2), shape})},
      "axis", 0);
  f.add("Pad", {f.apply("Reshape", {scattered, shape}), padding},
        {Body::out(0)});
  return true;
}

/// The additive mask onnxruntime's Attention and MultiHeadAttention make of
/// their int32 mask input `input` (attention_helper.h, PrepareMask): 0 where
/// a key is kept, mask_filter_value where it is not, shaped [B, 1, 1, T] or
/// [B, 1, S, T] to broadcast over the heads. `total` (a 1-element int64) is
/// the number of keys, past ones included. Forms: (B) end positions, (2B)
/// end then start positions, (B, T) and (B, S, T) masks of 0 (masked) and
/// > 0 (kept). A 1-D mask whose length the compile does not know is (B).
/// Its values have the type of `like` (the float queries; QAttention's
/// input 0 is 8-bit).
std::optional<std::string> additiveMask(Body &f, int input,
                                        llvm::ArrayRef<InputShape> shapes,
                                        const std::string &total,
                                        const std::string &like,
                                        std::string &error) {
  const InputShape &shape = shapes[input];
  size_t rank = shape ? shape->size() : 0;
  std::string mask = Body::in(input);
  std::string keep;
  if (rank == 1) {
    int64_t n = (*shape)[0];
    int64_t batch = shapes[0] ? (*shapes[0])[0] : -1;
    std::string keys = f.positions(total);
    auto column = [&](const std::string &x) {
      return f.apply("Unsqueeze",
                     {f.applyInt("Cast", {x}, "to", onnx::TensorProto::INT64),
                      f.ints({1})});
    };
    if (n >= 0 && batch >= 0 && n != batch && n != 2 * batch) {
      error = "mask_index of shape [" + std::to_string(n) +
              "] is neither [batch] nor [2 x batch] (batch " +
              std::to_string(batch) + ")";
      return std::nullopt;
    }
    if (n >= 0 && batch >= 0 && n == 2 * batch && batch != 0) {
      std::string ends = f.temp(), starts = f.temp();
      Body::setInt(f.add("Split", {mask}, {ends, starts}), "num_outputs", 2);
      keep = f.apply("And", {f.apply("Less", {keys, column(ends)}),
                             f.apply("GreaterOrEqual", {keys, column(starts)})});
    } else {
      keep = f.apply("Less", {keys, column(mask)});
    }
    keep = f.apply("Unsqueeze", {keep, f.ints({1, 2})});
  } else if (rank == 2 || rank == 3) {
    std::string zero = f.apply("CastLike", {f.scalarInt(0), mask});
    keep = f.apply("Unsqueeze", {f.apply("Greater", {mask, zero}),
                                 f.ints(rank == 2 ? std::vector<int64_t>{1, 2}
                                                  : std::vector<int64_t>{1})});
  } else {
    error = "a mask of rank " + std::to_string(rank) +
            " is not supported (only (batch), (2 x batch), (batch, keys) and "
            "(batch, queries, keys))";
    return std::nullopt;
  }
  return f.apply("Where",
                 {keep, f.scalarLike(0.0f, like),
                  f.scalarLike(f.floatAttr("mask_filter_value", -10000.0f),
                               like)});
}

/// Writes onnx Attention on 3-D q, k, v ([B, S, heads x size]) with the
/// com.microsoft ops' common inputs: the mask at `maskInput`, the
/// attention_bias at `biasInput`, unidirectional, scale. `total` is the
/// number of keys; the outputs are `y`, `presentK`, `presentV` ("" for
/// none).
bool coreAttention(Body &f, llvm::ArrayRef<InputShape> shapes,
                   const std::string &q, const std::string &k,
                   const std::string &v, const std::string &pastK,
                   const std::string &pastV, const std::string &total,
                   int maskInput, int biasInput,
                   std::vector<std::string> outputs, std::string &error) {
  std::string bias;
  if (f.has(maskInput)) {
    std::optional<std::string> mask =
        additiveMask(f, maskInput, shapes, total, q, error);
    if (!mask)
      return false;
    bias = *mask;
  }
  if (f.has(biasInput))
    bias = bias.empty() ? Body::in(biasInput)
                        : f.apply("Add", {bias, Body::in(biasInput)});
  int64_t heads = f.intAttr("num_heads", 0);
  onnx::NodeProto &n =
      f.add("Attention", {q, k, v, bias, pastK, pastV}, std::move(outputs));
  Body::setInt(n, "q_num_heads", heads);
  Body::setInt(n, "kv_num_heads", heads);
  Body::setInt(n, "is_causal", f.intAttr("unidirectional", 0));
  if (const onnx::AttributeProto *scale = f.attr("scale"))
    Body::setFloat(n, "scale", scale->f());
  return true;
}

/// The checks Attention and MultiHeadAttention share.
bool checkAttentionAttrs(Body &f, int pastLengthInput, std::string &error) {
  int64_t heads = f.intAttr("num_heads", 0);
  if (heads <= 0) {
    error = "num_heads must be positive, got " + std::to_string(heads);
    return false;
  }
  if (f.intAttr("do_rotary", 0)) {
    error = "do_rotary=1 (rotary embedding inside the op) is not supported";
    return false;
  }
  if (f.intAttr("past_present_share_buffer", 0) || f.has(pastLengthInput)) {
    error = "a past and present sharing one buffer (past_present_share_buffer, "
            "past_sequence_length) is not supported";
    return false;
  }
  return true;
}

/// Attention and QAttention after their Q/K/V projection: `project` makes
/// it (input 0 by weights input 1, plus the bias); the mask, past and
/// attention bias are inputs `maskInput`, `pastInput` and `biasInput` (-1:
/// none).
bool attentionOfProjection(Body &f, llvm::ArrayRef<InputShape> shapes,
                           llvm::function_ref<std::string()> project,
                           int maskInput, int pastInput, int biasInput,
                           std::string &error) {
  int64_t heads = f.intAttr("num_heads", 0);
  if (!shapes[0] || shapes[0]->size() != 3) {
    error = "input must have rank 3 (batch, sequence, hidden)";
    return false;
  }
  std::vector<int64_t> sizes;
  if (const onnx::AttributeProto *a = f.attr("qkv_hidden_sizes"))
    sizes.assign(a->ints().begin(), a->ints().end());
  if (sizes.empty()) {
    int64_t width = shapes[1] && shapes[1]->size() == 2 ? (*shapes[1])[1] : -1;
    if (width < 0 || width % 3) {
      error = "weights must be (input hidden, 3 x hidden), got " +
              (width < 0 ? std::string("an unknown width")
                         : "width " + std::to_string(width)) +
              "; qkv_hidden_sizes gives unequal sizes";
      return false;
    }
    sizes.assign(3, width / 3);
  }
  if (sizes.size() != 3 ||
      llvm::any_of(sizes, [&](int64_t s) { return s <= 0 || s % heads; })) {
    error = "qkv_hidden_sizes must be 3 positive multiples of num_heads (" +
            std::to_string(heads) + ")";
    return false;
  }
  std::string qkv = project();
  std::string q = f.temp(), k = f.temp(), v = f.temp();
  Body::setInt(f.add("Split", {qkv, f.ints(sizes)}, {q, k, v}), "axis", -1);
  std::string total = f.shapeOf(Body::in(0), 1, 2), pastK, pastV;
  if (f.has(pastInput)) {
    std::string pk = f.temp(), pv = f.temp();
    Body::setInt(f.add("Split", {Body::in(pastInput)}, {pk, pv}), "num_outputs",
                 2);
    pastK = f.apply("Squeeze", {pk, f.ints({0})});
    pastV = f.apply("Squeeze", {pv, f.ints({0})});
    total = f.apply("Add", {total, f.shapeOf(Body::in(pastInput), 3, 4)});
  }
  bool present = f.wants(1);
  std::string presentK = present ? f.temp() : "";
  std::string presentV = present ? f.temp() : "";
  if (!coreAttention(f, shapes, q, k, v, pastK, pastV, total, maskInput,
                     biasInput, {Body::out(0), presentK, presentV}, error))
    return false;
  if (present) {
    std::string axis0 = f.ints({0});
    Body::setInt(f.add("Concat",
                       {f.apply("Unsqueeze", {presentK, axis0}),
                        f.apply("Unsqueeze", {presentV, axis0})},
                       {Body::out(1)}),
                 "axis", 0);
  }
  return true;
}

bool comAttention(Body &f, llvm::ArrayRef<InputShape> shapes,
                  std::string &error) {
  if (!checkAttentionAttrs(f, 6, error))
    return false;
  return attentionOfProjection(
      f, shapes,
      [&] {
        std::string qkv = f.apply("MatMul", {Body::in(0), Body::in(1)});
        return f.has(2) ? f.apply("Add", {qkv, Body::in(2)}) : qkv;
      },
      /*maskInput=*/3, /*pastInput=*/4, /*biasInput=*/5, error);
}

/// QAttention(input, weight, bias, input_scale, weight_scale, mask_index?,
/// input_zero_point?, weight_zero_point?, past?): Attention on the exact
/// int32 sums of the 8-bit projection, times input_scale * weight_scale,
/// plus the bias (onnxruntime's kernel).
bool qAttention(Body &f, llvm::ArrayRef<InputShape> shapes,
                std::string &error) {
  if (!hasInputs(f, {"input", "weight", "bias", "input_scale", "weight_scale"},
                 error) ||
      !checkAttentionAttrs(f, -1, error))
    return false;
  return attentionOfProjection(
      f, shapes,
      [&] {
        std::string qkv = f.temp();
        integerMatMulToFloatInto(f, qkv, Body::in(0), Body::in(3),
                                 f.has(6) ? Body::in(6) : "", 1, 4, 7, 2);
        return qkv;
      },
      /*maskInput=*/5, /*pastInput=*/8, /*biasInput=*/-1, error);
}

bool multiHeadAttention(Body &f, llvm::ArrayRef<InputShape> shapes,
                        std::string &error) {
  if (!checkAttentionAttrs(f, 8, error))
    return false;
  if (f.has(9)) {
    error = "cache_indirection (beam search) is not supported";
    return false;
  }
  if (f.wants(3)) {
    error = "the qk output is not supported";
    return false;
  }
  auto rank = [&](int i) { return shapes[i] ? (int64_t)shapes[i]->size() : -1; };
  if (rank(0) != 3 || !f.has(1) || !f.has(2)) {
    error = "query must have rank 3 (batch, sequence, hidden) with key and "
            "value given (packed QKV or KV is not supported)";
    return false;
  }
  int64_t kvRank = rank(1);
  if ((kvRank != 3 && kvRank != 4) || rank(2) != kvRank) {
    error = "key and value must both have rank 3 (batch, keys, hidden) or "
            "both rank 4 (batch, heads, keys, head size)";
    return false;
  }
  if (kvRank == 4 && (f.has(3) || f.has(6))) {
    error = "key and value of rank 4 (projected already) take no bias and "
            "no past";
    return false;
  }
  std::string q = Body::in(0), k = Body::in(1), v = Body::in(2);
  if (f.has(3)) {
    int64_t d = (*shapes[0])[2], dv = (*shapes[2])[2];
    if (d < 0 || dv < 0) {
      error = "bias needs the hidden sizes of query and value (pin them with "
              "--dim)";
      return false;
    }
    std::string bq = f.temp(), bk = f.temp(), bv = f.temp();
    Body::setInt(f.add("Split", {Body::in(3), f.ints({d, d, dv})}, {bq, bk, bv}),
                 "axis", 0);
    q = f.apply("Add", {q, bq});
    k = f.apply("Add", {k, bk});
    v = f.apply("Add", {v, bv});
  }
  if (kvRank == 4) {
    auto merge = [&](const std::string &x) {
      return f.apply("Reshape", {f.applyInts("Transpose", {x}, "perm",
                                             {0, 2, 1, 3}),
                                 f.ints({0, 0, -1})});
    };
    k = merge(k);
    v = merge(v);
  }
  std::string total = f.shapeOf(k, 1, 2);
  if (f.has(6) != f.has(7)) {
    error = "past_key and past_value must be given together";
    return false;
  }
  if (f.has(6))
    total = f.apply("Add", {total, f.shapeOf(Body::in(6), 2, 3)});
  return coreAttention(f, shapes, q, k, v, f.has(6) ? Body::in(6) : "",
                       f.has(7) ? Body::in(7) : "", total, 4, 5,
                       {Body::out(0), f.wants(1) ? Body::out(1) : "",
                        f.wants(2) ? Body::out(2) : ""},
                       error);
}

/// EmbedLayerNormalization of its inputs as `value` gives them by index
/// (input_ids, segment_ids, word, position and segment embeddings, gamma,
/// beta, mask, position_ids; "" for one not given).
bool embedLayerNormOf(Body &f, llvm::function_ref<std::string(int)> value,
                      std::string &error) {
  std::string v[9];
  for (int i = 0; i < 9; ++i)
    v[i] = value(i);
  if (v[0].empty() || v[2].empty() || v[3].empty() || v[5].empty()) {
    error = "input_ids, word_embedding, position_embedding and gamma are "
            "required";
    return false;
  }
  if (v[1].empty() != v[4].empty()) {
    error = "segment_ids and segment_embedding must be given together";
    return false;
  }
  std::string positionIds =
      !v[8].empty() ? v[8] : f.positions(f.shapeOf(v[0], 1, 2));
  std::string sum = f.apply("Add", {f.apply("Gather", {v[2], v[0]}),
                                    f.apply("Gather", {v[3], positionIds})});
  if (!v[1].empty())
    sum = f.apply("Add", {sum, f.apply("Gather", {v[4], v[1]})});
  std::vector<std::string> norm = {sum, v[5]};
  if (!v[6].empty())
    norm.push_back(v[6]);
  onnx::NodeProto &ln = f.add("LayerNormalization", norm, {Body::out(0)});
  Body::setInt(ln, "axis", -1);
  Body::setFloat(ln, "epsilon", f.floatAttr("epsilon", 1e-12f));
  if (f.wants(1)) {
    // The mask index: how many entries of the mask's row equal 1, as
    // onnxruntime counts them (zeros without a mask).
    if (!v[7].empty()) {
      std::string one = f.apply("CastLike", {f.scalarInt(1), v[7]});
      std::string ones = f.applyInt("Cast", {f.apply("Equal", {v[7], one})},
                                    "to", onnx::TensorProto::INT32);
      Body::setInt(f.add("ReduceSum", {ones, f.ints({1})}, {Body::out(1)}),
                   "keepdims", 0);
    } else {
      Body::setInt(f.add("Cast",
                         {f.apply("ConstantOfShape", {f.shapeOf(v[0], 0, 1)})},
                         {Body::out(1)}),
                   "to", onnx::TensorProto::INT32);
    }
  }
  if (f.wants(2))
    f.add("Identity", {sum}, {Body::out(2)});
  return true;
}

bool embedLayerNorm(Body &f, llvm::ArrayRef<InputShape>, std::string &error) {
  return embedLayerNormOf(
      f, [&](int i) { return f.has(i) ? Body::in(i) : std::string(); }, error);
}

/// QEmbedLayerNormalization(input_ids, segment_ids?, word, position,
/// segment?, gamma, beta?, mask?, then the scales of word, position,
/// segment, gamma and beta and their zero points): EmbedLayerNormalization
/// of the dequantized embeddings, gamma and beta, as onnxruntime's kernel
/// dequantizes them.
bool qEmbedLayerNorm(Body &f, llvm::ArrayRef<InputShape>, std::string &error) {
  // Quantized input i's scale is input i + 6, its zero point input i + 11.
  for (int i : {2, 3, 4, 5, 6})
    if (f.has(i) && !f.has(i + 6)) {
      error = "input " + std::to_string(i) + " has no scale (input " +
              std::to_string(i + 6) + ")";
      return false;
    }
  return embedLayerNormOf(
      f,
      [&](int i) -> std::string {
        if (i > 7 || !f.has(i))
          return "";
        if (i < 2 || i == 7)
          return Body::in(i);
        return dequantize(f, i, i + 6, i + 11);
      },
      error);
}

const std::pair<const char *, Expander> kExpanders[] = {
    {"Gelu", gelu},
    {"BiasGelu", biasGelu},
    {"FastGelu", fastGelu},
    {"QuickGelu", quickGelu},
    {"BiasAdd", biasAdd},
    {"SkipLayerNormalization", skipLayerNorm},
    {"SkipSimplifiedLayerNormalization", skipSimplifiedLayerNorm},
    {"SimplifiedLayerNormalization", simplifiedLayerNorm},
    {"FusedMatMul", fusedMatMul},
    {"FusedConv", fusedConv},
    {"FusedGemm", fusedGemm},
    {"CausalConvWithState", causalConvWithState},
    {"LinearAttention", linearAttention},
    {"TensorScatter", tensorScatter},
    {"MaxUnpool", maxUnpool},
    {"Attention", comAttention},
    {"QAttention", qAttention},
    {"MultiHeadAttention", multiHeadAttention},
    {"EmbedLayerNormalization", embedLayerNorm},
    {"QEmbedLayerNormalization", qEmbedLayerNorm},
    {"QLinearAdd", qlinearBinary<kAdd>},
    {"QLinearMul", qlinearBinary<kMul>},
    {"QLinearGlobalAveragePool", qlinearGlobalAveragePool},
    {"QLinearConcat", qlinearConcat},
    {"QLinearSigmoid", qlinearSigmoid},
    {"QGemm", qgemm},
    {"MatMulIntegerToFloat", matMulIntegerToFloat},
    {"DynamicQuantizeMatMul", dynamicQuantizeMatMul},
    {"DynamicQuantizeLSTM", dynamicQuantizeLstm},
    {"QLinearLeakyRelu", qlinearLeakyRelu},
};

} // namespace

bool tcc::import::isContribOp(llvm::StringRef opType) {
  for (auto [name, expand] : kExpanders)
    if (opType == name)
      return true;
  return false;
}

std::optional<onnx::FunctionProto>
tcc::import::contribFunction(const onnx::NodeProto &node,
                             llvm::ArrayRef<InputShape> inputShapes,
                             std::string &error) {
  // An input the node leaves out has an unknown shape: the expanders read
  // shapes[i] of any input their op has (a fuzzed Attention with one input
  // read past the end).
  llvm::SmallVector<InputShape, kMaxContribInputs> shapes(inputShapes);
  if (shapes.size() < kMaxContribInputs)
    shapes.resize(kMaxContribInputs);
  for (auto [name, expand] : kExpanders) {
    if (node.op_type() != name)
      continue;
    Body body(node);
    if (!expand(body, shapes, error))
      return std::nullopt;
    return body.fn;
  }
  error = "tcc does not know this op";
  return std::nullopt;
}
