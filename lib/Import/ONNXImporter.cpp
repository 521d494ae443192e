//===- ONNXImporter.cpp - ONNX protobuf to the onnx dialect ---------------===//
//
// Builds `func.func @main` from an ONNX graph: graph inputs become
// arguments, initializers and Constant nodes `onnx.Constant` (large ones as
// dense_resource blobs), each node one `onnx.<OpType>` op created
// generically from its name and attributes, then verified and
// shape-inferred on the spot so errors name the node.
//
// Control flow and functions are flattened as they are imported: an If
// whose condition folds becomes the branch it takes, one with a run-time
// condition both branches and a Where; a Loop whose trip count folds is
// unrolled; a call of a model-local function, or of a com.microsoft fused
// op (Contrib.h), becomes the function's body.
//
//===----------------------------------------------------------------------===//
#include "tcc/Import.h"

#include "Contrib.h"
#include "Normalize.h"

#include "dialects/ONNX/ONNXOps.h"
#include "tcc/Header.h"
#include "tcc/ReadFile.h"
#include "tcc/Sizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <functional>
#include <limits>
#include <set>

using namespace mlir;

namespace {

/// Tensors with more elements than this become dense_resource blobs.
constexpr int64_t kMaxInlineElements = 64;

Type toElementType(MLIRContext *ctx, int dtype) {
  Builder b(ctx);
  switch (dtype) {
  case onnx::TensorProto::FLOAT: return b.getF32Type();
  case onnx::TensorProto::DOUBLE: return b.getF64Type();
  case onnx::TensorProto::FLOAT16: return b.getF16Type();
  case onnx::TensorProto::BFLOAT16: return b.getBF16Type();
  case onnx::TensorProto::INT8: return b.getI8Type();
  case onnx::TensorProto::INT16: return b.getI16Type();
  case onnx::TensorProto::INT32: return b.getI32Type();
  case onnx::TensorProto::INT64: return b.getI64Type();
  // Unsigned stays unsigned in the onnx dialect (Div, Max, comparisons
  // and casts depend on it); the lowering makes it signless.
  case onnx::TensorProto::UINT8: return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case onnx::TensorProto::UINT16: return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case onnx::TensorProto::UINT32: return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case onnx::TensorProto::UINT64: return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case onnx::TensorProto::BOOL: return b.getI1Type();
  default: return {};
  }
}

/// ONNX's name of a dtype ("FLOAT"); the number for one ONNX does not
/// define.
std::string dtypeName(int dtype) {
  std::string name;
  if (onnx::TensorProto::DataType_IsValid(dtype))
    name = onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(dtype));
  return name.empty() ? std::to_string(dtype) + " (not an ONNX data type)"
                      : name;
}

/// The ONNX dtype of an element type of the onnx dialect (0 when none).
int onnxDtype(Type t) {
  if (t.isF32())
    return onnx::TensorProto::FLOAT;
  if (t.isF64())
    return onnx::TensorProto::DOUBLE;
  if (t.isF16())
    return onnx::TensorProto::FLOAT16;
  if (t.isBF16())
    return onnx::TensorProto::BFLOAT16;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return 0;
  bool u = i.isUnsigned();
  switch (i.getWidth()) {
  case 1: return onnx::TensorProto::BOOL;
  case 8: return u ? onnx::TensorProto::UINT8 : onnx::TensorProto::INT8;
  case 16: return u ? onnx::TensorProto::UINT16 : onnx::TensorProto::INT16;
  case 32: return u ? onnx::TensorProto::UINT32 : onnx::TensorProto::INT32;
  case 64: return u ? onnx::TensorProto::UINT64 : onnx::TensorProto::INT64;
  default: return 0;
  }
}

/// numpy's name of a dtype ("float32"), for messages about values.
std::string valueTypeName(int dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT: return "float32";
  case onnx::TensorProto::DOUBLE: return "float64";
  case onnx::TensorProto::FLOAT16: return "float16";
  case onnx::TensorProto::BFLOAT16: return "bfloat16";
  case onnx::TensorProto::BOOL: return "bool";
  case onnx::TensorProto::INT8: return "int8";
  case onnx::TensorProto::INT16: return "int16";
  case onnx::TensorProto::INT32: return "int32";
  case onnx::TensorProto::INT64: return "int64";
  case onnx::TensorProto::UINT8: return "uint8";
  case onnx::TensorProto::UINT16: return "uint16";
  case onnx::TensorProto::UINT32: return "uint32";
  case onnx::TensorProto::UINT64: return "uint64";
  default: return llvm::StringRef(dtypeName(dtype)).lower();
  }
}

/// ONNX's name of an attribute kind ("INTS").
std::string attrKindName(onnx::AttributeProto::AttributeType kind) {
  std::string name;
  if (onnx::AttributeProto::AttributeType_IsValid(kind))
    name = onnx::AttributeProto::AttributeType_Name(kind);
  return name.empty() ? "kind " + std::to_string(kind) : name;
}

class Importer {
public:
  Importer(MLIRContext &ctx, const tcc::ImportOptions &options,
           std::map<std::string, tcc::NodeInfo> *nodes)
      : ctx(ctx), b(&ctx), options(options), nodes(nodes) {}

  OwningOpRef<ModuleOp> importBytes(StringRef bytes, StringRef path);
  /// Imports a model parsed (and its unknown dims named) earlier, read from
  /// `path`. With `borrowWeights`, raw_data becomes blobs that point into
  /// `model` rather than copies of it.
  OwningOpRef<ModuleOp> importModel(const onnx::ModelProto &model,
                                    StringRef path, bool borrowWeights);

private:
  using NodeList = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

  LogicalResult checkSupported(const onnx::GraphProto &graph);
  int countUnsupported(const NodeList &list);
  const onnx::FunctionProto *localFunction(const onnx::NodeProto &node) const;
  bool isContribCall(const onnx::NodeProto &node) const;
  FailureOr<SmallVector<Value>>
  importSubgraph(const onnx::GraphProto &graph, StringRef name,
                 ArrayRef<std::pair<std::string, Value>> bindings);
  LogicalResult inlineIf(const onnx::NodeProto &node, StringRef name);
  LogicalResult selectIf(const onnx::NodeProto &node, StringRef name,
                         Value cond);
  bool conditionInputs(Value cond, SmallVectorImpl<std::string> &inputs);
  StringRef branchMessage(Location loc, StringRef message);
  LogicalResult unrollLoop(const onnx::NodeProto &node, StringRef name);
  LogicalResult unrollScan(const onnx::NodeProto &node, StringRef name);
  LogicalResult importFlexAttention(const onnx::NodeProto &node,
                                    StringRef name);
  FailureOr<SmallVector<Value>>
  scanSequences(const onnx::NodeProto &node, StringRef name,
                const onnx::GraphProto &body, ArrayRef<Value> states,
                ArrayRef<Value> inputs);
  FailureOr<Value> stack(ArrayRef<Value> elements, int64_t axis,
                         StringRef name);
  LogicalResult inlineFunction(const onnx::NodeProto &node,
                               const onnx::FunctionProto &fn, StringRef name);
  FailureOr<Value> buildNode(StringRef opType, ArrayRef<Value> operands,
                             StringRef name,
                             ArrayRef<onnx::AttributeProto> attrs = {});
  FailureOr<Type> importValueType(const onnx::ValueInfoProto &info);
  FailureOr<ElementsAttr> importBound(const onnx::ValueInfoProto &info,
                                      const tcc::HostTensor &tensor);
  FailureOr<ElementsAttr> importTensor(const onnx::TensorProto &tensor,
                                       Location loc);
  FailureOr<std::vector<char>> readExternalData(const onnx::TensorProto &t,
                                                Location loc);
  FailureOr<Attribute> importAttribute(const onnx::AttributeProto &attr,
                                       Location loc);
  LogicalResult importNode(const onnx::NodeProto &node, StringRef name);
  LogicalResult checkAttributes(const onnx::NodeProto &node, StringRef name);
  LogicalResult checkDeclared(const onnx::ValueInfoProto &info, Value value,
                              StringRef what);
  LogicalResult define(const std::string &value, Value v, StringRef name,
                       StringRef opType);
  Value noValue(Location loc);

  MLIRContext &ctx;
  OpBuilder b;
  const tcc::ImportOptions &options;
  std::map<std::string, tcc::NodeInfo> *nodes;
  llvm::StringMap<Value> values;
  /// What defined each value of the graph being imported (its scope, as
  /// `values`): "node 'n'", "a graph input", "an initializer".
  llvm::StringMap<std::string> producers;
  /// Nodes imported by unrolling Loops so far (kMaxUnrolledNodes).
  int64_t unrolledNodes = 0;
  int64_t opset = 0;
  /// The model file, whose folder external data is read from.
  std::string modelPath;
  /// Whether blobs may point into the ModelProto (tcc::ParsedModel).
  bool borrowWeights = false;
  /// The model's local functions by "domain:name".
  llvm::StringMap<const onnx::FunctionProto *> functions;
  /// Local functions whose bodies countUnsupported has checked.
  llvm::StringSet<> checkedFunctions;
  /// Functions being inlined, by "domain:name".
  llvm::StringSet<> activeFunctions;
  int synthesized = 0;
  /// Messages of If branches left out (branchMessage).
  int branchMessages = 0;
};

/// Loops with more iterations than this are not unrolled.
constexpr int64_t kMaxUnroll = 4096;
/// Unrolled Loops import at most this many nodes in all (a nested Loop of
/// 4096 x 4096 trips would be 16.7 M bodies).
constexpr int64_t kMaxUnrolledNodes = 1 << 16;
/// Local functions call each other at most this deep.
constexpr size_t kMaxFunctionDepth = 64;
/// The default-domain opsets tcc imports: ONNX's test data has opset-1
/// models; the newest is that of the onnx release tcc is tested against.
constexpr int64_t kMinOpset = 1, kMaxOpset = 28;
/// The default-domain opset of nodes the importer writes itself.
constexpr int64_t kSynthesizedOpset = 23;

} // namespace

Value Importer::noValue(Location loc) {
  return tcc::onnx::NoValueOp::create(b, loc, b.getNoneType()).getResult();
}

static bool isDefaultDomain(StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

/// An If of the default domain: flattened into its branches.
static bool isIf(const onnx::NodeProto &node) {
  return isDefaultDomain(node.domain()) && node.op_type() == "If";
}

/// A Loop of the default domain: unrolled.
static bool isLoop(const onnx::NodeProto &node) {
  return isDefaultDomain(node.domain()) && node.op_type() == "Loop";
}

/// A Scan of the default domain: unrolled.
static bool isScan(const onnx::NodeProto &node) {
  return isDefaultDomain(node.domain()) && node.op_type() == "Scan";
}

/// ai.onnx.preview's FlexAttention: attention whose score and probability
/// modifiers are subgraphs, imported in place.
static bool isFlexAttention(const onnx::NodeProto &node) {
  return node.domain() == "ai.onnx.preview" &&
         node.op_type() == "FlexAttention";
}

/// Some exporters write an unknown dim as dim_value -1. Those dims become
/// symbolic: in a graph input, one named `<input>_dim<i>` (made unique),
/// which --dim pins, messages name and the header shows; elsewhere (graph
/// outputs, value_info, subgraphs) just unknown. Other negative values stay
/// errors.
static void nameUnknownDims(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  std::set<std::string> initializers, taken;
  for (const onnx::TensorProto &init : graph.initializer())
    initializers.insert(init.name());
  for (const onnx::ValueInfoProto &input : graph.input())
    for (const auto &dim : input.type().tensor_type().shape().dim())
      if (dim.has_dim_param())
        taken.insert(dim.dim_param());
  for (onnx::ValueInfoProto &input : *graph.mutable_input()) {
    if (initializers.count(input.name()) ||
        !input.type().tensor_type().has_shape())
      continue;
    auto *dims =
        input.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (int d = 0; d < dims->dim_size(); ++d) {
      onnx::TensorShapeProto::Dimension *dim = dims->mutable_dim(d);
      if (!dim->has_dim_value() || dim->dim_value() != -1)
        continue;
      std::string name = input.name() + "_dim" + std::to_string(d);
      while (!taken.insert(name).second)
        name += "_";
      dim->set_dim_param(name);
    }
  }
  std::function<void(onnx::GraphProto &)> clear = [&](onnx::GraphProto &g) {
    auto unknown = [](onnx::ValueInfoProto &info) {
      if (!info.type().tensor_type().has_shape())
        return;
      for (auto &dim : *info.mutable_type()
                            ->mutable_tensor_type()
                            ->mutable_shape()
                            ->mutable_dim())
        if (dim.has_dim_value() && dim.dim_value() == -1)
          dim.clear_dim_value();
    };
    for (auto &info : *g.mutable_output())
      unknown(info);
    for (auto &info : *g.mutable_value_info())
      unknown(info);
    for (onnx::NodeProto &node : *g.mutable_node())
      for (onnx::AttributeProto &attr : *node.mutable_attribute()) {
        if (attr.has_g()) {
          for (auto &info : *attr.mutable_g()->mutable_input())
            unknown(info);
          clear(*attr.mutable_g());
        }
        for (onnx::GraphProto &sub : *attr.mutable_graphs()) {
          for (auto &info : *sub.mutable_input())
            unknown(info);
          clear(sub);
        }
      }
  };
  clear(graph);
}

static std::string domainName(const onnx::NodeProto &node) {
  return node.domain().empty() ? "ai.onnx" : node.domain();
}

/// A com.microsoft op, or one onnxruntime registers in the default domain
/// without ONNX defining it (SimplifiedLayerNormalization).
bool Importer::isContribCall(const onnx::NodeProto &node) const {
  if (node.domain() == "com.microsoft")
    return true;
  return isDefaultDomain(node.domain()) &&
         tcc::import::isContribOp(node.op_type()) &&
         !RegisteredOperationName::lookup("onnx." + node.op_type(), &ctx);
}

static const onnx::GraphProto *graphAttr(const onnx::NodeProto &node,
                                         StringRef name) {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name && attr.type() == onnx::AttributeProto::GRAPH)
      return &attr.g();
  return nullptr;
}

const onnx::FunctionProto *
Importer::localFunction(const onnx::NodeProto &node) const {
  auto it = functions.find(node.domain() + ":" + node.op_type());
  return it == functions.end() ? nullptr : it->second;
}

LogicalResult Importer::checkSupported(const onnx::GraphProto &graph) {
  int unsupported = countUnsupported(graph.node());
  if (unsupported)
    return emitError(UnknownLoc::get(&ctx))
           << unsupported << " unsupported operator"
           << (unsupported == 1 ? "" : "s") << " in the model";
  return success();
}

int Importer::countUnsupported(const NodeList &list) {
  int unsupported = 0;
  for (int i = 0; i < list.size(); ++i) {
    const onnx::NodeProto &node = list[i];
    std::string name = node.name().empty()
                           ? node.op_type() + "_" + std::to_string(i)
                           : node.name();
    bool known;
    if (const onnx::FunctionProto *fn = localFunction(node)) {
      known = true;
      if (checkedFunctions.insert(node.domain() + ":" + node.op_type()).second)
        unsupported += countUnsupported(fn->node());
    } else if (isContribCall(node)) {
      known = tcc::import::isContribOp(node.op_type());
    } else {
      known = isDefaultDomain(node.domain()) && node.op_type() != "NoValue" &&
              RegisteredOperationName::lookup(
                  "onnx." +
                      tcc::import::dialectOpType(node.op_type()).str(),
                  &ctx);
    }
    bool controlFlow =
        isIf(node) || isLoop(node) || isScan(node) || isFlexAttention(node);
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (controlFlow && attr.type() == onnx::AttributeProto::GRAPH)
        unsupported += countUnsupported(attr.g().node());
      else if (attr.type() == onnx::AttributeProto::GRAPH ||
               attr.type() == onnx::AttributeProto::GRAPHS)
        known = false;
    }
    if (known || controlFlow)
      continue;
    ++unsupported;
    InFlightDiagnostic diag =
        emitError(NameLoc::get(StringAttr::get(&ctx, name)))
        << "unsupported operator: node '" << name << "' op " << node.op_type()
        << " (domain " << domainName(node);
    if (isDefaultDomain(node.domain()))
      diag << ", opset " << opset;
    diag << ")";
  }
  return unsupported;
}

/// Binds ONNX value `value` to `v`, computed by node `name`. A graph is in
/// SSA form: a value that a node, a graph input or an initializer of the
/// same graph already defines is an error (the last definition would
/// otherwise silently win).
LogicalResult Importer::define(const std::string &value, Value v,
                               StringRef name, StringRef opType) {
  auto [it, inserted] =
      producers.try_emplace(value, ("node '" + name + "'").str());
  if (!inserted) {
    InFlightDiagnostic diag =
        emitError(NameLoc::get(StringAttr::get(&ctx, name)))
        << "node '" << name << "' (" << opType << ") computes '" << value
        << "', which ";
    if (StringRef(it->second).starts_with("node "))
      diag << it->second << " computes too";
    else
      diag << "is " << it->second;
    return diag;
  }
  values[value] = v;
  return success();
}

/// Imports the nodes of a subgraph (a branch, a loop body) in place, its
/// inputs bound to `bindings`, and returns its outputs. Names the subgraph
/// defines shadow outer ones until it ends.
FailureOr<SmallVector<Value>>
Importer::importSubgraph(const onnx::GraphProto &graph, StringRef name,
                         ArrayRef<std::pair<std::string, Value>> bindings) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  llvm::StringMap<Value> outer = values;
  llvm::StringMap<std::string> outerProducers = std::move(producers);
  producers.clear();
  llvm::scope_exit restore([&] {
    values = std::move(outer);
    producers = std::move(outerProducers);
  });
  for (const auto &[formal, value] : bindings) {
    values[formal] = value;
    producers[formal] = "a graph input";
  }
  for (const auto &init : graph.initializer()) {
    Location initLoc = NameLoc::get(StringAttr::get(&ctx, init.name()));
    if (!producers.try_emplace(init.name(), "an initializer").second)
      return emitError(initLoc) << "node '" << name << "': initializer '"
                                << init.name() << "' of a subgraph is given "
                                << "twice, or is also an input";
    FailureOr<ElementsAttr> value = importTensor(init, initLoc);
    if (failed(value))
      return failure();
    values[init.name()] =
        tcc::onnx::ConstantOp::create(b, initLoc, value->getType(), *value);
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &inner = graph.node(i);
    std::string innerName =
        inner.name().empty()
            ? name.str() + "/" + inner.op_type() + "_" + std::to_string(i)
            : inner.name();
    if (nodes)
      (*nodes)[innerName] = {inner.op_type(), domainName(inner), opset};
    if (failed(importNode(inner, innerName)))
      return failure();
  }
  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    auto found = values.find(output.name());
    if (found == values.end())
      return emitError(loc) << "node '" << name << "': subgraph output '"
                            << output.name() << "' is not computed";
    results.push_back(found->second);
  }
  return results;
}

/// Imports a node the importer writes itself (a Where joining If branches,
/// the Concat of a Loop's scan outputs) from `operands`; returns its first
/// result.
FailureOr<Value> Importer::buildNode(StringRef opType, ArrayRef<Value> operands,
                                     StringRef name,
                                     ArrayRef<onnx::AttributeProto> attrs) {
  onnx::NodeProto node;
  node.set_op_type(opType.str());
  for (Value operand : operands) {
    // Names no ONNX graph can use.
    std::string operandName = "\x01" + std::to_string(synthesized++);
    values[operandName] = operand;
    node.add_input(operandName);
  }
  std::string result = "\x01" + std::to_string(synthesized++);
  node.add_output(result);
  for (const onnx::AttributeProto &attr : attrs)
    *node.add_attribute() = attr;
  int64_t outerOpset = std::exchange(opset, kSynthesizedOpset);
  LogicalResult built = importNode(node, name);
  opset = outerOpset;
  if (failed(built))
    return failure();
  return values.lookup(result);
}

/// The value of a one-element integer or bool constant, or nullopt.
static std::optional<int64_t> constantInteger(Value value) {
  ElementsAttr attr;
  TypedAttr single;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !(single = tcc::onnx::getSingleElement(attr)) ||
      !isa<IntegerAttr>(single))
    return std::nullopt;
  return cast<IntegerAttr>(single).getValue().getSExtValue();
}

/// An If whose condition is a constant (after folding: shape tests such as
/// Equal(Size(x), 4) are) becomes the nodes of the branch it takes.
LogicalResult Importer::inlineIf(const onnx::NodeProto &node, StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto it = node.input_size() == 1 ? values.find(node.input(0)) : values.end();
  if (it == values.end())
    return emitError(loc) << "node '" << name
                          << "' (If) has no condition input it can read";
  for (const char *branch : {"then_branch", "else_branch"}) {
    const onnx::GraphProto *graph = graphAttr(node, branch);
    if (!graph)
      return emitError(loc) << "node '" << name << "' (If) has no " << branch;
    if (graph->output_size() != node.output_size())
      return emitError(loc) << "node '" << name << "' (If): " << branch
                            << " has " << graph->output_size()
                            << " outputs, the node " << node.output_size();
  }
  std::optional<int64_t> cond = constantInteger(it->second);
  if (!cond)
    return selectIf(node, name, it->second);
  bool taken = *cond != 0;
  FailureOr<SmallVector<Value>> results = importSubgraph(
      *graphAttr(node, taken ? "then_branch" : "else_branch"), name, {});
  if (failed(results))
    return failure();
  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty() &&
        failed(define(node.output(i), (*results)[i], name, "If")))
      return failure();
  return success();
}

/// A 1-D i64 constant.
static Value i64Vector(OpBuilder &b, Location loc, ArrayRef<int64_t> v) {
  auto type = RankedTensorType::get({(int64_t)v.size()}, b.getI64Type());
  return tcc::onnx::ConstantOp::create(b, loc, type,
                                       DenseElementsAttr::get(type, v));
}

/// A rank-0 i64 constant.
static Value i64Scalar(OpBuilder &b, Location loc, int64_t v) {
  auto type = RankedTensorType::get({}, b.getI64Type());
  return tcc::onnx::ConstantOp::create(b, loc, type,
                                       DenseElementsAttr::get(type, v));
}

/// The ONNX node `op` was imported from.
static StringRef nodeName(Operation &op) {
  auto loc = dyn_cast<NameLoc>(op.getLoc());
  return loc ? loc.getName().getValue() : StringRef("?");
}

/// Whether `op`, run when its If branch is not taken, could read or write
/// out of bounds or trap: indexing with indices, or integer division by a
/// divisor, that are not constants.
static bool unsafeToSpeculate(Operation *op) {
  static const llvm::StringSet<> indexing = {
      "onnx.Gather", "onnx.GatherElements", "onnx.GatherND",
      "onnx.ScatterND", "onnx.ScatterElements"};
  StringRef opName = op->getName().getStringRef();
  bool integerDivision =
      (opName == "onnx.Div" || opName == "onnx.Mod") &&
      isa<IntegerType>(getElementTypeOrSelf(op->getResult(0).getType()));
  if (!indexing.contains(opName) && !integerDivision)
    return false;
  return op->getNumOperands() < 2 ||
         !matchPattern(op->getOperand(1), m_Constant());
}

/// A constant C string of the module holding `message`, and the runtime's
/// tcc_branch_check(i32 ok, ptr message) declared beside it; returns the
/// string's symbol.
StringRef Importer::branchMessage(Location loc, StringRef message) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  OpBuilder mb(&ctx);
  mb.setInsertionPointToStart(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(&ctx);
  if (!module.lookupSymbol(tcc::kBranchCheckFn)) {
    auto fn = func::FuncOp::create(
        mb, loc, tcc::kBranchCheckFn,
        mb.getFunctionType({mb.getI32Type(), ptr}, {}));
    fn.setPrivate();
  }
  std::string symbol =
      ("tcc_branch_message_" + Twine(branchMessages++)).str();
  std::string text = message.str();
  text.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(mb.getI8Type(), text.size());
  auto global = LLVM::GlobalOp::create(mb, loc, type, /*isConstant=*/true,
                                       LLVM::Linkage::Internal, symbol,
                                       mb.getStringAttr(text));
  return global.getSymName();
}

/// Whether `cond` is computed from graph inputs and constants alone; the
/// inputs' names in `inputs`.
bool Importer::conditionInputs(Value cond,
                               SmallVectorImpl<std::string> &inputs) {
  SmallVector<Value> work = {cond};
  llvm::DenseSet<Value> seen;
  llvm::SmallSetVector<BlockArgument, 4> args;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (!isa<func::FuncOp>(arg.getOwner()->getParentOp()))
        return false;
      args.insert(arg);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getNumOperands() == 0 && !matchPattern(v, m_Constant()))
      return false;
    llvm::append_range(work, def->getOperands());
  }
  for (BlockArgument arg : args)
    for (const auto &entry : values)
      if (entry.getValue() == arg) {
        inputs.push_back(entry.getKey().str());
        break;
      }
  return true;
}

/// An If with a run-time condition: both branches run and a Where picks
/// each output, which needs the branches' outputs to agree in type and
/// shape and their ops to be safe to run when not taken.
LogicalResult Importer::selectIf(const onnx::NodeProto &node, StringRef name,
                                 Value cond) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto condType = dyn_cast<RankedTensorType>(cond.getType());
  if (!condType || !condType.hasStaticShape() ||
      condType.getNumElements() != 1 || !condType.getElementType().isInteger(1))
    return emitError(loc) << "node '" << name << "' (If): the condition must "
                          << "be a bool tensor of one element, got "
                          << cond.getType();
  Block *block = b.getInsertionBlock();
  Operation *last = block->empty() ? nullptr : &block->back();
  // A branch that cannot be imported for the model's sizes (its shapes do
  // not check) is left out while the other can: its first error is kept.
  const char *branchNames[2] = {"then_branch", "else_branch"};
  SmallVector<SmallVector<Value>> branches(2);
  std::string failures[2];
  for (int i = 0; i < 2; ++i) {
    Operation *before = block->empty() ? nullptr : &block->back();
    FailureOr<SmallVector<Value>> results;
    {
      ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return failure();
        if (failures[i].empty()) {
          auto at = dyn_cast<NameLoc>(diag.getLocation());
          std::string text = diag.str();
          if (at && !StringRef(text).starts_with("node '"))
            text = "node '" + at.getName().str() + "': " + text;
          failures[i] = std::move(text);
        }
        return success();
      });
      results = importSubgraph(*graphAttr(node, branchNames[i]), name, {});
    }
    if (succeeded(results)) {
      branches[i] = std::move(*results);
      continue;
    }
    if (failures[i].empty())
      failures[i] = "it does not import";
    while (!block->empty() && &block->back() != before)
      block->back().erase();
  }
  if (!failures[0].empty() && !failures[1].empty())
    return emitError(loc) << "node '" << name << "' (If): the condition is "
                          << "not known at compile time, and neither branch "
                          << "can be compiled: then_branch: " << failures[0]
                          << "; else_branch: " << failures[1];
  int dropped = failures[0].empty() ? (failures[1].empty() ? -1 : 1) : 0;
  for (Operation &op : llvm::make_range(
           last ? std::next(last->getIterator()) : block->begin(),
           block->end()))
    if (unsafeToSpeculate(&op))
      return emitError(loc)
             << "node '" << name << "' (If): the condition is not known at "
             << "compile time, and tcc runs both branches of such an If; "
             << "node '" << nodeName(op) << "' ("
             << op.getName().stripDialect()
             << ") in a branch indexes or divides by run-time values, "
             << "which is not safe to run when its branch is not taken "
             << "(bind the inputs the condition depends on with --bind)";
  if (dropped >= 0) {
    // The kept branch's values are the outputs; a run whose condition
    // selects the other fails with a status saying so.
    const char *keptName = branchNames[1 - dropped];
    const char *droppedName = branchNames[dropped];
    InFlightDiagnostic warning =
        emitWarning(loc) << "node '" << name << "' (If): the condition is "
                         << "not known at compile time, and " << droppedName
                         << " cannot be compiled for these sizes ("
                         << failures[dropped] << "); tcc compiles "
                         << keptName << " only, and a run whose condition "
                         << "selects " << droppedName
                         << " returns TCC_ERROR_BRANCH";
    SmallVector<std::string> inputs;
    if (conditionInputs(cond, inputs) && !inputs.empty()) {
      warning << " (the condition depends only on input";
      if (inputs.size() > 1)
        warning << "s";
      for (size_t k = 0; k < inputs.size(); ++k)
        warning << (k ? ", '" : " '") << inputs[k] << "'";
      warning << ": --bind " << inputs.front()
              << "=FILE fixes it at compile time)";
    }
    warning.report();
    std::string message = ("node '" + name + "' (If): the condition selects " +
                           droppedName + ", which tcc could not compile for " +
                           "the model's sizes")
                              .str();
    tcc::onnx::CheckConditionOp::create(
        b, loc, cond, b.getBoolAttr(dropped == 1),
        FlatSymbolRefAttr::get(&ctx, branchMessage(loc, message)));
    for (int i = 0; i < node.output_size(); ++i)
      if (!node.output(i).empty() &&
          failed(define(node.output(i), branches[1 - dropped][i], name, "If")))
        return failure();
    return success();
  }
  if (condType.getRank() != 0) {
    Value shape = i64Vector(b, loc, {});
    FailureOr<Value> scalar = buildNode("Reshape", {cond, shape}, name);
    if (failed(scalar))
      return failure();
    cond = *scalar;
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    Value thenValue = branches[0][i], elseValue = branches[1][i];
    auto type = dyn_cast<RankedTensorType>(thenValue.getType());
    if (thenValue.getType() != elseValue.getType() || !type ||
        !type.hasStaticShape())
      return emitError(loc)
             << "node '" << name << "' (If): the condition is not known at "
             << "compile time, and output " << i << " is "
             << thenValue.getType() << " in then_branch but "
             << elseValue.getType() << " in else_branch; tcc needs both "
             << "branches to give the same static type";
    FailureOr<Value> selected =
        buildNode("Where", {cond, thenValue, elseValue}, name);
    if (failed(selected) || failed(define(node.output(i), *selected, name, "If")))
      return failure();
  }
  return success();
}

/// A constant of one element of type `elem` for loop-body input `info`
/// (a scalar, or of the rank the body declares).
static Value loopScalar(OpBuilder &b, Location loc,
                        const onnx::ValueInfoProto &info, Type elem,
                        int64_t v) {
  SmallVector<int64_t> shape;
  if (info.type().has_tensor_type() && info.type().tensor_type().has_shape())
    shape.assign(info.type().tensor_type().shape().dim_size(), 1);
  auto type = RankedTensorType::get(shape, elem);
  Attribute value = elem.isInteger(1) ? Attribute(b.getBoolAttr(v != 0))
                                      : Attribute(b.getIntegerAttr(elem, v));
  DenseElementsAttr attr = DenseElementsAttr::get(type, value);
  return tcc::onnx::ConstantOp::create(b, loc, type, attr);
}

/// A Loop whose trip count and initial condition fold to constants is
/// unrolled: the body is imported once per iteration, with the iteration
/// number a constant, as long as the condition it computes folds too.
/// Scan outputs become a Concat of the iterations' values.
LogicalResult Importer::unrollLoop(const onnx::NodeProto &node,
                                   StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto error = [&]() {
    return emitError(loc) << "node '" << name << "' (Loop, opset " << opset
                          << "): ";
  };
  const onnx::GraphProto *body = graphAttr(node, "body");
  if (!body)
    return error() << "has no body";
  int numCarried = node.input_size() - 2;
  if (numCarried < 0 || body->input_size() != numCarried + 2 ||
      body->output_size() < numCarried + 1)
    return error() << "takes " << node.input_size() << " inputs and its "
                   << "body " << body->input_size() << " inputs and "
                   << body->output_size() << " outputs, which do not match";
  int numScans = body->output_size() - 1 - numCarried;
  if (node.output_size() > numCarried + numScans)
    return error() << "has " << node.output_size() << " outputs, its body "
                   << numCarried + numScans;
  // The trip count and the initial condition: absent, or constants.
  auto constantInput = [&](int index) -> FailureOr<std::optional<int64_t>> {
    if (node.input(index).empty())
      return std::optional<int64_t>();
    auto it = values.find(node.input(index));
    if (it == values.end())
      return error() << "reads '" << node.input(index)
                     << "', which no earlier node or input defines";
    std::optional<int64_t> value = constantInteger(it->second);
    if (!value)
      return error() << "the " << (index == 0 ? "trip count" : "condition")
                     << " is not known at compile time; tcc unrolls a Loop "
                     << "only when its trip count and condition fold to "
                     << "constants (bind the inputs they depend on with "
                     << "--bind)";
    return value;
  };
  FailureOr<std::optional<int64_t>> tripCount = constantInput(0);
  if (failed(tripCount))
    return failure();
  FailureOr<std::optional<int64_t>> initialCond = constantInput(1);
  if (failed(initialCond))
    return failure();
  if (*tripCount && **tripCount > kMaxUnroll)
    return error() << "runs " << **tripCount << " iterations; tcc unrolls "
                   << "loops of at most " << kMaxUnroll;
  SmallVector<Value> carried;
  for (int i = 0; i < numCarried; ++i) {
    auto it = values.find(node.input(2 + i));
    if (node.input(2 + i).empty() || it == values.end())
      return error() << "loop-carried input " << 2 + i << " ('"
                     << node.input(2 + i) << "') is not defined";
    carried.push_back(it->second);
  }
  SmallVector<SmallVector<Value>> scans(numScans);
  bool cond = !*initialCond || **initialCond != 0;
  for (int64_t iter = 0; cond && (!*tripCount || iter < **tripCount);
       ++iter) {
    if (iter == kMaxUnroll)
      return error() << "has no trip count and its condition stays true for "
                     << kMaxUnroll << " iterations; tcc unrolls loops of "
                     << "at most " << kMaxUnroll;
    SmallVector<std::pair<std::string, Value>> bindings = {
        {body->input(0).name(),
         loopScalar(b, loc, body->input(0), b.getI64Type(), iter)},
        {body->input(1).name(),
         loopScalar(b, loc, body->input(1), b.getI1Type(), cond)}};
    for (int i = 0; i < numCarried; ++i)
      bindings.push_back({body->input(2 + i).name(), carried[i]});
    unrolledNodes += body->node_size();
    if (unrolledNodes > kMaxUnrolledNodes)
      return error() << "unrolling it would import more than "
                     << kMaxUnrolledNodes << " nodes (with the Loops around "
                     << "and in it); tcc unrolls Loops up to that size";
    FailureOr<SmallVector<Value>> outs = importSubgraph(
        *body, (name + "/iteration" + Twine(iter)).str(), bindings);
    if (failed(outs))
      return failure();
    std::optional<int64_t> next = constantInteger((*outs)[0]);
    if (!next)
      return error() << "the condition the body computes is not known at "
                     << "compile time; tcc unrolls a Loop only when it folds";
    cond = *next != 0;
    for (int i = 0; i < numCarried; ++i)
      carried[i] = (*outs)[1 + i];
    for (int k = 0; k < numScans; ++k)
      scans[k].push_back((*outs)[1 + numCarried + k]);
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    if (i < numCarried) {
      if (failed(define(node.output(i), carried[i], name, "Loop")))
        return failure();
      continue;
    }
    SmallVector<Value> &iterations = scans[i - numCarried];
    if (iterations.empty())
      return error() << "runs no iteration, so scan output " << i
                     << " is empty, which tcc does not support";
    FailureOr<Value> stacked = stack(iterations, 0, name);
    if (failed(stacked) || failed(define(node.output(i), *stacked, name, "Loop")))
      return failure();
  }
  return success();
}

/// An INT attribute for a node the importer writes.
static onnx::AttributeProto intAttribute(const char *name, int64_t v) {
  onnx::AttributeProto attr;
  attr.set_name(name);
  attr.set_type(onnx::AttributeProto::INT);
  attr.set_i(v);
  return attr;
}

/// The INTS attribute `name` of `node`, or nullptr.
static const onnx::AttributeProto *intsAttr(const onnx::NodeProto &node,
                                            StringRef name) {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name && attr.type() == onnx::AttributeProto::INTS)
      return &attr;
  return nullptr;
}

/// `elements` (of one type) stacked along a new dim `axis`.
FailureOr<Value> Importer::stack(ArrayRef<Value> elements, int64_t axis,
                                 StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  Value axes = i64Vector(b, loc, {axis});
  SmallVector<Value> slices;
  for (Value v : elements) {
    FailureOr<Value> slice = buildNode("Unsqueeze", {v, axes}, name);
    if (failed(slice))
      return failure();
    slices.push_back(*slice);
  }
  if (slices.size() == 1)
    return slices.front();
  return buildNode("Concat", slices, name, {intAttribute("axis", axis)});
}

/// The steps of a Scan (opset 9 and later, or one sample of an opset-8
/// Scan): the body is imported once per element along each scan input's
/// axis, whose length must be known at compile time, the states threaded
/// through. Returns the final states, then the scan outputs stacked.
FailureOr<SmallVector<Value>>
Importer::scanSequences(const onnx::NodeProto &node, StringRef name,
                        const onnx::GraphProto &body, ArrayRef<Value> states,
                        ArrayRef<Value> inputs) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto error = [&]() {
    return emitError(loc) << "node '" << name << "' (Scan, opset " << opset
                          << "): ";
  };
  int numStates = states.size(), numInputs = inputs.size();
  int numOutputs = body.output_size() - numStates;
  // Per-input or per-output attribute `attrName` (`count` values), each
  // defaulting to 0; nullopt after an error.
  auto perValue = [&](StringRef attrName,
                      int count) -> std::optional<SmallVector<int64_t>> {
    SmallVector<int64_t> v(count, 0);
    if (const onnx::AttributeProto *attr = intsAttr(node, attrName)) {
      if (attr->ints_size() != count) {
        error() << attrName << " has " << attr->ints_size() << " values, "
                << "for " << count << (count == 1 ? " tensor" : " tensors");
        return std::nullopt;
      }
      v.assign(attr->ints().begin(), attr->ints().end());
    }
    return v;
  };
  auto inAxes = perValue("scan_input_axes", numInputs);
  auto inDirs = perValue(opset < 9 ? "directions" : "scan_input_directions",
                         numInputs);
  auto outAxes = perValue("scan_output_axes", numOutputs);
  auto outDirs = perValue("scan_output_directions", numOutputs);
  if (!inAxes || !inDirs || !outAxes || !outDirs)
    return failure();
  std::optional<int64_t> length;
  for (int j = 0; j < numInputs; ++j) {
    auto type = dyn_cast<RankedTensorType>(inputs[j].getType());
    int64_t rank = type ? type.getRank() : 0;
    int64_t &axis = (*inAxes)[j];
    if (!type || axis < -rank || axis >= rank)
      return error() << "scan input " << j << " is " << inputs[j].getType()
                     << ", which has no axis " << axis;
    if (axis < 0)
      axis += rank;
    if (type.isDynamicDim(axis))
      return error() << "scan input " << j << " (" << type << ") has a "
                     << "length along axis " << axis << " not known at "
                     << "compile time; tcc unrolls a Scan over its steps "
                     << "(pin the dim with --dim or --shape)";
    if (length && *length != type.getDimSize(axis))
      return error() << "scan input " << j << " has " << type.getDimSize(axis)
                     << " steps along axis " << axis << ", scan input 0 "
                     << *length;
    length = type.getDimSize(axis);
  }
  if (*length > kMaxUnroll)
    return error() << "runs " << *length << " steps; tcc unrolls scans of "
                   << "at most " << kMaxUnroll;
  SmallVector<Value> carried(states);
  SmallVector<SmallVector<Value>> scans(numOutputs);
  for (int64_t t = 0; t < *length; ++t) {
    unrolledNodes += body.node_size();
    if (unrolledNodes > kMaxUnrolledNodes)
      return error() << "unrolling it would import more than "
                     << kMaxUnrolledNodes << " nodes (with the loops around "
                     << "and in it); tcc unrolls loops up to that size";
    SmallVector<std::pair<std::string, Value>> bindings;
    for (int i = 0; i < numStates; ++i)
      bindings.push_back({body.input(i).name(), carried[i]});
    for (int j = 0; j < numInputs; ++j) {
      int64_t step = (*inDirs)[j] ? *length - 1 - t : t;
      Value index = i64Scalar(b, loc, step);
      FailureOr<Value> element =
          buildNode("Gather", {inputs[j], index}, name,
                    {intAttribute("axis", (*inAxes)[j])});
      if (failed(element))
        return failure();
      bindings.push_back({body.input(numStates + j).name(), *element});
    }
    FailureOr<SmallVector<Value>> outs =
        importSubgraph(body, (name + "/step" + Twine(t)).str(), bindings);
    if (failed(outs))
      return failure();
    for (int i = 0; i < numStates; ++i)
      carried[i] = (*outs)[i];
    for (int k = 0; k < numOutputs; ++k)
      scans[k].push_back((*outs)[numStates + k]);
  }
  SmallVector<Value> results(carried);
  for (int k = 0; k < numOutputs; ++k) {
    if (scans[k].empty()) {
      results.push_back(Value());
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(scans[k].front().getType());
    int64_t rank = type ? type.getRank() + 1 : 0;
    int64_t axis = (*outAxes)[k];
    if (!type || axis < -rank || axis >= rank)
      return error() << "scan output " << k << " has no axis " << axis
                     << " (its elements are " << scans[k].front().getType()
                     << ")";
    if (axis < 0)
      axis += rank;
    if ((*outDirs)[k])
      std::reverse(scans[k].begin(), scans[k].end());
    FailureOr<Value> stacked = stack(scans[k], axis, name);
    if (failed(stacked))
      return failure();
    results.push_back(*stacked);
  }
  return results;
}

/// A Scan is unrolled (scanSequences). Opset 8's form, whose tensors have a
/// batch dim first and whose body sees one sample, runs each sample's steps
/// and stacks the samples; its sequence_lens, when given, must be constants
/// equal to the full length.
LogicalResult Importer::unrollScan(const onnx::NodeProto &node,
                                   StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto error = [&]() {
    return emitError(loc) << "node '" << name << "' (Scan, opset " << opset
                          << "): ";
  };
  const onnx::GraphProto *body = graphAttr(node, "body");
  if (!body)
    return error() << "has no body";
  int64_t numInputs = -1;
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == "num_scan_inputs")
      numInputs = attr.i();
  bool batched = opset < 9;
  int first = batched ? 1 : 0;
  int64_t numStates = node.input_size() - first - numInputs;
  if (numInputs < 1 || numStates < 0)
    return error() << "num_scan_inputs is " << numInputs << " for "
                   << node.input_size() - first << " inputs";
  if (body->input_size() != numStates + numInputs ||
      body->output_size() < numStates)
    return error() << "takes " << numStates << " states and " << numInputs
                   << " scan inputs, and its body " << body->input_size()
                   << " inputs and " << body->output_size()
                   << " outputs, which do not match";
  if (node.output_size() > body->output_size())
    return error() << "has " << node.output_size() << " outputs, its body "
                   << body->output_size();
  SmallVector<Value> operands;
  for (int i = first; i < node.input_size(); ++i) {
    auto it = values.find(node.input(i));
    if (node.input(i).empty() || it == values.end())
      return error() << "input " << i << " ('" << node.input(i)
                     << "') is not defined";
    operands.push_back(it->second);
  }
  auto states = ArrayRef<Value>(operands).take_front(numStates);
  auto inputs = ArrayRef<Value>(operands).drop_front(numStates);
  SmallVector<Value> results;
  if (!batched) {
    FailureOr<SmallVector<Value>> outs =
        scanSequences(node, name, *body, states, inputs);
    if (failed(outs))
      return failure();
    results = std::move(*outs);
  } else {
    auto type = dyn_cast<RankedTensorType>(inputs.front().getType());
    if (!type || type.getRank() < 2 || type.isDynamicDim(0) ||
        type.isDynamicDim(1))
      return error() << "scan input 0 is " << inputs.front().getType()
                     << "; tcc needs its batch and sequence dims known at "
                     << "compile time";
    int64_t batch = type.getDimSize(0), length = type.getDimSize(1);
    if (!node.input(0).empty()) {
      auto it = values.find(node.input(0));
      ElementsAttr lens;
      if (it == values.end() || !matchPattern(it->second, m_Constant(&lens)) ||
          llvm::any_of(lens.getValues<APInt>(), [&](const APInt &v) {
            return v.getSExtValue() != length;
          }))
        return error() << "sequence_lens must be constants equal to the "
                       << "sequence length (" << length << "); tcc does not "
                       << "support shorter sequences";
    }
    SmallVector<SmallVector<Value>> samples;
    for (int64_t i = 0; i < batch; ++i) {
      Value index = i64Scalar(b, loc, i);
      SmallVector<Value> slices;
      for (Value v : operands) {
        FailureOr<Value> slice = buildNode("Gather", {v, index}, name,
                                           {intAttribute("axis", 0)});
        if (failed(slice))
          return failure();
        slices.push_back(*slice);
      }
      FailureOr<SmallVector<Value>> outs = scanSequences(
          node, (name + "/sample" + Twine(i)).str(), *body,
          ArrayRef<Value>(slices).take_front(numStates),
          ArrayRef<Value>(slices).drop_front(numStates));
      if (failed(outs))
        return failure();
      samples.push_back(std::move(*outs));
    }
    for (size_t k = 0; k < samples.front().size(); ++k) {
      SmallVector<Value> perSample;
      for (SmallVector<Value> &sample : samples)
        perSample.push_back(sample[k]);
      if (!perSample.front()) {
        results.push_back(Value());
        continue;
      }
      FailureOr<Value> stacked = stack(perSample, 0, name);
      if (failed(stacked))
        return failure();
      results.push_back(*stacked);
    }
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    if (!results[i])
      return error() << "runs no step, so scan output " << i - numStates
                     << " is empty, which tcc does not support";
    if (failed(define(node.output(i), results[i], name, "Scan")))
      return failure();
  }
  return success();
}

/// FlexAttention as its ONNX function writes it: K and V repeated to the
/// query heads (GQA), (Q sqrt(scale)) (K sqrt(scale))^T cast to the softmax
/// precision, score_mod, Softmax, prob_mod, then the product with V in that
/// precision, cast back.
LogicalResult Importer::importFlexAttention(const onnx::NodeProto &node,
                                            StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto error = [&]() {
    return emitError(loc) << "node '" << name
                          << "' (FlexAttention, domain ai.onnx.preview): ";
  };
  if (node.input_size() != 3 || node.output_size() != 1)
    return error() << "takes Q, K and V and gives Y; it has "
                   << node.input_size() << " inputs and " << node.output_size()
                   << " outputs";
  SmallVector<Value> qkv;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (int i = 0; i < 3; ++i) {
    auto it = values.find(node.input(i));
    if (node.input(i).empty() || it == values.end())
      return error() << "input " << i << " ('" << node.input(i)
                     << "') is not defined";
    auto type = dyn_cast<RankedTensorType>(it->second.getType());
    if (!type || type.getRank() != 4 || !type.hasStaticShape())
      return error() << "input " << "QKV"[i] << " is " << it->second.getType()
                     << "; tcc needs rank 4 (batch, heads, sequence, head "
                     << "size) with known dims";
    qkv.push_back(it->second);
    shapes.push_back(type.getShape());
  }
  int64_t qHeads = shapes[0][1], kvHeads = shapes[1][1];
  if (kvHeads == 0 || qHeads % kvHeads)
    return error() << "Q has " << qHeads << " heads, not a multiple of K's "
                   << kvHeads;
  Type elem = cast<RankedTensorType>(qkv[0].getType()).getElementType();
  std::optional<int64_t> precision;
  std::optional<float> scale;
  const onnx::GraphProto *mods[2] = {nullptr, nullptr};
  for (const onnx::AttributeProto &attr : node.attribute()) {
    if (attr.name() == "softmax_precision")
      precision = attr.i();
    else if (attr.name() == "scale")
      scale = attr.f();
    else if (attr.name() == "score_mod" || attr.name() == "prob_mod")
      mods[attr.name() == "prob_mod"] = &attr.g();
    else
      return error() << "has attribute '" << attr.name()
                     << "', which FlexAttention does not define";
  }
  if (!precision) {
    if (!isa<FloatType>(elem))
      return error() << "its inputs are " << elem << ", for which "
                     << "softmax_precision must be given";
    precision = elem.isF64() ? onnx::TensorProto::DOUBLE
                             : onnx::TensorProto::FLOAT;
  }
  if (*precision != onnx::TensorProto::FLOAT &&
      *precision != onnx::TensorProto::DOUBLE &&
      *precision != onnx::TensorProto::FLOAT16 &&
      *precision != onnx::TensorProto::BFLOAT16)
    return error() << "softmax_precision " << *precision
                   << " is not a floating-point type";
  auto build = [&](StringRef op, ArrayRef<Value> operands,
                   ArrayRef<onnx::AttributeProto> attrs = {}) {
    return buildNode(op, operands, name, attrs);
  };
  // K or V repeated to the query heads.
  auto aligned = [&](Value x, ArrayRef<int64_t> shape) -> FailureOr<Value> {
    if (qHeads == kvHeads)
      return x;
    FailureOr<Value> unsqueezed = build("Unsqueeze", {x, i64Vector(b, loc, {2})});
    if (failed(unsqueezed))
      return failure();
    FailureOr<Value> expanded = build(
        "Expand", {*unsqueezed,
                   i64Vector(b, loc, {shape[0], kvHeads, qHeads / kvHeads,
                                      shape[2], shape[3]})});
    if (failed(expanded))
      return failure();
    return build("Reshape",
                 {*expanded,
                  i64Vector(b, loc, {shape[0], qHeads, shape[2], shape[3]})});
  };
  FailureOr<Value> k = aligned(qkv[1], shapes[1]);
  FailureOr<Value> v = aligned(qkv[2], shapes[2]);
  if (failed(k) || failed(v))
    return failure();
  float rootScale = std::sqrt(
      scale ? *scale : 1.0f / std::sqrt(static_cast<float>(shapes[0][3])));
  auto f32 = RankedTensorType::get({}, b.getF32Type());
  Value factor = tcc::onnx::ConstantOp::create(
      b, loc, f32, DenseElementsAttr::get(f32, rootScale));
  auto castTo = [&](Value x, int64_t dtype) {
    return build("Cast", {x}, {intAttribute("to", dtype)});
  };
  FailureOr<Value> typedFactor = castTo(factor, onnxDtype(elem));
  if (failed(typedFactor))
    return failure();
  FailureOr<Value> qScaled = build("Mul", {qkv[0], *typedFactor});
  FailureOr<Value> kScaled = build("Mul", {*k, *typedFactor});
  if (failed(qScaled) || failed(kScaled))
    return failure();
  onnx::AttributeProto perm;
  perm.set_name("perm");
  perm.set_type(onnx::AttributeProto::INTS);
  for (int64_t d : {0, 1, 3, 2})
    perm.add_ints(d);
  FailureOr<Value> kT = build("Transpose", {*kScaled}, {perm});
  if (failed(kT))
    return failure();
  FailureOr<Value> scores = build("MatMul", {*qScaled, *kT});
  if (failed(scores) || failed(scores = castTo(*scores, *precision)))
    return failure();
  // Applies modifier `which` (0 score_mod, 1 prob_mod) to `x`, if given.
  auto modify = [&](int which, Value x) -> FailureOr<Value> {
    const onnx::GraphProto *graph = mods[which];
    if (!graph)
      return x;
    const char *attrName = which ? "prob_mod" : "score_mod";
    if (graph->input_size() != 1 || graph->output_size() != 1)
      return error() << attrName << " has " << graph->input_size()
                     << " inputs and " << graph->output_size()
                     << " outputs; it must take and give one tensor";
    FailureOr<SmallVector<Value>> out = importSubgraph(
        *graph, (name + "/" + attrName).str(), {{graph->input(0).name(), x}});
    if (failed(out))
      return failure();
    if ((*out)[0].getType() != x.getType())
      return error() << attrName << " gives " << (*out)[0].getType()
                     << " for " << x.getType()
                     << "; it must keep the shape and element type";
    return (*out)[0];
  };
  FailureOr<Value> modified = modify(0, *scores);
  if (failed(modified))
    return failure();
  FailureOr<Value> probs =
      build("Softmax", {*modified}, {intAttribute("axis", -1)});
  if (failed(probs) || failed(probs = modify(1, *probs)))
    return failure();
  bool cast = *precision != onnxDtype(elem);
  if (cast && failed(v = castTo(*v, *precision)))
    return failure();
  FailureOr<Value> y = build("MatMul", {*probs, *v});
  if (failed(y) || (cast && failed(y = castTo(*y, onnxDtype(elem)))))
    return failure();
  if (node.output(0).empty())
    return success();
  return define(node.output(0), *y, name, "FlexAttention");
}

/// A call of a model-local function or of an expanded com.microsoft op:
/// the body is imported in place, in a scope of its own (functions see
/// only their formal inputs), attribute references resolved against the
/// call's attributes.
LogicalResult Importer::inlineFunction(const onnx::NodeProto &node,
                                       const onnx::FunctionProto &fn,
                                       StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  auto error = [&]() {
    return emitError(loc) << "node '" << name << "' (" << node.op_type()
                          << ", domain " << domainName(node) << "): ";
  };
  std::string key = node.domain() + ":" + node.op_type();
  if (activeFunctions.size() >= kMaxFunctionDepth)
    return error() << "calls functions nested more than " << kMaxFunctionDepth
                   << " deep";
  if (!activeFunctions.insert(key).second)
    return error() << "calls function " << key
                   << " from its own body; recursion is not supported";
  llvm::scope_exit leave([&] { activeFunctions.erase(key); });
  if (node.input_size() > fn.input_size() ||
      node.output_size() > fn.output_size())
    return error() << "has " << node.input_size() << " inputs and "
                   << node.output_size() << " outputs; its function takes "
                   << fn.input_size() << " and gives " << fn.output_size();
  llvm::StringMap<Value> scope;
  llvm::StringSet<> absent;
  for (int i = 0; i < fn.input_size(); ++i) {
    if (i >= node.input_size() || node.input(i).empty()) {
      absent.insert(fn.input(i));
      continue;
    }
    auto it = values.find(node.input(i));
    if (it == values.end())
      return error() << "reads '" << node.input(i)
                     << "', which no earlier node or input defines";
    scope[fn.input(i)] = it->second;
  }
  using Bindings = SmallVector<std::pair<std::string, Value>>;
  FailureOr<Bindings> results = [&]() -> FailureOr<Bindings> {
    int64_t outerOpset = opset;
    for (const auto &imp : fn.opset_import())
      if (isDefaultDomain(imp.domain()))
        opset = imp.version();
    std::swap(values, scope);
    llvm::StringMap<std::string> outerProducers = std::move(producers);
    producers.clear();
    for (const auto &entry : values)
      producers[entry.getKey()] = "a graph input";
    llvm::scope_exit restore([&] {
      opset = outerOpset;
      std::swap(values, scope);
      producers = std::move(outerProducers);
    });
    for (int i = 0; i < fn.node_size(); ++i) {
      onnx::NodeProto inner = fn.node(i);
      for (std::string &input : *inner.mutable_input())
        if (absent.contains(input))
          input.clear();
      google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
      for (const onnx::AttributeProto &attr : inner.attribute()) {
        if (attr.ref_attr_name().empty()) {
          *attrs.Add() = attr;
          continue;
        }
        const onnx::AttributeProto *actual = nullptr;
        for (const onnx::AttributeProto &a : node.attribute())
          if (a.name() == attr.ref_attr_name())
            actual = &a;
        // An unset reference leaves the attribute unset (ONNX 1.12's
        // FunctionProto has no attribute defaults).
        if (!actual)
          continue;
        onnx::AttributeProto *resolved = attrs.Add();
        *resolved = *actual;
        resolved->set_name(attr.name());
      }
      inner.mutable_attribute()->Swap(&attrs);
      std::string innerName =
          name.str() + "/" +
          (inner.name().empty() ? inner.op_type() + "_" + std::to_string(i)
                                : inner.name());
      if (nodes)
        (*nodes)[innerName] = {inner.op_type(), domainName(inner), opset};
      if (failed(importNode(inner, innerName)))
        return failure();
    }
    Bindings outputs;
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty())
        continue;
      auto it = values.find(fn.output(i));
      if (it == values.end())
        return error() << "its function does not compute output " << i
                       << " ('" << fn.output(i) << "')";
      outputs.push_back({node.output(i), it->second});
    }
    return outputs;
  }();
  if (failed(results))
    return failure();
  for (auto &[output, value] : *results)
    if (failed(define(output, value, name, node.op_type())))
      return failure();
  return success();
}

FailureOr<Type> Importer::importValueType(const onnx::ValueInfoProto &info) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, info.name()));
  if (!info.type().has_tensor_type())
    return emitError(loc) << "input '" << info.name()
                          << "' is not a tensor (sequence, map and optional "
                          << "types are not supported)";
  const onnx::TypeProto::Tensor &tensor = info.type().tensor_type();
  Type elem = toElementType(&ctx, tensor.elem_type());
  if (!elem)
    return emitError(loc) << "input '" << info.name() << "' has unsupported "
                          << "element type " << dtypeName(tensor.elem_type());
  // A shape tcc can hold: the bytes of every static input fit the limit.
  auto checked = [&](ArrayRef<int64_t> shape) -> FailureOr<Type> {
    if ((int64_t)shape.size() > tcc::onnx::kMaxRank)
      return emitError(loc) << "input '" << info.name() << "' has rank "
                            << shape.size() << "; tcc supports ranks up to "
                            << tcc::onnx::kMaxRank;
    SmallVector<int64_t> known;
    for (int64_t d : shape)
      if (!ShapedType::isDynamic(d))
        known.push_back(d);
    if (!tcc::checkedNumBytes(known, tcc::dtypeSize(tensor.elem_type())))
      return emitError(loc) << "input '" << info.name() << "' of shape "
                            << tcc::onnx::formatShape(shape)
                            << " is too large (over " << tcc::kMaxTensorBytesText
                            << ")";
    return Type(RankedTensorType::get(shape, elem));
  };
  if (auto it = options.shapes.find(info.name()); it != options.shapes.end())
    return checked(it->second);
  if (!tensor.has_shape())
    return emitError(loc) << "input '" << info.name() << "' has no shape; "
                          << "give one with --shape " << info.name()
                          << "=DxDx...";
  if (tensor.shape().dim_size() > tcc::onnx::kMaxRank)
    return emitError(loc) << "input '" << info.name() << "' has rank "
                          << tensor.shape().dim_size()
                          << "; tcc supports ranks up to " << tcc::onnx::kMaxRank;
  SmallVector<int64_t> shape;
  for (const auto &dim : tensor.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() < 0)
      return emitError(loc) << "input '" << info.name() << "': dim "
                            << shape.size() << " is " << dim.dim_value()
                            << "; a dim is 0 or more (an unknown dim has a "
                            << "dim_param or no value)";
    if (dim.has_dim_value()) {
      shape.push_back(dim.dim_value());
    } else if (dim.has_dim_param() &&
               options.dims.count(dim.dim_param())) {
      shape.push_back(options.dims.at(dim.dim_param()));
    } else {
      shape.push_back(ShapedType::kDynamic);
    }
  }
  return checked(shape);
}

FailureOr<ElementsAttr>
Importer::importBound(const onnx::ValueInfoProto &info,
                      const tcc::HostTensor &tensor) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, info.name()));
  const onnx::TypeProto::Tensor &declared = info.type().tensor_type();
  if (declared.elem_type() != tensor.dtype)
    return emitError(loc) << "--bind " << info.name() << ": the input is "
                          << dtypeName(declared.elem_type()) << ", the value "
                          << dtypeName(tensor.dtype);
  if (declared.has_shape()) {
    bool fits = declared.shape().dim_size() == (int)tensor.dims.size();
    for (int i = 0; fits && i < declared.shape().dim_size(); ++i)
      fits = !declared.shape().dim(i).has_dim_value() ||
             declared.shape().dim(i).dim_value() == tensor.dims[i];
    if (!fits)
      return emitError(loc) << "--bind " << info.name() << ": the value's shape "
                            << tcc::onnx::formatShape(tensor.dims)
                            << " does not fit the input's";
  }
  auto type = RankedTensorType::get(tensor.dims,
                                    toElementType(&ctx, tensor.dtype));
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> bools(tensor.data.begin(), tensor.data.end());
    return cast<ElementsAttr>(DenseElementsAttr::get(type, bools));
  }
  return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(tensor.data.data(), tensor.data.size())));
}

/// Copies the typed repeated field of a TensorProto into little-endian
/// bytes of `elemBytes` each.
template <typename Field>
static std::vector<char> packField(const Field &field, size_t elemBytes) {
  std::vector<char> bytes(field.size() * elemBytes);
  for (int i = 0; i < field.size(); ++i) {
    auto v = field.Get(i);
    std::memcpy(bytes.data() + i * elemBytes, &v, elemBytes);
  }
  return bytes;
}

/// The bytes of a tensor stored in a file beside the model (ONNX external
/// data: keys location, offset, length). The location must name a file
/// inside the model's folder: absolute paths, `..` and symbolic links that
/// lead out of it are refused.
FailureOr<std::vector<char>>
Importer::readExternalData(const onnx::TensorProto &t, Location loc) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const auto &entry : t.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
      continue;
    }
    if (entry.key() != "offset" && entry.key() != "length")
      continue; // checksum
    uint64_t n;
    if (StringRef(entry.value()).getAsInteger(10, n))
      return emitError(loc) << "tensor '" << t.name() << "': external data "
                            << entry.key() << " '" << entry.value()
                            << "' is not a number";
    if (entry.key() == "offset")
      offset = n;
    else
      length = n;
  }
  auto error = [&]() {
    return emitError(loc) << "tensor '" << t.name() << "': external data '"
                          << location << "' ";
  };
  if (location.empty())
    return emitError(loc) << "tensor '" << t.name()
                          << "' uses external data without a location";
  bool escapes = llvm::sys::path::is_absolute(location) ||
                 llvm::is_contained(llvm::make_range(
                                        llvm::sys::path::begin(location),
                                        llvm::sys::path::end(location)),
                                    "..");
  SmallString<256> dir(modelPath);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  SmallString<256> path(dir);
  llvm::sys::path::append(path, location);
  SmallString<256> realDir, realPath;
  if (!escapes && !llvm::sys::fs::real_path(dir, realDir) &&
      !llvm::sys::fs::real_path(path, realPath))
    escapes = !StringRef(realPath).starts_with((realDir + "/").str());
  if (escapes)
    return error() << "is outside the model's folder; tcc reads external "
                   << "data only from files in or below it";
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> file =
      tcc::readRegularFile(path.str().str(), why);
  if (!file)
    return error() << (StringRef(why).ends_with("not a regular file")
                           ? "is "
                           : "cannot be read: ")
                   << why;
  if (options.externalFiles)
    options.externalFiles->try_emplace(path.str().str(), t.name());
  uint64_t size = file->getBufferSize();
  uint64_t count = length.value_or(offset <= size ? size - offset : 0);
  if (offset > size || count > size - offset)
    return error() << "is " << size << " bytes; offset " << offset
                   << " and length " << count << " run past its end";
  const char *begin = file->getBufferStart() + offset;
  return std::vector<char>(begin, begin + count);
}

FailureOr<ElementsAttr> Importer::importTensor(const onnx::TensorProto &t,
                                               Location loc) {
  Type elem = toElementType(&ctx, t.data_type());
  if (!elem)
    return emitError(loc) << "tensor '" << t.name() << "' has unsupported "
                          << "element type " << dtypeName(t.data_type());
  if (t.dims_size() > tcc::onnx::kMaxRank)
    return emitError(loc) << "tensor '" << t.name() << "' has rank "
                          << t.dims_size() << "; tcc supports ranks up to "
                          << tcc::onnx::kMaxRank;
  SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
  int64_t elemBytes = tcc::dtypeSize(t.data_type());
  if (std::optional<int64_t> d = tcc::negativeDim(shape))
    return emitError(loc) << "tensor '" << t.name() << "' has a negative dim "
                          << *d << " in its shape "
                          << tcc::onnx::formatShape(shape);
  std::optional<int64_t> numElements =
      tcc::checkedNumElements(shape, elemBytes);
  if (!numElements)
    return emitError(loc) << "tensor '" << t.name() << "' of shape "
                          << tcc::onnx::formatShape(shape)
                          << " is too large (over " << tcc::kMaxTensorBytesText
                          << ")";
  auto type = RankedTensorType::get(shape, elem);
  int64_t n = *numElements;
  // The tensor's bytes: raw_data where it has them, read in place (a copy
  // of a model's hundreds of MB of weights cost as much as parsing them);
  // otherwise gathered into `bytes`.
  std::vector<char> bytes;
  ArrayRef<char> data;
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    FailureOr<std::vector<char>> external = readExternalData(t, loc);
    if (failed(external))
      return failure();
    bytes = std::move(*external);
    data = bytes;
  } else if (t.has_raw_data()) {
    data = ArrayRef<char>(t.raw_data().data(), t.raw_data().size());
  } else {
    switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      bytes = packField(t.float_data(), 4);
      break;
    case onnx::TensorProto::DOUBLE:
      bytes = packField(t.double_data(), 8);
      break;
    case onnx::TensorProto::INT64:
      bytes = packField(t.int64_data(), 8);
      break;
    case onnx::TensorProto::UINT64:
    case onnx::TensorProto::UINT32:
      bytes = packField(t.uint64_data(), elemBytes);
      break;
    default: // int32_data holds every narrower type, one per entry.
      bytes = packField(t.int32_data(), elemBytes);
      break;
    }
    data = bytes;
  }
  if ((int64_t)data.size() != n * elemBytes)
    return emitError(loc) << "tensor '" << t.name() << "' of shape "
                          << tcc::onnx::formatShape(shape) << " has "
                          << data.size() << " bytes of data, expected "
                          << n * elemBytes;
  if (elem.isInteger(1)) {
    SmallVector<bool> bools(data.begin(), data.end());
    return cast<ElementsAttr>(DenseElementsAttr::get(type, bools));
  }
  if (n <= kMaxInlineElements)
    return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(type, data));
  std::string blobName = t.name().empty() ? "tensor" : t.name();
  // raw_data of a ParsedModel, which outlives the module, is not copied
  // (it is heap memory, aligned for any element type).
  bool borrow =
      borrowWeights && bytes.empty() &&
      llvm::isAddrAligned(llvm::Align(alignof(uint64_t)), data.data());
  return cast<ElementsAttr>(DenseResourceElementsAttr::get(
      type, blobName,
      borrow
          ? UnmanagedAsmResourceBlob::allocateWithAlign(data, alignof(uint64_t))
          : HeapAsmResourceBlob::allocateAndCopyWithAlign(data,
                                                          alignof(uint64_t))));
}

FailureOr<Attribute> Importer::importAttribute(const onnx::AttributeProto &a,
                                               Location loc) {
  switch (a.type()) {
  case onnx::AttributeProto::INT:
    return Attribute(b.getI64IntegerAttr(a.i()));
  case onnx::AttributeProto::FLOAT:
    return Attribute(b.getF32FloatAttr(a.f()));
  case onnx::AttributeProto::STRING:
    return Attribute(b.getStringAttr(a.s()));
  case onnx::AttributeProto::INTS:
    return Attribute(b.getDenseI64ArrayAttr(
        SmallVector<int64_t>(a.ints().begin(), a.ints().end())));
  case onnx::AttributeProto::STRINGS: {
    SmallVector<StringRef> strings(a.strings().begin(), a.strings().end());
    return Attribute(b.getStrArrayAttr(strings));
  }
  case onnx::AttributeProto::FLOATS:
    return Attribute(b.getDenseF32ArrayAttr(
        SmallVector<float>(a.floats().begin(), a.floats().end())));
  case onnx::AttributeProto::TENSOR: {
    FailureOr<ElementsAttr> t = importTensor(a.t(), loc);
    if (failed(t))
      return failure();
    return Attribute(*t);
  }
  default:
    return emitError(loc) << "attribute '" << a.name() << "' has an "
                          << "unsupported kind "
                          << onnx::AttributeProto::AttributeType_Name(a.type());
  }
}

/// The newest default-domain opset whose schemas libonnx has.
static int64_t newestKnownOpset() {
  const auto &ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = ranges.find("");
  return it == ranges.end() ? 0 : it->second.second;
}

static const char *article(StringRef word) {
  return !word.empty() && StringRef("AEIOU").contains(word[0]) ? "an" : "a";
}

/// A node's attributes and inputs as ONNX's schema of its op at the
/// model's opset has them: each attribute given once and of the kind the
/// schema says (a Conv `strides` given as a string would otherwise be
/// dropped, and stride 1 used), and as many inputs as it takes, the
/// required ones not empty. Inputs are checked only up to the newest opset
/// libonnx knows: a newer one may take more.
LogicalResult Importer::checkAttributes(const onnx::NodeProto &node,
                                        StringRef name) {
  auto error = [&]() {
    return emitError(NameLoc::get(StringAttr::get(&ctx, name)))
           << "node '" << name << "' (" << node.op_type() << ", opset "
           << opset << "): ";
  };
  const onnx::OpSchema *schema =
      isDefaultDomain(node.domain())
          ? onnx::OpSchemaRegistry::Schema(node.op_type(), (int)opset, "")
          : nullptr;
  // An op ONNX defines only in later opsets: its attributes' kinds from its
  // first definition (they do not change between versions), but no check
  // of its inputs.
  bool laterOpset = false;
  if (!schema && isDefaultDomain(node.domain()) &&
      (schema = onnx::OpSchemaRegistry::Schema(node.op_type(), "")))
    laterOpset = true;
  llvm::StringSet<> seen;
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (!seen.insert(a.name()).second)
      return error() << "attribute '" << a.name() << "' is given twice";
    if (!schema)
      continue;
    auto it = schema->attributes().find(a.name());
    if (it == schema->attributes().end() || it->second.type == a.type())
      continue;
    std::string kind = attrKindName(a.type());
    return error() << "attribute '" << a.name() << "' is " << article(kind)
                   << " " << kind << "; " << node.op_type() << " takes "
                   << attrKindName(static_cast<onnx::AttributeProto::AttributeType>(
                          it->second.type));
  }
  if (!schema || laterOpset || opset > newestKnownOpset())
    return success();
  int count = node.input_size();
  if (count < schema->min_input() || count > schema->max_input()) {
    InFlightDiagnostic diag = error() << "takes ";
    if (schema->min_input() == schema->max_input())
      diag << schema->min_input();
    else if (count < schema->min_input())
      diag << "at least " << schema->min_input();
    else
      diag << "at most " << schema->max_input();
    return diag << " input" << (schema->max_input() == 1 ? "" : "s")
                << ", got " << count;
  }
  const auto &formals = schema->inputs();
  for (int i = 0; i < count && i < (int)formals.size(); ++i)
    if (node.input(i).empty() &&
        formals[i].GetOption() == onnx::OpSchema::FormalParameterOption::Single)
      return error() << "input " << i << " ('" << formals[i].GetName()
                     << "') is required, but it is empty";
  return success();
}

LogicalResult Importer::importNode(const onnx::NodeProto &node,
                                   StringRef name) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, name));
  StringRef opType = node.op_type();
  if (failed(checkAttributes(node, name)))
    return failure();
  if (isIf(node))
    return inlineIf(node, name);
  if (isLoop(node))
    return unrollLoop(node, name);
  if (isScan(node))
    return unrollScan(node, name);
  if (isFlexAttention(node))
    return importFlexAttention(node, name);
  if (const onnx::FunctionProto *fn = localFunction(node))
    return inlineFunction(node, *fn, name);
  if (isContribCall(node)) {
    SmallVector<tcc::import::InputShape> shapes;
    for (const std::string &input : node.input()) {
      auto it = values.find(input);
      auto type = it == values.end()
                      ? RankedTensorType()
                      : dyn_cast<RankedTensorType>(it->second.getType());
      if (!type) {
        shapes.push_back(std::nullopt);
        continue;
      }
      SmallVector<int64_t> dims;
      for (int64_t dim : type.getShape())
        dims.push_back(ShapedType::isDynamic(dim) ? -1 : dim);
      shapes.push_back(std::move(dims));
    }
    std::string why;
    std::optional<onnx::FunctionProto> fn =
        tcc::import::contribFunction(node, shapes, why);
    if (!fn) {
      InFlightDiagnostic diag = emitError(loc)
                                << "node '" << name << "' (" << opType
                                << ", domain " << domainName(node);
      if (isDefaultDomain(node.domain()))
        diag << ", opset " << opset;
      return diag << "): " << why;
    }
    return inlineFunction(node, *fn, name);
  }

  // Constant nodes: every value_* form becomes one ElementsAttr.
  if (opType == "Constant") {
    if (node.output_size() != 1 || node.output(0).empty())
      return emitError(loc) << "Constant node '" << name
                            << "' must have exactly one output";
    if (node.attribute_size() != 1)
      return emitError(loc) << "Constant node '" << name
                            << "' must have exactly one value attribute";
    const onnx::AttributeProto &a = node.attribute(0);
    ElementsAttr value;
    if (a.name() == "value") {
      FailureOr<ElementsAttr> t = importTensor(a.t(), loc);
      if (failed(t))
        return failure();
      value = *t;
    } else if (a.name() == "value_float" || a.name() == "value_floats") {
      SmallVector<float> v = a.name() == "value_float"
                                 ? SmallVector<float>{a.f()}
                                 : SmallVector<float>(a.floats().begin(),
                                                      a.floats().end());
      SmallVector<int64_t> shape;
      if (a.name() == "value_floats")
        shape.push_back(v.size());
      value = DenseElementsAttr::get(
          RankedTensorType::get(shape, b.getF32Type()), ArrayRef<float>(v));
    } else if (a.name() == "value_int" || a.name() == "value_ints") {
      SmallVector<int64_t> v = a.name() == "value_int"
                                   ? SmallVector<int64_t>{a.i()}
                                   : SmallVector<int64_t>(a.ints().begin(),
                                                          a.ints().end());
      SmallVector<int64_t> shape;
      if (a.name() == "value_ints")
        shape.push_back(v.size());
      value = DenseElementsAttr::get(
          RankedTensorType::get(shape, b.getI64Type()), ArrayRef<int64_t>(v));
    } else {
      return emitError(loc) << "Constant node '" << name << "' attribute '"
                            << a.name() << "' is not supported";
    }
    return define(node.output(0),
                  tcc::onnx::ConstantOp::create(b, loc, value.getType(), value),
                  name, opType);
  }

  OperationState state(loc,
                       "onnx." + tcc::import::dialectOpType(opType).str());
  for (const std::string &input : node.input()) {
    if (input.empty()) {
      state.operands.push_back(noValue(loc));
      continue;
    }
    auto it = values.find(input);
    if (it == values.end())
      return emitError(loc) << "node '" << name << "' (" << opType
                            << ") reads '" << input
                            << "', which no earlier node or input defines";
    state.operands.push_back(it->second);
  }

  // Optional trailing inputs the node leaves out become `none` (up to the
  // newest form libonnx knows; normalizers handle newer forms).
  const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(opType.str(), "");
  if (schema && !schema->inputs().empty() &&
      schema->inputs().back().GetOption() !=
          onnx::OpSchema::FormalParameterOption::Variadic)
    while (state.operands.size() < schema->inputs().size())
      state.operands.push_back(noValue(loc));

  for (const onnx::AttributeProto &a : node.attribute()) {
    FailureOr<Attribute> attr = importAttribute(a, loc);
    if (failed(attr))
      return failure();
    state.addAttribute(a.name(), *attr);
  }

  tcc::import::NodeBuild nb{b, loc, node, name, opset, state, {}};
  if (failed(tcc::import::normalizeNode(nb)))
    return failure();

  // Attributes the op does not know would be silently ignored: refuse.
  std::optional<RegisteredOperationName> opName = state.name.getRegisteredInfo();
  for (const NamedAttribute &attr : state.attributes) {
    if (!llvm::is_contained(opName->getAttributeNames(), attr.getName()))
      return emitError(loc) << "node '" << name << "' (" << opType
                            << ", opset " << opset << ") has attribute '"
                            << attr.getName().getValue()
                            << "', which tcc does not support";
  }
  // And those it knows must be of the kind it declares: an op's accessors
  // take that for granted (checkAttributes compares with ONNX's schema,
  // which may not know the op at this opset).
  if (failed(opName->verifyInherentAttrs(state.attributes, [&]() {
        return emitError(loc) << "node '" << name << "' (" << opType
                              << ", opset " << opset << "): ";
      })))
    return failure();

  // One result per ONNX output the op models; extra outputs are unsupported.
  Type elem = state.operands.empty()
                  ? Type(b.getF32Type())
                  : getElementTypeOrSelf(state.operands[0].getType());
  unsigned numResults = tcc::import::numResults(node);
  for (unsigned i = 0; i < numResults; ++i)
    state.addTypes(UnrankedTensorType::get(elem));
  int requested = 0;
  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty())
      requested = i + 1;
  if (requested > (int)numResults)
    return emitError(loc) << "node '" << name << "' (" << opType
                          << ") asks for " << requested
                          << " outputs; tcc supports "
                          << (numResults == 1 ? "only the first"
                                              : "the first " +
                                                    std::to_string(numResults))
                          << " (inference form)";

  Operation *op = b.create(state);
  if (failed(verify(op)) ||
      failed(cast<tcc::onnx::ShapeInferenceOpInterface>(op).inferShapes()))
    return failure();
  // Every size is checked here, before a folder or a later pass multiplies
  // the dims: a shape computed from hostile values must not wrap.
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      continue;
    SmallVector<int64_t> known;
    bool negative = false;
    for (int64_t d : type.getShape()) {
      if (!ShapedType::isDynamic(d))
        known.push_back(d);
      negative |= d < 0 && !ShapedType::isDynamic(d);
    }
    Type elem = type.getElementType();
    int64_t elemBytes =
        elem.isIntOrFloat() ? std::max(1u, elem.getIntOrFloatBitWidth() / 8) : 8;
    if (type.getRank() > tcc::onnx::kMaxRank)
      return emitError(loc) << "node '" << name << "' (" << opType << ", opset "
                            << opset << "): its result has rank "
                            << type.getRank() << "; tcc supports ranks up to "
                            << tcc::onnx::kMaxRank;
    if (negative || !tcc::checkedNumBytes(known, elemBytes))
      return emitError(loc) << "node '" << name << "' (" << opType << ", opset "
                            << opset << "): its result of shape "
                            << tcc::onnx::formatShape(type.getShape())
                            << (negative ? " has a negative dim"
                                         : " is too large (over " +
                                               std::string(tcc::kMaxTensorBytesText) +
                                               ")");
  }
  // Fold to constants as we go, so that shape sub-graphs (Shape -> Gather
  // -> Concat -> Reshape) are constant by the time their consumer is built
  // and its shape is inferred.
  // A fold that forwards an operand (Identity) counts when that operand is
  // a constant of the result's type: a Range or Reshape reading it must see
  // the constant, not the forwarding op.
  SmallVector<Value> results(op->getResults());
  SmallVector<OpFoldResult> folded;
  auto isConstant = [](OpFoldResult r, Value result) {
    if (auto v = dyn_cast<Value>(r))
      return v.getType() == result.getType() && matchPattern(v, m_Constant());
    auto attr = dyn_cast_or_null<ElementsAttr>(dyn_cast<Attribute>(r));
    return attr && attr.getType() == result.getType();
  };
  if (succeeded(op->fold(folded)) && folded.size() == results.size() &&
      llvm::all_of(llvm::zip_equal(folded, results), [&](auto pair) {
        return isConstant(std::get<0>(pair), std::get<1>(pair));
      })) {
    for (auto [result, r] : llvm::zip_equal(results, folded)) {
      if (auto forwarded = dyn_cast<Value>(r))
        result = forwarded;
      else
        result = tcc::onnx::ConstantOp::create(
            b, loc, result.getType(), cast<ElementsAttr>(cast<Attribute>(r)));
    }
    op->erase();
  }
  for (int i = 0; i < requested; ++i) {
    if (node.output(i).empty())
      continue;
    Value result = results[i];
    if (i == 0 && nb.post)
      result = nb.post(result);
    if (failed(define(node.output(i), result, name, opType)))
      return failure();
  }
  return success();
}

/// A declared type (a graph output's; a value's, from value_info) against
/// the computed one: another dtype is an error (a header would size
/// buffers by it), another shape a warning (the computed one counts, as in
/// onnxruntime).
LogicalResult Importer::checkDeclared(const onnx::ValueInfoProto &info,
                                      Value value, StringRef what) {
  Location loc = NameLoc::get(StringAttr::get(&ctx, info.name()));
  StringRef source = what == "value" ? " (value_info)" : "";
  Type elem = getElementTypeOrSelf(value.getType());
  int computed = onnxDtype(elem);
  if (!computed)
    return emitError(loc) << what << " '" << info.name() << "' is computed as "
                          << value.getType() << ", which tcc cannot return";
  if (!info.type().has_tensor_type())
    return info.type().value_case() == onnx::TypeProto::VALUE_NOT_SET
               ? success()
               : emitError(loc) << what << " '" << info.name()
                                << "' is declared a sequence, map or optional"
                                << source << ", but it is computed as a tensor";
  const onnx::TypeProto::Tensor &declared = info.type().tensor_type();
  if (declared.elem_type() != 0 && declared.elem_type() != computed)
    return emitError(loc) << what << " '" << info.name() << "' is declared "
                          << valueTypeName(declared.elem_type()) << source
                          << ", but it is computed as "
                          << valueTypeName(computed);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!declared.has_shape() || !type)
    return success();
  SmallVector<int64_t> shape;
  bool differs = declared.shape().dim_size() != type.getRank();
  for (const auto &[i, dim] : llvm::enumerate(declared.shape().dim())) {
    shape.push_back(dim.has_dim_value() ? dim.dim_value() : ShapedType::kDynamic);
    differs |= dim.has_dim_value() && (int64_t)i < type.getRank() &&
               !type.isDynamicDim(i) && dim.dim_value() != type.getDimSize(i);
  }
  if (differs)
    emitWarning(loc) << what << " '" << info.name() << "' is declared "
                     << tcc::onnx::formatShape(shape) << source
                     << ", but it is computed as "
                     << tcc::onnx::formatShape(type.getShape())
                     << "; tcc uses the computed shape";
  return success();
}

/// Parses the protobuf `bytes` of the model read from `path` into `model`
/// and names its unknown dims; errors go to `ctx`.
static LogicalResult parseModel(MLIRContext &ctx, StringRef bytes,
                                StringRef path, onnx::ModelProto &model) {
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  if (bytes.size() > (size_t)std::numeric_limits<int>::max())
    return emitError(fileLoc)
           << "'" << path << "' is " << bytes.size()
           << " bytes; a protobuf holds at most 2 GiB (a model "
           << "that large keeps its weights in external data)";
  if (!model.ParseFromArray(bytes.data(), (int)bytes.size()) ||
      !model.has_graph() || model.ir_version() <= 0)
    return emitError(fileLoc)
           << "'" << path << "' is not a valid ONNX model "
           << "(it does not parse as an ONNX ModelProto with a "
           << "graph; truncated or not ONNX)";
  nameUnknownDims(model);
  return success();
}

/// Imports the model whose protobuf is `bytes`, read from `path` (its
/// folder holds the external data).
OwningOpRef<ModuleOp> Importer::importBytes(StringRef bytes, StringRef path) {
  onnx::ModelProto model;
  if (failed(parseModel(ctx, bytes, path, model)))
    return nullptr;
  return importModel(model, path, /*borrowWeights=*/false);
}

OwningOpRef<ModuleOp> Importer::importModel(const onnx::ModelProto &model,
                                            StringRef path,
                                            bool borrowWeights) {
  modelPath = path.str();
  this->borrowWeights = borrowWeights;
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  bool imported = false;
  for (const auto &imp : model.opset_import()) {
    if (!isDefaultDomain(imp.domain()))
      continue;
    if (imported && opset != imp.version()) {
      emitError(fileLoc) << "'" << path << "' imports the default domain "
                         << "twice (opsets " << std::min(opset, imp.version())
                         << " and " << std::max(opset, imp.version()) << ")";
      return nullptr;
    }
    opset = imp.version();
    imported = true;
  }
  for (const onnx::FunctionProto &fn : model.functions())
    functions[fn.domain() + ":" + fn.name()] = &fn;
  if (!imported) {
    emitError(fileLoc) << "'" << path << "' imports no default-domain opset";
    return nullptr;
  }
  if (opset < kMinOpset || opset > kMaxOpset) {
    emitError(fileLoc) << "'" << path << "' imports opset " << opset
                       << " of the default domain; tcc supports opsets "
                       << kMinOpset << " to " << kMaxOpset;
    return nullptr;
  }
  const onnx::GraphProto &graph = model.graph();
  std::vector<std::string> nodeNames;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    nodeNames.push_back(node.name().empty()
                            ? node.op_type() + "_" + std::to_string(i)
                            : node.name());
    if (nodes)
      (*nodes)[nodeNames.back()] = {node.op_type(), domainName(node), opset};
  }
  if (failed(checkSupported(graph)))
    return nullptr;

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  b.setInsertionPointToEnd(module->getBody());

  llvm::StringMap<const onnx::TensorProto *> initializers;
  for (const auto &init : graph.initializer()) {
    if (!initializers.try_emplace(init.name(), &init).second) {
      emitError(NameLoc::get(StringAttr::get(&ctx, init.name())))
          << "initializer '" << init.name() << "' is given twice";
      return nullptr;
    }
    producers[init.name()] = "an initializer";
  }
  SmallVector<Type> argTypes;
  SmallVector<const onnx::ValueInfoProto *> inputs;
  SmallVector<std::pair<const onnx::ValueInfoProto *, ElementsAttr>> boundInputs;
  llvm::StringSet<> inputNames;
  for (const auto &[index, input] : llvm::enumerate(graph.input())) {
    Location loc = NameLoc::get(StringAttr::get(&ctx, input.name()));
    if (input.name().empty()) {
      emitError(fileLoc) << "graph input " << index << " has no name";
      return nullptr;
    }
    if (!inputNames.insert(input.name()).second) {
      emitError(loc) << "graph input '" << input.name()
                     << "' is declared twice";
      return nullptr;
    }
    if (auto it = initializers.find(input.name()); it != initializers.end()) {
      // An input with a default value: the initializer's dtype must be the
      // declared one.
      int declared = input.type().has_tensor_type()
                         ? input.type().tensor_type().elem_type()
                         : 0;
      if (declared && declared != it->second->data_type()) {
        emitError(loc) << "input '" << input.name() << "' is declared "
                       << valueTypeName(declared) << ", but its initializer is "
                       << valueTypeName(it->second->data_type());
        return nullptr;
      }
      continue;
    }
    producers[input.name()] = "a graph input";
    if (auto it = options.bound.find(input.name()); it != options.bound.end()) {
      FailureOr<ElementsAttr> value = importBound(input, it->second);
      if (failed(value))
        return nullptr;
      boundInputs.push_back({&input, *value});
      continue;
    }
    FailureOr<Type> type = importValueType(input);
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
    inputs.push_back(&input);
  }
  for (const auto &[name, tensor] : options.bound) {
    if (!llvm::any_of(boundInputs,
                      [&](auto &in) { return in.first->name() == name; })) {
      emitError(fileLoc) << "--bind names '" << name
                         << "', which is not an input of the model";
      return nullptr;
    }
  }
  for (const auto &[name, shape] : options.shapes) {
    if (!llvm::any_of(inputs, [&](auto *in) { return in->name() == name; })) {
      emitError(fileLoc) << "--shape names '" << name
                         << "', which is not an input of the model";
      return nullptr;
    }
  }

  auto func = func::FuncOp::create(b, fileLoc, "main",
                                   b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  for (size_t i = 0; i < inputs.size(); ++i) {
    values[inputs[i]->name()] = entry->getArgument(i);
    func.setArgAttr(i, tcc::kNameAttr, b.getStringAttr(inputs[i]->name()));
    func.setArgAttr(i, tcc::kDtypeAttr,
                    b.getI64IntegerAttr(
                        inputs[i]->type().tensor_type().elem_type()));
    // Symbolic dim names, for messages and (later) the dynamic ABI.
    SmallVector<Attribute> dimNames;
    bool symbolic = false;
    for (const auto &dim : inputs[i]->type().tensor_type().shape().dim()) {
      dimNames.push_back(b.getStringAttr(dim.dim_param()));
      symbolic |= !dim.dim_param().empty();
    }
    if (symbolic)
      func.setArgAttr(i, tcc::kDimNamesAttr, b.getArrayAttr(dimNames));
  }
  for (auto [input, value] : boundInputs)
    values[input->name()] = tcc::onnx::ConstantOp::create(
        b, NameLoc::get(StringAttr::get(&ctx, input->name())), value.getType(),
        value);
  for (const auto &init : graph.initializer()) {
    Location loc = NameLoc::get(StringAttr::get(&ctx, init.name()));
    FailureOr<ElementsAttr> value = importTensor(init, loc);
    if (failed(value))
      return nullptr;
    values[init.name()] =
        tcc::onnx::ConstantOp::create(b, loc, value->getType(), *value);
  }
  for (int i = 0; i < graph.node_size(); ++i)
    if (failed(importNode(graph.node(i), nodeNames[i])))
      return nullptr;

  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end()) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not computed by any node";
      return nullptr;
    }
    results.push_back(it->second);
  }
  // Declared types are checked, never trusted: the header's buffer sizes
  // come from the computed ones.
  for (int i = 0; i < graph.output_size(); ++i)
    if (failed(checkDeclared(graph.output(i), results[i], "graph output")))
      return nullptr;
  for (const onnx::ValueInfoProto &info : graph.value_info())
    if (auto it = values.find(info.name()); it != values.end())
      if (failed(checkDeclared(info, it->second, "value")))
        return nullptr;
  func::ReturnOp::create(b, fileLoc, results);
  func.setType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (int i = 0; i < graph.output_size(); ++i) {
    const onnx::ValueInfoProto &output = graph.output(i);
    func.setResultAttr(i, tcc::kNameAttr, b.getStringAttr(output.name()));
    int dtype = onnxDtype(getElementTypeOrSelf(results[i].getType()));
    func.setResultAttr(i, tcc::kDtypeAttr, b.getI64IntegerAttr(dtype));
    SmallVector<Attribute> dimNames;
    bool symbolic = false;
    for (const auto &dim : output.type().tensor_type().shape().dim()) {
      dimNames.push_back(b.getStringAttr(dim.dim_param()));
      symbolic |= !dim.dim_param().empty();
    }
    if (symbolic)
      func.setResultAttr(i, tcc::kDimNamesAttr, b.getArrayAttr(dimNames));
  }
  func->setAttr("tcc.num_inputs", b.getI64IntegerAttr(inputs.size()));
  module->getOperation()->setAttr("onnx.opset", b.getI64IntegerAttr(opset));
  return module;
}

struct tcc::ParsedModel {
  ::onnx::ModelProto proto;
  std::string path;
};

std::shared_ptr<const tcc::ParsedModel>
tcc::parseONNXModel(MLIRContext &context, StringRef path) {
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      tcc::readRegularFile(path.str(), why);
  if (!buffer) {
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << "cannot read '" << path << "': " << why;
    return nullptr;
  }
  auto model = std::make_shared<ParsedModel>();
  model->path = path.str();
  if (failed(parseModel(context, buffer->getBuffer(), path, model->proto)))
    return nullptr;
  return model;
}

OwningOpRef<ModuleOp>
tcc::importONNXModel(MLIRContext &context, const ParsedModel &model,
                     const ImportOptions &options,
                     std::map<std::string, NodeInfo> *nodes) {
  context.loadDialect<tcc::onnx::ONNXDialect, func::FuncDialect,
                      LLVM::LLVMDialect>();
  Importer importer(context, options, nodes);
  return importer.importModel(model.proto, model.path, /*borrowWeights=*/true);
}

OwningOpRef<ModuleOp>
tcc::importONNXModel(MLIRContext &context, StringRef path,
                     const ImportOptions &options,
                     std::map<std::string, NodeInfo> *nodes) {
  // The parsed model is gone once this returns: its weights are copied.
  std::shared_ptr<const ParsedModel> model = parseONNXModel(context, path);
  if (!model)
    return nullptr;
  context.loadDialect<tcc::onnx::ONNXDialect, func::FuncDialect,
                      LLVM::LLVMDialect>();
  Importer importer(context, options, nodes);
  return importer.importModel(model->proto, model->path,
                              /*borrowWeights=*/false);
}

OwningOpRef<ModuleOp> tcc::importONNXBytes(MLIRContext &context,
                                           StringRef bytes, StringRef path,
                                           const ImportOptions &options,
                                           std::map<std::string, NodeInfo> *nodes) {
  context.loadDialect<tcc::onnx::ONNXDialect, func::FuncDialect,
                      LLVM::LLVMDialect>();
  Importer importer(context, options, nodes);
  return importer.importBytes(bytes, path);
}
