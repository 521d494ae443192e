//===- fuzz_compile.cpp - libFuzzer: small ONNX models to the LLVM dialect ===//
//
// A model (mutated structurally, see ModelMutator.h) is imported, its C
// signature read and its header written, and the whole pipeline run to the
// LLVM dialect, as `tcc compile` does before LLVM's code generator. Models
// with a tensor of more than 2^16 elements are skipped: their compile is
// slow, not more interesting.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "ModelMutator.h"

#include "tcc/Header.h"
#include "tcc/Import.h"
#include "tcc/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Whether every tensor in `module` is static and small.
static bool small(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    for (Type t : op->getResultTypes()) {
      auto ranked = dyn_cast<RankedTensorType>(t);
      if (ranked && (!ranked.hasStaticShape() ||
                     ranked.getNumElements() > (int64_t(1) << 16)))
        ok = false;
    }
  });
  return ok;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcc::fuzz::FuzzContext fuzz;
  OwningOpRef<ModuleOp> module = tcc::importONNXBytes(
      fuzz.ctx, llvm::StringRef((const char *)data, size),
      "/nonexistent/fuzz.onnx", tcc::ImportOptions{});
  if (!module || !small(*module))
    return 0;
  auto main = module->lookupSymbol<func::FuncOp>("main");
  FailureOr<tcc::ModelSignature> signature = tcc::getSignature(main);
  if (failed(signature))
    return 0;
  tcc::PipelineOptions options;
  options.modelName = "fuzz";
  if (failed(tcc::runPipeline(*module, options, tcc::Stage::LLVM)))
    return 0;
  auto lowered = module->lookupSymbol<LLVM::LLVMFuncOp>("fuzz_main");
  if (!lowered || failed(tcc::setRunTimeBounds(*signature, lowered)))
    return 0;
  auto ws = lowered->getAttrOfType<IntegerAttr>("tcc.workspace_size");
  llvm::raw_null_ostream header;
  tcc::writeHeader(*signature, "fuzz", ws ? ws.getInt() : 0, "fuzz.onnx",
                   nullptr, header);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return tcc::fuzz::mutateModel(data, size, maxSize, seed);
}
