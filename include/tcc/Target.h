//===- Target.h - LLVM code generation for the host and other CPUs -*- C++ -*-===//
#ifndef TCC_TARGET_H
#define TCC_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tcc {

struct TargetOptions {
  std::string triple; ///< empty: the host
  std::string cpu;    ///< empty: the host CPU (with its features)
  unsigned optLevel = 2;
  /// On ELF targets, weights of 2 MB or more go into a section aligned to
  /// 2 MB (see alignWeights in EmitObject.cpp). Off for an object loaded by
  /// LLVM's JIT, which cannot place a segment aligned beyond a page.
  bool hugePageWeights = true;
  /// When set, emitModule calls `onStage` as it starts each step
  /// ("translate to LLVM IR", "optimize LLVM IR" or "optimize LLVM IR in 4
  /// parts", "codegen") and, in code generation,
  /// `onFunction` after each function with the number done and the number
  /// of functions (tcc compile -v, the progress line).
  std::function<void(llvm::StringRef stage)> onStage;
  std::function<void(unsigned done, unsigned total)> onFunction;
  /// More target features (--mattr): LLVM's names, comma-separated, each
  /// with + or - ("+v", "+sve,-sve2").
  std::string features;
};

enum class OutputKind { Object, Assembly, LLVMIR };

/// A TargetMachine for `options`; errors are reported on `module`.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, mlir::ModuleOp module);

/// A TargetMachine for `options`, or why there is none (an unknown triple,
/// CPU or feature): the driver's check of --mtriple, --mcpu and --mattr.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
makeTargetMachine(const TargetOptions &options);

/// The vector registers code for `tm` should tile for.
struct VectorRegisters {
  int64_t bits;
  int64_t count;
  /// Whether the target multiplies bf16 pairs into f32 sums (x86's
  /// AVX512-BF16 vdpbf16ps).
  bool bf16Dot = false;
  /// Whether it sums products of u8 and s8 quads into i32: x86's
  /// AVX512-VNNI vpdpbusd (vnni), or pmaddwd on their bytes widened to 16
  /// bits (SSE2, AVX2, AVX512BW).
  bool int8Dot = false;
  bool vnni = false;
};
VectorRegisters vectorRegisters(const llvm::TargetMachine &tm);

/// The features of `tm`'s CPU that the host's lacks (where its code would
/// stop on an illegal instruction), sorted.
std::vector<std::string> featuresHostLacks(const llvm::TargetMachine &tm);

/// Bytes of one core's L2 cache on the target: the host's where it is the
/// target and reports it, otherwise 512 KB.
int64_t l2CacheBytes(const TargetOptions &options);

/// Translates an LLVM-dialect module to LLVM IR and optimizes it for `tm`,
/// made from `options` (a large module on threads, each with a
/// TargetMachine of its own).
std::unique_ptr<llvm::Module>
translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &context,
                     llvm::TargetMachine &tm, const TargetOptions &options);

/// Writes `module` (LLVM dialect) as an object file, assembly or LLVM IR.
llvm::LogicalResult emitModule(mlir::ModuleOp module,
                               const TargetOptions &options, OutputKind kind,
                               llvm::raw_pwrite_stream &os);

} // namespace tcc

#endif // TCC_TARGET_H
