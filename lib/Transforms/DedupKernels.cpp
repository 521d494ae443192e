//===- DedupKernels.cpp - tcc-dedup-kernels -------------------------------===//
//
// Kernels that differ only in the constant globals they read (a repeated
// block's convs with their own weights, its transposes and elementwise ops
// with none) become one function, which takes those globals as arguments:
// each distinct kernel is compiled once, as IREE deduplicates dispatches.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_DEDUPKERNELS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// A kernel and the globals it reads, in the order they first appear.
struct Kernel {
  func::FuncOp fn;
  SmallVector<StringAttr> globals;
};

/// The text of `kernel` with its name and the names of the globals it reads
/// replaced by their order of first appearance: equal for kernels that
/// compute the same on the same buffers but for the globals they read.
std::string canonicalText(Kernel &kernel) {
  // Renamed in place and restored after printing: cloning a register-tiled
  // kernel cost as much as printing it.
  llvm::MapVector<StringAttr, FlatSymbolRefAttr> placeholders;
  SmallVector<std::pair<memref::GetGlobalOp, FlatSymbolRefAttr>> renamed;
  func::FuncOp fn = kernel.fn;
  MLIRContext *ctx = fn.getContext();
  StringAttr name = fn.getSymNameAttr();
  fn.setSymName("kernel");
  fn.walk([&](memref::GetGlobalOp get) {
    auto [it, inserted] = placeholders.try_emplace(get.getNameAttr().getAttr());
    if (inserted)
      it->second = FlatSymbolRefAttr::get(
          ctx, "global" + std::to_string(placeholders.size() - 1));
    renamed.emplace_back(get, get.getNameAttr());
    get.setNameAttr(it->second);
  });
  for (auto &entry : placeholders)
    kernel.globals.push_back(entry.first);
  std::string text;
  llvm::raw_string_ostream os(text);
  fn->print(os, OpPrintingFlags().assumeVerified().useLocalScope());
  for (auto [get, original] : renamed)
    get.setNameAttr(original);
  fn.setSymNameAttr(name);
  return text;
}

struct DedupKernels : tcc::impl::DedupKernelsBase<DedupKernels> {
  /// The ops that use each symbol of the module, from one walk of it
  /// (a walk per kernel was quadratic: 8.5 s for 333 matmul layers).
  llvm::DenseMap<StringAttr, SmallVector<Operation *>> users;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    users.clear();
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        users[use.getSymbolRef().getRootReference()].push_back(use.getUser());
    llvm::StringMap<SmallVector<Kernel>> groups;
    SmallVector<StringRef> order;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn->hasAttr(tcc::attr::kKernel) || fn.isExternal())
        continue;
      Kernel kernel{fn, {}};
      std::string text = canonicalText(kernel);
      auto [it, inserted] = groups.try_emplace(text);
      if (inserted)
        order.push_back(it->getKey());
      it->second.push_back(std::move(kernel));
    }
    for (StringRef key : order)
      if (groups[key].size() > 1)
        merge(groups[key], symbols);
  }

  /// Makes the first of `kernels` (same text, each global of the same type
  /// at each position) take the globals that differ between them as
  /// trailing arguments, calls it in place of the others and erases those.
  void merge(MutableArrayRef<Kernel> kernels, SymbolTable &symbols) {
    Kernel &first = kernels.front();
    // The positions whose global differs between the kernels; all must be
    // constant, which each kernel only reads.
    SmallVector<size_t> varying;
    for (size_t i = 0; i < first.globals.size(); ++i) {
      if (llvm::all_of(kernels, [&](const Kernel &k) {
            return k.globals[i] == first.globals[i];
          }))
        continue;
      for (const Kernel &k : kernels) {
        auto global = symbols.lookup<memref::GlobalOp>(k.globals[i].getValue());
        if (!global || !global.getConstant())
          return;
      }
      varying.push_back(i);
    }
    // Each kernel is only called; its calls move to the first with its
    // globals passed.
    SmallVector<SmallVector<func::CallOp>> calls;
    for (Kernel &k : kernels) {
      SmallVector<func::CallOp> &kCalls = calls.emplace_back();
      for (Operation *user : users.lookup(k.fn.getSymNameAttr())) {
        auto call = dyn_cast<func::CallOp>(user);
        if (!call)
          return;
        kCalls.push_back(call);
      }
    }

    // The first kernel reads its varying globals from new arguments.
    MLIRContext *ctx = first.fn.getContext();
    NamedAttrList noAlias;
    noAlias.append(LLVM::LLVMDialect::getNoAliasAttrName(), UnitAttr::get(ctx));
    noAlias.append(LLVM::LLVMDialect::getReadonlyAttrName(),
                   UnitAttr::get(ctx));
    DictionaryAttr argAttrs = noAlias.getDictionary(ctx);
    llvm::DenseMap<StringAttr, Value> replacement;
    for (size_t i : varying) {
      auto global =
          symbols.lookup<memref::GlobalOp>(first.globals[i].getValue());
      auto type = global.getType();
      (void)first.fn.insertArgument(first.fn.getNumArguments(), type, argAttrs,
                                    global.getLoc());
      replacement[first.globals[i]] = first.fn.getArguments().back();
    }
    first.fn.walk([&](memref::GetGlobalOp get) {
      if (Value arg = replacement.lookup(get.getNameAttr().getAttr())) {
        get.replaceAllUsesWith(arg);
        get.erase();
      }
    });

    SmallVector<Operation *> &firstUsers = users[first.fn.getSymNameAttr()];
    firstUsers.clear();
    for (auto [k, kCalls] : llvm::zip(kernels, calls)) {
      for (func::CallOp call : kCalls) {
        OpBuilder b(call);
        SmallVector<Value> operands(call.getOperands());
        for (size_t i : varying) {
          auto global =
              symbols.lookup<memref::GlobalOp>(k.globals[i].getValue());
          operands.push_back(memref::GetGlobalOp::create(
              b, call.getLoc(), global.getType(), global.getSymName()));
        }
        firstUsers.push_back(
            func::CallOp::create(b, call.getLoc(), first.fn, operands));
        call.erase();
      }
      if (k.fn != first.fn)
        symbols.erase(k.fn);
    }
  }
};

} // namespace
