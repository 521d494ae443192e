//===- Profile.h - tcc bench --profile --------------------------*- C++ -*-===//
//
// Private to tools/tcc: per-kernel times of a model compiled with
// tcc-profile-kernels, run in tcc bench's JIT (Profile.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_PROFILE_H
#define TCC_TOOLS_TCC_PROFILE_H

#include "Graph.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tcc::driver {

/// What the instrumented model calls (the JIT defines these symbols as
/// tcc_profile_enter and tcc_profile_exit): the start and end of kernel
/// call `id`, recorded while a Profiler records.
void profileEnter(int32_t id);
void profileExit(int32_t id);

/// Times of each kernel call site over the runs it records.
class Profiler {
public:
  /// `graph`: the kernel call sites in @main's order (the ids of
  /// tcc-profile-kernels), with their callees and ONNX nodes; `flops`:
  /// FLOPs by ONNX node (none: unknown).
  Profiler(const KernelGraph &graph,
           std::optional<std::map<std::string, int64_t>> flops);
  ~Profiler();

  /// Records the calls of one run, timed as [start, end] in ns.
  void beginRun();
  void endRun();

  /// The table, sorted by time: kernel, nodes, calls, total, mean, share of
  /// the runs' time, GFLOP/s.
  void printTable(llvm::raw_ostream &os) const;
  /// The recorded runs in the Chrome trace format (Perfetto, chrome://tracing).
  void writeTrace(llvm::raw_ostream &os, llvm::StringRef model) const;

  void enter(int32_t id);
  void exit(int32_t id);

private:
  struct Event {
    int32_t id; // -1: a whole run
    int64_t start, end;
  };
  std::vector<KernelGraph::Kernel> kernels; // by call site
  std::optional<std::map<std::string, int64_t>> flops;
  std::vector<int64_t> open;
  std::vector<Event> events;
  int64_t runStart = 0;
  bool recording = false;
};

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_PROFILE_H
