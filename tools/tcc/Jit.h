//===- Jit.h - a model compiled in memory, for tcc run and bench -*- C++
//-*-===//
//
// Private to tools/tcc: compiles a model as tcc compile would, loads the
// object into an LLJIT with the runtime linked into tcc, and holds its
// inputs, outputs and workspace (Jit.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_JIT_H
#define TCC_TOOLS_TCC_JIT_H

#include "Driver.h"
#include "TensorIO.h"

#include "tcc/runtime.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc::driver {

/// What tcc run and tcc bench take besides the model's options.
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

/// A model compiled in memory (tcc run, tcc bench), with its buffers.
struct JitModel {
  Compiled compiled;
  llvm::SmallString<0> object; // the code, which the JIT reads in place
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
  ~JitModel();

  /// Runs the model once on the buffers: once per sample, at each sample's
  /// data, for a model with a run-time batch.
  int32_t run(tcc_context *threads);

  /// `dims` of output `t` with its run-time dims taken from `next` (the
  /// run's run_time_dims, output by output), which advances past them.
  static std::vector<int64_t> actualDims(const tcc::TensorSignature &t,
                                         std::vector<int64_t> dims,
                                         const int64_t *&next);

  /// Shrinks the outputs with run-time dims to the dims of the last run
  /// (packed at the start of their buffers).
  void trimOutputs();
};

/// Compiles the model of `r` in memory (reading the --input files first;
/// with `fillMissing`, deterministic data for the inputs not given), starts
/// a context of r.threads threads and calls `body` with both; returns an
/// exit status.
int withJitModel(RunOptions &r, bool fillMissing,
                 llvm::function_ref<int(JitModel &, tcc_context *)> body);

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_JIT_H
