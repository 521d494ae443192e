//===- Bench.cpp - tcc bench: a model's latency, and its kernels' ---------===//
//
//   tcc bench MODEL.onnx [--threads N] [--iterations K] [--warmup W] [--json]
//             [--profile] [--trace FILE.json]
//
// Times runs of the model compiled in memory after untimed warm-up runs:
// min, median, p90, max and mean latency; with --profile, each kernel call
// (Profile.cpp).
//
//===----------------------------------------------------------------------===//
#include "Files.h"
#include "Jit.h"
#include "Profile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace tcc::driver;

namespace {

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
  double kernelsMedian =
      kernels.empty() ? 0 : kernels[(kernels.size() - 1) / 2];
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
                                  sorted.front(), quantile(0.5), quantile(0.9),
                                  sorted.back(), mean)
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
                                  sorted.front(), quantile(0.5), quantile(0.9),
                                  sorted.back(), mean)
                 << "\n";
    if (gpu)
      llvm::outs() << llvm::formatv(
          "  GPU kernels (CUDA events, without the "
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
      why =
          "--trace '" + escapeControl(r.trace) + "' would overwrite the model";
    if (!why.empty()) {
      llvm::errs() << "tcc: usage error: " << why << "\n";
      return kExitUsageError;
    }
    r.compile.profile = true;
  }
  return withJitModel(r, /*fillMissing=*/true,
                      [&](JitModel &m, tcc_context *threads) {
                        return timeRuns(r, m, threads);
                      });
}

} // namespace

Command tcc::driver::addBenchCommand(CLI::App &app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App *cmd = app.add_subcommand(
      "bench", "Compile a model and time it: min, median, p90 latency");
  addModelOptions(cmd, o->compile);
  addTargetOptions(cmd, o->compile);
  cmd->add_option("--input", o->inputs,
                  "An input: NAME=FILE (.npy or .pb); inputs not given "
                  "get deterministic data (floats in [-1, 1), zeros "
                  "for integers)");
  cmd->add_option("--threads", o->threads,
                  "Threads to run on (default 0: one per CPU)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--iterations", o->iterations, "Timed runs (default 20)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--warmup", o->warmup, "Untimed runs first (default 3)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", o->json,
                "Print one JSON object (statistics and every run)");
  cmd->add_flag("--profile", o->profile,
                "Time each kernel call: a table by time (kernel, the "
                "ONNX nodes it computes, calls, total and mean time, "
                "share of the run, GFLOP/s)");
  cmd->add_option("--trace", o->trace,
                  "Write the timed runs' kernel calls to FILE in the "
                  "Chrome trace format (Perfetto, chrome://tracing)");
  return {cmd, [o] { return runBench(*o); }};
}
