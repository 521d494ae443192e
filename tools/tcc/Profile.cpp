//===- Profile.cpp - tcc bench --profile: per-kernel times ----------------===//
//
// The model, compiled with tcc-profile-kernels, calls tcc_profile_enter(id)
// and tcc_profile_exit(id) around each kernel call; the Profiler records
// both with steady_clock while bench's timed runs go on, then prints a
// table by call site (kernel, the ONNX nodes it computes, calls, total and
// mean time, share of the runs' time, GFLOP/s) and writes Chrome's trace
// format. A node's FLOPs count for the call site among those computing it
// with the most reduction work (its contraction, not its padding).
//
//===----------------------------------------------------------------------===//
#include "Profile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <chrono>

using namespace tcc::driver;

namespace {

Profiler *active = nullptr;

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

void tcc::driver::profileEnter(int32_t id) {
  if (active)
    active->enter(id);
}

void tcc::driver::profileExit(int32_t id) {
  if (active)
    active->exit(id);
}

Profiler::Profiler(const KernelGraph &graph,
                   std::optional<std::map<std::string, int64_t>> flops)
    : kernels(graph.kernels), flops(std::move(flops)) {
  open.assign(kernels.size(), 0);
  active = this;
}

Profiler::~Profiler() {
  if (active == this)
    active = nullptr;
}

void Profiler::beginRun() {
  recording = true;
  runStart = nowNs();
}

void Profiler::endRun() {
  events.push_back({-1, runStart, nowNs()});
  recording = false;
}

void Profiler::enter(int32_t id) {
  if (recording && id >= 0 && (size_t)id < open.size())
    open[id] = nowNs();
}

void Profiler::exit(int32_t id) {
  if (recording && id >= 0 && (size_t)id < open.size())
    events.push_back({id, open[id], nowNs()});
}

void Profiler::printTable(llvm::raw_ostream &os) const {
  size_t n = kernels.size();
  std::vector<int64_t> total(n, 0), calls(n, 0);
  int64_t runs = 0, runTotal = 0, kernelTotal = 0;
  for (const Event &e : events) {
    if (e.id < 0) {
      ++runs;
      runTotal += e.end - e.start;
      continue;
    }
    total[e.id] += e.end - e.start;
    ++calls[e.id];
    kernelTotal += e.end - e.start;
  }
  // On a tie in reduction work, a node's FLOPs go to the site that took
  // longest.
  std::vector<int64_t> siteFlops =
      flops ? kernelFlops(kernels, *flops, total) : std::vector<int64_t>(n, 0);
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](size_t a, size_t b) { return total[a] > total[b]; });
  double perRun = runs ? runTotal / 1e6 / runs : 0;
  os << llvm::formatv("profile: {0} runs; kernels {1:F3} ms of {2:F3} ms per "
                      "run ({3:F1}%), {4} kernel calls per run\n",
                      runs, runs ? kernelTotal / 1e6 / runs : 0.0, perRun,
                      runTotal ? 100.0 * kernelTotal / runTotal : 0.0, n);
  os << llvm::formatv("{0,-5} {1,-48} {2,-36} {3,6} {4,10} {5,10} {6,6} "
                      "{7,8}\n",
                      "site", "kernel", "ONNX nodes", "calls", "total ms",
                      "mean us", "share", "GFLOP/s");
  for (size_t i : order) {
    std::string what = nodesSummary(kernels[i], flops ? &*flops : nullptr);
    if (what.size() > 36)
      what = what.substr(0, 33) + "...";
    const std::string &kernel = kernels[i].name;
    double mean = calls[i] ? total[i] / 1e3 / calls[i] : 0;
    std::string rate = "-";
    // FLOPs per run over the time per run: FLOP per ns is GFLOP/s.
    if (siteFlops[i] && total[i])
      rate = llvm::formatv("{0:F1}", (double)siteFlops[i] * runs / total[i]);
    os << llvm::formatv("k{0,-4} {1,-48} {2,-36} {3,6} {4,10:F3} {5,10:F1} "
                        "{6,5:F1}% {7,8}\n",
                        i, kernel, what, calls[i], total[i] / 1e6, mean,
                        runTotal ? 100.0 * total[i] / runTotal : 0.0, rate);
  }
}

void Profiler::writeTrace(llvm::raw_ostream &os, llvm::StringRef model) const {
  int64_t origin = events.empty() ? 0 : events.front().start;
  for (const Event &e : events)
    origin = std::min(origin, e.start);
  llvm::json::Array trace;
  int run = 0;
  for (const Event &e : events) {
    llvm::json::Object event{{"ph", "X"},
                             {"pid", 1},
                             {"tid", 1},
                             {"ts", (e.start - origin) / 1e3},
                             {"dur", (e.end - e.start) / 1e3}};
    if (e.id < 0) {
      event["name"] = "run " + std::to_string(run++);
      event["cat"] = "run";
    } else {
      event["name"] = kernels[e.id].name;
      event["cat"] = "kernel";
      llvm::json::Array nodeList;
      for (const std::string &node : kernels[e.id].nodes)
        nodeList.push_back(node);
      event["args"] = llvm::json::Object{{"site", "k" + std::to_string(e.id)},
                                         {"nodes", std::move(nodeList)}};
    }
    trace.push_back(std::move(event));
  }
  llvm::json::Object root{{"traceEvents", std::move(trace)},
                          {"displayTimeUnit", "ms"},
                          {"otherData", llvm::json::Object{{"model", model}}}};
  os << llvm::json::Value(std::move(root)) << "\n";
}
