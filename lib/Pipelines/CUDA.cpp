//===- CUDA.cpp - tcc's NVIDIA GPU back half --------------------------------===//
//
// Bufferized memrefs -> kernels for NVIDIA GPUs, from upstream MLIR's
// passes: each linalg op becomes a parallel loop nest, flattened to one
// loop, tiled into blocks of threads and mapped onto the grid (gpu.launch),
// outlined into a gpu.module and lowered to NVVM for the chosen
// architecture. gpu-module-to-binary
// then serializes each gpu.module (fatbin: SASS through ptxas, and PTX).
//
// The host side calls tcc's runtime, which loads the binary through the
// CUDA driver and copies the buffers (tcc-gpu-lower-launches). With
// `gpuEmulate`, the mapped launches run as loops in a CPU object instead.
//
// Matmuls and convolutions (two inputs folded into the output over
// reduction loops) are kernels on shared-memory tiles of their own
// (tcc-gpu-tile-contractions). Not yet: tensor cores (issue 45).
//
//===----------------------------------------------------------------------===//
#include "tcc/Pipelines.h"

#include "tcc/Passes.h"
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// Threads per block of every kernel.
static constexpr int64_t kThreadsPerBlock = 256;

void tcc::buildCUDAKernelsPipeline(OpPassManager &pm,
                                   const PipelineOptions &options) {
  if (!options.gpuEmulate) {
    // A kernel reads no host global: every constant goes into one array,
    // uploaded once per context.
    tcc::ExternalizeWeightsOptions weights;
    weights.weightsFile = options.weightsFile;
    weights.allConstants = true;
    weights.embed = options.weightsFile.empty();
    pm.addPass(tcc::createExternalizeWeights(weights));
  }
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(tcc::createGPUPrepareKernels());
  // Matmuls and convolutions on shared-memory tiles, each its own launch;
  // the other linalg ops one thread per output element.
  fpm.addPass(tcc::createGPUTileContractions());
  fpm.addPass(createConvertLinalgToParallelLoopsPass());
  // Each nest one loop, tiled into blocks of 256 threads: the innermost
  // dim on neighbouring threads (a warp's loads coalesce), every thread of
  // a block busy but in the last; the rest is the grid.
  fpm.addPass(tcc::createGPUFlattenLoops());
  fpm.addPass(createParallelLoopTilingPass({kThreadsPerBlock},
                                           /*noMinMaxBounds=*/true));
  // Thread loops of the tile's full size, each thread checking that it is
  // in bounds; SCCP folds the sizes to the constants that
  // convert-parallel-loops-to-gpu needs. Not the canonicalizer: it would
  // merge a block loop of one step into its thread loop, and the whole
  // nest would go on blocks of one thread.
  fpm.addPass(createSCCPPass());
  GpuMapParallelLoopsPassOptions mapping;
  mapping.mappingPolicyStr = "innermost-first";
  fpm.addPass(createGpuMapParallelLoopsPass(mapping));
  fpm.addPass(createConvertParallelLoopToGpuPass());
  fpm.addPass(tcc::createGPUSinkLoads());
  pm.addPass(createCanonicalizerPass());
  if (options.gpuEmulate) {
    pm.nest<func::FuncOp>().addPass(tcc::createGPUEmulateLaunches());
    return;
  }
  pm.addPass(createGpuKernelOutliningPass());
  tcc::GPUMergeKernelsOptions merge;
  merge.modelName = options.modelName;
  pm.addPass(tcc::createGPUMergeKernels(merge));
  GpuNVVMAttachTargetOptions target;
  target.chip = options.gpuArch;
  // The lowest PTX ISA that sm_90 accepts is 7.8; 8.0 is what CUDA 12.0
  // and later read (Debian's default, +ptx60, is too old for sm_90).
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  gpm.addPass(memref::createExpandStridedMetadataPass());
  gpm.addPass(createLowerAffinePass());
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(createConvertGpuOpsToNVVMOps());
  gpm.addPass(createCanonicalizerPass());
  gpm.addPass(createCSEPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());
}

void tcc::buildCUDABinaryPipeline(OpPassManager &pm,
                                  const PipelineOptions &options) {
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.cudaPath;
  binary.compilationTarget = options.cudaPath.empty() ? "isa" : "fatbin";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void tcc::buildCUDAHostPipeline(OpPassManager &pm,
                                const PipelineOptions &options) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertControlFlowToLLVMPass());
  // The launches' operands as the kernels take them (memref descriptors
  // expanded: allocated and aligned pointers, offset, sizes, strides).
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  tcc::GPULowerLaunchesOptions launches;
  launches.modelName = options.modelName;
  pm.addPass(tcc::createGPULowerLaunches(launches));
  tcc::EmitEntryPointsOptions entry;
  entry.modelName = options.modelName;
  pm.addPass(tcc::createEmitEntryPoints(entry));
  pm.addPass(createCanonicalizerPass());
}

LogicalResult tcc::checkKernelsLinked(ModuleOp module) {
  WalkResult walk = module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      StringRef bytes = cast<gpu::ObjectAttr>(attr).getObject().getValue();
      // The first call into libdevice in a kernel's body (the declarations
      // come before the first .entry), and the kernel it is in.
      size_t first = bytes.find(".entry ");
      size_t at = first == StringRef::npos ? first : bytes.find("__nv_", first);
      if (at == StringRef::npos)
        continue;
      StringRef function = bytes.substr(at).take_while(
          [](char c) { return llvm::isAlnum(c) || c == '_'; });
      size_t entry = bytes.take_front(at).rfind(".entry ");
      StringRef kernel = bytes.substr(entry + 7).take_while(
          [](char c) { return llvm::isAlnum(c) || c == '_'; });
      module.emitError() << "kernel '" << kernel << "' calls " << function
                         << " from CUDA's libdevice, which only a CUDA "
                            "toolkit has: give --cuda-path (or CUDA_HOME)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
