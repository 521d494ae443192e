//===- fuzz_tensor.cpp - libFuzzer: the .npy and TensorProto readers ------===//
//
// Any bytes through both readers `tcc run --input` and `--bind` use. A
// tensor read must hold exactly as many bytes as its dims say.
//
//===----------------------------------------------------------------------===//
#include "../tcc/TensorIO.h"

#include "tcc/Header.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes((const char *)data, size);
  for (bool npy : {true, false}) {
    tcc::HostTensor tensor;
    std::string error;
    if (!tcc::readTensorBytes(bytes, npy, tensor, error))
      continue;
    // Dims multiplied in order, as code downstream does: the reader has
    // checked that no product of them overflows (UBSan would say).
    int64_t n = 1;
    for (int64_t d : tensor.dims) {
      if (d < 0)
        __builtin_trap();
      n *= d;
    }
    if ((int64_t)tensor.data.size() != n * tcc::dtypeSize(tensor.dtype))
      __builtin_trap();
  }
  return 0;
}
