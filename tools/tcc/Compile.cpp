//===- Compile.cpp - tcc compile: a model to an object and a header -------===//
//
//   tcc compile MODEL.onnx [-o OUT.o|OUT.so] [--name N] [--emit
//   obj|asm|llvm|mlir]
//               [--stop-after onnx|linalg|bufferized|llvm] [--weights file]
//               [--graph G.svg] [--stats] ...
//
// Writes the object (or a shared library of it and the runtime), its C
// header and, with --weights file, the weights, each through a temporary
// file: a failure leaves none of them behind, and no output may overwrite
// an input.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "Files.h"

#include "tcc/Target.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <CLI/CLI.hpp>

#include <cstdlib>

using namespace mlir;
using namespace tcc::driver;

namespace {

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
  SmallVector<StringRef> args = {*cc,     "-shared",
                                 "-o",    library,
                                 object,  "-Wl,--whole-archive",
                                 runtime, "-Wl,--no-whole-archive",
                                 "-lm",   "-lpthread",
                                 "-ldl"};
  return runInto(args, library, path, "linking the shared library");
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

/// --stats: the workspace plan, the kernels and the weights file.
void printStats(const Compiled &compiled) {
  std::map<std::string, int64_t> stats = compiled.stats;
  auto mib = [](int64_t bytes) {
    return llvm::formatv("{0:F2} MiB", bytes / 1048576.0).str();
  };
  int64_t bound = stats["lower_bound"];
  llvm::outs() << "workspace: " << compiled.workspaceSize << " bytes ("
               << mib(compiled.workspaceSize) << ") planned for "
               << stats["buffers"] << " buffers of " << stats["buffers_bytes"]
               << " bytes (" << mib(stats["buffers_bytes"]) << "); lower bound "
               << bound << " bytes (" << mib(bound)
               << "); planned / lower bound = "
               << llvm::formatv("{0:F3}",
                                bound ? (double)compiled.workspaceSize / bound
                                      : 1.0)
               << "\n";
  llvm::outs() << "kernels: " << stats["kernels"] << " ("
               << stats["register_tiled"]
               << " with register-tiled vector code, " << stats["parallel"]
               << " split over threads; " << stats["functions"]
               << " distinct)\n";
  if (compiled.weights)
    llvm::outs() << "weights: " << compiled.weights->bytes << " bytes ("
                 << mib(compiled.weights->bytes) << ") in "
                 << compiled.weights->fileName << "\n";
}

/// Where tcc compile writes, from its options: checked, and none over an
/// input or another output.
struct OutputPlan {
  /// The object, assembly, LLVM IR or MLIR ("-": stdout) and its header
  /// (an object's, else ""); the weights file (--weights file) and the
  /// graph's DOT (--graph), else "".
  std::string output, header, weightsPath, graphDot;
  tcc::OutputKind kind;
  tcc::Stage stop;
  bool emitMLIR, shared;
  /// All of the files above, named for messages.
  std::vector<NamedPath> files;
};

/// Checks the options of tcc compile and plans its outputs; sets the model
/// name (--name, else from the output's stem). Returns 0, or the exit
/// status of a usage error.
int planOutputs(CompileOptions &o, OutputPlan &plan) {
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
    outputs.push_back(
        {header.str().str(), ("the header '" + header + "'").str()});
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
  plan = {output,
          header.str().str(),
          weightsPath.str().str(),
          graphDot,
          kind,
          *stop,
          emitMLIR,
          shared,
          std::move(outputs)};
  return 0;
}

int runCompile(CompileOptions &o) {
  if (int status = prepareTarget(o))
    return status;
  if (tcc::ImportOptions check; !makeImportOptions(o, check))
    return kExitUsageError;
  OutputPlan plan;
  if (int status = planOutputs(o, plan))
    return status;
  const std::string &output = plan.output, &header = plan.header,
                    &weightsPath = plan.weightsPath, &graphDot = plan.graphDot;
  tcc::OutputKind kind = plan.kind;
  tcc::Stage stop = plan.stop;
  bool emitMLIR = plan.emitMLIR, shared = plan.shared;
  const std::vector<NamedPath> &outputs = plan.files;
  if (!weightsPath.empty() &&
      (o.weightsTmp = createTemporary(weightsPath)).empty())
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

  Progress progress(llvm::sys::path::filename(o.model), o.verbose);
  Session session;
  MLIRContext &ctx = session.ctx;
  std::map<std::string, tcc::NodeInfo> &nodes = session.nodes;
  Compiled compiled;
  compiled.name = o.name;
  if (failed(compileToLLVMDialect(ctx, o, compiled, stop, nodes, &progress)))
    return kExitModelError;
  std::vector<NamedPath> external;
  for (const auto &[path, tensor] : o.externalFiles)
    external.push_back(
        {path, "the external data file of tensor '" + tensor + "'"});
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

  if (o.stats)
    printStats(compiled);

  tcc::TargetOptions target{o.mtriple, o.mcpu, (unsigned)o.optLevel};
  target.onStage = progress.stageHook();
  target.onFunction = progress.functionHook();
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
    tcc::writeHeader(compiled.signature, compiled.name, compiled.workspaceSize,
                     o.model, compiled.weights ? &*compiled.weights : nullptr,
                     os);
    return success();
  };
  progress.stage(shared ? "link" : "write");
  if (failed(writeAtomically(header, writeHeader)))
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

} // namespace

std::string tcc::driver::defaultName(StringRef path) {
  std::string name;
  for (char c : llvm::sys::path::stem(path))
    name += llvm::isAlnum(c) ? c : '_';
  if (!invalidName(name).empty())
    name = "model_" + name;
  return name;
}

Command tcc::driver::addCompileCommand(CLI::App &app) {
  auto o = std::make_shared<CompileOptions>();
  CLI::App *cmd = app.add_subcommand(
      "compile", "Compile a model to an object file and a C header");
  addModelOptions(cmd, *o);
  addTargetOptions(cmd, *o);
  cmd->add_option("-o,--output", o->output,
                  "Output file (the header goes beside it as .h); "
                  "NAME.so: a shared library of the object and the "
                  "runtime, linked by $CC (default cc)");
  cmd->add_option("--name", o->name,
                  "Symbol prefix: a C identifier that starts with a "
                  "letter, not tcc or tcc_* (default: the output's "
                  "stem, made one)");
  cmd->add_option("--mtriple", o->mtriple,
                  "LLVM target triple (default: the host)");
  cmd->add_option("--mcpu", o->mcpu, "Target CPU (default: the host's)");
  cmd->add_option("--weights", o->weights,
                  "embed: the weights go in the object (default); "
                  "file: into OUT.weights beside it, which the "
                  "program maps at run time")
      ->check(CLI::IsMember({"embed", "file"}));
  cmd->add_option("--emit", o->emit, "obj, asm, llvm or mlir")
      ->check(CLI::IsMember({"obj", "asm", "llvm", "mlir"}));
  cmd->add_option("--stop-after", o->stopAfter,
                  "Print the MLIR after a stage: onnx, linalg, "
                  "bufferized, llvm");
  cmd->add_flag("--print-ir-after-all", o->printIRAfterAll,
                "Print the IR after each pass");
  cmd->add_flag("--stats", o->stats,
                "Print the workspace plan: planned bytes, the sum of "
                "all buffers, the lower bound");
  cmd->add_flag("--time-passes", o->timePasses,
                "Report the time of each pass (one report per stage)");
  cmd->add_flag("-v,--verbose", o->verbose,
                "Print each stage of the compile with its time, and the "
                "total, on stderr");
  cmd->add_option("--graph", o->graph,
                  "Write the fused graph: kernels (with the ONNX "
                  "nodes inside) and the tensors between them, to "
                  "PATH.dot (Graphviz) or PATH.svg (rendered by "
                  "Graphviz's dot; without it, PATH.dot and how to "
                  "render it)");
  cmd->add_option("-O", o->optLevel, "Optimization level 0-3 (default 2)")
      ->check(CLI::Range(0, 3));
  return {cmd, [o, cmd] {
            o->nameGiven = cmd->count("--name") > 0;
            return runCompile(*o);
          }};
}
