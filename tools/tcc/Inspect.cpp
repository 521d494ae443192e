//===- Inspect.cpp - tcc inspect: what a model holds, before compiling ----===//
//
//   tcc inspect MODEL.onnx [--dim NAME=V] [--shape INPUT=DxD] [--json]
//                          [--kernels]
//
// Reads the model as the compiler would (a regular file, parsed once),
// reports its producer, opset imports, inputs and outputs (symbolic dims by
// name), an operator histogram (subgraphs included), the parameters
// (initializers: count, elements, bytes), and imports it into the onnx
// dialect to list every node tcc does not support at once and to estimate
// the FLOPs of a run from the inferred shapes. No code is generated. With
// --kernels, it also runs the compiler's MLIR pipeline (not LLVM's code
// generation) for the kernel plan: each kernel call with the ONNX nodes it
// computes, the shape it writes and its FLOPs.
//
//===----------------------------------------------------------------------===//
#include "Inspect.h"

#include "Driver.h"
#include "Graph.h"

#include "tcc/Header.h"
#include "tcc/InitAll.h"
#include "tcc/ReadFile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using tcc::driver::KernelGraph;

namespace {

struct Tensor {
  std::string name, dtype;
  /// Dims: a size, or a symbolic name ("?" for an unnamed unknown dim).
  std::vector<std::string> dims;
  bool ranked = false;
};

struct Unsupported {
  std::string node, op, domain;
  std::optional<int64_t> opset;
};

struct Report {
  std::string path, producer, producerVersion;
  int64_t irVersion = 0;
  std::vector<std::pair<std::string, int64_t>> opsets;
  std::vector<Tensor> inputs, outputs;
  std::map<std::string, int64_t> ops;
  int64_t nodes = 0, subgraphNodes = 0;
  int64_t paramTensors = 0, paramElements = 0, paramBytes = 0;
  bool imported = false;
  /// FLOPs of one run (2 per multiply-add of the ops counted), or none when
  /// a counted op has a size known only at run time.
  std::optional<int64_t> flops;
  std::vector<Unsupported> unsupported;
  std::vector<std::string> errors;
  /// --kernels: the compiled model's kernel calls in run order, and why
  /// there are none when the compile could not be made.
  struct Kernel {
    KernelGraph::Kernel kernel;
    std::optional<int64_t> flops; // none: the model's FLOPs are unknown
  };
  std::optional<std::vector<Kernel>> kernels;
  int64_t functions = 0, workspaceBytes = 0;
  std::string noKernels, kernelsFor; // kernelsFor: the sizes compiled for
};

std::string dtypeName(int dtype) {
  if (!onnx::TensorProto_DataType_IsValid(dtype))
    return "dtype " + std::to_string(dtype);
  return llvm::StringRef(onnx::TensorProto_DataType_Name(
                             (onnx::TensorProto_DataType)dtype))
      .lower();
}

Tensor describe(const onnx::ValueInfoProto &info) {
  Tensor t;
  t.name = info.name();
  if (!info.type().has_tensor_type()) {
    t.dtype = info.type().has_sequence_type() ? "sequence"
              : info.type().has_map_type()    ? "map"
                                              : "unknown";
    return t;
  }
  const onnx::TypeProto::Tensor &tensor = info.type().tensor_type();
  t.dtype = dtypeName(tensor.elem_type());
  t.ranked = tensor.has_shape();
  for (const onnx::TensorShapeProto::Dimension &d : tensor.shape().dim())
    t.dims.push_back(d.has_dim_value() && d.dim_value() >= 0
                         ? std::to_string(d.dim_value())
                     : d.has_dim_param() && !d.dim_param().empty()
                         ? d.dim_param()
                         : std::string("?"));
  return t;
}

/// a * b, or nullopt past int64.
std::optional<int64_t> mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

void countOps(const google::protobuf::RepeatedPtrField<onnx::NodeProto> &list,
              Report &r, bool nested) {
  for (const onnx::NodeProto &node : list) {
    std::string domain =
        node.domain() == "ai.onnx" ? std::string() : node.domain();
    ++r.ops[domain.empty() ? node.op_type() : domain + "." + node.op_type()];
    ++(nested ? r.subgraphNodes : r.nodes);
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (a.has_g())
        countOps(a.g().node(), r, true);
      for (const onnx::GraphProto &g : a.graphs())
        countOps(g.node(), r, true);
    }
  }
}

/// Parameters: the initializers (of the graph), by their declared dims.
LogicalResult countParameters(const onnx::GraphProto &graph, Report &r) {
  for (const onnx::TensorProto &t : graph.initializer()) {
    std::optional<int64_t> n = 1;
    for (int64_t d : t.dims())
      if (d < 0 || !(n = mul(*n, d))) {
        r.errors.push_back("initializer '" + t.name() +
                           "' has a negative dim or too many elements");
        return failure();
      }
    std::optional<int64_t> bytes = mul(*n, tcc::dtypeSize(t.data_type()));
    if (!bytes || __builtin_add_overflow(r.paramElements, *n, &r.paramElements) ||
        __builtin_add_overflow(r.paramBytes, *bytes, &r.paramBytes)) {
      r.errors.push_back("the initializers hold too many bytes");
      return failure();
    }
    ++r.paramTensors;
  }
  return success();
}

/// Static dims of `v`'s type, or nullopt.
std::optional<SmallVector<int64_t>> staticShape(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getShape());
}

int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

} // namespace

std::optional<std::map<std::string, int64_t>>
tcc::driver::nodeFlops(ModuleOp module) {
  std::map<std::string, int64_t> flops;
  bool known = true;
  module.walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    bool matmul = name == "onnx.MatMul", gemm = name == "onnx.Gemm",
         conv = name == "onnx.Conv", convT = name == "onnx.ConvTranspose";
    if (!known || !(matmul || gemm || conv || convT))
      return;
    auto a = staticShape(op->getOperand(0));
    auto b = staticShape(op->getOperand(1));
    auto y = staticShape(op->getResult(0));
    if (!a || !b || !y || a->empty() || b->empty() || y->empty()) {
      known = false;
      return;
    }
    // Multiply-adds per output element (conv: per input element for a
    // transposed one).
    int64_t perElement, elements = product(*y);
    if (matmul)
      perElement = a->back();
    else if (gemm)
      perElement = (*y)[0] ? product(*a) / (*y)[0] : 0;
    else if (conv)
      perElement = (*b)[0] ? product(*b) / (*b)[0] : 0;
    else {
      perElement = (*b)[0] ? product(*b) / (*b)[0] : 0;
      elements = product(*a);
    }
    std::string node;
    if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
      node = loc.getName().str();
    flops[node] += 2 * elements * perElement;
  });
  if (!known)
    return std::nullopt;
  return flops;
}

namespace {

/// Imports the model to find what tcc does not support (every node at
/// once) and the inferred shapes; errors go into the report.
void importModel(StringRef bytes, const std::string &path,
                 const tcc::ImportOptions &options, Report &r) {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.printOpOnDiagnostic(false);
  llvm::Regex unsupported(
      "^unsupported operator: node '(.*)' op ([^ ]+) \\(domain ([^,)]+)"
      "(, opset ([0-9]+))?\\)$");
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    std::string message = diag.str();
    SmallVector<StringRef> m;
    if (unsupported.match(message, &m)) {
      Unsupported u{m[1].str(), m[2].str(), m[3].str(), std::nullopt};
      int64_t opset;
      if (!m[5].empty() && !m[5].getAsInteger(10, opset))
        u.opset = opset;
      r.unsupported.push_back(u);
    } else if (!StringRef(message).ends_with("in the model")) {
      r.errors.push_back(message);
    }
    return success();
  });
  OwningOpRef<ModuleOp> module =
      tcc::importONNXBytes(ctx, bytes, path, options);
  if (!module)
    return;
  r.imported = true;
  if (auto flops = tcc::driver::nodeFlops(*module)) {
    r.flops = 0;
    for (const auto &[node, n] : *flops)
      *r.flops += n;
  }
}

/// --kernels: compiles the model through the MLIR pipeline (no LLVM code
/// generation) into the kernel plan of `r`; false when it cannot be
/// compiled (the compile's errors are on stderr).
bool planKernels(const tcc::driver::CompileOptions &model, Report &r) {
  if (!r.imported || !r.unsupported.empty()) {
    r.noKernels = "the model does not import";
    return false;
  }
  tcc::driver::CompileOptions o = model;
  o.kernelPlan = true;
  tcc::driver::Session session;
  tcc::driver::Compiled compiled;
  compiled.name = tcc::driver::defaultName(o.model);
  if (failed(tcc::driver::compileToLLVMDialect(
          session.ctx, o, compiled, tcc::Stage::LLVM, session.nodes)) ||
      !compiled.graph) {
    r.noKernels = "the model does not compile (the errors are on stderr)";
    return false;
  }
  const std::vector<KernelGraph::Kernel> &kernels = compiled.graph->kernels;
  std::vector<int64_t> flops;
  if (compiled.nodeFlops)
    flops = tcc::driver::kernelFlops(kernels, *compiled.nodeFlops);
  r.kernels.emplace();
  for (auto [i, k] : llvm::enumerate(kernels))
    r.kernels->push_back(
        {k, flops.empty() ? std::nullopt : std::optional<int64_t>(flops[i])});
  const tcc::ModelSignature &sig = compiled.signature;
  if (!sig.boundedDim.empty())
    r.kernelsFor = "'" + sig.boundedDim + "' at its bound";
  if (!sig.batchDim.empty())
    r.kernelsFor += (r.kernelsFor.empty() ? "" : ", ") +
                    ("one sample: '" + sig.batchDim + "' varies at run time");
  r.functions = compiled.stats["functions"];
  r.workspaceBytes = compiled.workspaceSize;
  return true;
}

std::string shapeText(const Tensor &t) {
  if (!t.ranked)
    return t.dtype + " (no shape)";
  return t.dtype + " [" + llvm::join(t.dims, ", ") + "]";
}

/// The report as text. Every name in it comes from the model and is
/// printed with its control characters escaped (no terminal escapes, no
/// line faked by a newline); JSON escapes them itself.
void printText(const Report &r, llvm::raw_ostream &os) {
  auto e = [](StringRef text) { return tcc::driver::escapeControl(text); };
  os << "model: " << e(r.path) << "\n";
  os << "producer: "
     << (r.producer.empty() ? std::string("(none)") : e(r.producer))
     << (r.producerVersion.empty() ? "" : " " + e(r.producerVersion))
     << "; IR version " << r.irVersion << "\n";
  os << "opset imports:";
  for (const auto &[domain, version] : r.opsets)
    os << " " << (domain.empty() ? "ai.onnx" : e(domain)) << " " << version;
  os << "\n";
  for (const auto *list : {&r.inputs, &r.outputs}) {
    os << (list == &r.inputs ? "inputs:" : "outputs:") << "\n";
    for (const Tensor &t : *list)
      os << "  " << e(t.name) << ": " << e(shapeText(t)) << "\n";
  }
  os << "nodes: " << r.nodes;
  if (r.subgraphNodes)
    os << " (+" << r.subgraphNodes << " in subgraphs)";
  os << "\noperators:\n";
  std::vector<std::pair<int64_t, std::string>> sorted;
  for (const auto &[op, count] : r.ops)
    sorted.push_back({-count, op});
  llvm::sort(sorted);
  for (const auto &[count, op] : sorted)
    os << llvm::formatv("  {0,7}  {1}\n", -count, e(op));
  os << "parameters: " << r.paramElements << " in " << r.paramTensors
     << " initializers, " << r.paramBytes << " bytes ("
     << llvm::formatv("{0:F2}", r.paramBytes / 1048576.0) << " MiB)\n";
  os << "FLOPs per run: ";
  if (r.flops)
    os << *r.flops << " (" << llvm::formatv("{0:F3}", *r.flops / 1e9)
       << " G; MatMul, Gemm, Conv, ConvTranspose, 2 per multiply-add)\n";
  else
    os << (r.imported ? "unknown: a size is known only at run time (pin "
                        "symbolic dims with --dim or --shape)\n"
                      : "unknown: the model does not import\n");
  os << "unsupported nodes: " << r.unsupported.size() << "\n";
  for (const Unsupported &u : r.unsupported) {
    os << "  " << e(u.node) << ": " << e(u.op) << " (domain " << e(u.domain);
    if (u.opset)
      os << ", opset " << *u.opset;
    os << ")\n";
  }
  for (const std::string &error : r.errors)
    os << "import error: " << e(error) << "\n";
  if (!r.noKernels.empty())
    os << "kernel plan: none: " << r.noKernels << "\n";
  if (!r.kernels)
    return;
  os << "kernel plan: " << r.kernels->size() << " kernel calls, " << r.functions
     << " functions, a workspace of " << r.workspaceBytes << " bytes";
  if (!r.kernelsFor.empty())
    os << "; for " << r.kernelsFor;
  os << " (tcc compile --graph draws it)\n";
  os << llvm::formatv("  {0,-5} {1,-48} {2,-20} {3,10}  {4}\n", "site",
                      "kernel", "writes", "MFLOP", "ONNX nodes");
  for (auto [i, k] : llvm::enumerate(*r.kernels)) {
    std::string flops = !k.flops ? "?"
                        : *k.flops
                            ? llvm::formatv("{0:F3}", *k.flops / 1e6).str()
                            : "-";
    os << llvm::formatv("  k{0,-4} {1,-48} {2,-20} {3,10}  {4}\n", i,
                        k.kernel.name, k.kernel.shape, flops,
                        k.kernel.nodes.empty()
                            ? std::string("-")
                            : e(llvm::join(k.kernel.nodes, ", ")));
  }
}

llvm::json::Value tensorJson(const Tensor &t) {
  llvm::json::Array dims;
  for (const std::string &d : t.dims) {
    int64_t v;
    if (!StringRef(d).getAsInteger(10, v))
      dims.push_back(v);
    else
      dims.push_back(d);
  }
  llvm::json::Object o{{"name", t.name}, {"dtype", t.dtype}};
  o["shape"] = t.ranked ? llvm::json::Value(std::move(dims)) : nullptr;
  return o;
}

void printJson(const Report &r, llvm::raw_ostream &os) {
  llvm::json::Array opsets, inputs, outputs, unsupported, errors;
  for (const auto &[domain, version] : r.opsets)
    opsets.push_back(llvm::json::Object{
        {"domain", domain.empty() ? "ai.onnx" : domain}, {"version", version}});
  for (const Tensor &t : r.inputs)
    inputs.push_back(tensorJson(t));
  for (const Tensor &t : r.outputs)
    outputs.push_back(tensorJson(t));
  llvm::json::Object ops;
  for (const auto &[op, count] : r.ops)
    ops[op] = count;
  for (const Unsupported &u : r.unsupported) {
    llvm::json::Object o{{"node", u.node}, {"op", u.op}, {"domain", u.domain}};
    o["opset"] = u.opset ? llvm::json::Value(*u.opset) : nullptr;
    unsupported.push_back(std::move(o));
  }
  for (const std::string &e : r.errors)
    errors.push_back(e);
  llvm::json::Object root{
      {"model", r.path},
      {"producer", llvm::json::Object{{"name", r.producer},
                                      {"version", r.producerVersion}}},
      {"ir_version", r.irVersion},
      {"opset_imports", std::move(opsets)},
      {"inputs", std::move(inputs)},
      {"outputs", std::move(outputs)},
      {"nodes", r.nodes},
      {"subgraph_nodes", r.subgraphNodes},
      {"operators", std::move(ops)},
      {"parameters", llvm::json::Object{{"initializers", r.paramTensors},
                                        {"elements", r.paramElements},
                                        {"bytes", r.paramBytes}}},
      {"imported", r.imported},
      {"unsupported", std::move(unsupported)},
      {"import_errors", std::move(errors)}};
  root["flops"] = r.flops ? llvm::json::Value(*r.flops) : nullptr;
  if (r.kernels) {
    llvm::json::Array kernels;
    for (const Report::Kernel &k : *r.kernels) {
      llvm::json::Array nodes;
      for (const std::string &node : k.kernel.nodes)
        nodes.push_back(node);
      llvm::json::Object o{{"name", k.kernel.name},
                           {"writes", k.kernel.shape},
                           {"nodes", std::move(nodes)}};
      o["flops"] = k.flops ? llvm::json::Value(*k.flops) : nullptr;
      kernels.push_back(std::move(o));
    }
    root["kernel_plan"] =
        llvm::json::Object{{"kernels", std::move(kernels)},
                           {"functions", r.functions},
                           {"workspace_bytes", r.workspaceBytes},
                           {"for", r.kernelsFor}};
  } else if (!r.noKernels.empty()) {
    root["kernel_plan"] = llvm::json::Object{{"error", r.noKernels}};
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

} // namespace

int tcc::driver::runInspect(const CompileOptions &o,
                            const tcc::ImportOptions &options, bool json,
                            bool kernels) {
  const std::string &path = o.model;
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> file = tcc::readRegularFile(path, why);
  if (!file) {
    llvm::errs() << "tcc: error: cannot read '" << path << "': " << why
                 << "\n";
    return 1;
  }
  onnx::ModelProto model;
  StringRef bytes = file->getBuffer();
  if (bytes.size() > (size_t)INT_MAX ||
      !model.ParseFromArray(bytes.data(), (int)bytes.size())) {
    llvm::errs() << "tcc: error: '" << path
                 << "' is not an ONNX model (the protobuf does not parse)\n";
    return 1;
  }
  Report r;
  r.path = path;
  r.producer = model.producer_name();
  r.producerVersion = model.producer_version();
  r.irVersion = model.ir_version();
  for (const onnx::OperatorSetIdProto &o : model.opset_import())
    r.opsets.push_back({o.domain(), o.version()});
  const onnx::GraphProto &graph = model.graph();
  std::set<std::string> initializers;
  for (const onnx::TensorProto &t : graph.initializer())
    initializers.insert(t.name());
  for (const onnx::ValueInfoProto &v : graph.input())
    if (!initializers.count(v.name()))
      r.inputs.push_back(describe(v));
  for (const onnx::ValueInfoProto &v : graph.output())
    r.outputs.push_back(describe(v));
  countOps(graph.node(), r, false);
  if (succeeded(countParameters(graph, r)))
    importModel(bytes, path, options, r);
  int status = 0;
  if (kernels && !planKernels(o, r))
    status = 1;
  if (json)
    printJson(r, llvm::outs());
  else
    printText(r, llvm::outs());
  return status;
}

tcc::driver::Command tcc::driver::addInspectCommand(CLI::App &app) {
  struct InspectOptions {
    tcc::driver::CompileOptions model; // the model, --dim and --shape
    bool json = false, kernels = false;
  };
  auto o = std::make_shared<InspectOptions>();
  CLI::App *cmd = app.add_subcommand(
      "inspect", "Say what a model holds: producer, opsets, inputs and "
                 "outputs, operators, parameters, FLOPs, unsupported nodes "
                 "(no code is generated); with --kernels, the kernel plan");
  cmd->add_option("model", o->model.model, "The ONNX model")->required();
  cmd->add_option("--dim", o->model.dims,
                  "Pin a symbolic dim: NAME=VALUE (for the FLOPs)");
  cmd->add_option("--shape", o->model.shapes,
                  "Pin an input shape: NAME=DxDx... (for the FLOPs)");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  cmd->add_flag("--kernels", o->kernels,
                "Also compile the model (its MLIR pipeline, not LLVM's "
                "code generation) and print the kernel plan: each kernel "
                "call, the shape it writes, its FLOPs and the ONNX nodes "
                "it computes; exit 1 when the model does not compile");
  return {cmd, [o] {
            tcc::ImportOptions import;
            if (!tcc::driver::makeImportOptions(o->model, import))
              return tcc::driver::kExitUsageError;
            return runInspect(o->model, import, o->json, o->kernels);
          }};
}
