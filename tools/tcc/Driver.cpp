//===- Driver.cpp - what tcc's subcommands share --------------------------===//
//
// The options -> import -> pipeline core of tcc (Driver.h): diagnostics
// that name ONNX nodes, the import options, and compileToLLVMDialect, which
// settles a model's symbolic dims (pinned, a run-time batch, or one bounded
// dim) and runs the pipeline.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "Inspect.h"
#include "TensorIO.h"

#include "tcc/BoundedDims.h"
#include "tcc/Passes.h"
#include "tcc/RunTimeBatch.h"
#include "tcc/Target.h"
#include "tcc/runtime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "tcc/InitAll.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <CLI/CLI.hpp>

#include <set>
#include <thread>

using namespace mlir;

namespace tcc::driver {

/// `text` with its control characters written \xNN: names from a model may
/// hold a terminal's escape sequences or newlines that fake another line.
std::string escapeControl(StringRef text) {
  std::string out;
  for (char c : text) {
    if ((unsigned char)c < 0x20 || c == 0x7f)
      out += "\\x" + llvm::utohexstr((unsigned char)c, /*LowerCase=*/true, 2);
    else
      out += c;
  }
  return out;
}

int error(const llvm::Twine &message) {
  printAboveProgress([&] {
    llvm::errs() << "tcc: error: " << escapeControl(message.str()) << "\n";
  });
  return kExitModelError;
}

/// A model's run failed: its status, what it means and, for a CUDA
/// failure, the driver's words.
int statusError(int32_t status) {
  std::string message = "the model returned status " + std::to_string(status) +
                        " (" + tcc_status_string((tcc_status)status) + ")";
  if (status == TCC_ERROR_NO_DEVICE || status == TCC_ERROR_DEVICE)
    message += std::string(": ") + tcc_cuda_error_message();
  if (status == TCC_ERROR_BRANCH || status == TCC_ERROR_CPU)
    message += std::string(": ") + tcc_run_error_message();
  return error(message);
}

/// Prints diagnostics as "tcc: error: node 'conv1' (Conv, opset 17): ...".
class Diagnostics {
public:
  Diagnostics(MLIRContext &ctx, std::map<std::string, tcc::NodeInfo> &nodes)
      : handler(&ctx, [this](Diagnostic &diag) { print(diag); }), nodes(nodes) {
    ctx.printOpOnDiagnostic(false);
  }

private:
  /// The ONNX node a location names (a kernel's NameLoc holds its op's
  /// location), else the first name it holds.
  std::optional<std::string> nodeName(Location loc) {
    std::optional<std::string> first;
    std::optional<std::string> node;
    loc->walk([&](Location l) {
      auto name = dyn_cast<NameLoc>(l);
      if (!name)
        return WalkResult::advance();
      std::string s = name.getName().str();
      if (nodes.count(s)) {
        node = s;
        return WalkResult::interrupt();
      }
      if (!first)
        first = s;
      return WalkResult::advance();
    });
    return node ? node : first;
  }

  void print(Diagnostic &diag) {
    // The model is imported more than once (probes of a run-time batch or
    // a bounded dim): say each warning once.
    if (diag.getSeverity() == DiagnosticSeverity::Warning &&
        !warnings.insert(diag.str()).second)
      return;
    // Names from the model may hold control characters: escapeControl.
    std::string line;
    llvm::raw_string_ostream os(line);
    os << "tcc: ";
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    std::string message = diag.str();
    if (auto name = nodeName(diag.getLocation())) {
      auto it = nodes.find(*name);
      bool mentioned = StringRef(message).contains("'" + *name + "'");
      if (it != nodes.end() && !mentioned)
        os << "node '" << *name << "' (" << it->second.opType << ", opset "
           << it->second.opset << "): ";
      else if (!mentioned && it == nodes.end())
        os << "'" << *name << "': ";
    } else if (auto file = dyn_cast<FileLineColLoc>(diag.getLocation())) {
      if (!StringRef(message).contains(file.getFilename().getValue()))
        os << file.getFilename().getValue() << ": ";
    }
    os << message;
    printAboveProgress([&] { llvm::errs() << escapeControl(line) << "\n"; });
    for (Diagnostic &note : diag.getNotes())
      print(note);
  }

  ScopedDiagnosticHandler handler;
  std::map<std::string, tcc::NodeInfo> &nodes;
  std::set<std::string> warnings;
};

static DialectRegistry allDialects() {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  return registry;
}

Session::Session()
    : ctx(allDialects()),
      diagnostics(std::make_unique<Diagnostics>(ctx, nodes)) {}

Session::~Session() = default;

static bool parseDims(StringRef text, std::vector<int64_t> &dims) {
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return false;
    dims.push_back(d);
  }
  return !dims.empty();
}

/// The --max-dim bounds by name; false (with a usage error) when one is
/// malformed.
static bool parseMaxDims(const CompileOptions &o,
                         std::map<std::string, int64_t> &out) {
  for (const std::string &d : o.maxDims) {
    auto [name, value] = StringRef(d).rsplit('=');
    int64_t v;
    if (name.empty() || value.getAsInteger(10, v) || v < 3) {
      llvm::errs() << "tcc: usage error: --max-dim expects NAME=MAX with MAX "
                      ">= 3, got '"
                   << d << "'\n";
      return false;
    }
    out[name.str()] = v;
  }
  return true;
}

bool makeImportOptions(const CompileOptions &o, tcc::ImportOptions &import) {
  if (std::map<std::string, int64_t> bounds; !parseMaxDims(o, bounds))
    return false;
  for (const std::string &d : o.dims) {
    auto [name, value] = StringRef(d).rsplit('=');
    int64_t v;
    if (name.empty() || value.getAsInteger(10, v) || v < 1) {
      llvm::errs() << "tcc: usage error: --dim expects NAME=VALUE, got '" << d
                   << "'\n";
      return false;
    }
    import.dims[name.str()] = v;
  }
  for (const std::string &spec : o.binds) {
    auto [name, path] = StringRef(spec).split('=');
    if (name.empty() || path.empty()) {
      llvm::errs() << "tcc: usage error: --bind expects NAME=FILE, got '"
                   << spec << "'\n";
      return false;
    }
    import.bound[name.str()] = {};
  }
  for (const std::string &s : o.shapes) {
    auto [name, value] = StringRef(s).rsplit('=');
    std::vector<int64_t> dims;
    if (name.empty() || !parseDims(value, dims)) {
      llvm::errs() << "tcc: usage error: --shape expects NAME=DxDx..., got '"
                   << s << "'\n";
      return false;
    }
    import.shapes[name.str()] = dims;
  }
  return true;
}

/// The symbolic dims the inputs leave unpinned (a dim without a name is
/// not one: getSignature says so).
static std::set<std::string> unpinnedDims(func::FuncOp main) {
  std::set<std::string> names;
  for (unsigned i = 0; i < main.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(main.getArgument(i).getType());
    auto dimNames = main.getArgAttrOfType<ArrayAttr>(i, tcc::kDimNamesAttr);
    if (!type || !dimNames || (int64_t)dimNames.size() != type.getRank())
      continue;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      StringRef name = cast<StringAttr>(dimNames[d]).getValue();
      if (type.isDynamicDim(d) && !name.empty())
        names.insert(name.str());
    }
  }
  return names;
}

/// The name of the symbolic dim the inputs leave unpinned and unbounded
/// ("" when none). More than one is an error: one may vary at run time,
/// the batch.
static FailureOr<std::string> unpinnedDim(func::FuncOp main,
                                          const std::set<std::string> &names) {
  if (names.size() <= 1)
    return names.empty() ? std::string() : *names.begin();
  std::string list;
  for (const std::string &name : names)
    list += (list.empty() ? "'" : ", '") + name + "'";
  emitError(main.getLoc())
      << "the inputs have symbolic dims " << list
      << "; one of them, the batch, may vary at run time: pin the others "
         "with --dim NAME=VALUE";
  return failure();
}

/// Whether symbolic dim `dim` may vary at run time: the model is lowered to
/// linalg at two values of it and compared (tcc::analyzeRunTimeBatch), at
/// a second pair when the first fails (its errors unseen). The first pair,
/// whose diagnostics are dropped, is lowered on two threads.
static FailureOr<tcc::BatchLayout>
probeBatch(MLIRContext &ctx, const tcc::ParsedModel &model,
           const tcc::ImportOptions &import, const std::string &dim,
           const tcc::PipelineOptions &pipeline,
           std::map<std::string, tcc::NodeInfo> &nodes) {
  // Each probe imports with its own dims and node table (merged after).
  auto lower = [&](int64_t value,
                   std::map<std::string, tcc::NodeInfo> &probeNodes) {
    tcc::ImportOptions options = import;
    options.dims[dim] = value;
    OwningOpRef<ModuleOp> module =
        tcc::importONNXModel(ctx, model, options, &probeNodes);
    if (module &&
        failed(tcc::runPipeline(*module, pipeline, tcc::Stage::Linalg)))
      module = nullptr;
    return module;
  };
  // Threads share the context: its dialects must be loaded first; the IR
  // printer and the pass timer print as they go, so they keep one thread.
  bool threads = ctx.isMultithreadingEnabled() && !pipeline.printIRAfterAll &&
                 !pipeline.timePasses;
  if (threads)
    tcc::loadLinalgStageDialects(ctx, pipeline);
  FailureOr<tcc::BatchLayout> layout = failure();
  for (const auto &probes : tcc::kBatchProbes) {
    bool last = &probes == &tcc::kBatchProbes[std::size(tcc::kBatchProbes) - 1];
    std::optional<ScopedDiagnosticHandler> quiet;
    if (!last)
      quiet.emplace(&ctx, [](Diagnostic &) { return success(); });
    OwningOpRef<ModuleOp> lowered[2];
    std::map<std::string, tcc::NodeInfo> probeNodes[2];
    if (threads && !last) {
      std::thread second([&] { lowered[1] = lower(probes[1], probeNodes[1]); });
      lowered[0] = lower(probes[0], probeNodes[0]);
      second.join();
    } else {
      for (int i = 0; i < 2 && (i == 0 || lowered[0]); ++i)
        lowered[i] = lower(probes[i], probeNodes[i]);
    }
    for (auto &table : probeNodes)
      nodes.insert(table.begin(), table.end());
    for (int i = 0; i < 2; ++i)
      if (!lowered[i]) {
        emitError(UnknownLoc::get(&ctx))
            << "symbolic dim '" << dim << "' cannot vary at run time: the "
            << "model does not compile with " << dim << "=" << probes[i]
            << " (above); pin it with --dim " << dim << "=N";
        break;
      }
    if (lowered[0] && lowered[1])
      layout = tcc::analyzeRunTimeBatch(*lowered[0], *lowered[1], probes[0],
                                        probes[1], dim);
    if (succeeded(layout))
      break;
  }
  return layout;
}

/// Reads what the pipeline recorded on the lowered module into `out`: the
/// run-time bounds of its dims, the workspace plan, the weights file and
/// the kernel counts.
static LogicalResult readLoweredModel(Compiled &out) {
  auto fn = out.module->lookupSymbol<LLVM::LLVMFuncOp>(out.name + "_main");
  if (!fn)
    return out.module->emitError("internal: no lowered @")
           << out.name << "_main";
  if (failed(tcc::setRunTimeBounds(out.signature, fn)))
    return failure();
  auto ws = fn->getAttrOfType<IntegerAttr>("tcc.workspace_size");
  out.workspaceSize = ws ? ws.getInt() : 0;
  auto bytes = fn->getAttrOfType<IntegerAttr>(tcc::attr::kWeightsBytes);
  auto fingerprint =
      fn->getAttrOfType<IntegerAttr>(tcc::attr::kWeightsFingerprint);
  if (bytes && fingerprint)
    out.weights = tcc::WeightsFile{"", bytes.getValue().getZExtValue(),
                                   fingerprint.getValue().getZExtValue()};
  for (const char *key : {"buffers", "buffers_bytes", "lower_bound"})
    if (auto attr =
            fn->getAttrOfType<IntegerAttr>(std::string("tcc.workspace_") + key))
      out.stats[key] = attr.getInt();
  // Kernels as the model runs them (one per call; tcc-dedup-kernels
  // makes repeated ones one function) and the distinct functions.
  for (auto kernel : out.module->getOps<LLVM::LLVMFuncOp>())
    out.stats["functions"] += kernel->hasAttr(tcc::attr::kKernel);
  out.module->walk([&](LLVM::CallOp call) {
    auto callee =
        call.getCallee()
            ? out.module->lookupSymbol<LLVM::LLVMFuncOp>(*call.getCallee())
            : LLVM::LLVMFuncOp();
    if (!callee || !callee->hasAttr(tcc::attr::kKernel))
      return;
    out.stats["kernels"] += 1;
    out.stats["register_tiled"] += callee->hasAttr(tcc::attr::kRegisterTiled);
    out.stats["parallel"] += callee->hasAttr(tcc::attr::kTakesContext);
  });
  return success();
}

/// A symbolic dim with a bound: compile at the bound, with the loops
/// over it cut to its actual value at run time. The dims that follow
/// it come from comparing the model at the bound and below: first at
/// 3 values (a x S + b), then, for dims that strided layers divide, at
/// more (floor((a x S + b) / d), d up to 4, 16, 32) when a dim did not fit
/// or the graph changed; the errors of a comparison that a larger one may
/// settle are held back until it is clear that none does (a graph that
/// changes at more probes too: the first comparison's words). Winograd
/// convolutions take tiles that keep the graph the same at every width
/// (WinogradOptions::anyWidth); when the comparison fails with them, it
/// runs again without Winograd, and its errors are those of that run.
static LogicalResult compileAtBound(MLIRContext &ctx, const CompileOptions &o,
                                    tcc::ImportOptions &import,
                                    const std::string &dim, int64_t bound,
                                    tcc::PipelineOptions &pipeline,
                                    std::map<std::string, tcc::NodeInfo> &nodes,
                                    Compiled &out) {
  using Diagnostics = SmallVector<std::pair<Location, std::string>>;
  // Compares the model at the probes with `probe`'s pipeline; on failure,
  // the errors to report in `errors`.
  auto compare = [&](const tcc::PipelineOptions &probe,
                     Diagnostics &errors) -> LogicalResult {
    const int64_t divisors[] = {1, 4, 16, 32};
    Diagnostics first;
    for (int64_t divisor : divisors) {
      bool last = divisor == divisors[std::size(divisors) - 1];
      Diagnostics held;
      ScopedDiagnosticHandler quiet(&ctx, [&](Diagnostic &d) {
        held.push_back({d.getLocation(), d.str()});
        return success();
      });
      SmallVector<int64_t> probes = tcc::boundProbes(bound, divisor);
      SmallVector<OwningOpRef<ModuleOp>> lowered;
      bool compiles = true;
      int64_t failedAt = 0;
      for (auto [i, value] : llvm::enumerate(probes)) {
        import.dims[dim] = value;
        failedAt = value;
        lowered.push_back(
            tcc::importONNXModel(ctx, *out.source, import, &nodes));
        if (!lowered.back()) {
          compiles = false;
          break;
        }
        if (i == 0) {
          FailureOr<tcc::ModelSignature> sig =
              tcc::getSignature(lowered[0]->lookupSymbol<func::FuncOp>("main"));
          if (failed(sig)) {
            errors = held;
            return failure();
          }
          out.signature = *sig;
        }
        if (failed(
                tcc::runPipeline(*lowered.back(), probe, tcc::Stage::Linalg))) {
          compiles = false;
          break;
        }
      }
      // A model that does not compile at a probe: its errors, and which.
      if (!compiles) {
        errors = held;
        errors.push_back(
            {UnknownLoc::get(&ctx),
             llvm::formatv("symbolic dim '{0}' cannot vary at run time up to "
                           "{1}: the model does not compile with {0}={2} "
                           "(above), one of the values tcc compares it at; "
                           "pin it with --dim {0}=N",
                           dim, bound, failedAt)
                 .str()});
        return failure();
      }
      SmallVector<ModuleOp> modules;
      for (OwningOpRef<ModuleOp> &m : lowered)
        modules.push_back(*m);
      tcc::BoundFailure why = tcc::BoundFailure::Other;
      FailureOr<tcc::BoundedLayout> layout =
          tcc::boundRunTimeDim(modules, probes, dim, &why);
      if (succeeded(layout)) {
        for (auto [t, d] : llvm::zip(out.signature.inputs, layout->inputDims))
          if (d >= 0)
            t.runTimeDims |= 1u << d;
        for (auto [t, d] : llvm::zip(out.signature.outputs, layout->outputDims))
          if (d >= 0)
            t.runTimeDims |= 1u << d;
        out.module = std::move(lowered[0]);
        return success();
      }
      if (divisor == 1)
        first = held;
      if (why == tcc::BoundFailure::GraphChanges && divisor != 1) {
        errors = first;
        return failure();
      }
      if (why == tcc::BoundFailure::Other || last) {
        errors = held;
        return failure();
      }
    }
    llvm_unreachable("the last divisor returns");
  };

  tcc::PipelineOptions probe = pipeline;
  probe.cse = false;
  probe.winogradAnyWidth = true;
  Diagnostics errors;
  LogicalResult compared = compare(probe, errors);
  if (failed(compared) && probe.winograd) {
    if (o.verbose && !errors.empty())
      printAboveProgress([&] {
        llvm::errs() << "tcc: --max-dim " << dim << ": 3x3 convolutions "
                     << "run directly, not as Winograd, with which "
                     << errors.front().second << "\n";
      });
    probe.winograd = false;
    errors.clear();
    compared = compare(probe, errors);
  }
  if (failed(compared)) {
    for (auto &[loc, message] : errors)
      emitError(loc) << message;
    return failure();
  }
  out.signature.boundedDim = dim;
  pipeline.fromLinalg = true;
  return success();
}

/// Imports and lowers the model to the LLVM dialect (or `stopAfter`).
LogicalResult compileToLLVMDialect(MLIRContext &ctx, const CompileOptions &o,
                                   Compiled &out, tcc::Stage stopAfter,
                                   std::map<std::string, tcc::NodeInfo> &nodes,
                                   Progress *progress) {
  auto stage = [&](StringRef name) {
    if (progress)
      progress->stage(name);
  };
  stage("import");
  tcc::ImportOptions import;
  (void)makeImportOptions(o, import); // validated by the caller
  import.externalFiles = &o.externalFiles;
  for (const std::string &spec : o.binds) {
    auto [name, path] = StringRef(spec).split('=');
    std::string err;
    if (!tcc::readTensorFile(path.str(), import.bound[name.str()], err)) {
      error("--bind " + name + ": " + err);
      return failure();
    }
  }
  out.source = tcc::parseONNXModel(ctx, o.model);
  if (!out.source)
    return failure();
  out.module = tcc::importONNXModel(ctx, *out.source, import, &nodes);
  if (!out.module)
    return failure();
  auto main = out.module->lookupSymbol<func::FuncOp>("main");
  tcc::PipelineOptions pipeline;
  pipeline.winograd = !o.noWinograd;
  pipeline.channelsLast = !o.noChannelsLast;
  {
    // The target's vectors and caches shape the code from the onnx stage
    // on (which convolutions Winograd takes).
    tcc::TargetOptions target = o.cpuTarget();
    std::unique_ptr<llvm::TargetMachine> tm =
        tcc::createTargetMachine(target, *out.module);
    if (!tm)
      return failure();
    tcc::VectorRegisters regs = tcc::vectorRegisters(*tm);
    pipeline.vectorBits = regs.bits;
    pipeline.vectorRegisters = regs.count;
    pipeline.int8Dot = regs.int8Dot;
    pipeline.int8Vnni = regs.vnni;
    if (o.precision == "bf16" && o.target == "cuda")
      llvm::errs() << "tcc: warning: --precision bf16: --target cuda "
                   << "computes in fp32\n";
    else if (o.precision == "bf16" && !regs.bf16Dot)
      llvm::errs() << "tcc: warning: --precision bf16: the target CPU has "
                   << "no AVX512-BF16 (vdpbf16ps); the products stay fp32\n";
    else if (o.precision == "bf16")
      pipeline.bf16 = true;
    pipeline.l2CacheBytes = tcc::l2CacheBytes(target);
  }
  if (stopAfter >= tcc::Stage::Linalg) {
    std::map<std::string, int64_t> bounds;
    (void)parseMaxDims(o, bounds); // validated by the caller
    std::set<std::string> unpinned = unpinnedDims(main), batchNames;
    for (const auto &[name, bound] : bounds)
      if (!unpinned.count(name))
        return emitError(main.getLoc())
               << "--max-dim " << name << ": no input has a symbolic dim '"
               << name << "' left unpinned";
    for (const std::string &name : unpinned)
      if (!bounds.count(name))
        batchNames.insert(name);
    if (bounds.size() > 1)
      return emitError(main.getLoc())
             << "one symbolic dim at a time may vary up to a bound "
                "(--max-dim); pin the others with --dim NAME=VALUE";
    // A symbolic batch left unpinned: compile one sample, when the samples
    // are independent (probed with a bounded dim at its bound).
    std::optional<tcc::BatchLayout> batch;
    FailureOr<std::string> batchDim = unpinnedDim(main, batchNames);
    if (failed(batchDim))
      return failure();
    for (const auto &[name, bound] : bounds)
      import.dims[name] = bound;
    if (!batchDim->empty()) {
      stage("probe the batch");
      FailureOr<tcc::BatchLayout> layout =
          probeBatch(ctx, *out.source, import, *batchDim, pipeline, nodes);
      if (failed(layout))
        return failure();
      batch = *layout;
      import.dims[*batchDim] = 1;
    }
    if (!bounds.empty()) {
      const auto &[dim, bound] = *bounds.begin();
      stage("probe the bounded dim");
      if (failed(
              compileAtBound(ctx, o, import, dim, bound, pipeline, nodes, out)))
        return failure();
    }
    if (bounds.empty() && batch) {
      stage("import");
      out.module = tcc::importONNXModel(ctx, *out.source, import, &nodes);
      if (!out.module)
        return failure();
      main = out.module->lookupSymbol<func::FuncOp>("main");
    }
    if (bounds.empty()) {
      FailureOr<tcc::ModelSignature> sig = tcc::getSignature(main);
      if (failed(sig))
        return failure();
      out.signature = *sig;
    }
    // Outputs whose dims follow a bounded dim have the same dims in every
    // sample; a NonZero's count differs between them.
    if (batch && bounds.empty() && out.signature.numRunTimeDims())
      return emitError(main.getLoc())
             << "symbolic dim '" << batch->dimName << "' cannot vary at run "
             << "time in a model whose outputs have data-dependent dims "
             << "(NonZero); pin it with --dim " << batch->dimName << "=N";
    if (batch) {
      out.signature.batchDim = batch->dimName;
      for (auto [t, k] : llvm::zip(out.signature.inputs, batch->inputMultiples))
        t.batchMultiple = k;
      for (auto [t, k] :
           llvm::zip(out.signature.outputs, batch->outputMultiples))
        t.batchMultiple = k;
    }
  }
  pipeline.modelName = out.name;
  if (progress)
    pipeline.onStage = progress->stageHook();
  pipeline.printIRAfterAll = o.printIRAfterAll;
  pipeline.timePasses = o.timePasses;
  pipeline.weightsFile = o.weightsTmp;
  pipeline.cuda = o.target == "cuda";
  pipeline.gpuArch = o.gpuArch;
  pipeline.cudaPath = o.cudaPath;
  pipeline.gpuEmulate = o.gpuEmulate;
  if (pipeline.cuda && !o.gpuEmulate)
    out.signature.gpuArch = o.gpuArch;
  if (pipeline.bf16)
    out.signature.precision = "bf16";
  // The kernels' nodes from their outlined functions (one per call), the
  // rest from the final ones.
  std::vector<tcc::driver::KernelGraph::Kernel> outlined;
  if (!o.graph.empty() || o.profile || o.kernelPlan)
    pipeline.onKernels = [&](ModuleOp module, bool final) {
      tcc::driver::KernelGraph graph =
          tcc::driver::buildKernelGraph(module, nodes);
      if (!final) {
        outlined = graph.kernels;
        return;
      }
      if (outlined.size() == graph.kernels.size())
        for (auto [k, before] : llvm::zip(graph.kernels, outlined)) {
          k.nodes = before.nodes;
          k.reductionWork = before.reductionWork;
        }
      out.graph = std::move(graph);
    };
  pipeline.profile = o.profile;
  if (o.profile || o.kernelPlan)
    out.nodeFlops = tcc::driver::nodeFlops(*out.module);
  if (failed(tcc::runPipeline(*out.module, pipeline, stopAfter)))
    return failure();
  if (stopAfter == tcc::Stage::LLVM)
    return readLoweredModel(out);
  return success();
}

/// The CUDA toolkit whose ptxas serializes kernels: --cuda-path, else
/// CUDA_HOME, else the one whose bin/ holds the ptxas on PATH; empty when
/// there is none (kernels are then PTX only).
static std::string findCUDAToolkit(const CompileOptions &o) {
  auto hasPtxas = [](StringRef dir) {
    SmallString<256> ptxas(dir);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    return llvm::sys::fs::can_execute(ptxas);
  };
  if (!o.cudaPath.empty())
    return o.cudaPath;
  if (const char *home = std::getenv("CUDA_HOME"); home && hasPtxas(home))
    return home;
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    return llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
        .str();
  return "";
}

/// Checks the --target options and finds the CUDA toolkit for
/// --target cuda; 0, or the exit status of a usage error.
int prepareTarget(CompileOptions &o) {
  if (llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
          tcc::makeTargetMachine(o.cpuTarget());
      !tm) {
    llvm::errs() << "tcc: usage error: " << llvm::toString(tm.takeError())
                 << "\n";
    return kExitUsageError;
  }
  if (o.gpuEmulate && o.target != "cuda") {
    llvm::errs() << "tcc: usage error: --gpu-emulate needs --target cuda\n";
    return kExitUsageError;
  }
  if (o.target == "cuda" && !o.gpuEmulate) {
    if (!o.cudaPath.empty()) {
      SmallString<256> ptxas(o.cudaPath);
      llvm::sys::path::append(ptxas, "bin", "ptxas");
      if (!llvm::sys::fs::can_execute(ptxas)) {
        llvm::errs() << "tcc: usage error: --cuda-path " << o.cudaPath
                     << ": no executable bin/ptxas there\n";
        return kExitUsageError;
      }
    }
    o.cudaPath = findCUDAToolkit(o);
    if (o.cudaPath.empty())
      llvm::errs() << "tcc: warning: no CUDA toolkit found (--cuda-path, "
                      "CUDA_HOME or ptxas on PATH): the kernels are PTX "
                      "only\n";
  }
  return 0;
}

/// --target and its GPU options, --mcpu (tcc compile, run and bench).
void addTargetOptions(CLI::App *cmd, CompileOptions &o) {
  cmd->add_option("--mcpu", o.mcpu,
                  "Target CPU (default: the host's); tcc run and bench "
                  "run its code here, so this CPU must have its features "
                  "(an older CPU's code: x86-64-v3, skylake-avx512)");
  cmd->add_option("--mattr", o.mattr,
                  "More target features, LLVM's names with + or - "
                  "(--mattr +v: RISC-V's vector extension; +sve)");
  cmd->add_option("--target", o.target,
                  "cpu, or cuda (NVIDIA GPUs: the object runs its "
                  "kernels through the CUDA driver, loaded at run "
                  "time)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd->add_option("--gpu-arch", o.gpuArch,
                  "--target cuda: the GPU architecture (default sm_90)")
      ->check(CLI::IsMember({"sm_80", "sm_89", "sm_90"}));
  cmd->add_option("--cuda-path", o.cudaPath,
                  "--target cuda: the CUDA toolkit whose ptxas makes "
                  "SASS (default: CUDA_HOME, else ptxas on PATH; "
                  "none: PTX only)");
  cmd->add_flag("--gpu-emulate", o.gpuEmulate,
                "--target cuda: run the kernels' blocks and threads "
                "as loops on the CPU (a CPU object that checks the "
                "GPU code's tiling and bounds without a GPU)");
}

void addModelOptions(CLI::App *cmd, CompileOptions &o) {
  cmd->add_option("model", o.model, "The ONNX model")->required();
  cmd->add_option("--dim", o.dims, "Pin a symbolic dim: NAME=VALUE");
  cmd->add_option("--shape", o.shapes, "Pin an input shape: NAME=DxDx...");
  cmd->add_option("--max-dim", o.maxDims,
                  "Let a symbolic dim vary at run time up to a bound: "
                  "NAME=MAX");
  cmd->add_option("--bind", o.binds,
                  "Bind an input to a value at compile time: NAME=FILE "
                  "(.npy or .pb); shapes that depend on it become static");
  cmd->add_flag("--no-winograd", o.noWinograd,
                "Run 3x3 convolutions directly, not as Winograd F(2x2, 3x3) "
                "(16 instead of 36 products per 2x2 outputs, rounded "
                "differently)");
  cmd->add_flag("--no-channels-last", o.noChannelsLast,
                "Run convolutions on NCHW tensors, not channels-last ones "
                "between transposes");
  cmd->add_option("--precision", o.precision,
                  "fp32 (default), or bf16: matmuls and convolutions against "
                  "weights multiply bf16 pairs (weights stored in bf16) and "
                  "sum in fp32, on CPUs with AVX512-BF16 (elsewhere fp32); "
                  "everything else stays fp32")
      ->check(CLI::IsMember({"fp32", "bf16"}));
}

} // namespace tcc::driver
