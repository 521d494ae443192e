//===- Pipelines.h - tcc's lowering pipeline, stage by stage ----*- C++ -*-===//
#ifndef TCC_PIPELINES_H
#define TCC_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <optional>
#include <string>

namespace tcc {

/// Stages of the pipeline, in order; `--stop-after` names one.
enum class Stage { Onnx, Linalg, Bufferized, LLVM };

std::optional<Stage> parseStage(llvm::StringRef name);
llvm::StringRef stageName(Stage stage);

struct PipelineOptions {
  std::string modelName = "model";
  bool printIRAfterAll = false;
  bool timePasses = false;
  /// The target's vector registers: width in bits and count.
  int64_t vectorBits = 512;
  int64_t vectorRegisters = 32;
  /// Bytes of the target's L2 cache, one core's (tcc-vectorize-contractions
  /// walks panels in K blocks where a matmul's rows do not fit it).
  int64_t l2CacheBytes = 512 * 1024;
  /// Matmuls and convolutions against weights as bf16 products with f32
  /// sums (tcc compile --precision bf16, on a target with AVX512-BF16).
  bool bf16 = false;
  /// u8 x s8 contractions (MatMulInteger, QDQ convolutions) on 8-bit dot
  /// products: VNNI's (int8Vnni) or pmaddwd's (x86 without VNNI).
  bool int8Dot = false;
  bool int8Vnni = false;
  /// Where tcc-externalize-weights writes the weights; empty: they stay in
  /// the object.
  std::string weightsFile;
  /// The module is already linalg on tensors (tcc::boundRunTimeDim's
  /// output): the pipeline starts after the onnx-to-linalg stage.
  bool fromLinalg = false;
  /// See buildONNXToLinalgPipeline.
  bool cse = true;
  /// 3x3 convolutions as Winograd F(2x2, 3x3) (tcc-convert-onnx-to-linalg).
  bool winograd = true;
  /// Winograd tiles that make one graph for every width (--max-dim).
  bool winogradAnyWidth = false;
  /// Convolutions on channels-last tensors (tcc-onnx-channels-last).
  bool channelsLast = true;
  /// The target: NVIDIA GPUs (the CUDA back half), else the CPU. For CUDA,
  /// the GPU architecture kernels are compiled for (sm_80, sm_89, sm_90),
  /// and the toolkit whose ptxas and libdevice serialize them; empty: PTX
  /// only.
  bool cuda = false;
  std::string gpuArch = "sm_90";
  std::string cudaPath;
  /// CUDA: the kernels' blocks and threads run as loops on the CPU, in a
  /// CPU object (tcc compile --gpu-emulate; tests without a GPU).
  bool gpuEmulate = false;
  /// When set, called with the module when the CPU pipeline has outlined
  /// its kernels (tcc-outline-kernels: one function per call, `final`
  /// false) and when it has its final kernels (after tcc-dedup-kernels,
  /// which makes equal kernels one function, `final` true): @main calling
  /// them in the same order, still func and memref (tcc compile --graph,
  /// tcc bench --profile).
  std::function<void(mlir::ModuleOp, bool final)> onKernels;
  /// CPU: time each kernel call (tcc-profile-kernels; tcc bench --profile).
  bool profile = false;
  /// When set, called as each stage of runPipeline starts, with its name
  /// ("onnx to linalg", "bufferize", "lower to LLVM", ...; tcc compile -v).
  std::function<void(llvm::StringRef stage)> onStage;
};


/// onnx (imported, shape-inferred) -> linalg on tensors, fused.
/// `options.cse`: false leaves equal ops apart (tcc::boundRunTimeDim
/// compares the IR at three sizes op by op; at one of them, two types may
/// coincide); `winograd` and `channelsLast` choose how convolutions run.
void buildONNXToLinalgPipeline(mlir::OpPassManager &pm,
                               const PipelineOptions &options = {});
/// linalg on tensors -> bufferized memrefs in one planned workspace, the
/// attention chains first computed in blocks of rows (tcc-fuse-attention).
void buildBufferizePipeline(mlir::OpPassManager &pm,
                            const PipelineOptions &options = {});
/// CPU: bufferized -> LLVM dialect with the C ABI entry points
/// (lib/Pipelines/CPU.cpp).
void buildCPULowerToLLVMPipeline(mlir::OpPassManager &pm,
                                 const PipelineOptions &options);

/// CUDA: bufferized -> gpu.launch_func of gpu.modules in the NVVM dialect,
/// for `options.gpuArch` (lib/Pipelines/CUDA.cpp).
void buildCUDAKernelsPipeline(mlir::OpPassManager &pm,
                              const PipelineOptions &options);
/// CUDA: gpu.modules -> gpu.binary: a fatbin (SASS for `gpuArch`, and PTX)
/// through the toolkit at `options.cudaPath`, or PTX alone without one.
void buildCUDABinaryPipeline(mlir::OpPassManager &pm,
                             const PipelineOptions &options);
/// CUDA: the host side in the LLVM dialect: launches through the runtime's
/// CUDA loader (tcc_cuda_*), the C ABI entry points around them.
void buildCUDAHostPipeline(mlir::OpPassManager &pm,
                           const PipelineOptions &options);
/// Fails, naming the kernel and the function, when a kernel serialized
/// without a toolkit (PTX only) calls into libdevice, which is not linked.
llvm::LogicalResult checkKernelsLinked(mlir::ModuleOp module);

/// Runs the pipeline on `module` from the onnx dialect up to and including
/// `stopAfter`. Errors are reported through the context's diagnostics.
llvm::LogicalResult runPipeline(mlir::ModuleOp module,
                                const PipelineOptions &options,
                                Stage stopAfter = Stage::LLVM);

/// Loads into `context` the dialects that runPipeline's passes up to the
/// linalg stage depend on, so that threads may then run it on several
/// modules at once (loading a dialect is not thread-safe).
void loadLinalgStageDialects(mlir::MLIRContext &context,
                             const PipelineOptions &options);

} // namespace tcc

#endif // TCC_PIPELINES_H
