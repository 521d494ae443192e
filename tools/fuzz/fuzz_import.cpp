//===- fuzz_import.cpp - libFuzzer: ONNX bytes to the onnx dialect --------===//
//
// Any bytes, mutated as an ONNX model where they parse as one (see
// ModelMutator.h), go through the importer; a module it returns must
// verify. Errors are an expected outcome; a crash, a sanitizer report, a
// hang or unbounded memory are findings.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "ModelMutator.h"

#include "tcc/Import.h"

#include "mlir/IR/Verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcc::fuzz::FuzzContext fuzz;
  // No folder to read external data from.
  mlir::OwningOpRef<mlir::ModuleOp> module = tcc::importONNXBytes(
      fuzz.ctx, llvm::StringRef((const char *)data, size),
      "/nonexistent/fuzz.onnx", tcc::ImportOptions{});
  if (module && mlir::failed(mlir::verify(*module)))
    __builtin_trap(); // the importer made IR that does not verify
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return tcc::fuzz::mutateModel(data, size, maxSize, seed);
}
