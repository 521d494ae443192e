//===- MergeKernels.cpp - tcc-gpu-merge-kernels ---------------------------===//
//
// Puts the kernels that gpu-kernel-outlining made, one gpu.module each, into
// one gpu.module, under the names tcc-gpu-prepare-kernels gave them; and
// checks that the host side only views buffers and launches kernels (and
// reads an If's condition for its check).
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"
#include "tcc/Header.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_GPUMERGEKERNELS
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

/// The registers a thread of a tiled kernel may use.
constexpr int64_t kTiledKernelRegisters = 128;

/// The kernel name in `loc` (tcc-gpu-prepare-kernels' NameLoc), else "".
StringRef kernelNameIn(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    return fused.getLocations().empty() ? ""
                                        : kernelNameIn(fused.getLocations()[0]);
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  return "";
}

/// Whether `v` only feeds, through arith ops, the condition of an If's
/// check (tcc_branch_check, of onnx.CheckCondition).
bool feedsBranchCheck(Value v) {
  return llvm::all_of(v.getUsers(), [](Operation *user) {
    if (auto call = dyn_cast<func::CallOp>(user))
      return call.getCallee() == tcc::kBranchCheckFn;
    return isa<arith::ArithDialect>(user->getDialect()) &&
           llvm::all_of(user->getResults(), feedsBranchCheck);
  });
}

/// Whether host code may hold `op`: it computes indices or views buffers
/// without touching their memory, launches a kernel, or is structure; or
/// it is an If's check, which reads its condition from device memory
/// (tcc-gpu-lower-launches copies it to the host).
bool runsOnHost(Operation *op) {
  if (auto call = dyn_cast<func::CallOp>(op))
    return call.getCallee() == tcc::kBranchCheckFn;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return feedsBranchCheck(load.getResult());
  if (isa<LLVM::AddressOfOp>(op))
    return true;
  if (isa<gpu::LaunchFuncOp, func::ReturnOp, scf::YieldOp, scf::ForOp,
          scf::IfOp, memref::ViewOp, memref::SubViewOp, memref::ExpandShapeOp,
          memref::CollapseShapeOp, memref::ReinterpretCastOp, memref::CastOp,
          memref::DimOp, memref::ExtractStridedMetadataOp,
          memref::ExtractAlignedPointerAsIndexOp, affine::AffineApplyOp,
          affine::AffineMinOp, affine::AffineMaxOp>(op))
    return true;
  return op->getDialect() &&
         op->getDialect()->getNamespace() == arith::ArithDialect::getDialectNamespace();
}

struct GPUMergeKernels : tcc::impl::GPUMergeKernelsBase<GPUMergeKernels> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>()) {
      WalkResult host = fn.walk([&](Operation *op) {
        if (op == fn.getOperation() || runsOnHost(op))
          return WalkResult::advance();
        op->emitError("--target cuda: '")
            << op->getName()
            << "' would run on the host, on device memory; it has no GPU "
               "kernel yet";
        return WalkResult::interrupt();
      });
      if (host.wasInterrupted())
        return signalPassFailure();
    }

    if (auto main = module.lookupSymbol<func::FuncOp>("main");
        main && failed(recordBufferBytes(main)))
      return signalPassFailure();

    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    if (modules.empty())
      return;
    OpBuilder b(modules.front());
    auto merged = gpu::GPUModuleOp::create(b, modules.front().getLoc(),
                                           modelName + "_kernels");
    llvm::StringSet<> taken;
    // Old kernel symbol -> new.
    DenseMap<Attribute, SymbolRefAttr> renamed;
    // Kept kernels by type and size: one whose body another repeats (the
    // same op on the same shapes, e.g. ResNet's repeated blocks) is that
    // one, compiled once.
    DenseMap<std::pair<Type, unsigned>, SmallVector<gpu::GPUFuncOp>> kept;
    for (gpu::GPUModuleOp old : modules) {
      for (auto fn : llvm::make_early_inc_range(old.getOps<gpu::GPUFuncOp>())) {
        auto oldRef = SymbolRefAttr::get(
            old.getNameAttr(), {FlatSymbolRefAttr::get(fn.getNameAttr())});
        unsigned size = 0;
        fn.walk([&](Operation *) { ++size; });
        SmallVector<gpu::GPUFuncOp> &same = kept[{fn.getFunctionType(), size}];
        // Outlined kernels are all named as their function (main_kernel):
        // only their bodies can differ.
        auto twin = llvm::find_if(same, [&](gpu::GPUFuncOp other) {
          StringAttr name = other.getNameAttr();
          other.setName(fn.getName());
          bool equal = OperationEquivalence::isEquivalentTo(
              fn, other, OperationEquivalence::IgnoreLocations);
          other.setName(name);
          return equal;
        });
        if (twin != same.end()) {
          renamed[oldRef] = SymbolRefAttr::get(
              merged.getNameAttr(), {FlatSymbolRefAttr::get(*twin)});
          fn.erase();
          continue;
        }
        same.push_back(fn);
        // Symbols of C's alphabet (a name from the model may hold any).
        std::string name = kernelNameIn(fn.getLoc()).str();
        for (char &c : name)
          if (!llvm::isAlnum(c) && c != '_')
            c = '_';
        name = modelName + "_" + (name.empty() ? std::string("kernel") : name);
        std::string unique = name;
        for (int n = 1; !taken.insert(unique).second; ++n)
          unique = name + "_" + std::to_string(n);
        fn->moveBefore(merged.getBody(), merged.getBody()->end());
        fn.setName(unique);
        renamed[oldRef] = SymbolRefAttr::get(
            merged.getNameAttr(),
            {FlatSymbolRefAttr::get(&getContext(), unique)});
      }
      if (!old.getBody()->empty() &&
          !llvm::all_of(old.getBody()->getOperations(), [](Operation &op) {
            return op.hasTrait<OpTrait::IsTerminator>();
          })) {
        old.emitError("tcc-gpu-merge-kernels: a gpu.module holds more than "
                      "kernels");
        return signalPassFailure();
      }
      old.erase();
    }
    // A kernel with shared memory (tcc-gpu-tile-contractions') may use 128
    // registers a thread (2 blocks of 256 threads an SM): left to itself,
    // ptxas aims at more blocks and spills.
    for (auto fn : merged.getOps<gpu::GPUFuncOp>())
      if (!fn.getWorkgroupAttributions().empty())
        fn->setAttr("nvvm.maxnreg",
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     kTiledKernelRegisters));
    WalkResult launches = module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr to = renamed.lookup(launch.getKernel());
      if (!to) {
        launch.emitError("tcc-gpu-merge-kernels: launch of an unknown kernel");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(to);
      return WalkResult::advance();
    });
    if (launches.wasInterrupted())
      signalPassFailure();
  }

  /// Marks @main with the bytes of each buffer argument (not the weights,
  /// not the workspace), which the runtime copies between host and device.
  static LogicalResult recordBufferBytes(func::FuncOp main) {
    bool takesWeights = main->hasAttr(tcc::attr::kWeightsBytes);
    auto args = main.getArguments();
    if (args.size() < 1u + takesWeights)
      return main.emitError("tcc-gpu-merge-kernels: @main takes no workspace");
    SmallVector<int64_t> bytes;
    for (BlockArgument arg :
         args.drop_front(takesWeights).drop_back()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
        return main.emitError("--target cuda: argument ")
               << arg.getArgNumber() << " of @main is not a static buffer: "
               << arg.getType();
      bytes.push_back(type.getNumElements() *
                      llvm::divideCeil(type.getElementTypeBitWidth(), 8));
    }
    main->setAttr(tcc::attr::kBufferBytes,
                  DenseI64ArrayAttr::get(main.getContext(), bytes));
    return success();
  }
};

} // namespace
