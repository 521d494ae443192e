//===- ReadFile.cpp - reading files a model names, safely -----------------===//
#include "tcc/ReadFile.h"

#include "llvm/Support/FileSystem.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

std::unique_ptr<llvm::MemoryBuffer>
tcc::readRegularFile(const std::string &path, std::string &error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    error = std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? "a folder, not a regular file"
                                : "not a regular file";
    ::close(fd);
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      fd, path, st.st_size, /*RequiresNullTerminator=*/false);
  ::close(fd);
  if (!buffer) {
    error = buffer.getError().message();
    return nullptr;
  }
  return std::move(*buffer);
}

bool tcc::sameFile(const std::string &a, const std::string &b) {
  bool same = false;
  return !llvm::sys::fs::equivalent(a, b, same) && same;
}
