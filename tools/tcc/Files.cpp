//===- Files.cpp - how tcc writes files -----------------------------------===//
//
// Temporary files, renames, and the check that no output overwrites an
// input (Files.h).
//
//===----------------------------------------------------------------------===//
#include "Files.h"

#include "Driver.h"

#include "tcc/ReadFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#include <unistd.h>

using namespace mlir;

namespace tcc::driver {

LogicalResult renameInto(const llvm::Twine &tmp, const llvm::Twine &path) {
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
    return failure();
  }
  return success();
}

std::string createTemporary(const std::string &path, int *fd) {
  SmallString<256> tmp;
  int created;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + "-%%%%%%.tmp", created, tmp)) {
    error("cannot write beside '" + path + "': " + ec.message());
    return "";
  }
  if (fd)
    *fd = created;
  else
    ::close(created);
  return tmp.str().str();
}

std::string writeTemporary(
    const std::string &path,
    llvm::function_ref<LogicalResult(llvm::raw_pwrite_stream &)> write) {
  int fd;
  std::string tmp = createTemporary(path, &fd);
  if (tmp.empty())
    return "";
  // Removes the temporary file unless kept, on a signal too.
  llvm::ToolOutputFile out(tmp, fd);
  if (failed(write(out.os())))
    return "";
  out.os().flush();
  if (out.os().has_error()) {
    error("cannot write '" + tmp + "': " + out.os().error().message());
    out.os().clear_error();
    return "";
  }
  out.keep();
  return tmp;
}

LogicalResult writeAtomically(
    const std::string &path,
    llvm::function_ref<LogicalResult(llvm::raw_pwrite_stream &)> write) {
  std::string tmp = writeTemporary(path, write);
  return success(!tmp.empty() && succeeded(renameInto(tmp, path)));
}

LogicalResult runInto(ArrayRef<StringRef> args, const std::string &tmp,
                      const std::string &path, StringRef what) {
  std::string why;
  int rc =
      llvm::sys::ExecuteAndWait(args[0], args, std::nullopt, {}, 0, 0, &why);
  if (rc != 0) {
    llvm::sys::fs::remove(tmp);
    error(what + " '" + path + "' failed: " + args[0] +
          (why.empty() ? " exited with " + std::to_string(rc) : ": " + why));
    return failure();
  }
  return renameInto(tmp, path);
}

/// `path` absolute and without `.` or `..`, to compare paths that do not
/// exist yet.
static std::string normalPath(StringRef path) {
  SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return p.str().str();
}

bool samePath(const std::string &a, const std::string &b) {
  return normalPath(a) == normalPath(b) || tcc::sameFile(a, b);
}

LogicalResult checkOutputs(ArrayRef<NamedPath> outputs,
                           ArrayRef<NamedPath> inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (const NamedPath &in : inputs) {
      if (!samePath(outputs[i].path, in.path))
        continue;
      llvm::errs() << "tcc: usage error: " << escapeControl(outputs[i].what)
                   << " is " << escapeControl(in.what) << "\n";
      return failure();
    }
    for (size_t j = 0; j < i; ++j) {
      if (!samePath(outputs[i].path, outputs[j].path))
        continue;
      llvm::errs() << "tcc: usage error: " << escapeControl(outputs[j].what)
                   << " and " << escapeControl(outputs[i].what)
                   << " are the same file\n";
      return failure();
    }
  }
  return success();
}

} // namespace tcc::driver
