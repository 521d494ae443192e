//===- ConvertMemRef.cpp - memref to LLVM per function
//---------------------===//
//
// finalize-memref-to-llvm and convert-math-to-libm are module passes: on
// one thread, each walks the whole unrolled IR (a third of SqueezeNet's
// lowering to LLVM). Here the memref ops of each function convert on the
// context's threads; what needs a declaration in the module converts after,
// on the few functions that hold it.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_CONVERTMEMREFINFUNCTIONS
#define GEN_PASS_DEF_CONVERTMODULELEFTOVERS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

constexpr llvm::StringLiteral kLeftovers = "tcc.llvm_leftovers";

/// The ops tcc-convert-memref-in-functions leaves: memref ops whose
/// lowering declares a function in the module, get_global (which must
/// convert with its global: the verifier checks what a symbol names), and
/// math ops still there (libm calls).
bool isLeftover(Operation *op) {
  return isa<memref::AllocOp, memref::DeallocOp, memref::ReallocOp,
             memref::CopyOp, memref::GetGlobalOp>(op) ||
         isa<math::MathDialect>(op->getDialect());
}

/// The type converter of finalize-memref-to-llvm (its default options).
LLVMTypeConverter makeConverter(Operation *op,
                                const DataLayoutAnalysis &layouts) {
  LowerToLLVMOptions options(op->getContext(), layouts.getAtOrAbove(op));
  options.allocLowering = LowerToLLVMOptions::AllocLowering::Malloc;
  return LLVMTypeConverter(op->getContext(), options, &layouts);
}

struct ConvertMemRefInFunctions
    : tcc::impl::ConvertMemRefInFunctionsBase<ConvertMemRefInFunctions> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    const auto &layouts = getAnalysis<DataLayoutAnalysis>();
    LLVMTypeConverter converter = makeConverter(fn, layouts);
    RewritePatternSet patterns(&getContext());
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(getContext());
    target.addLegalOp<func::FuncOp>();
    target.addDynamicallyLegalDialect<memref::MemRefDialect>(isLeftover);
    if (failed(applyPartialConversion(fn, target, std::move(patterns))))
      return signalPassFailure();
    bool left = fn.walk([](Operation *op) {
                    return isLeftover(op) ? WalkResult::interrupt()
                                          : WalkResult::advance();
                  }).wasInterrupted();
    if (left)
      fn->setAttr(kLeftovers, UnitAttr::get(&getContext()));
  }
};

struct ConvertModuleLeftovers
    : tcc::impl::ConvertModuleLeftoversBase<ConvertModuleLeftovers> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops, marked;
    for (Operation &op : module.getOps()) {
      if (isa<memref::GlobalOp>(op))
        ops.push_back(&op);
      if (op.removeAttr(kLeftovers))
        marked.push_back(&op);
    }
    // The leftovers of each marked function, found on threads.
    std::vector<SmallVector<Operation *>> found(marked.size());
    mlir::parallelFor(&getContext(), 0, marked.size(), [&](size_t i) {
      marked[i]->walk([&](Operation *op) {
        if (isLeftover(op))
          found[i].push_back(op);
      });
    });
    for (const auto &list : found)
      ops.append(list.begin(), list.end());
    if (ops.empty())
      return;
    const auto &layouts = getAnalysis<DataLayoutAnalysis>();
    LLVMTypeConverter converter = makeConverter(module, layouts);
    RewritePatternSet patterns(&getContext());
    SymbolTableCollection symbolTables;
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns,
                                                   &symbolTables);
    populateMathToLibmConversionPatterns(patterns);
    LLVMConversionTarget target(getContext());
    target.addLegalOp<func::FuncOp>();
    target.addLegalDialect<func::FuncDialect>();
    if (failed(applyPartialConversion(ops, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
