//===- OptimizeInParts.h - LLVM's optimization pipeline on threads --------===//
#ifndef TCC_LIB_TARGET_CPU_OPTIMIZEINPARTS_H
#define TCC_LIB_TARGET_CPU_OPTIMIZEINPARTS_H

#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <functional>
#include <memory>

namespace llvm {
class Module;
} // namespace llvm

namespace tcc {

/// The parts optimizeInParts cuts a module into: more than the threads of a
/// small machine, for balance.
inline constexpr unsigned kOptimizeParts = 4;

/// Whether `module` is large enough for optimizeInParts to pay on two
/// threads (decided by the module alone: the object is the same on any
/// host).
bool shouldOptimizeInParts(const llvm::Module &module);

/// Runs LLVM's optimization pipeline at `optLevel` on `module` cut into
/// parts, each in an LLVMContext of its own on a thread with a
/// TargetMachine from `makeTM`, and links the optimized parts back into
/// `module`, which keeps its global variables.
llvm::Error optimizeInParts(
    llvm::Module &module,
    const std::function<llvm::Expected<std::unique_ptr<llvm::TargetMachine>>()>
        &makeTM,
    unsigned optLevel);

} // namespace tcc

#endif // TCC_LIB_TARGET_CPU_OPTIMIZEINPARTS_H
