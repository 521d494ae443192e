//===- Driver.cpp - the tcc command line: compile, run and bench ----------===//
//
//   tcc compile MODEL.onnx -o OUT.o [--name N] [--emit obj|asm|llvm|mlir]
//               [--stop-after onnx|linalg|bufferized|llvm] ...
//   tcc run MODEL.onnx --input NAME=FILE ... --output-dir DIR
//   tcc bench MODEL.onnx [--threads N] [--iterations K] [--warmup W] [--json]
//   tcc inspect MODEL.onnx [--dim NAME=V] [--shape INPUT=DxD] [--json]
//
// Exit status: 0 success, 1 the model or an input is wrong or unsupported,
// 2 usage error. Outputs are written to temporary files and renamed, so a
// failure never leaves a partial file behind.
//
//===----------------------------------------------------------------------===//
#include "Graph.h"
#include "Inspect.h"
#include "Profile.h"
#include "TensorIO.h"

#include "tcc/Header.h"
#include "tcc/Import.h"
#include "tcc/Passes.h"
#include "tcc/InitAll.h"
#include "tcc/Pipelines.h"
#include "tcc/ReadFile.h"
#include "tcc/BoundedDims.h"
#include "tcc/RunTimeBatch.h"
#include "tcc/Target.h"
#include "tcc/runtime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <set>
#include <cmath>
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

using namespace mlir;

/// libtccrt's fallback of compiler-rt's float -> bfloat16 conversion.
extern "C" float __truncsfbf2(float);

namespace {

constexpr int kExitModelError = 1;
/// Where zero-element tensors point (never read or written).
alignas(64) char kEmptyTensor[64];
constexpr int kExitUsageError = 2;

struct CompileOptions {
  std::string model, output, name, emit = "obj", stopAfter, mtriple, mcpu;
  std::string target = "cpu";
  /// --target cuda: the GPU architecture and the CUDA toolkit (ptxas).
  std::string gpuArch = "sm_90", cudaPath;
  /// --target cuda --gpu-emulate: the kernels' blocks and threads as loops
  /// in a CPU object, to check the GPU tiling without a GPU.
  bool gpuEmulate = false;
  std::string weights = "embed";
  /// Where tcc-externalize-weights writes (a temporary file; --weights file).
  std::string weightsTmp;
  // -O3 took about 60% more compile time than -O2 (swin_tiny 50 vs 31 s,
  // ResNet-50 8.6 vs 6.4 s) for no measured run-time gain.
  int optLevel = 2;
  std::vector<std::string> dims, shapes, binds;
  /// --max-dim NAME=MAX: symbolic dims that vary at run time up to MAX.
  std::vector<std::string> maxDims;
  /// The external data files the model reads (path -> a tensor there).
  mutable std::map<std::string, std::string> externalFiles;
  bool printIRAfterAll = false, timePasses = false, stats = false;
  bool noWinograd = false, noChannelsLast = false;
  /// --graph: where the fused graph goes (.dot, or .svg through Graphviz).
  std::string graph;
  /// tcc bench --profile / --trace: each kernel call timed.
  bool profile = false;
  /// Whether --name was given (an empty one is invalid, not the default).
  bool nameGiven = false;
};

struct RunOptions {
  CompileOptions compile;
  std::vector<std::string> inputs;
  std::string outputDir;
  int32_t threads = 0;
  /// tcc bench: timed runs after untimed warm-up runs; --json output.
  int iterations = 20, warmup = 3;
  bool json = false;
  /// tcc bench --profile (a table of kernel times), --trace (Chrome's
  /// trace format).
  bool profile = false;
  std::string trace;
};

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
  llvm::errs() << "tcc: error: " << escapeControl(message.str()) << "\n";
  return kExitModelError;
}

/// A model's run failed: its status, what it means and, for a CUDA
/// failure, the driver's words.
int statusError(int32_t status) {
  std::string message = "the model returned status " +
                        std::to_string(status) + " (" +
                        tcc_status_string((tcc_status)status) + ")";
  if (status == TCC_ERROR_NO_DEVICE || status == TCC_ERROR_DEVICE)
    message += std::string(": ") + tcc_cuda_error_message();
  if (status == TCC_ERROR_BRANCH)
    message += std::string(": ") + tcc_run_error_message();
  return error(message);
}

/// Prints diagnostics as "tcc: error: node 'conv1' (Conv, opset 17): ...".
class Diagnostics {
public:
  Diagnostics(MLIRContext &ctx, std::map<std::string, tcc::NodeInfo> &nodes)
      : handler(&ctx, [this](Diagnostic &diag) { print(diag); }),
        nodes(nodes) {
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
    case DiagnosticSeverity::Error: os << "error: "; break;
    case DiagnosticSeverity::Warning: os << "warning: "; break;
    case DiagnosticSeverity::Note: os << "note: "; break;
    case DiagnosticSeverity::Remark: os << "remark: "; break;
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
    llvm::errs() << escapeControl(line) << "\n";
    for (Diagnostic &note : diag.getNotes())
      print(note);
  }

  ScopedDiagnosticHandler handler;
  std::map<std::string, tcc::NodeInfo> &nodes;
  std::set<std::string> warnings;
};

/// An MLIR context with tcc's dialects whose diagnostics name ONNX nodes.
struct Session {
  static DialectRegistry allDialects() {
    DialectRegistry registry;
    tcc::registerAllDialects(registry);
    return registry;
  }
  MLIRContext ctx{allDialects()};
  std::map<std::string, tcc::NodeInfo> nodes;
  Diagnostics diagnostics{ctx, nodes};
};

/// Why `name` cannot prefix a model's C symbols and macros ("" when it
/// can): it must be an identifier of ASCII letters, digits and underscores
/// that starts with a letter, and not the runtime's own prefix.
std::string invalidName(StringRef name) {
  if (name.empty() || !llvm::isAlpha(name[0]) ||
      !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return "it must be a C identifier that starts with a letter "
           "([A-Za-z][A-Za-z0-9_]*)";
  std::string lower = name.lower();
  if (lower == "tcc" || StringRef(lower).starts_with("tcc_"))
    return "'tcc' and names that start with 'tcc_' (in any case) are the "
           "runtime's";
  return "";
}

/// A valid model name from the output file's stem.
std::string defaultName(StringRef path) {
  std::string name;
  for (char c : llvm::sys::path::stem(path))
    name += llvm::isAlnum(c) ? c : '_';
  if (!invalidName(name).empty())
    name = "model_" + name;
  return name;
}

bool parseDims(StringRef text, std::vector<int64_t> &dims) {
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

/// Parses --dim/--shape into import options; false on a usage error.
/// The --max-dim bounds by name; false (with a usage error) when one is
/// malformed.
bool parseMaxDims(const CompileOptions &o, std::map<std::string, int64_t> &out) {
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

/// Renames `tmp` to `path`; on failure removes `tmp` and says why.
LogicalResult renameInto(const llvm::Twine &tmp, const llvm::Twine &path) {
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
    return failure();
  }
  return success();
}

/// Creates an empty temporary file beside `path` under a name of its own
/// (never an existing file's, not even an input's called PATH.tmp); sets
/// `fd` (or closes it when `fd` is null) and returns its name, or "" after
/// saying why not.
std::string createTemporary(const std::string &path, int *fd = nullptr) {
  SmallString<256> tmp;
  int created;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + "-%%%%%%.tmp", created, tmp)) {
    error("cannot write beside '" + path + "': " + ec.message());
    return "";
  }
  if (fd)
    *fd = created;
  else
    ::close(created);
  return tmp.str().str();
}

/// Writes `text` to `path` through a temporary file.
LogicalResult writeAtomically(
    const std::string &path,
    llvm::function_ref<LogicalResult(llvm::raw_pwrite_stream &)> write) {
  int fd;
  std::string tmp = createTemporary(path, &fd);
  if (tmp.empty())
    return failure();
  {
    // Removes the temporary file unless kept, on a signal too.
    llvm::ToolOutputFile out(tmp, fd);
    if (failed(write(out.os())))
      return failure();
    out.os().flush();
    if (out.os().has_error()) {
      error("cannot write '" + tmp + "': " + out.os().error().message());
      out.os().clear_error();
      return failure();
    }
    out.keep();
  }
  return renameInto(tmp, path);
}

/// Runs `args` (args[0]: the program's path), which writes the temporary
/// file `tmp`, and renames it to `path`; on failure removes `tmp` and says
/// "<what> '<path>' failed: <program> exited with N".
LogicalResult runInto(ArrayRef<StringRef> args, const std::string &tmp,
                      const std::string &path, StringRef what) {
  std::string why;
  int rc = llvm::sys::ExecuteAndWait(args[0], args, std::nullopt, {}, 0, 0,
                                     &why);
  if (rc != 0) {
    llvm::sys::fs::remove(tmp);
    error(what + " '" + path + "' failed: " + args[0] +
          (why.empty() ? " exited with " + std::to_string(rc) : ": " + why));
    return failure();
  }
  return renameInto(tmp, path);
}

/// libtccrt.a of this tcc: beside its bin/ in lib/ (the build tree and an
/// install) or in a multiarch folder under it (an install into /usr); ""
/// after saying where it looked.
std::string runtimeArchive() {
  SmallString<256> lib(llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&runtimeArchive)));
  llvm::sys::path::remove_filename(lib); // bin/
  llvm::sys::path::remove_filename(lib); // the prefix
  llvm::sys::path::append(lib, "lib");
  SmallString<256> archive(lib);
  llvm::sys::path::append(archive, "libtccrt.a");
  if (llvm::sys::fs::exists(archive))
    return archive.str().str();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(lib, ec), end; !ec && it != end;
       it.increment(ec)) {
    SmallString<256> nested(it->path());
    llvm::sys::path::append(nested, "libtccrt.a");
    if (llvm::sys::fs::exists(nested))
      return nested.str().str();
  }
  error("cannot link a shared library: no runtime '" + archive +
        "' (libtccrt.a, installed beside tcc's bin/)");
  return "";
}

/// Links the object `code` and all of libtccrt (so that the library has the
/// whole C API) into the shared library `path` with the C compiler ($CC, or
/// cc), through temporary files: a failure leaves no file.
LogicalResult writeSharedLibrary(const std::string &path, StringRef code) {
  std::string runtime = runtimeArchive();
  if (runtime.empty())
    return failure();
  const char *ccEnv = std::getenv("CC");
  std::string ccName = ccEnv && *ccEnv ? ccEnv : "cc";
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName(ccName);
  if (!cc) {
    error("cannot link a shared library: no C compiler '" + ccName +
          "' on PATH (set CC)");
    return failure();
  }
  std::string object = createTemporary(path);
  if (object.empty())
    return failure();
  llvm::scope_exit removeObject([&] { llvm::sys::fs::remove(object); });
  if (failed(writeAtomically(object, [&](llvm::raw_pwrite_stream &os) {
        os << code;
        return success();
      })))
    return failure();
  std::string library = createTemporary(path);
  if (library.empty())
    return failure();
  SmallVector<StringRef> args = {*cc,      "-shared",
                                 "-o",     library,
                                 object,   "-Wl,--whole-archive",
                                 runtime,  "-Wl,--no-whole-archive",
                                 "-lm",    "-lpthread",
                                 "-ldl"};
  return runInto(args, library, path, "linking the shared library");
}

struct Compiled {
  OwningOpRef<ModuleOp> module;
  tcc::ModelSignature signature;
  int64_t workspaceSize = 0;
  /// The workspace plan's statistics (tcc.workspace_* of @main).
  std::map<std::string, int64_t> stats;
  std::string name;
  /// Set when the weights went to a file (--weights file).
  std::optional<tcc::WeightsFile> weights;
  /// The fused graph (--graph, --profile), once the pipeline has its
  /// kernels: with --profile, the kernel call sites in order.
  std::optional<tcc::driver::KernelGraph> graph;
  /// --profile: the FLOPs of each ONNX node (none: unknown).
  std::optional<std::map<std::string, int64_t>> nodeFlops;
};

/// The symbolic dims the inputs leave unpinned (a dim without a name is
/// not one: getSignature says so).
std::set<std::string> unpinnedDims(func::FuncOp main) {
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
FailureOr<std::string> unpinnedDim(func::FuncOp main,
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
/// a second pair when the first fails (its errors unseen).
FailureOr<tcc::BatchLayout>
probeBatch(MLIRContext &ctx, StringRef model, tcc::ImportOptions import,
           const std::string &dim, const tcc::PipelineOptions &pipeline,
           std::map<std::string, tcc::NodeInfo> &nodes) {
  FailureOr<tcc::BatchLayout> layout = failure();
  for (const auto &probes : tcc::kBatchProbes) {
    std::optional<ScopedDiagnosticHandler> quiet;
    if (&probes != &tcc::kBatchProbes[std::size(tcc::kBatchProbes) - 1])
      quiet.emplace(&ctx, [](Diagnostic &) { return success(); });
    OwningOpRef<ModuleOp> lowered[2];
    bool compiles = true;
    for (int i = 0; i < 2 && compiles; ++i) {
      import.dims[dim] = probes[i];
      lowered[i] = tcc::importONNXModel(ctx, model, import, &nodes);
      compiles = lowered[i] &&
                 succeeded(tcc::runPipeline(*lowered[i], pipeline,
                                            tcc::Stage::Linalg));
      if (!compiles)
        emitError(UnknownLoc::get(&ctx))
            << "symbolic dim '" << dim << "' cannot vary at run time: the "
            << "model does not compile with " << dim << "=" << probes[i]
            << " (above); pin it with --dim " << dim << "=N";
    }
    if (compiles)
      layout = tcc::analyzeRunTimeBatch(*lowered[0], *lowered[1], probes[0],
                                        probes[1], dim);
    if (succeeded(layout))
      break;
  }
  return layout;
}

/// Imports and lowers the model to the LLVM dialect (or `stopAfter`).
LogicalResult compileToLLVMDialect(MLIRContext &ctx, const CompileOptions &o,
                                   Compiled &out, tcc::Stage stopAfter,
                                   std::map<std::string, tcc::NodeInfo> &nodes) {
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
  out.module = tcc::importONNXModel(ctx, o.model, import, &nodes);
  if (!out.module)
    return failure();
  auto main = out.module->lookupSymbol<func::FuncOp>("main");
  tcc::PipelineOptions pipeline;
  pipeline.winograd = !o.noWinograd;
  pipeline.channelsLast = !o.noChannelsLast;
  {
    // The target's vectors and caches shape the code from the onnx stage
    // on (which convolutions Winograd takes).
    tcc::TargetOptions target{o.mtriple, o.mcpu, (unsigned)o.optLevel};
    std::unique_ptr<llvm::TargetMachine> tm =
        tcc::createTargetMachine(target, *out.module);
    if (!tm)
      return failure();
    tcc::VectorRegisters regs = tcc::vectorRegisters(*tm);
    pipeline.vectorBits = regs.bits;
    pipeline.vectorRegisters = regs.count;
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
      FailureOr<tcc::BatchLayout> layout =
          probeBatch(ctx, o.model, import, *batchDim, pipeline, nodes);
      if (failed(layout))
        return failure();
      batch = *layout;
      import.dims[*batchDim] = 1;
    }
    if (!bounds.empty()) {
      // A symbolic dim with a bound: compile at the bound, with the loops
      // over it cut to its actual value at run time. The dims that follow
      // it come from comparing the model at the bound and below: first at
      // 3 values (a x S + b), then, for dims that strided layers divide, at
      // more (floor((a x S + b) / d), d up to 4, 16, 32, without Winograd)
      // when a dim did not fit or the graph changed; the errors of a
      // comparison that a larger one may settle are held back until it is
      // clear that none does (a graph that changes at more probes too: the
      // first comparison's words).
      const auto &[dim, bound] = *bounds.begin();
      FailureOr<tcc::BoundedLayout> layout = failure();
      OwningOpRef<ModuleOp> atBound;
      const int64_t divisors[] = {1, 4, 16, 32};
      SmallVector<std::pair<Location, std::string>> first;
      for (int64_t divisor : divisors) {
        bool last = divisor == divisors[std::size(divisors) - 1];
        SmallVector<std::pair<Location, std::string>> held;
        std::optional<ScopedDiagnosticHandler> quiet;
        quiet.emplace(&ctx, [&](Diagnostic &d) {
          held.push_back({d.getLocation(), d.str()});
          return success();
        });
        auto release = [&](ArrayRef<std::pair<Location, std::string>> diags) {
          quiet.reset();
          for (auto &[loc, message] : diags)
            emitError(loc) << message;
          return failure();
        };
        SmallVector<int64_t> probes = tcc::boundProbes(bound, divisor);
        SmallVector<OwningOpRef<ModuleOp>> lowered;
        bool compiles = true;
        int64_t failedAt = 0;
        for (auto [i, value] : llvm::enumerate(probes)) {
          import.dims[dim] = value;
          failedAt = value;
          lowered.push_back(tcc::importONNXModel(ctx, o.model, import, &nodes));
          if (!lowered.back()) {
            compiles = false;
            break;
          }
          if (i == 0) {
            FailureOr<tcc::ModelSignature> sig = tcc::getSignature(
                lowered[0]->lookupSymbol<func::FuncOp>("main"));
            if (failed(sig))
              return failure();
            out.signature = *sig;
          }
          tcc::PipelineOptions probe = pipeline;
          probe.cse = false;
          // Winograd's tiles of 2 outputs change the graph with the
          // parity of a divided dim.
          if (divisor > 1)
            probe.winograd = false;
          if (failed(tcc::runPipeline(*lowered.back(), probe,
                                      tcc::Stage::Linalg))) {
            compiles = false;
            break;
          }
        }
        // A model that does not compile at a probe: its errors, and which.
        if (!compiles) {
          (void)release(held);
          return emitError(UnknownLoc::get(&ctx))
                 << "symbolic dim '" << dim << "' cannot vary at run time up "
                 << "to " << bound << ": the model does not compile with "
                 << dim << "=" << failedAt << " (above), one of the values "
                 << "tcc compares it at; pin it with --dim " << dim << "=N";
        }
        SmallVector<ModuleOp> modules;
        for (OwningOpRef<ModuleOp> &m : lowered)
          modules.push_back(*m);
        tcc::BoundFailure why = tcc::BoundFailure::Other;
        layout = tcc::boundRunTimeDim(modules, probes, dim, &why);
        if (succeeded(layout)) {
          atBound = std::move(lowered[0]);
          break;
        }
        if (divisor == 1)
          first = held;
        if (why == tcc::BoundFailure::GraphChanges && divisor != 1)
          return release(first);
        if (why == tcc::BoundFailure::Other || last)
          return release(held);
      }
      if (failed(layout))
        return failure();
      for (auto [t, d] : llvm::zip(out.signature.inputs, layout->inputDims))
        if (d >= 0)
          t.runTimeDims |= 1u << d;
      for (auto [t, d] : llvm::zip(out.signature.outputs, layout->outputDims))
        if (d >= 0)
          t.runTimeDims |= 1u << d;
      out.signature.boundedDim = dim;
      out.module = std::move(atBound);
      pipeline.fromLinalg = true;
    }
    if (bounds.empty() && batch) {
      out.module = tcc::importONNXModel(ctx, o.model, import, &nodes);
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
  pipeline.printIRAfterAll = o.printIRAfterAll;
  pipeline.timePasses = o.timePasses;
  pipeline.weightsFile = o.weightsTmp;
  pipeline.cuda = o.target == "cuda";
  pipeline.gpuArch = o.gpuArch;
  pipeline.cudaPath = o.cudaPath;
  pipeline.gpuEmulate = o.gpuEmulate;
  if (pipeline.cuda && !o.gpuEmulate)
    out.signature.gpuArch = o.gpuArch;
  // The kernels' nodes from their outlined functions (one per call), the
  // rest from the final ones.
  std::vector<tcc::driver::KernelGraph::Kernel> outlined;
  if (!o.graph.empty() || o.profile)
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
  if (o.profile)
    out.nodeFlops = tcc::driver::nodeFlops(*out.module);
  if (failed(tcc::runPipeline(*out.module, pipeline, stopAfter)))
    return failure();
  if (stopAfter == tcc::Stage::LLVM) {
    auto fn = out.module->lookupSymbol<LLVM::LLVMFuncOp>(out.name + "_main");
    if (!fn)
      return out.module->emitError("internal: no lowered @") << out.name
                                                             << "_main";
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
      if (auto attr = fn->getAttrOfType<IntegerAttr>(
              std::string("tcc.workspace_") + key))
        out.stats[key] = attr.getInt();
    // Kernels as the model runs them (one per call; tcc-dedup-kernels
    // makes repeated ones one function) and the distinct functions.
    for (auto kernel : out.module->getOps<LLVM::LLVMFuncOp>())
      out.stats["functions"] += kernel->hasAttr(tcc::attr::kKernel);
    out.module->walk([&](LLVM::CallOp call) {
      auto callee = call.getCallee()
                        ? out.module->lookupSymbol<LLVM::LLVMFuncOp>(
                              *call.getCallee())
                        : LLVM::LLVMFuncOp();
      if (!callee || !callee->hasAttr(tcc::attr::kKernel))
        return;
      out.stats["kernels"] += 1;
      out.stats["register_tiled"] +=
          callee->hasAttr(tcc::attr::kRegisterTiled);
      out.stats["parallel"] += callee->hasAttr(tcc::attr::kTakesContext);
    });
  }
  return success();
}

/// `path` absolute and without `.` or `..`, to compare paths that do not
/// exist yet.
std::string normalPath(StringRef path) {
  SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return p.str().str();
}

/// Whether `a` and `b` are one file: the same path, or the same inode (a
/// hard or symbolic link).
bool samePath(const std::string &a, const std::string &b) {
  return normalPath(a) == normalPath(b) || tcc::sameFile(a, b);
}

/// A file tcc writes or reads, for the check that no output overwrites an
/// input: its path and what it is ("the header 'm.h'").
struct NamedPath {
  std::string path, what;
};

/// Fails with a usage error when an output would overwrite one of
/// `inputs` or another output.
LogicalResult checkOutputs(ArrayRef<NamedPath> outputs,
                           ArrayRef<NamedPath> inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (const NamedPath &in : inputs) {
      if (!samePath(outputs[i].path, in.path))
        continue;
      llvm::errs() << "tcc: usage error: " << escapeControl(outputs[i].what)
                   << " is " << escapeControl(in.what) << "\n";
      return failure();
    }
    for (size_t j = 0; j < i; ++j) {
      if (!samePath(outputs[i].path, outputs[j].path))
        continue;
      llvm::errs() << "tcc: usage error: " << escapeControl(outputs[j].what)
                   << " and " << escapeControl(outputs[i].what)
                   << " are the same file\n";
      return failure();
    }
  }
  return success();
}

/// The files compiling `o` reads before importing the model: the model and
/// the --bind files.
std::vector<NamedPath> compileInputs(const CompileOptions &o) {
  std::vector<NamedPath> inputs{{o.model, "the model itself"}};
  for (const std::string &spec : o.binds) {
    auto [name, path] = StringRef(spec).split('=');
    inputs.push_back({path.str(), ("the --bind file of '" + name + "'").str()});
  }
  return inputs;
}

/// The CUDA toolkit whose ptxas serializes kernels: --cuda-path, else
/// CUDA_HOME, else the one whose bin/ holds the ptxas on PATH; empty when
/// there is none (kernels are then PTX only).
std::string findCUDAToolkit(const CompileOptions &o) {
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

/// Writes the fused graph to `path`: DOT, or SVG rendered by Graphviz's
/// dot; without dot, the DOT to `dotPath` with a note on how to render it.
LogicalResult writeGraph(const std::string &path, const std::string &dotPath,
                         const Compiled &compiled, StringRef model) {
  if (!compiled.graph)
    return error("internal: the pipeline gave no kernels to draw"), failure();
  auto writeDot = [&](llvm::raw_pwrite_stream &os) {
    tcc::driver::writeDot(*compiled.graph, llvm::sys::path::filename(model),
                          os);
    return success();
  };
  if (path == dotPath)
    return writeAtomically(path, writeDot);
  llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
  if (!dot) {
    if (failed(writeAtomically(dotPath, writeDot)))
      return failure();
    llvm::errs() << "tcc: note: Graphviz's dot is not on PATH (Debian: apt "
                    "install graphviz): wrote '"
                 << escapeControl(dotPath) << "'; render it with: dot -Tsvg '"
                 << escapeControl(dotPath) << "' -o '" << escapeControl(path)
                 << "'\n";
    return success();
  }
  std::string dotTmp = createTemporary(path);
  if (dotTmp.empty())
    return failure();
  llvm::scope_exit removeDot([&] { llvm::sys::fs::remove(dotTmp); });
  if (failed(writeAtomically(dotTmp, writeDot)))
    return failure();
  std::string svgTmp = createTemporary(path);
  if (svgTmp.empty())
    return failure();
  SmallVector<StringRef> args = {*dot, "-Tsvg", dotTmp, "-o", svgTmp};
  return runInto(args, svgTmp, path, "rendering the graph");
}

int runCompile(CompileOptions &o) {
  if (int status = prepareTarget(o))
    return status;
  if (tcc::ImportOptions check; !makeImportOptions(o, check))
    return kExitUsageError;
  if (o.nameGiven) {
    if (std::string why = invalidName(o.name); !why.empty()) {
      llvm::errs() << "tcc: usage error: --name '" << escapeControl(o.name)
                   << "' is not a valid model name: " << why << "\n";
      return kExitUsageError;
    }
  } else {
    o.name = defaultName(o.output.empty() ? o.model : o.output);
  }
  std::optional<tcc::Stage> stop = tcc::Stage::LLVM;
  if (!o.stopAfter.empty() && !(stop = tcc::parseStage(o.stopAfter))) {
    llvm::errs() << "tcc: usage error: unknown --stop-after stage '"
                 << o.stopAfter << "' (onnx, linalg, bufferized, llvm)\n";
    return kExitUsageError;
  }
  bool emitMLIR = o.emit == "mlir" || !o.stopAfter.empty();
  std::string output = o.output;
  if (output.empty())
    output = emitMLIR ? "-" : (llvm::sys::path::stem(o.model) + ".o").str();
  tcc::OutputKind kind = o.emit == "asm"    ? tcc::OutputKind::Assembly
                         : o.emit == "llvm" ? tcc::OutputKind::LLVMIR
                                            : tcc::OutputKind::Object;
  // --graph PATH.dot or PATH.svg, in a folder that exists; drawn from the
  // CPU pipeline's kernels.
  std::string graphDot;
  if (!o.graph.empty()) {
    StringRef ext = llvm::sys::path::extension(o.graph);
    SmallString<256> folder(o.graph);
    llvm::sys::path::remove_filename(folder);
    std::string why;
    if (ext != ".dot" && ext != ".svg")
      why = "must end in .dot or .svg";
    else if (!folder.empty() && !llvm::sys::fs::is_directory(folder))
      why = "is in a folder that does not exist";
    else if (o.target == "cuda" && !o.gpuEmulate)
      why = "draws the CPU pipeline's kernels; --target cuda's are not drawn "
            "yet (--gpu-emulate's are)";
    else if (emitMLIR || *stop != tcc::Stage::LLVM)
      why = "needs the whole pipeline (no --stop-after, no --emit mlir)";
    if (!why.empty()) {
      llvm::errs() << "tcc: usage error: --graph '" << escapeControl(o.graph)
                   << "' " << why << "\n";
      return kExitUsageError;
    }
    SmallString<256> dot(o.graph);
    llvm::sys::path::replace_extension(dot, ".dot");
    graphDot = dot.str().str();
  }
  // -o NAME.so: the object and libtccrt linked into a shared library.
  bool shared = llvm::sys::path::extension(output) == ".so";
  if (shared && (emitMLIR || kind != tcc::OutputKind::Object)) {
    llvm::errs() << "tcc: usage error: a shared library (-o " << output
                 << ") holds an object: it takes --emit obj and no "
                    "--stop-after\n";
    return kExitUsageError;
  }
  // An object gets a header beside it: OUT.h.
  SmallString<256> header;
  if (!emitMLIR && kind == tcc::OutputKind::Object) {
    header = output;
    llvm::sys::path::replace_extension(header, ".h");
  }
  // --weights file: NAME.weights beside the output, written through a
  // temporary file like the others.
  SmallString<256> weightsPath;
  if (o.weights == "file") {
    if (output == "-" || *stop != tcc::Stage::LLVM) {
      llvm::errs() << "tcc: usage error: --weights file needs an output "
                      "file (-o) and the whole pipeline (no --stop-after "
                      "before llvm)\n";
      return kExitUsageError;
    }
    weightsPath = output;
    llvm::sys::path::replace_extension(weightsPath, ".weights");
  }
  // No output may overwrite an input (the model, a --bind file; external
  // data files once the model names them) or another output.
  std::vector<NamedPath> outputs;
  if (output != "-")
    outputs.push_back({output, "the output '" + output + "'"});
  if (!header.empty())
    outputs.push_back({header.str().str(), ("the header '" + header + "'").str()});
  if (!weightsPath.empty())
    outputs.push_back({weightsPath.str().str(),
                       ("the weights file '" + weightsPath + "'").str()});
  if (!o.graph.empty())
    outputs.push_back({o.graph, "the graph '" + o.graph + "'"});
  if (!o.graph.empty() && graphDot != o.graph)
    outputs.push_back({graphDot, "the graph's DOT '" + graphDot + "'"});
  if (outputs.size() > 1 && outputs[1].what.rfind("the header", 0) == 0 &&
      samePath(outputs[0].path, outputs[1].path)) {
    llvm::errs() << "tcc: usage error: the output '" << output
                 << "' and its header are the same file (give -o a name "
                    "that does not end in .h)\n";
    return kExitUsageError;
  }
  if (failed(checkOutputs(outputs, compileInputs(o))))
    return kExitUsageError;
  if (!weightsPath.empty() &&
      (o.weightsTmp = createTemporary(weightsPath.str().str())).empty())
    return kExitModelError;
  llvm::scope_exit removeWeightsTmp([&] {
    if (!o.weightsTmp.empty())
      llvm::sys::fs::remove(o.weightsTmp);
  });
  // Renames the weights file into place, after the other outputs.
  auto keepWeights = [&]() -> LogicalResult {
    return o.weightsTmp.empty() ? success()
                                : renameInto(o.weightsTmp, weightsPath);
  };

  Session session;
  MLIRContext &ctx = session.ctx;
  std::map<std::string, tcc::NodeInfo> &nodes = session.nodes;
  Compiled compiled;
  compiled.name = o.name;
  if (failed(compileToLLVMDialect(ctx, o, compiled, *stop, nodes)))
    return kExitModelError;
  std::vector<NamedPath> external;
  for (const auto &[path, tensor] : o.externalFiles)
    external.push_back({path, "the external data file of tensor '" + tensor + "'"});
  if (failed(checkOutputs(outputs, external)))
    return kExitUsageError;
  if (compiled.weights)
    compiled.weights->fileName = llvm::sys::path::filename(weightsPath).str();

  if (emitMLIR) {
    auto print = [&](llvm::raw_pwrite_stream &os) {
      compiled.module->print(os);
      return success();
    };
    if (output == "-") {
      compiled.module->print(llvm::outs());
      return 0;
    }
    return failed(writeAtomically(output, print)) || failed(keepWeights())
               ? kExitModelError
               : 0;
  }

  if (o.stats) {
    auto mib = [](int64_t bytes) {
      return llvm::formatv("{0:F2} MiB", bytes / 1048576.0).str();
    };
    int64_t bound = compiled.stats["lower_bound"];
    llvm::outs() << "workspace: " << compiled.workspaceSize << " bytes ("
                 << mib(compiled.workspaceSize) << ") planned for "
                 << compiled.stats["buffers"] << " buffers of "
                 << compiled.stats["buffers_bytes"] << " bytes ("
                 << mib(compiled.stats["buffers_bytes"])
                 << "); lower bound " << bound << " bytes (" << mib(bound)
                 << "); planned / lower bound = "
                 << llvm::formatv("{0:F3}", bound ? (double)compiled.workspaceSize /
                                                        bound
                                                  : 1.0)
                 << "\n";
    llvm::outs() << "kernels: " << compiled.stats["kernels"] << " ("
                 << compiled.stats["register_tiled"]
                 << " with register-tiled vector code, "
                 << compiled.stats["parallel"] << " split over threads; "
                 << compiled.stats["functions"] << " distinct)\n";
    if (compiled.weights)
      llvm::outs() << "weights: " << compiled.weights->bytes << " bytes ("
                   << mib(compiled.weights->bytes) << ") in "
                   << compiled.weights->fileName << "\n";
  }

  tcc::TargetOptions target{o.mtriple, o.mcpu, (unsigned)o.optLevel};
  // Generate the code in memory first so a failure leaves no file.
  SmallString<0> code;
  {
    llvm::raw_svector_ostream os(code);
    if (failed(tcc::emitModule(*compiled.module, target, kind, os)))
      return kExitModelError;
  }
  auto writeCode = [&](llvm::raw_pwrite_stream &os) {
    os << code;
    return success();
  };
  if (kind != tcc::OutputKind::Object) {
    if (output == "-") {
      llvm::outs() << code;
      return 0;
    }
    return failed(writeAtomically(output, writeCode)) || failed(keepWeights())
               ? kExitModelError
               : 0;
  }
  auto writeHeader = [&](llvm::raw_pwrite_stream &os) {
    tcc::writeHeader(compiled.signature, compiled.name,
                     compiled.workspaceSize, o.model,
                     compiled.weights ? &*compiled.weights : nullptr, os);
    return success();
  };
  if (failed(writeAtomically(header.str().str(), writeHeader)))
    return kExitModelError;
  if (failed(shared ? writeSharedLibrary(output, code)
                    : writeAtomically(output, writeCode))) {
    llvm::sys::fs::remove(header);
    return kExitModelError;
  }
  if (failed(keepWeights()) || // an object without its weights is no use
      (!o.graph.empty() &&
       failed(writeGraph(o.graph, graphDot, compiled, o.model)))) {
    llvm::sys::fs::remove(header);
    llvm::sys::fs::remove(output);
    if (!weightsPath.empty())
      llvm::sys::fs::remove(weightsPath);
    return kExitModelError;
  }
  return 0;
}

/// A model compiled in memory (tcc run, tcc bench), with its buffers.
/// Bytes of `t` for `batch` samples.
int64_t bytesFor(const tcc::TensorSignature &t, int64_t batch) {
  return t.numElements() * (t.batchMultiple ? batch : 1) *
         tcc::dtypeSize(t.dtype);
}

struct JitModel {
  Compiled compiled;
  SmallString<0> object; // the code, which the JIT reads in place
  std::unique_ptr<llvm::orc::LLJIT> jit;
  tcc_run_packed_ctx_fn runPacked = nullptr;
  std::vector<tcc::HostTensor> inputs, outputs;
  std::vector<const void *> inputPtrs;
  std::vector<void *> outputPtrs;
  void *workspace = nullptr;
  /// Samples per run, for a model with a run-time batch (else 1).
  int64_t batch = 1;
  /// The output dims known only after the run (tcc::ModelSignature::
  /// numRunTimeDims), which the run writes.
  std::vector<int64_t> runTimeDims;
  /// The values of the input dims that vary up to a bound (tcc::
  /// ModelSignature::boundedDim), which the run takes as its last input.
  std::vector<int64_t> inputDims;
  ~JitModel() { std::free(workspace); }

  /// Runs the model once on the buffers: once per sample, at each sample's
  /// data, for a model with a run-time batch.
  int32_t run(tcc_context *threads) {
    const tcc::ModelSignature &sig = compiled.signature;
    std::vector<const void *> in = inputPtrs;
    std::vector<void *> out = outputPtrs;
    if (!runTimeDims.empty())
      out.push_back(runTimeDims.data()); // the last output, not per sample
    if (!inputDims.empty())
      in.push_back(inputDims.data()); // the last input
    // Where sample b starts: b samples in, for the tensors that hold one
    // each, in their actual dims (an output's from the first sample's run,
    // the same in every sample).
    auto sampleBytes = [](const tcc::TensorSignature &t,
                          ArrayRef<int64_t> dims) {
      if (!t.batchMultiple)
        return int64_t(0);
      int64_t n = t.batchMultiple * tcc::dtypeSize(t.dtype);
      for (int64_t d : dims.drop_front())
        n *= d;
      return n;
    };
    std::vector<int64_t> outputStep(outputPtrs.size());
    for (int64_t b = 0; b < batch; ++b) {
      for (size_t i = 0; i < inputPtrs.size(); ++i)
        in[i] = (const char *)inputPtrs[i] +
                b * sampleBytes(sig.inputs[i], inputs[i].dims);
      for (size_t i = 0; i < outputPtrs.size(); ++i)
        out[i] = (char *)outputPtrs[i] + b * outputStep[i];
      if (int32_t status = runPacked(threads, in.data(), out.data(), workspace))
        return status;
      const int64_t *next = runTimeDims.data();
      for (size_t i = 0; b == 0 && i < outputPtrs.size(); ++i)
        outputStep[i] = sampleBytes(
            sig.outputs[i], actualDims(sig.outputs[i], sig.outputs[i].dims, next));
    }
    return 0;
  }

  /// `dims` of output `t` with its run-time dims taken from `next` (the
  /// run's run_time_dims, output by output), which advances past them.
  static std::vector<int64_t> actualDims(const tcc::TensorSignature &t,
                                         std::vector<int64_t> dims,
                                         const int64_t *&next) {
    for (size_t d = 0; d < dims.size(); ++d)
      if (t.runTimeDims >> d & 1)
        dims[d] = *next++;
    return dims;
  }

  /// Shrinks the outputs with run-time dims to the dims of the last run
  /// (packed at the start of their buffers).
  void trimOutputs() {
    const int64_t *next = runTimeDims.data();
    for (auto [t, sig] : llvm::zip(outputs, compiled.signature.outputs)) {
      if (!sig.runTimeDims)
        continue;
      t.dims = actualDims(sig, t.dims, next);
      int64_t n = 1;
      for (int64_t d : t.dims)
        n *= d;
      t.data.resize(n * tcc::dtypeSize(t.dtype));
    }
  }
};

/// The dims of `t` for `batch` samples.
std::vector<int64_t> batchDims(const tcc::TensorSignature &t, int64_t batch) {
  std::vector<int64_t> dims = t.dims;
  if (t.batchMultiple)
    dims[0] = t.batchMultiple * batch;
  return dims;
}

std::string shapeString(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

/// Deterministic stand-in data for an input `tcc bench` was not given:
/// floats in [-1, 1), zeros for integers and bools (valid indices, masks).
void fillInput(tcc::HostTensor &t) {
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  int64_t n = t.data.size() / tcc::dtypeSize(t.dtype);
  auto fill = [&](auto *data) {
    for (int64_t i = 0; i < n; ++i)
      data[i] = (next() >> 8) / double(1 << 23) - 1.0;
  };
  if (t.dtype == 1) // float32
    fill(reinterpret_cast<float *>(t.data.data()));
  else if (t.dtype == 11) // float64
    fill(reinterpret_cast<double *>(t.data.data()));
}

/// Reads the --input files (or, when `fillMissing`, makes stand-in data
/// for the inputs not given), compiles the model in memory and allocates
/// its outputs and workspace. Returns an exit status (0: ready).
int prepareJit(RunOptions &r, MLIRContext &ctx,
               std::map<std::string, tcc::NodeInfo> &nodes, bool fillMissing,
               JitModel &m) {
  CompileOptions &o = r.compile;
  // Read and check the inputs before compiling: wrong inputs fail fast.
  std::map<std::string, tcc::HostTensor> given;
  for (const std::string &spec : r.inputs) {
    auto [name, path] = StringRef(spec).split('=');
    if (name.empty() || path.empty()) {
      llvm::errs() << "tcc: usage error: --input expects NAME=FILE, got '"
                   << spec << "'\n";
      return kExitUsageError;
    }
    tcc::HostTensor t;
    std::string err;
    if (!tcc::readTensorFile(path.str(), t, err))
      return error("input '" + name + "': " + err);
    given[name.str()] = std::move(t);
  }

  Compiled &compiled = m.compiled;
  compiled.name = o.name;
  if (failed(compileToLLVMDialect(ctx, o, compiled, tcc::Stage::LLVM, nodes)))
    return kExitModelError;

  // A run-time batch: from dim 0 of the first batched input given.
  for (const tcc::TensorSignature &in : compiled.signature.inputs) {
    auto it = given.find(in.name);
    if (!in.batchMultiple || it == given.end() || it->second.dims.empty())
      continue;
    m.batch = it->second.dims[0] / in.batchMultiple;
    break;
  }
  if (m.batch == 0 && !compiled.signature.boundedDim.empty() &&
      compiled.signature.numRunTimeDims())
    return error("a batch of 0: the dims of the outputs that follow '" +
                 compiled.signature.boundedDim +
                 "' come from a sample's run; pass one sample or more");
  // A dim that varies up to a bound: from the first input given that holds
  // it (the bound when none is given and stand-ins are made).
  std::optional<int64_t> bounded;
  int64_t bound = 0;
  for (const tcc::TensorSignature &in : compiled.signature.inputs) {
    auto it = given.find(in.name);
    for (size_t d = 0; d < in.dims.size(); ++d) {
      if (!(in.runTimeDims >> d & 1))
        continue;
      if (!bounded && it != given.end() &&
          it->second.dims.size() == in.dims.size()) {
        bounded = it->second.dims[d];
        if (*bounded < 1 || *bounded > in.dims[d])
          return error("input '" + in.name + "': dim " + std::to_string(d) +
                       " ('" + compiled.signature.boundedDim + "') is " +
                       std::to_string(*bounded) + "; the model takes 1 to " +
                       std::to_string(in.dims[d]));
      }
      bound = in.dims[d];
    }
  }
  if (!bounded)
    bounded = bound; // stand-ins (tcc bench), or a missing input below
  m.inputDims.assign(compiled.signature.numRunTimeInputDims(), *bounded);
  for (const tcc::TensorSignature &in : compiled.signature.inputs) {
    std::vector<int64_t> dims = batchDims(in, m.batch);
    for (size_t d = 0; d < dims.size(); ++d)
      if (in.runTimeDims >> d & 1)
        dims[d] = *bounded;
    auto it = given.find(in.name);
    if (it == given.end() && fillMissing) {
      tcc::HostTensor t;
      t.dtype = in.dtype;
      t.dims = dims;
      int64_t n = 1;
      for (int64_t d : dims)
        n *= d;
      t.data.resize(n * tcc::dtypeSize(in.dtype));
      fillInput(t);
      it = given.emplace(in.name, std::move(t)).first;
    }
    if (it == given.end())
      return error("missing input '" + in.name + "' (" +
                   tcc::dtypeString(in.dtype) + " " + shapeString(dims) +
                   "): pass --input " + in.name + "=FILE.npy");
    const tcc::HostTensor &t = it->second;
    if (t.dtype != in.dtype || t.dims != dims)
      return error("input '" + in.name + "': expected " +
                   tcc::dtypeString(in.dtype) + " " + shapeString(dims) +
                   (in.batchMultiple ? " (" + compiled.signature.batchDim +
                                           "=" + std::to_string(m.batch) + ")"
                                     : std::string()) +
                   ", got " + tcc::dtypeString(t.dtype) + " " +
                   shapeString(t.dims));
  }
  for (const auto &[name, t] : given)
    if (!llvm::any_of(compiled.signature.inputs,
                      [&](auto &in) { return in.name == name; }))
      return error("--input names '" + name +
                   "', which is not an input of the model");
  for (const tcc::TensorSignature &in : compiled.signature.inputs)
    m.inputs.push_back(std::move(given[in.name]));
  // A zero-element tensor has no data, but the ABI wants a non-null pointer.
  for (const tcc::HostTensor &t : m.inputs)
    m.inputPtrs.push_back(t.data.empty() ? (const void *)&kEmptyTensor
                                         : t.data.data());

  // The object `tcc compile` would write, loaded in memory: the same code,
  // its weights in .rodata (JITLink places no segment aligned beyond a
  // page).
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  tcc::TargetOptions target{"", "", (unsigned)o.optLevel};
  target.hugePageWeights = false;
  SmallString<0> &object = m.object;
  {
    llvm::raw_svector_ostream os(object);
    if (failed(tcc::emitModule(*compiled.module, target,
                               tcc::OutputKind::Object, os)))
      return kExitModelError;
  }
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return error("cannot start the JIT: " + llvm::toString(jit.takeError()));
  m.jit = std::move(*jit);
  llvm::orc::JITDylib &lib = m.jit->getMainJITDylib();
  // libc and libm from the process; the runtime functions generated code
  // calls from the copy linked into tcc.
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          m.jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return error("JIT: " + llvm::toString(process.takeError()));
  lib.addGenerator(std::move(*process));
  llvm::orc::SymbolMap runtime;
  auto define = [&](llvm::StringRef name, auto *fn) {
    runtime[m.jit->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(fn), llvm::JITSymbolFlags::Exported};
  };
  define("tcc_parallel_for", &tcc_parallel_for);
  define("tcc_run_begin", &tcc_run_begin);
  define("tcc_run_end", &tcc_run_end);
  define("tcc_branch_check", &tcc_branch_check);
  define("tcc_run_status", &tcc_run_status);
  define("tcc_cuda_begin", &tcc_cuda_begin);
  define("tcc_cuda_launch", &tcc_cuda_launch);
  define("tcc_cuda_end", &tcc_cuda_end);
  define("__truncsfbf2", &__truncsfbf2);
  define("tcc_profile_enter", &tcc::driver::profileEnter);
  define("tcc_profile_exit", &tcc::driver::profileExit);
  if (llvm::Error err = lib.define(llvm::orc::absoluteSymbols(runtime)))
    return error("JIT: " + llvm::toString(std::move(err)));
  if (llvm::Error err = m.jit->addObjectFile(
          llvm::MemoryBuffer::getMemBuffer(object, "model.o",
                                           /*RequiresNullTerminator=*/false)))
    return error("JIT: cannot load the object: " +
                 llvm::toString(std::move(err)));
  auto fn = m.jit->lookup(compiled.name + "_run_packed_ctx");
  if (!fn)
    return error("JIT lookup failed: " + llvm::toString(fn.takeError()));
  m.runPacked = fn->toPtr<tcc_run_packed_ctx_fn>();

  for (const tcc::TensorSignature &out : compiled.signature.outputs) {
    tcc::HostTensor t;
    t.dtype = out.dtype;
    t.dims = batchDims(out, m.batch);
    t.data.resize(bytesFor(out, m.batch));
    m.outputs.push_back(std::move(t));
  }
  for (tcc::HostTensor &t : m.outputs)
    m.outputPtrs.push_back(t.data.empty() ? (void *)&kEmptyTensor
                                          : t.data.data());
  m.runTimeDims.resize(compiled.signature.numRunTimeDims());
  size_t wsSize =
      llvm::alignTo(std::max<int64_t>(compiled.workspaceSize, 1), 64);
  m.workspace = std::aligned_alloc(64, wsSize);
  if (!m.workspace)
    return error("cannot allocate " + std::to_string(wsSize) +
                 " bytes of workspace");
  return 0;
}

/// Compiles the model of `r` in memory, starts a context of r.threads
/// threads and calls `body` with both; returns an exit status.
int withJitModel(RunOptions &r, bool fillMissing,
                 llvm::function_ref<int(JitModel &, tcc_context *)> body) {
  CompileOptions &o = r.compile;
  o.name = "model";
  if (int status = prepareTarget(o))
    return status;
  if (tcc::ImportOptions check; !makeImportOptions(o, check))
    return kExitUsageError;
  Session session;
  MLIRContext &ctx = session.ctx;
  std::map<std::string, tcc::NodeInfo> &nodes = session.nodes;
  JitModel m;
  if (int status = prepareJit(r, ctx, nodes, fillMissing, m))
    return status;
  tcc_context *threads = nullptr;
  if (tcc_context_create(r.threads, &threads) != TCC_OK)
    return error("cannot start " + std::to_string(r.threads) + " threads");
  llvm::scope_exit destroyThreads([&] { tcc_context_destroy(threads); });
  return body(m, threads);
}

/// The files tcc run writes the outputs to, in --output-dir: an output's
/// name and the extension of its dtype (OUTPUT.npy, OUTPUT.pb for
/// bfloat16). A name that is not a file name as it stands ('/', '\\' or NUL
/// in it, "", ".", "..", over 200 bytes) has those bytes as '_' (cut to 200
/// bytes, output_N when nothing is left); one that would then be another
/// output's file gets _2, _3, ...: outputs that need no change keep their
/// names first.
std::vector<std::string> outputFiles(const tcc::ModelSignature &sig,
                                     const std::string &dir) {
  size_t n = sig.outputs.size();
  std::vector<std::string> stems(n);
  std::set<std::string> taken;
  auto usable = [](StringRef name) {
    return !name.empty() && name != "." && name != ".." && name.size() <= 200 &&
           name.find_first_of(StringRef("/\\\0", 3)) == StringRef::npos;
  };
  for (size_t i = 0; i < n; ++i)
    if (usable(sig.outputs[i].name) && taken.insert(sig.outputs[i].name).second)
      stems[i] = sig.outputs[i].name;
  for (size_t i = 0; i < n; ++i) {
    if (!stems[i].empty())
      continue;
    std::string base;
    for (char c : StringRef(sig.outputs[i].name).take_front(200))
      base += (c == '/' || c == '\\' || c == '\0') ? '_' : c;
    if (!usable(base))
      base = "output_" + std::to_string(i);
    std::string stem = base;
    for (int k = 2; !taken.insert(stem).second; ++k)
      stem = base + "_" + std::to_string(k);
    stems[i] = stem;
  }
  std::vector<std::string> files;
  for (size_t i = 0; i < n; ++i) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, stems[i]);
    files.push_back(path.str().str() +
                    tcc::outputExtension(sig.outputs[i].dtype));
  }
  return files;
}

/// tcc run's work once compiled: one run, then the outputs to files.
int writeOutputs(RunOptions &r, JitModel &m, tcc_context *threads) {
  const tcc::ModelSignature &signature = m.compiled.signature;
  std::vector<std::string> files = outputFiles(signature, r.outputDir);
  // No output over an input: the model or an --input file.
  std::vector<NamedPath> inputs{{r.compile.model, "the model itself"}};
  for (const std::string &spec : r.inputs) {
    auto [name, path] = StringRef(spec).split('=');
    inputs.push_back({path.str(), ("the --input file of '" + name + "'").str()});
  }
  for (size_t i = 0; i < files.size(); ++i)
    for (const NamedPath &in : inputs)
      if (samePath(files[i], in.path)) {
        llvm::errs() << "tcc: usage error: output '"
                     << escapeControl(signature.outputs[i].name)
                     << "' would be written to '" << escapeControl(files[i])
                     << "', which is " << escapeControl(in.what) << "\n";
        return kExitUsageError;
      }

  if (int32_t status = m.run(threads))
    return statusError(status);
  m.trimOutputs();

  bool existed = llvm::sys::fs::is_directory(r.outputDir);
  if (std::error_code ec = llvm::sys::fs::create_directories(r.outputDir))
    return error("cannot create '" + r.outputDir + "': " + ec.message());
  std::vector<std::string> written;
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    std::string err;
    StringRef ext = llvm::sys::path::extension(files[i]);
    if (tcc::writeOutputTensor(StringRef(files[i]).drop_back(ext.size()).str(),
                               signature.outputs[i].name, m.outputs[i], err)
            .empty()) {
      // All of the outputs or none.
      for (const std::string &file : written)
        llvm::sys::fs::remove(file);
      if (!existed)
        llvm::sys::fs::remove(r.outputDir);
      return error(err);
    }
    written.push_back(files[i]);
    StringRef stem = llvm::sys::path::stem(files[i]);
    if (stem != signature.outputs[i].name)
      llvm::errs() << "tcc: output '"
                   << escapeControl(signature.outputs[i].name) << "' -> "
                   << escapeControl(files[i]) << "\n";
  }
  return 0;
}

int runRun(RunOptions &r) {
  return withJitModel(r, /*fillMissing=*/false, [&](JitModel &m,
                                                    tcc_context *threads) {
    return writeOutputs(r, m, threads);
  });
}

/// tcc bench's work once compiled.
int timeRuns(RunOptions &r, JitModel &m, tcc_context *threads) {
  CompileOptions &o = r.compile;
  // On a GPU, also the kernels' time from CUDA events (without the copies).
  bool gpu = o.target == "cuda" && !o.gpuEmulate;
  std::vector<double> runs, kernels;
  std::optional<tcc::driver::Profiler> profiler;
  if (o.profile) {
    if (!m.compiled.graph)
      return error("internal: --profile found no kernels");
    profiler.emplace(*m.compiled.graph, m.compiled.nodeFlops);
  }
  for (int i = 0; i < r.warmup + r.iterations; ++i) {
    if (profiler && i >= r.warmup)
      profiler->beginRun();
    auto start = std::chrono::steady_clock::now();
    int32_t status = m.run(threads);
    std::chrono::duration<double, std::milli> ms =
        std::chrono::steady_clock::now() - start;
    if (profiler && i >= r.warmup)
      profiler->endRun();
    if (status != 0)
      return statusError(status);
    if (i >= r.warmup)
      runs.push_back(ms.count());
    if (i >= r.warmup && gpu)
      kernels.push_back(tcc_cuda_last_run_kernels_ms());
  }
  llvm::sort(kernels);
  double kernelsMedian = kernels.empty() ? 0 : kernels[(kernels.size() - 1) / 2];
  std::vector<double> sorted = runs;
  llvm::sort(sorted);
  // The value below which `q` of the runs fall (nearest rank).
  auto quantile = [&](double q) {
    size_t rank = (size_t)std::ceil(q * sorted.size());
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
  };
  double mean = 0;
  for (double t : runs)
    mean += t / runs.size();
  int32_t numThreads = tcc_context_num_threads(threads);
  if (r.json) {
    llvm::outs() << "{\"model\": \"" << llvm::sys::path::filename(o.model)
                 << "\", \"threads\": " << numThreads
                 << ", \"warmup\": " << r.warmup
                 << ", \"iterations\": " << r.iterations
                 << llvm::formatv(", \"latency_ms\": {{\"min\": {0:F4}, "
                                  "\"median\": {1:F4}, \"p90\": {2:F4}, "
                                  "\"max\": {3:F4}, \"mean\": {4:F4}}",
                                  sorted.front(), quantile(0.5),
                                  quantile(0.9), sorted.back(), mean)
                 << ", \"runs_ms\": [";
    for (size_t i = 0; i < runs.size(); ++i)
      llvm::outs() << (i ? ", " : "") << llvm::formatv("{0:F4}", runs[i]);
    llvm::outs() << "]";
    if (gpu)
      llvm::outs() << llvm::formatv(", \"gpu_kernels_ms\": {{\"min\": {0:F4}, "
                                    "\"median\": {1:F4}}",
                                    kernels.front(), kernelsMedian);
    llvm::outs() << "}\n";
  } else {
    llvm::outs() << llvm::sys::path::filename(o.model) << ": " << r.iterations
                 << " runs on " << numThreads << " thread"
                 << (numThreads == 1 ? "" : "s") << " after " << r.warmup
                 << " warm-up runs: "
                 << llvm::formatv("min {0:F3} ms, median {1:F3} ms, p90 "
                                  "{2:F3} ms, max {3:F3} ms, mean {4:F3} ms",
                                  sorted.front(), quantile(0.5),
                                  quantile(0.9), sorted.back(), mean)
                 << "\n";
    if (gpu)
      llvm::outs() << llvm::formatv("  GPU kernels (CUDA events, without the "
                                    "copies): min {0:F3} ms, median {1:F3} ms\n",
                                    kernels.front(), kernelsMedian);
    if (r.profile)
      profiler->printTable(llvm::outs());
  }
  if (!r.trace.empty() &&
      failed(writeAtomically(r.trace, [&](llvm::raw_pwrite_stream &os) {
        profiler->writeTrace(os, llvm::sys::path::filename(o.model));
        return success();
      })))
    return kExitModelError;
  return 0;
}

/// tcc bench: latency statistics of the compiled model, after warm-up.
int runBench(RunOptions &r) {
  if (r.profile || !r.trace.empty()) {
    std::string why;
    SmallString<256> folder(r.trace);
    llvm::sys::path::remove_filename(folder);
    if (r.profile && r.json)
      why = "--profile prints a table, not JSON: take --trace FILE for the "
            "kernels' times as JSON";
    else if (r.compile.target == "cuda" && !r.compile.gpuEmulate)
      why = "--profile and --trace time the CPU pipeline's kernels; "
            "--target cuda's are not timed one by one yet";
    else if (!folder.empty() && !llvm::sys::fs::is_directory(folder))
      why = "--trace '" + escapeControl(r.trace) +
            "' is in a folder that does not exist";
    else if (!r.trace.empty() && samePath(r.trace, r.compile.model))
      why = "--trace '" + escapeControl(r.trace) +
            "' would overwrite the model";
    if (!why.empty()) {
      llvm::errs() << "tcc: usage error: " << why << "\n";
      return kExitUsageError;
    }
    r.compile.profile = true;
  }
  return withJitModel(r, /*fillMissing=*/true, [&](JitModel &m,
                                                   tcc_context *threads) {
    return timeRuns(r, m, threads);
  });
}

/// --target and its GPU options (tcc compile, run and bench).
void addTargetOptions(CLI::App *cmd, CompileOptions &o) {
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
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"tcc: an ahead-of-time compiler from ONNX models to object "
               "files"};
  app.require_subcommand(1);

  CompileOptions compile;
  CLI::App *compileCmd = app.add_subcommand(
      "compile", "Compile a model to an object file and a C header");
  addModelOptions(compileCmd, compile);
  addTargetOptions(compileCmd, compile);
  compileCmd->add_option("-o,--output", compile.output,
                         "Output file (the header goes beside it as .h); "
                         "NAME.so: a shared library of the object and the "
                         "runtime, linked by $CC (default cc)");
  compileCmd->add_option("--name", compile.name,
                         "Symbol prefix: a C identifier that starts with a "
                         "letter, not tcc or tcc_* (default: the output's "
                         "stem, made one)");
  compileCmd->add_option("--mtriple", compile.mtriple,
                         "LLVM target triple (default: the host)");
  compileCmd->add_option("--mcpu", compile.mcpu,
                         "Target CPU (default: the host's)");
  compileCmd->add_option("--weights", compile.weights,
                         "embed: the weights go in the object (default); "
                         "file: into OUT.weights beside it, which the "
                         "program maps at run time")
      ->check(CLI::IsMember({"embed", "file"}));
  compileCmd->add_option("--emit", compile.emit, "obj, asm, llvm or mlir")
      ->check(CLI::IsMember({"obj", "asm", "llvm", "mlir"}));
  compileCmd->add_option("--stop-after", compile.stopAfter,
                         "Print the MLIR after a stage: onnx, linalg, "
                         "bufferized, llvm");
  compileCmd->add_flag("--print-ir-after-all", compile.printIRAfterAll,
                       "Print the IR after each pass");
  compileCmd->add_flag("--stats", compile.stats,
                       "Print the workspace plan: planned bytes, the sum of "
                       "all buffers, the lower bound");
  compileCmd->add_flag("--time-passes", compile.timePasses,
                       "Report the time of each pass");
  compileCmd->add_option("--graph", compile.graph,
                         "Write the fused graph: kernels (with the ONNX "
                         "nodes inside) and the tensors between them, to "
                         "PATH.dot (Graphviz) or PATH.svg (rendered by "
                         "Graphviz's dot; without it, PATH.dot and how to "
                         "render it)");
  compileCmd->add_option("-O", compile.optLevel,
                         "Optimization level 0-3 (default 2)")
      ->check(CLI::Range(0, 3));

  RunOptions run;
  CLI::App *runCmd =
      app.add_subcommand("run", "Compile a model and run it once on inputs");
  addModelOptions(runCmd, run.compile);
  addTargetOptions(runCmd, run.compile);
  runCmd->add_option("--input", run.inputs,
                     "An input: NAME=FILE (.npy, or an ONNX TensorProto .pb)");
  runCmd->add_option("--output-dir", run.outputDir,
                     "Where the outputs go: OUTPUT_NAME.npy (OUTPUT_NAME.pb for "
                     "bfloat16). In a name that is not a file name as it "
                     "stands, '/', '\\' and NUL become '_' (\"\", \".\" and "
                     "\"..\": output_N; cut to 200 bytes); names that would "
                     "then be one file get _2, _3, ... (outputs whose names "
                     "need no change keep them); each renamed output is "
                     "listed on stderr")
      ->required();
  runCmd->add_option("--threads", run.threads,
                     "Threads to run on (default 0: one per CPU); the "
                     "results do not depend on it")
      ->check(CLI::NonNegativeNumber);

  RunOptions bench;
  CLI::App *benchCmd = app.add_subcommand(
      "bench", "Compile a model and time it: min, median, p90 latency");
  addModelOptions(benchCmd, bench.compile);
  addTargetOptions(benchCmd, bench.compile);
  benchCmd->add_option("--input", bench.inputs,
                       "An input: NAME=FILE (.npy or .pb); inputs not given "
                       "get deterministic data (floats in [-1, 1), zeros "
                       "for integers)");
  benchCmd->add_option("--threads", bench.threads,
                       "Threads to run on (default 0: one per CPU)")
      ->check(CLI::NonNegativeNumber);
  benchCmd->add_option("--iterations", bench.iterations,
                       "Timed runs (default 20)")
      ->check(CLI::PositiveNumber);
  benchCmd->add_option("--warmup", bench.warmup,
                       "Untimed runs first (default 3)")
      ->check(CLI::NonNegativeNumber);
  benchCmd->add_flag("--json", bench.json,
                     "Print one JSON object (statistics and every run)");
  benchCmd->add_flag("--profile", bench.profile,
                     "Time each kernel call: a table by time (kernel, the "
                     "ONNX nodes it computes, calls, total and mean time, "
                     "share of the run, GFLOP/s)");
  benchCmd->add_option("--trace", bench.trace,
                       "Write the timed runs' kernel calls to FILE in the "
                       "Chrome trace format (Perfetto, chrome://tracing)");

  CompileOptions inspect;
  bool inspectJson = false;
  CLI::App *inspectCmd = app.add_subcommand(
      "inspect", "Say what a model holds: producer, opsets, inputs and "
                 "outputs, operators, parameters, FLOPs, unsupported nodes "
                 "(no code is generated)");
  inspectCmd->add_option("model", inspect.model, "The ONNX model")->required();
  inspectCmd->add_option("--dim", inspect.dims,
                         "Pin a symbolic dim: NAME=VALUE (for the FLOPs)");
  inspectCmd->add_option("--shape", inspect.shapes,
                         "Pin an input shape: NAME=DxDx... (for the FLOPs)");
  inspectCmd->add_flag("--json", inspectJson, "Print one JSON object");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return kExitUsageError;
  }
  if (compileCmd->parsed()) {
    compile.nameGiven = compileCmd->count("--name") > 0;
    return runCompile(compile);
  }
  if (benchCmd->parsed())
    return runBench(bench);
  if (inspectCmd->parsed()) {
    tcc::ImportOptions import;
    if (!makeImportOptions(inspect, import))
      return kExitUsageError;
    return tcc::driver::runInspect(inspect.model, import, inspectJson);
  }
  return runRun(run);
}
