//===- Driver.h - what tcc's subcommands share ------------------*- C++ -*-===//
//
// Private to tools/tcc. Each subcommand has a file of its own (Compile.cpp,
// Run.cpp, Bench.cpp, Inspect.cpp) over this small core (Driver.cpp): the
// options that say which model and how to compile it, an MLIR session
// whose diagnostics name ONNX nodes, and the way from those options to a
// lowered module (options -> import -> pipeline). Compile.cpp emits the
// module into files; Jit.cpp into memory, for run and bench.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_DRIVER_H
#define TCC_TOOLS_TCC_DRIVER_H

#include "Graph.h"
#include "Progress.h"

#include "tcc/Header.h"
#include "tcc/Import.h"
#include "tcc/Pipelines.h"
#include "tcc/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace tcc::driver {

/// Exit statuses: the model or an input is wrong or unsupported; the
/// command line is.
constexpr int kExitModelError = 1;
constexpr int kExitUsageError = 2;

/// A subcommand: its command-line parser and what it does once parsed
/// (returns the exit status). Its options live in `run`.
struct Command {
  CLI::App *cli;
  std::function<int()> run;
};

Command addCompileCommand(CLI::App &app);
Command addRunCommand(CLI::App &app);
Command addBenchCommand(CLI::App &app);
Command addInspectCommand(CLI::App &app);

/// Which model, and how to compile it (compile, run and bench).
struct CompileOptions {
  std::string model, output, name, emit = "obj", stopAfter, mtriple, mcpu;
  /// --mattr: more target features, LLVM's names with + or -.
  std::string mattr;
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
  /// The CPU target these options name (--mtriple, --mcpu, --mattr, -O).
  tcc::TargetOptions cpuTarget() const {
    tcc::TargetOptions target{mtriple, mcpu, (unsigned)optLevel};
    target.features = mattr;
    return target;
  }
  bool noWinograd = false, noChannelsLast = false;
  /// --precision: fp32, or bf16 (matmuls and convolutions against weights
  /// as bf16 products summed in fp32).
  std::string precision = "fp32";
  /// --graph: where the fused graph goes (.dot, or .svg through Graphviz).
  std::string graph;
  /// tcc bench --profile / --trace: each kernel call timed.
  bool profile = false;
  /// tcc inspect --kernels: the fused graph and the nodes' FLOPs, as
  /// --graph and --profile have them, in Compiled.
  bool kernelPlan = false;
  /// Whether --name was given (an empty one is invalid, not the default).
  bool nameGiven = false;
  /// tcc compile -v: each stage with its time.
  bool verbose = false;
};

/// A valid model name (symbol prefix) from a file's stem.
std::string defaultName(llvm::StringRef path);

/// The model and its import options: the positional MODEL, --dim, --shape,
/// --max-dim, --bind, --no-winograd, --no-channels-last, --precision.
void addModelOptions(CLI::App *cmd, CompileOptions &o);
/// --target and its GPU options.
void addTargetOptions(CLI::App *cmd, CompileOptions &o);

/// `text` with its control characters written \xNN: names from a model may
/// hold a terminal's escape sequences or newlines that fake another line.
std::string escapeControl(llvm::StringRef text);

/// Prints "tcc: error: MESSAGE" (escaped); returns kExitModelError.
int error(const llvm::Twine &message);

/// A model's run failed: prints its status, what it means and, for a CUDA
/// failure, the driver's words; returns kExitModelError.
int statusError(int32_t status);

class Diagnostics;

/// An MLIR context with tcc's dialects whose diagnostics name ONNX nodes
/// ("tcc: error: node 'conv1' (Conv, opset 17): ...").
struct Session {
  Session();
  ~Session();
  mlir::MLIRContext ctx;
  /// The imported model's nodes by name, which the diagnostics name.
  std::map<std::string, tcc::NodeInfo> nodes;

private:
  std::unique_ptr<Diagnostics> diagnostics;
};

/// Parses --dim, --shape, --bind (names only) and checks --max-dim into
/// `import`; false after a usage error.
bool makeImportOptions(const CompileOptions &o, tcc::ImportOptions &import);

/// Checks the --target options and finds the CUDA toolkit for
/// --target cuda; 0, or the exit status of a usage error.
int prepareTarget(CompileOptions &o);

/// A model lowered by compileToLLVMDialect, and what the pipeline said.
struct Compiled {
  /// The model as parsed, read once for all imports; the module's weights
  /// point into it (declared first: it outlives the module).
  std::shared_ptr<const tcc::ParsedModel> source;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  tcc::ModelSignature signature;
  int64_t workspaceSize = 0;
  /// The workspace plan's statistics (tcc.workspace_* of @main) and the
  /// kernel counts (kernels, functions, register_tiled, parallel).
  std::map<std::string, int64_t> stats;
  std::string name;
  /// Set when the weights went to a file (--weights file).
  std::optional<tcc::WeightsFile> weights;
  /// The fused graph (--graph, --profile), once the pipeline has its
  /// kernels: with --profile, the kernel call sites in order.
  std::optional<KernelGraph> graph;
  /// --profile: the FLOPs of each ONNX node (none: unknown).
  std::optional<std::map<std::string, int64_t>> nodeFlops;
};

/// Imports the model of `o` and lowers it to the LLVM dialect (or
/// `stopAfter`) into `out` (whose name is set), settling its symbolic dims
/// first: pinned, a run-time batch, or one that varies up to a bound. The
/// options must have passed makeImportOptions. Reports its stages to
/// `progress` when not null.
mlir::LogicalResult
compileToLLVMDialect(mlir::MLIRContext &ctx, const CompileOptions &o,
                     Compiled &out, tcc::Stage stopAfter,
                     std::map<std::string, tcc::NodeInfo> &nodes,
                     Progress *progress = nullptr);

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_DRIVER_H
