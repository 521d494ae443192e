//===- Progress.h - tcc compile -v, and the progress line -------*- C++ -*-===//
//
// Private to tools/tcc: how long each stage of a compile takes (Progress.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_PROGRESS_H
#define TCC_TOOLS_TCC_PROGRESS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tcc::driver {

/// Reports the stages of a compile on stderr. With `verbose` (-v), each
/// stage and its time as it ends, and the total. On a terminal, once the
/// compile has run two seconds (TCC_PROGRESS_DELAY seconds when set), one
/// line that names the stage (in code generation, the functions done of
/// how many), rewritten ten times a second and erased at the end; nothing
/// when stderr is not a terminal. One at a time, for the whole process.
class Progress {
public:
  Progress(llvm::StringRef model, bool verbose);
  /// Ends the last stage and, with -v, prints the total; erases the line.
  ~Progress();

  /// Ends the current stage and starts `name`.
  void stage(llvm::StringRef name);
  /// Code generation: `done` of `total` functions.
  void functions(unsigned done, unsigned total);

  /// The hooks PipelineOptions::onStage, TargetOptions::onStage and
  /// TargetOptions::onFunction take.
  std::function<void(llvm::StringRef)> stageHook() {
    return [this](llvm::StringRef name) { stage(name); };
  }
  std::function<void(unsigned, unsigned)> functionHook() {
    return [this](unsigned done, unsigned total) { functions(done, total); };
  }

private:
  using Clock = std::chrono::steady_clock;
  friend void printAboveProgress(llvm::function_ref<void()> print);
  void endStage(); // with `mutex` held
  void erase();    // with `mutex` held
  void tick();

  std::string model, current;
  bool verbose, terminal;
  Clock::time_point start, stageStart;
  std::chrono::duration<double> delay;
  unsigned done = 0, total = 0;
  bool shown = false, stopping = false;
  std::mutex mutex;
  std::condition_variable wake;
  std::thread ticker;
};

/// Runs `print`, which writes lines to stderr, with the progress line (if
/// one is shown) erased first; it comes back below them at the next tick.
void printAboveProgress(llvm::function_ref<void()> print);

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_PROGRESS_H
