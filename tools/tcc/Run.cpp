//===- Run.cpp - tcc run: a model compiled in memory, run once ------------===//
//
//   tcc run MODEL.onnx --input NAME=FILE ... --output-dir DIR [--threads N]
//
// Runs the model once on .npy (or TensorProto .pb) inputs and writes each
// output to DIR/OUTPUT.npy: all of them or none, none over an input.
//
//===----------------------------------------------------------------------===//
#include "Files.h"
#include "Jit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <CLI/CLI.hpp>

#include <set>

using namespace mlir;
using namespace tcc::driver;

namespace {

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
    inputs.push_back(
        {path.str(), ("the --input file of '" + name + "'").str()});
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

/// tcc run: one run, the outputs to files.
int runRun(RunOptions &r) {
  return withJitModel(r, /*fillMissing=*/false,
                      [&](JitModel &m, tcc_context *threads) {
                        return writeOutputs(r, m, threads);
                      });
}

} // namespace

Command tcc::driver::addRunCommand(CLI::App &app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App *cmd =
      app.add_subcommand("run", "Compile a model and run it once on inputs");
  addModelOptions(cmd, o->compile);
  addTargetOptions(cmd, o->compile);
  cmd->add_option("--input", o->inputs,
                  "An input: NAME=FILE (.npy, or an ONNX TensorProto .pb)");
  cmd->add_option("--output-dir", o->outputDir,
                  "Where the outputs go: OUTPUT_NAME.npy (OUTPUT_NAME.pb for "
                  "bfloat16). In a name that is not a file name as it "
                  "stands, '/', '\\' and NUL become '_' (\"\", \".\" and "
                  "\"..\": output_N; cut to 200 bytes); names that would "
                  "then be one file get _2, _3, ... (outputs whose names "
                  "need no change keep them); each renamed output is "
                  "listed on stderr")
      ->required();
  cmd->add_option("--threads", o->threads,
                  "Threads to run on (default 0: one per CPU); the "
                  "results do not depend on it")
      ->check(CLI::NonNegativeNumber);
  return {cmd, [o] { return runRun(*o); }};
}
