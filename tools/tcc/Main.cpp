//===- Main.cpp - the tcc command line ------------------------------------===//
//
//   tcc compile MODEL.onnx -o OUT.o [--name N] [--emit obj|asm|llvm|mlir] ...
//   tcc run MODEL.onnx --input NAME=FILE ... --output-dir DIR
//   tcc bench MODEL.onnx [--threads N] [--iterations K] [--profile] [--json]
//   tcc inspect MODEL.onnx [--dim NAME=V] [--shape INPUT=DxD] [--json]
//   tcc --version
//
// Each subcommand lives in the file of its name (Compile.cpp, Run.cpp,
// Bench.cpp, Inspect.cpp) over the shared core of Driver.h.
//
// Exit status: 0 success, 1 the model or an input is wrong or unsupported,
// 2 usage error. Outputs are written to temporary files and renamed, so a
// failure never leaves a partial file behind.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "llvm/Config/llvm-config.h"

#include <CLI/CLI.hpp>

using namespace tcc::driver;

int main(int argc, char **argv) {
  CLI::App app{"tcc: an ahead-of-time compiler from ONNX models to object "
               "files"};
  app.set_version_flag("--version",
                       "tcc " TCC_VERSION " (LLVM " LLVM_VERSION_STRING ")");
  app.require_subcommand(1);
  Command commands[] = {addCompileCommand(app), addRunCommand(app),
                        addBenchCommand(app), addInspectCommand(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) { // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return kExitUsageError;
  }
  for (Command &command : commands)
    if (command.cli->parsed())
      return command.run();
  return kExitUsageError; // require_subcommand(1) says which are known
}
