//===- CPU.cpp - tcc's CPU back half ----------------------------------------===//
//
// Bufferized memrefs -> the LLVM dialect for a CPU: kernels outlined,
// register-tiled and vectorized, split over the runtime's thread pool, and
// the C ABI entry points.
//
//===----------------------------------------------------------------------===//
#include "tcc/Pipelines.h"

#include "tcc/Passes.h"
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tcc::buildCPULowerToLLVMPipeline(OpPassManager &pm,
                                      const PipelineOptions &options) {
  tcc::OutlineKernelsOptions outline;
  outline.modelName = options.modelName;
  pm.addPass(tcc::createOutlineKernels(outline));
  tcc::VectorizeContractionsOptions vectorize;
  vectorize.vectorBits = options.vectorBits;
  vectorize.registers = options.vectorRegisters;
  vectorize.l2Bytes = options.l2CacheBytes;
  vectorize.bf16 = options.bf16;
  vectorize.int8Dot = options.int8Dot;
  vectorize.vnni = options.int8Vnni;
  pm.addPass(tcc::createVectorizeContractions(vectorize));
  pm.nest<func::FuncOp>().addPass(tcc::createSplitKernels());
  pm.addPass(tcc::createDedupKernels());
  if (options.profile)
    pm.addPass(tcc::createProfileKernels());
  pm.addPass(tcc::createParallelizeLoops());
  if (!options.weightsFile.empty()) {
    tcc::ExternalizeWeightsOptions weights;
    weights.weightsFile = options.weightsFile;
    pm.addPass(tcc::createExternalizeWeights(weights));
  }
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  tcc::VectorizePoolsOptions pools;
  pools.vectorBits = options.vectorBits;
  fpm.addPass(tcc::createVectorizePools(pools));
  fpm.addPass(tcc::createInterchangeReductions());
  fpm.addPass(tcc::createLowerReductions());
  fpm.addPass(tcc::createFlattenElementwise());
  fpm.addPass(tcc::createTileTransposes());
  fpm.addPass(tcc::createApproximateMath());
  fpm.addPass(createConvertLinalgToLoopsPass());
  fpm.addPass(createLowerAffinePass());
  fpm.addPass(createSCFToControlFlowPass());
  // The conversions that need nothing outside a function run on each one,
  // on the context's threads: the IR is largest here (unrolled tiles), and
  // these took 1 of ResNet-50's 2 s of lowering on one thread.
  fpm.addPass(memref::createExpandStridedMetadataPass());
  fpm.addPass(createLowerAffinePass());
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.x86Vector = options.bf16; // x86vector.avx512.dot
  fpm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  fpm.addPass(createConvertMathToLLVMPass());
  fpm.addPass(tcc::createConvertMemRefInFunctions());
  // Then what needs declarations in the module: malloc, free, memrefCopy,
  // and libm for what LLVM has no intrinsic for (erf, tanh, asin, ...).
  pm.addPass(tcc::createConvertModuleLeftovers());
  pm.nest<func::FuncOp>().addPass(createArithToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.nest<LLVM::LLVMFuncOp>().addPass(createReconcileUnrealizedCastsPass());
  tcc::EmitEntryPointsOptions entry;
  entry.modelName = options.modelName;
  pm.addPass(tcc::createEmitEntryPoints(entry));
  pm.nest<LLVM::LLVMFuncOp>().addPass(createCanonicalizerPass());
}
