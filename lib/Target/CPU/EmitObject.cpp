//===- EmitObject.cpp - LLVM dialect to object files through TargetMachine ===//
#include "tcc/Target.h"

#include "OptimizeInParts.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
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

/// The features a CPU of `triple` has beyond `cpu`'s own when tcc picks
/// them: RISC-V Linux's rv64gc (what Debian's riscv64 distribution and
/// its cross compiler assume), whose double-precision floating point the
/// lp64d calling convention needs.
static std::string defaultFeatures(const llvm::Triple &triple) {
  if (triple.isRISCV64())
    return "+m,+a,+f,+d,+c,+zicsr,+zifencei";
  return "";
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
tcc::makeTargetMachine(const TargetOptions &options) {
  initializeTargets();
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  // Normalized, as clang does: aarch64-linux-gnu is aarch64-unknown-linux-gnu.
  llvm::Triple triple(llvm::Triple::normalize(
      options.triple.empty() ? llvm::sys::getDefaultTargetTriple()
                             : options.triple));
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail("unknown target triple '" + triple.str() + "': " + error);
  // A triple LLVM takes for its architecture alone ("aarch64-bogus") would
  // make an object with no operating system's conventions.
  if (!options.triple.empty() && triple.getOS() == llvm::Triple::UnknownOS &&
      triple.getEnvironment() == llvm::Triple::UnknownEnvironment)
    return fail("target triple '" + triple.str() +
                "' names no operating system or environment (e.g. "
                "aarch64-linux-gnu, riscv64-linux-gnu)");
  bool host = namesHostCPU(options.cpu);
  std::string cpu = host ? llvm::sys::getHostCPUName().str() : options.cpu;
  llvm::SubtargetFeatures features;
  if (host && options.triple.empty()) {
    for (auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      features.AddFeature(name, enabled);
  } else {
    if (host)
      cpu = "generic";
    features.addFeaturesVector(
        llvm::SubtargetFeatures(defaultFeatures(triple)).getFeatures());
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!sti || !sti->isCPUStringValid(cpu))
    return fail("unknown CPU '" + cpu + "' for target '" + triple.str() + "'");
  llvm::SubtargetFeatures requested(options.features);
  for (const std::string &feature : requested.getFeatures()) {
    if (!llvm::SubtargetFeatures::hasFlag(feature))
      return fail("--mattr '" + feature + "' needs a + or a - in front (+" +
                  feature + ")");
    llvm::StringRef name = llvm::StringRef(feature).drop_front();
    if (!llvm::any_of(
            sti->getAllProcessorFeatures(),
            [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; }))
      return fail("unknown feature '" + name + "' for target '" + triple.str() +
                  "'");
    features.AddFeature(feature);
  }
  llvm::TargetOptions targetOptions;
  // RISC-V Linux passes floating-point values in floating-point registers
  // (lp64d) where the CPU has them, as Debian's cross compiler does.
  const std::vector<std::string> &list = features.getFeatures();
  auto lastD = std::find_if(list.rbegin(), list.rend(),
                            [](StringRef f) { return f == "+d" || f == "-d"; });
  if (triple.isRISCV64() && lastD != list.rend() && *lastD == "+d")
    targetOptions.MCOptions.ABIName = "lp64d";
  auto codeGenOpt = options.optLevel == 0   ? llvm::CodeGenOptLevel::None
                    : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                    : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                            : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features.getString(), targetOptions, llvm::Reloc::PIC_,
      std::nullopt, codeGenOpt));
  if (!tm)
    return fail("cannot create a target machine for '" + triple.str() +
                "' (cpu " + cpu + ")");
  return tm;
}

std::unique_ptr<llvm::TargetMachine>
tcc::createTargetMachine(const TargetOptions &options, ModuleOp module) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      makeTargetMachine(options);
  if (!tm) {
    module.emitError() << llvm::toString(tm.takeError());
    return nullptr;
  }
  return std::move(*tm);
}

/// The SVE vector length of `tm`'s CPU where it is known and longer than
/// NEON's 128 bits (Neoverse V1: 256, A64FX: 512), else 0. The code is then
/// for that length alone (vscale_range), and LLVM lowers its fixed-width
/// vectors to SVE instructions, as clang's -msve-vector-bits does.
static int64_t fixedSVEBits(const llvm::TargetMachine &tm) {
  if (!tm.getTargetTriple().isAArch64() ||
      !tm.getMCSubtargetInfo()->checkFeatures("+sve"))
    return 0;
  return llvm::StringSwitch<int64_t>(tm.getTargetCPU())
      .Case("neoverse-v1", 256)
      .Case("a64fx", 512)
      .Default(0);
}

tcc::VectorRegisters tcc::vectorRegisters(const llvm::TargetMachine &tm) {
  const llvm::MCSubtargetInfo *sti = tm.getMCSubtargetInfo();
  if (int64_t bits = fixedSVEBits(tm))
    return {bits, 32};
  if (tm.getTargetTriple().isX86()) {
    bool vnni = sti->checkFeatures("+avx512vnni");
    if (sti->checkFeatures("+avx512f"))
      return {512, 32, sti->checkFeatures("+avx512bf16"),
              vnni || sti->checkFeatures("+avx512bw"), vnni};
    if (sti->checkFeatures("+avx"))
      return {256, 16, false, sti->checkFeatures("+avx2")};
    return {128, 16, false, sti->checkFeatures("+sse2")};
  }
  // AArch64 (NEON) and RISC-V with vectors (at least 128 bits, 32
  // registers); elsewhere the vectors are scalar registers: a few.
  if (tm.getTargetTriple().isAArch64() ||
      (tm.getTargetTriple().isRISCV() && sti->checkFeatures("+zve32f")))
    return {128, 32};
  return {128, 8};
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

/// Code for one SVE vector length runs only where the CPU's vectors are that
/// long: each entry point that runs the model (NAME_run_ctx,
/// NAME_run_packed_ctx; the others call them) first asks the runtime
/// (tcc_check_sve_bits) and returns its TCC_ERROR_CPU on another CPU.
static void guardSVELength(llvm::Module &module, int64_t bits) {
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionCallee check = module.getOrInsertFunction(
      "tcc_check_sve_bits",
      llvm::FunctionType::get(llvm::Type::getInt32Ty(context),
                              {llvm::Type::getInt64Ty(context)}, false));
  for (llvm::Function &fn : module) {
    llvm::StringRef name = fn.getName();
    if (fn.isDeclaration() || !fn.hasExternalLinkage() ||
        !fn.getReturnType()->isIntegerTy(32) ||
        !(name.ends_with("_run_ctx") || name.ends_with("_run_packed_ctx")))
      continue;
    // The allocas stay in the entry block, static; the run moves to a block
    // of its own that the check branches to.
    llvm::BasicBlock &entry = fn.getEntryBlock();
    auto it = entry.getFirstInsertionPt();
    while (llvm::isa<llvm::AllocaInst>(*it))
      ++it;
    llvm::BasicBlock *run = entry.splitBasicBlock(it, "run");
    entry.getTerminator()->eraseFromParent();
    auto *mismatch = llvm::BasicBlock::Create(context, "other_cpu", &fn);
    llvm::IRBuilder<> b(&entry);
    llvm::Value *status = b.CreateCall(check, {b.getInt64(bits)});
    b.CreateCondBr(b.CreateICmpEQ(status, b.getInt32(0)), run, mismatch);
    b.SetInsertPoint(mismatch);
    b.CreateRet(status);
  }
}

std::unique_ptr<llvm::Module>
tcc::translateAndOptimize(ModuleOp module, llvm::LLVMContext &context,
                          llvm::TargetMachine &tm,
                          const TargetOptions &options) {
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
  unsigned vscale = fixedSVEBits(tm) / 128;
  for (llvm::Function &fn : *llvmModule)
    if (!fn.isDeclaration()) {
      fn.addFnAttr("min-legal-vector-width", width);
      fn.addFnAttr("prefer-vector-width", width);
      if (vscale)
        fn.addFnAttr(
            llvm::Attribute::getWithVScaleRangeArgs(context, vscale, vscale));
    }
  if (vscale)
    guardSVELength(*llvmModule, vscale * 128);
  // Large modules on threads (OptimizeInParts.cpp), each with a
  // TargetMachine of its own: one caches subtargets unsynchronized.
  bool inParts = shouldOptimizeInParts(*llvmModule);
  if (options.onStage)
    options.onStage(inParts ? "optimize LLVM IR in " +
                                  std::to_string(kOptimizeParts) + " parts"
                            : "optimize LLVM IR");
  llvm::Error err =
      inParts ? optimizeInParts(
                    *llvmModule, [&] { return makeTargetMachine(options); },
                    options.optLevel)
              : makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0,
                                          &tm)(llvmModule.get());
  if (err) {
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
    options.onStage("translate to LLVM IR");
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateAndOptimize(module, context, *tm, options);
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
