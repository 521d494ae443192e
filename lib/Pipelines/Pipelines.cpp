//===- Pipelines.cpp - tcc's pass pipelines and registration --------------===//
//
// The front half that every target shares (onnx -> linalg on tensors ->
// bufferized memrefs in one workspace), the driver of the stages, and the
// registration of dialects and passes. Each target's back half is in its
// own file (CPU.cpp).
//
//===----------------------------------------------------------------------===//
#include "tcc/Pipelines.h"

#include "dialects/ONNX/ONNXOps.h"
#include "dialects/ONNX/Transforms/Passes.h"
#include "tcc/InitAll.h"
#include "tcc/Passes.h"
#include "tcc/Target/CPU/Passes.h"
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

std::optional<tcc::Stage> tcc::parseStage(StringRef name) {
  return llvm::StringSwitch<std::optional<Stage>>(name)
      .Case("onnx", Stage::Onnx)
      .Case("linalg", Stage::Linalg)
      .Case("bufferized", Stage::Bufferized)
      .Case("llvm", Stage::LLVM)
      .Default(std::nullopt);
}

StringRef tcc::stageName(Stage stage) {
  switch (stage) {
  case Stage::Onnx:
    return "onnx";
  case Stage::Linalg:
    return "linalg";
  case Stage::Bufferized:
    return "bufferized";
  case Stage::LLVM:
    return "llvm";
  }
  return "";
}

void tcc::buildONNXToLinalgPipeline(OpPassManager &pm,
                                    const PipelineOptions &options) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(tcc::onnx::createONNXShapeInference());
  // Before decomposing: a composite op (Attention) rounds its results to
  // half, not each step inside it.
  fpm.addPass(tcc::onnx::createONNXWidenHalf());
  tcc::onnx::ONNXDecomposeOptions decompose;
  // QDQ convolutions run on 8-bit dot products where the CPU has them, on
  // channels-last tensors.
  decompose.int8Convolutions = options.int8Dot && options.channelsLast;
  fpm.addPass(tcc::onnx::createONNXDecompose(decompose));
  fpm.addPass(createCanonicalizerPass());
  if (options.channelsLast)
    fpm.addPass(tcc::onnx::createONNXChannelsLast());
  tcc::ConvertONNXToLinalgOptions convert;
  convert.winograd = options.winograd;
  convert.winogradAnyWidth = options.winogradAnyWidth;
  convert.vectorBits = options.vectorBits;
  fpm.addPass(tcc::createConvertONNXToLinalg(convert));
  fpm.addPass(tcc::createBoundDynamicResults());
  fpm.addPass(tcc::createFuseElementwise());
  fpm.addPass(createCanonicalizerPass());
  if (options.cse)
    fpm.addPass(createCSEPass());
}

void tcc::buildBufferizePipeline(OpPassManager &pm,
                                 const PipelineOptions &options) {
  // Before bufferization, on tensors; after the linalg stage, whose IR the
  // run-time batch analysis compares op by op.
  tcc::FuseAttentionOptions attention;
  attention.blockBytes = options.l2CacheBytes / 4;
  attention.minBytes = options.l2CacheBytes / 2;
  pm.nest<func::FuncOp>().addPass(tcc::createFuseAttention(attention));
  // A result the chain reads twice (the scores, by the max and the exp) is
  // fused once for each read: CSE makes them one.
  pm.nest<func::FuncOp>().addPass(createCSEPass());
  pm.nest<func::FuncOp>().addPass(createCanonicalizerPass());
  pm.nest<func::FuncOp>().addPass(tcc::createCloneInits());
  pm.nest<func::FuncOp>().addPass(tcc::createPadInPlace());
  pm.nest<func::FuncOp>().addPass(tcc::createWriteIntoDeadInputs());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.nest<func::FuncOp>().addPass(tcc::createCutRunTimeLoops());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // A slice updated in place is copied onto itself through two equal
  // subviews: CSE makes them one, and the canonicalizer drops the copy.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tcc::createPlanWorkspace());
  pm.addPass(tcc::createFlattenGlobals());
}

namespace {
/// Calls PipelineOptions::onKernels after tcc-outline-kernels and after
/// tcc-dedup-kernels.
struct KernelsHook : PassInstrumentation {
  explicit KernelsHook(std::function<void(ModuleOp, bool)> fn)
      : fn(std::move(fn)) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    StringRef name = pass->getArgument();
    auto module = dyn_cast<ModuleOp>(op);
    if (module && (name == "tcc-outline-kernels" || name == "tcc-dedup-kernels"))
      fn(module, name == "tcc-dedup-kernels");
  }
  std::function<void(ModuleOp, bool)> fn;
};
} // namespace

void tcc::loadLinalgStageDialects(MLIRContext &context,
                                  const PipelineOptions &options) {
  PassManager pm(&context);
  buildONNXToLinalgPipeline(pm, options);
  DialectRegistry registry;
  pm.getDependentDialects(registry);
  context.appendDialectRegistry(registry);
  for (StringRef name : registry.getDialectNames())
    context.getOrLoadDialect(name);
}

LogicalResult tcc::runPipeline(ModuleOp module, const PipelineOptions &options,
                               Stage stopAfter) {
  // Each stage runs in a pass manager of its own, named to
  // PipelineOptions::onStage as it starts.
  auto run = [&](StringRef stage,
                 function_ref<void(OpPassManager &)> build) -> LogicalResult {
    if (options.onStage)
      options.onStage(stage);
    PassManager pm(module.getContext());
    if (options.printIRAfterAll) {
      module.getContext()->disableMultithreading();
      pm.enableIRPrinting([](Pass *, Operation *) { return false; },
                          [](Pass *, Operation *) { return true; },
                          /*printModuleScope=*/true,
                          /*printAfterOnlyOnChange=*/true);
    }
    if (options.timePasses)
      pm.enableTiming();
    if (options.onKernels)
      pm.addInstrumentation(std::make_unique<KernelsHook>(options.onKernels));
    build(pm);
    return pm.run(module);
  };
  if (stopAfter == Stage::Onnx)
    return run("shape inference", [](OpPassManager &pm) {
      pm.nest<func::FuncOp>().addPass(tcc::onnx::createONNXShapeInference());
      pm.nest<func::FuncOp>().addPass(createCanonicalizerPass());
    });
  if (failed(run("onnx to linalg", [&](OpPassManager &pm) {
        if (!options.fromLinalg)
          buildONNXToLinalgPipeline(pm, options);
        else
          pm.addPass(createCSEPass());
      })))
    return failure();
  if (stopAfter < Stage::Bufferized)
    return success();
  if (failed(run("bufferize", [&](OpPassManager &pm) {
        buildBufferizePipeline(pm, options);
      })))
    return failure();
  if (stopAfter < Stage::LLVM)
    return success();
  if (options.cuda && failed(run("GPU kernels", [&](OpPassManager &pm) {
        buildCUDAKernelsPipeline(pm, options);
      })))
    return failure();
  if (!options.cuda || options.gpuEmulate)
    return run("lower to LLVM", [&](OpPassManager &pm) {
      buildCPULowerToLLVMPipeline(pm, options);
    });
  if (failed(run("GPU binary", [&](OpPassManager &pm) {
        buildCUDABinaryPipeline(pm, options);
      })))
    return failure();
  // The kernels' binary is checked before the host side takes it in.
  if (options.cudaPath.empty() && failed(checkKernelsLinked(module)))
    return failure();
  return run("GPU host",
             [&](OpPassManager &pm) { buildCUDAHostPipeline(pm, options); });
}

void tcc::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tcc::onnx::ONNXDialect, affine::AffineDialect,
                  arith::ArithDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, func::FuncDialect,
                  linalg::LinalgDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect,
                  gpu::GPUDialect, NVVM::NVVMDialect, index::IndexDialect,
                  ub::UBDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // The CUDA target: the NVVM target's serialization, and the conversions
  // that convert-gpu-to-nvvm gathers from each dialect of a kernel.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
}

void tcc::registerAllPasses() {
  tcc::onnx::registerONNXPasses();
  tcc::registerTCCPasses();
  tcc::registerTCCCPUPasses();
  tcc::registerTCCCUDAPasses();
  // The upstream passes the pipeline is made of, for tcc-opt and lit.
  registerTransformsPasses();
  registerLinalgPasses();
  bufferization::registerBufferizationPasses();
  registerConversionPasses();
  memref::registerMemRefPasses();
  registerGPUPasses();
  registerSCFPasses();
  PassPipelineRegistration<>(
      "tcc-onnx-to-linalg", "tcc's onnx -> linalg-on-tensors stage",
      [](OpPassManager &pm) { buildONNXToLinalgPipeline(pm); });
  PassPipelineRegistration<>(
      "tcc-bufferize", "tcc's bufferization and workspace planning stage",
      [](OpPassManager &pm) { buildBufferizePipeline(pm); });
  PassPipelineRegistration<>(
      "tcc-lower-to-llvm",
      "tcc's CPU lowering to the LLVM dialect (name: model)",
      [](OpPassManager &pm) {
        buildCPULowerToLLVMPipeline(pm, PipelineOptions());
      });
  PassPipelineRegistration<>(
      "tcc-cuda-kernels",
      "tcc's CUDA kernels: bufferized -> gpu.modules in NVVM (sm_90)",
      [](OpPassManager &pm) { buildCUDAKernelsPipeline(pm, PipelineOptions()); });
}
