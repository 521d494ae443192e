//===- Files.h - how tcc writes files ---------------------------*- C++ -*-===//
//
// Private to tools/tcc: every file tcc writes goes through a temporary file
// beside it and a rename, so a failure never leaves a partial file; and no
// output may overwrite an input or another output (Files.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_FILES_H
#define TCC_TOOLS_TCC_FILES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tcc::driver {

/// Renames `tmp` to `path`; on failure removes `tmp` and says why.
mlir::LogicalResult renameInto(const llvm::Twine &tmp, const llvm::Twine &path);

/// Creates an empty temporary file beside `path` under a name of its own
/// (never an existing file's, not even an input's called PATH.tmp); sets
/// `fd` (or closes it when `fd` is null) and returns its name, or "" after
/// saying why not.
std::string createTemporary(const std::string &path, int *fd = nullptr);

/// Writes a temporary file beside `path` with `write` and returns its name
/// (to rename into place with renameInto), or "" (no file left) on failure.
std::string writeTemporary(
    const std::string &path,
    llvm::function_ref<mlir::LogicalResult(llvm::raw_pwrite_stream &)> write);

/// Writes `path` with `write` through a temporary file.
mlir::LogicalResult writeAtomically(
    const std::string &path,
    llvm::function_ref<mlir::LogicalResult(llvm::raw_pwrite_stream &)> write);

/// Runs `args` (args[0]: the program's path), which writes the temporary
/// file `tmp`, and renames it to `path`; on failure removes `tmp` and says
/// "<what> '<path>' failed: <program> exited with N".
mlir::LogicalResult runInto(llvm::ArrayRef<llvm::StringRef> args,
                            const std::string &tmp, const std::string &path,
                            llvm::StringRef what);

/// Whether `a` and `b` are one file: the same path, or the same inode (a
/// hard or symbolic link).
bool samePath(const std::string &a, const std::string &b);

/// A file tcc writes or reads, for the check that no output overwrites an
/// input: its path and what it is ("the header 'm.h'").
struct NamedPath {
  std::string path, what;
};

/// Fails with a usage error when an output would overwrite one of
/// `inputs` or another output.
mlir::LogicalResult checkOutputs(llvm::ArrayRef<NamedPath> outputs,
                                 llvm::ArrayRef<NamedPath> inputs);

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_FILES_H
