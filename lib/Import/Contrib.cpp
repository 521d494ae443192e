//===- Contrib.cpp - com.microsoft fused ops as ONNX functions ------------===//
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
//       s = input + skip + bias; RMSNormalization(s, gamma, axis=-1) -> (output, s at 3)
//   SimplifiedLayerNormalization(X, scale; axis, epsilon)
//       RMSNormalization(X, scale)
//   FusedMatMul(A, B; alpha, transA, transB)
//       alpha * MatMul(A or A^T, B or B^T) (last two axes)
//   FusedConv(X, W, B?, Z?; activation, activation_params, Conv's)
//       activation(Conv(X, W, B) + Z): Relu, Tanh, Sigmoid, LeakyRelu(alpha),
//       Clip(min, max), HardSigmoid(alpha, beta)
//   FusedGemm(A, B, C?; Gemm's, activation, activation_alpha, _beta)
//       activation(Gemm(A, B, C))
//
//===----------------------------------------------------------------------===//
#include "Contrib.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

using namespace tcc::import;

namespace {

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
  }

  bool has(int i) const {
    return i < node.input_size() && !node.input(i).empty();
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
    onnx::NodeProto *n = fn.add_node();
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
  int nextTemp = 0;
};

/// Writes the body; false (with `error` set) for forms tcc does not expand.
using Expander = bool (*)(Body &, llvm::ArrayRef<int64_t> ranks,
                          std::string &error);

bool gelu(Body &f, llvm::ArrayRef<int64_t>, std::string &) {
  f.add("Gelu", {Body::in(0)}, {Body::out(0)});
  return true;
}

bool biasGelu(Body &f, llvm::ArrayRef<int64_t>, std::string &) {
  f.add("Gelu", {f.apply("Add", {Body::in(0), Body::in(1)})}, {Body::out(0)});
  return true;
}

bool fastGelu(Body &f, llvm::ArrayRef<int64_t>, std::string &) {
  std::string x = f.has(1) ? f.apply("Add", {Body::in(0), Body::in(1)})
                           : Body::in(0);
  Body::setString(f.add("Gelu", {x}, {Body::out(0)}), "approximate", "tanh");
  return true;
}

bool quickGelu(Body &f, llvm::ArrayRef<int64_t>, std::string &) {
  std::string alpha = f.scalarLike(f.floatAttr("alpha", 1.702f), Body::in(0));
  std::string s = f.apply("Sigmoid", {f.apply("Mul", {Body::in(0), alpha})});
  f.add("Mul", {Body::in(0), s}, {Body::out(0)});
  return true;
}

bool biasAdd(Body &f, llvm::ArrayRef<int64_t>, std::string &) {
  f.add("Add", {f.apply("Add", {Body::in(0), Body::in(1)}), Body::in(2)},
        {Body::out(0)});
  return true;
}

bool skipLayerNorm(Body &f, llvm::ArrayRef<int64_t>, std::string &) {
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

bool skipSimplifiedLayerNorm(Body &f, llvm::ArrayRef<int64_t>,
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

bool simplifiedLayerNorm(Body &f, llvm::ArrayRef<int64_t>,
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

bool fusedMatMul(Body &f, llvm::ArrayRef<int64_t> ranks, std::string &error) {
  if (f.intAttr("transBatchA", 0) || f.intAttr("transBatchB", 0)) {
    error = "transBatchA and transBatchB are not supported";
    return false;
  }
  if (ranks.size() < 2 || ranks[0] < 2 || ranks[1] < 2) {
    error = "both inputs must have rank 2 or more";
    return false;
  }
  std::string a =
      f.intAttr("transA", 0) ? transposeLast2(f, 0, ranks[0]) : Body::in(0);
  std::string b =
      f.intAttr("transB", 0) ? transposeLast2(f, 1, ranks[1]) : Body::in(1);
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

bool fusedConv(Body &f, llvm::ArrayRef<int64_t>, std::string &error) {
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

bool fusedGemm(Body &f, llvm::ArrayRef<int64_t>, std::string &error) {
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
                             llvm::ArrayRef<int64_t> inputRanks,
                             std::string &error) {
  for (auto [name, expand] : kExpanders) {
    if (node.op_type() != name)
      continue;
    Body body(node);
    if (!expand(body, inputRanks, error))
      return std::nullopt;
    return body.fn;
  }
  error = "tcc does not know this op";
  return std::nullopt;
}
