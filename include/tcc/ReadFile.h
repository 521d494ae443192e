//===- ReadFile.h - reading files a model names, safely ---------*- C++ -*-===//
#ifndef TCC_READFILE_H
#define TCC_READFILE_H

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace tcc {

/// The contents of the regular file at `path`, or null with `error` set
/// ("No such file or directory", "not a regular file", ...). A FIFO, a
/// device or a folder is refused without blocking on it: the file is
/// opened non-blocking and checked before it is read.
std::unique_ptr<llvm::MemoryBuffer> readRegularFile(const std::string &path,
                                                    std::string &error);

/// Whether `a` and `b` name the same existing file (the same inode: hard
/// and symbolic links included).
bool sameFile(const std::string &a, const std::string &b);

} // namespace tcc

#endif // TCC_READFILE_H
