//===- TensorIO.h - .npy and ONNX TensorProto (.pb) tensors -----*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_TENSORIO_H
#define TCC_TOOLS_TCC_TENSORIO_H

#include "tcc/Import.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {

/// Reads a .npy file (C order) or, for any other suffix, a serialized ONNX
/// TensorProto. On failure returns false with `error` set.
bool readTensorFile(const std::string &path, HostTensor &tensor,
                    std::string &error);

/// The same for the bytes of such a file: a .npy file when `npy`, else a
/// TensorProto.
bool readTensorBytes(llvm::StringRef bytes, bool npy, HostTensor &tensor,
                     std::string &error);

/// Writes `tensor` as a .npy file, atomically (temporary file + rename).
bool writeNpy(const std::string &path, const HostTensor &tensor,
              std::string &error);

/// Writes `tensor` as a serialized ONNX TensorProto named `name`, atomically.
bool writeTensorProto(const std::string &path, const std::string &name,
                      const HostTensor &tensor, std::string &error);

/// Writes output `name` to `stem`.npy or, for dtypes numpy cannot hold
/// (bfloat16), to `stem`.pb as a TensorProto. Returns the path written, or
/// "" with `error` set.
std::string writeOutputTensor(const std::string &stem, const std::string &name,
                              const HostTensor &tensor, std::string &error);

/// The extension writeOutputTensor gives a tensor of `dtype`: ".npy", or
/// ".pb" for dtypes numpy cannot hold.
std::string outputExtension(int dtype);

/// numpy's name of an ONNX dtype ("float32"), or "dtype N".
std::string dtypeString(int dtype);

} // namespace tcc

#endif // TCC_TOOLS_TCC_TENSORIO_H
