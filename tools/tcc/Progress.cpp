//===- Progress.cpp - tcc compile -v, and the progress line ---------------===//
//
// Stage times on stderr (-v) and, on a terminal, a line that says what a
// long compile is doing (Progress.h). A thread redraws the line; every
// other write to stderr while it is shown goes through printAboveProgress.
//
//===----------------------------------------------------------------------===//
#include "Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace tcc::driver;

/// The Progress alive now (one compile per process at a time).
static Progress *active = nullptr;
static std::mutex activeMutex;

/// Seconds before the line shows: TCC_PROGRESS_DELAY (a number >= 0),
/// else 2.
static double progressDelay() {
  const char *env = std::getenv("TCC_PROGRESS_DELAY");
  if (!env || !*env)
    return 2.0;
  char *end;
  double seconds = std::strtod(env, &end);
  return *end == '\0' && seconds >= 0 ? seconds : 2.0;
}

Progress::Progress(llvm::StringRef model, bool verbose)
    : model(model.str()), verbose(verbose),
      terminal(::isatty(STDERR_FILENO) == 1), start(Clock::now()),
      stageStart(start), delay(progressDelay()) {
  std::lock_guard<std::mutex> lock(activeMutex);
  active = this;
  if (terminal)
    ticker = std::thread([this] { tick(); });
}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    endStage();
    erase();
    stopping = true;
    if (verbose)
      llvm::errs() << llvm::formatv(
          "tcc: total: {0:F3} s\n",
          std::chrono::duration<double>(Clock::now() - start).count());
  }
  wake.notify_all();
  if (ticker.joinable())
    ticker.join();
  std::lock_guard<std::mutex> lock(activeMutex);
  active = nullptr;
}

void Progress::endStage() {
  if (current.empty())
    return;
  if (verbose) {
    erase();
    std::chrono::duration<double> seconds = Clock::now() - stageStart;
    llvm::errs() << "tcc: " << current
                 << llvm::formatv(": {0:F3} s", seconds.count());
    if (total)
      llvm::errs() << " (" << done << " functions)";
    llvm::errs() << "\n";
  }
  current.clear();
  done = total = 0;
}

void Progress::stage(llvm::StringRef name) {
  std::lock_guard<std::mutex> lock(mutex);
  endStage();
  current = name.str();
  stageStart = Clock::now();
}

void Progress::functions(unsigned n, unsigned of) {
  std::lock_guard<std::mutex> lock(mutex);
  done = n;
  total = of;
}

void Progress::erase() {
  if (!shown)
    return;
  llvm::errs() << "\r\x1b[K";
  shown = false;
}

void Progress::tick() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    wake.wait_for(lock, std::chrono::milliseconds(100));
    std::chrono::duration<double> elapsed = Clock::now() - start;
    if (stopping || elapsed < delay || current.empty())
      continue;
    std::string line = "tcc: " + model + ": " + current;
    if (total)
      line += " " + std::to_string(done) + "/" + std::to_string(total) +
              " functions";
    line += llvm::formatv(" ({0:F1} s)", elapsed.count()).str();
    // One line, never wrapped: cut to the terminal's width.
    winsize size{};
    size_t columns =
        ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1
            ? size.ws_col - 1
            : 79;
    if (line.size() > columns)
      line.resize(columns);
    llvm::errs() << "\r\x1b[K" << line;
    shown = true;
  }
}

void tcc::driver::printAboveProgress(llvm::function_ref<void()> print) {
  std::lock_guard<std::mutex> activeLock(activeMutex);
  if (!active) {
    print();
    return;
  }
  std::lock_guard<std::mutex> lock(active->mutex);
  active->erase();
  print();
}
