//===- EmitObject.cpp - LLVM dialect to object files through TargetMachine ===//
#include "tcc/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Pass.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <unistd.h>

using namespace mlir;

static void initializeTargets() {
  static bool done = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    return true;
  }();
  (void)done;
}

/// Whether `--mcpu` `cpu` means the host's CPU.
static bool namesHostCPU(llvm::StringRef cpu) {
  return cpu.empty() || cpu == "native" || cpu == "host";
}

std::unique_ptr<llvm::TargetMachine>
tcc::createTargetMachine(const TargetOptions &options, ModuleOp module) {
  initializeTargets();
  llvm::Triple triple(options.triple.empty() ? llvm::sys::getDefaultTargetTriple()
                                             : options.triple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    module.emitError() << "unknown target triple '" << triple.str()
                       << "': " << error;
    return nullptr;
  }
  bool host = namesHostCPU(options.cpu);
  std::string cpu = host ? llvm::sys::getHostCPUName().str() : options.cpu;
  std::string features;
  if (host && options.triple.empty()) {
    llvm::SubtargetFeatures f;
    for (auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      f.AddFeature(name, enabled);
    features = f.getString();
  } else if (host) {
    cpu = "generic";
  }
  if (!host) {
    std::unique_ptr<llvm::MCSubtargetInfo> sti(
        target->createMCSubtargetInfo(triple, "", ""));
    if (!sti || !sti->isCPUStringValid(cpu)) {
      module.emitError() << "unknown CPU '" << cpu << "' for target '"
                         << triple.str() << "'";
      return nullptr;
    }
  }
  llvm::TargetOptions targetOptions;
  auto codeGenOpt = options.optLevel == 0   ? llvm::CodeGenOptLevel::None
                    : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                    : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                            : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      codeGenOpt));
  if (!tm)
    module.emitError() << "cannot create a target machine for '"
                       << triple.str() << "' (cpu " << cpu << ")";
  return tm;
}

tcc::VectorRegisters tcc::vectorRegisters(const llvm::TargetMachine &tm) {
  const llvm::MCSubtargetInfo *sti = tm.getMCSubtargetInfo();
  if (tm.getTargetTriple().isX86()) {
    bool vnni = sti->checkFeatures("+avx512vnni");
    if (sti->checkFeatures("+avx512f"))
      return {512, 32, sti->checkFeatures("+avx512bf16"),
              vnni || sti->checkFeatures("+avx512bw"), vnni};
    if (sti->checkFeatures("+avx"))
      return {256, 16, false, sti->checkFeatures("+avx2")};
    return {128, 16, false, sti->checkFeatures("+sse2")};
  }
  // AArch64 (NEON) and other targets: 128-bit registers, 32 of them.
  return {128, 32};
}

std::vector<std::string> tcc::featuresHostLacks(const llvm::TargetMachine &tm) {
  // On x86, the instructions code generation uses for plain code, not
  // system ones (pku, wbnoinvd) that a virtual machine may hide.
  auto emitted = [&](llvm::StringRef name) {
    return !tm.getTargetTriple().isX86() ||
           llvm::any_of(
               std::initializer_list<llvm::StringRef>{
                   "sse", "ssse3", "avx", "fma", "f16c", "bmi", "popcnt",
                   "lzcnt", "movbe", "gfni", "vaes", "vpclmulqdq", "amx"},
               [&](llvm::StringRef p) { return name.starts_with(p); });
  };
  std::vector<std::string> lacking;
  const llvm::MCSubtargetInfo *sti = tm.getMCSubtargetInfo();
  for (auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
    if (!enabled && emitted(name) && sti->checkFeatures(("+" + name).str()))
      lacking.push_back(name.str());
  llvm::sort(lacking);
  return lacking;
}

int64_t tcc::l2CacheBytes(const TargetOptions &options) {
  int64_t bytes = 512 * 1024;
#ifdef _SC_LEVEL2_CACHE_SIZE
  bool host = options.triple.empty() && namesHostCPU(options.cpu);
  if (long reported = sysconf(_SC_LEVEL2_CACHE_SIZE); host && reported > 0)
    bytes = reported;
#endif
  return bytes;
}

std::unique_ptr<llvm::Module>
tcc::translateAndOptimize(ModuleOp module, llvm::LLVMContext &context,
                          llvm::TargetMachine &tm, unsigned optLevel) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule) {
    module.emitError("failed to translate the module to LLVM IR");
    return nullptr;
  }
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  // Keep the kernels' explicit wide vectors in full-width registers (x86
  // CPUs tuned to prefer 256-bit vectors would split them otherwise).
  // LLVM's loop vectorizer, which vectorizes the elementwise and reduction
  // loops, uses them too.
  std::string width = std::to_string(vectorRegisters(tm).bits);
  for (llvm::Function &fn : *llvmModule)
    if (!fn.isDeclaration()) {
      fn.addFnAttr("min-legal-vector-width", width);
      fn.addFnAttr("prefer-vector-width", width);
    }
  auto transformer = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, &tm);
  if (llvm::Error err = transformer(llvmModule.get())) {
    module.emitError() << "LLVM optimization failed: "
                       << llvm::toString(std::move(err));
    return nullptr;
  }
  return llvmModule;
}

/// The large constant arrays of `module` (the weights): at least 4 KB.
static llvm::ConstantDataSequential *weightData(llvm::GlobalVariable &global) {
  constexpr uint64_t kMinBytes = 4096;
  auto *data = llvm::dyn_cast_or_null<llvm::ConstantDataSequential>(
      global.hasInitializer() ? global.getInitializer() : nullptr);
  if (!data || !global.isConstant() ||
      data->getRawDataValues().size() < kMinBytes)
    return nullptr;
  return data;
}

/// Gives the weights an i8 element type, same bytes: the asm printer
/// writes a byte array in one piece but other element types one element at
/// a time, which dominated the time to write the object of a large model.
/// Pointers are opaque, so uses are unchanged.
static void weightsAsBytes(llvm::Module &module) {
  llvm::Type *i8 = llvm::Type::getInt8Ty(module.getContext());
  for (llvm::GlobalVariable &global :
       llvm::make_early_inc_range(module.globals())) {
    auto *data = weightData(global);
    if (!data || data->getElementType() == i8)
      continue;
    StringRef bytes = data->getRawDataValues();
    llvm::Constant *init =
        llvm::ConstantDataArray::getRaw(bytes, bytes.size(), i8);
    auto *flat = new llvm::GlobalVariable(
        module, init->getType(), /*isConstant=*/true, global.getLinkage(),
        init, "", &global, global.getThreadLocalMode(),
        global.getAddressSpace());
    flat->copyAttributesFrom(&global);
    flat->setAlignment(global.getAlign().value_or(
        module.getDataLayout().getPrefTypeAlign(data->getType())));
    flat->takeName(&global);
    global.replaceAllUsesWith(flat);
    global.eraseFromParent();
  }
}

/// On ELF targets, puts weights of a huge page or more in one section
/// whose first array is aligned to a huge page (2 MB), so that the
/// program's segment holding them is too: Linux then loads even a
/// position-independent executable (or library) at a huge-page-aligned
/// address, and can map the page cache's large folios of the weights with
/// huge pages. With 4 KB pages, a model whose weights do not stay in cache
/// between runs takes a TLB miss (and a page walk from memory) every 4 KB:
/// BERT-base ran 15% slower after other work had run since its last run.
static void alignWeights(llvm::Module &module, const llvm::Triple &triple) {
  constexpr uint64_t kHugePage = 2 << 20;
  if (!triple.isOSBinFormatELF())
    return;
  SmallVector<llvm::GlobalVariable *> weights;
  uint64_t bytes = 0;
  for (llvm::GlobalVariable &global : module.globals())
    if (auto *data = weightData(global); data && !global.hasSection()) {
      weights.push_back(&global);
      bytes += data->getRawDataValues().size();
    }
  if (bytes < kHugePage)
    return;
  // The asm printer emits globals in module order: the first array starts
  // the section.
  weights.front()->setAlignment(llvm::Align(kHugePage));
  for (llvm::GlobalVariable *global : weights)
    global->setSection(".rodata.tcc_weights");
}

namespace {
/// Counts the functions code generation has finished: added after the
/// passes that emit the file, it runs on each function after them.
struct CountFunctions : llvm::FunctionPass {
  static char ID;
  CountFunctions(unsigned total,
                 const std::function<void(unsigned, unsigned)> &report)
      : FunctionPass(ID), total(total), report(report) {}
  llvm::StringRef getPassName() const override { return "tcc count functions"; }
  void getAnalysisUsage(llvm::AnalysisUsage &usage) const override {
    usage.setPreservesAll();
  }
  bool runOnFunction(llvm::Function &) override {
    report(++done, total);
    return false;
  }
  unsigned done = 0, total;
  std::function<void(unsigned, unsigned)> report;
};
char CountFunctions::ID = 0;
} // namespace

LogicalResult tcc::emitModule(ModuleOp module, const TargetOptions &options,
                              OutputKind kind, llvm::raw_pwrite_stream &os) {
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, module);
  if (!tm)
    return failure();
  if (options.onStage)
    options.onStage("optimize LLVM IR");
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateAndOptimize(module, context, *tm, options.optLevel);
  if (!llvmModule)
    return failure();
  if (kind == OutputKind::LLVMIR) {
    llvmModule->print(os, nullptr);
    return success();
  }
  weightsAsBytes(*llvmModule);
  if (options.hugePageWeights)
    alignWeights(*llvmModule, tm->getTargetTriple());
  if (options.onStage)
    options.onStage("codegen");
  llvm::legacy::PassManager pm;
  auto fileType = kind == OutputKind::Object ? llvm::CodeGenFileType::ObjectFile
                                             : llvm::CodeGenFileType::AssemblyFile;
  if (tm->addPassesToEmitFile(pm, os, nullptr, fileType)) {
    module.emitError("the target cannot emit this file type");
    return failure();
  }
  if (options.onFunction) {
    unsigned total = 0;
    for (llvm::Function &fn : *llvmModule)
      total += !fn.isDeclaration();
    pm.add(new CountFunctions(total, options.onFunction));
  }
  pm.run(*llvmModule);
  return success();
}
