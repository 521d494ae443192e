//===- Sizes.h - checked element counts and byte sizes of tensors -*- C++ -*-===//
//
// Every size that comes from a model or an input file (dims of initializers,
// inputs, inferred results, .npy and .pb tensors) goes through these before
// anything multiplies it: a negative dim, a product that overflows, or a
// tensor over kMaxTensorBytes is refused rather than wrapped. With each
// tensor under 2^48 bytes, sums of up to 2^14 of them (a workspace plan)
// and the constant factors the pipeline applies stay far from int64's range.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_SIZES_H
#define TCC_SIZES_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace tcc {

/// The largest tensor tcc compiles or reads, in bytes (256 TiB).
inline constexpr int64_t kMaxTensorBytes = int64_t(1) << 48;
/// The most dims a tensor read from a file may have (the onnx dialect's
/// kMaxRank).
inline constexpr size_t kMaxTensorRank = 64;
/// How kMaxTensorBytes reads in messages.
inline constexpr const char *kMaxTensorBytesText = "2^48 bytes";

/// The number of elements of `dims`, or nullopt when a dim is negative or
/// the tensor holds more than kMaxTensorBytes at `elemBytes` (>= 1) each.
/// An empty tensor's other dims count too: their product must fit as well,
/// so that code which multiplies dims in any order never overflows.
inline std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> dims,
                                                 int64_t elemBytes = 1) {
  if (elemBytes < 1)
    elemBytes = 1;
  int64_t limit = kMaxTensorBytes / elemBytes;
  int64_t nonzero = 1;
  bool empty = false;
  for (int64_t d : dims) {
    if (d < 0)
      return std::nullopt;
    if (d == 0) {
      empty = true;
      continue;
    }
    if (d > limit / nonzero)
      return std::nullopt;
    nonzero *= d;
  }
  return empty ? 0 : nonzero;
}

/// The bytes of a tensor of `dims` with `elemBytes` per element, or nullopt
/// (see checkedNumElements).
inline std::optional<int64_t> checkedNumBytes(llvm::ArrayRef<int64_t> dims,
                                              int64_t elemBytes) {
  std::optional<int64_t> n = checkedNumElements(dims, elemBytes);
  if (!n)
    return std::nullopt;
  return *n * (elemBytes < 1 ? 1 : elemBytes);
}

/// The first negative dim of `dims`, if any.
inline std::optional<int64_t> negativeDim(llvm::ArrayRef<int64_t> dims) {
  for (int64_t d : dims)
    if (d < 0)
      return d;
  return std::nullopt;
}

} // namespace tcc

#endif // TCC_SIZES_H
