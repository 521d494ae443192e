//===- OptimizeInParts.cpp - LLVM's optimization pipeline on threads ------===//
//
// An LLVMContext is one thread's: to run LLVM's per-module optimization
// pipeline on several cores, the module's functions are cut into parts,
// each part goes to a context of its own (as bitcode) and is optimized on a
// thread, and the parts are linked back. The cut keeps together what the
// inliner could join (a function with the callers of it that LLVM may
// inline into), so a part sees every call it could inline; the kernels
// (noinline) are its roots. The parts and their order depend on the module
// alone, never on the host's thread count: the object is the same
// everywhere.
//
//===----------------------------------------------------------------------===//
#include "OptimizeInParts.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

using namespace mlir;

namespace {
/// Instructions in the functions of a module under which the parts' bitcode
/// round trips cost more than the threads save.
constexpr size_t kMinInstructions = 20000;
constexpr unsigned kParts = tcc::kOptimizeParts;
} // namespace

/// The function an instruction or argument user belongs to, else null.
static llvm::Function *userFunction(llvm::User *user) {
  if (auto *inst = llvm::dyn_cast<llvm::Instruction>(user))
    return inst->getFunction();
  return nullptr;
}

/// The part of each defined function: groups of functions joined through
/// the calls LLVM may inline (a callee that is not noinline goes with its
/// users; one used outside a function, with the first function), heaviest
/// group first onto the lightest part.
static llvm::DenseMap<llvm::Function *, unsigned>
assignParts(llvm::Module &module, unsigned parts) {
  llvm::EquivalenceClasses<llvm::Function *> groups;
  llvm::Function *first = nullptr;
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    groups.insert(&fn);
    if (!first)
      first = &fn;
    if (fn.hasFnAttribute(llvm::Attribute::NoInline))
      continue;
    for (llvm::User *user : fn.users()) {
      llvm::Function *caller = userFunction(user);
      groups.unionSets(&fn, caller ? caller : first);
    }
  }
  // The groups, weighed in instructions, in module order of their leaders.
  struct Group {
    llvm::Function *leader;
    size_t weight = 0;
  };
  llvm::DenseMap<llvm::Function *, size_t> index;
  std::vector<Group> list;
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    llvm::Function *leader = groups.getLeaderValue(&fn);
    auto [it, inserted] = index.try_emplace(leader, list.size());
    if (inserted)
      list.push_back({leader, 0});
    list[it->second].weight += fn.getInstructionCount();
  }
  std::stable_sort(
      list.begin(), list.end(),
      [](const Group &a, const Group &b) { return a.weight > b.weight; });
  std::vector<size_t> load(parts, 0);
  llvm::DenseMap<llvm::Function *, unsigned> leaderPart;
  for (const Group &group : list) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    load[lightest] += group.weight;
    leaderPart[group.leader] = lightest;
  }
  llvm::DenseMap<llvm::Function *, unsigned> part;
  for (llvm::Function &fn : module)
    if (!fn.isDeclaration())
      part[&fn] = leaderPart.lookup(groups.getLeaderValue(&fn));
  return part;
}

/// A part's module from its bitcode, in `context`.
static llvm::Expected<std::unique_ptr<llvm::Module>>
parsePart(llvm::ArrayRef<char> bitcode, llvm::LLVMContext &context) {
  return llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                            "part"),
      context);
}

bool tcc::shouldOptimizeInParts(const llvm::Module &module) {
  // TCC_OPTIMIZE_IN_PARTS=always|never overrides the size (docs/cli.md):
  // tests cut small models, and "never" rules the cut out of a problem.
  if (const char *env = std::getenv("TCC_OPTIMIZE_IN_PARTS")) {
    if (llvm::StringRef(env) == "always")
      return true;
    if (llvm::StringRef(env) == "never")
      return false;
  }
  size_t instructions = 0;
  for (const llvm::Function &fn : module)
    instructions += fn.getInstructionCount();
  return instructions >= kMinInstructions;
}

llvm::Error tcc::optimizeInParts(
    llvm::Module &module,
    const std::function<llvm::Expected<std::unique_ptr<llvm::TargetMachine>>()>
        &makeTM,
    unsigned optLevel) {
  llvm::DenseMap<llvm::Function *, unsigned> part = assignParts(module, kParts);

  // Every symbol a part defines or uses from another gets a name and, if
  // local, hidden external linkage for the link; the local ones that stay
  // within their part are local again there, the others after the link.
  llvm::StringMap<llvm::GlobalValue::LinkageTypes> wasLocal;
  for (llvm::GlobalValue &value : module.global_values()) {
    if (!value.hasLocalLinkage())
      continue;
    if (!value.hasName())
      value.setName("tcc.local");
    wasLocal[value.getName()] = value.getLinkage();
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  // Local functions whose users are all in their own part.
  llvm::DenseSet<llvm::Function *> partLocal;
  for (auto &[fn, p] : part) {
    bool within = llvm::all_of(fn->users(), [&, p = p](llvm::User *user) {
      llvm::Function *caller = userFunction(user);
      return caller && part.lookup(caller) == p;
    });
    if (within)
      partLocal.insert(fn);
  }

  std::vector<llvm::SmallVector<char, 0>> bitcode(kParts);
  for (unsigned p = 0; p < kParts; ++p) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> clone =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
          auto *fn = llvm::dyn_cast<llvm::Function>(value);
          return fn && part.lookup(const_cast<llvm::Function *>(fn)) == p;
        });
    for (llvm::Function &fn : *clone) {
      auto *original = module.getFunction(fn.getName());
      if (!fn.isDeclaration() && partLocal.count(original)) {
        fn.setVisibility(llvm::GlobalValue::DefaultVisibility);
        fn.setLinkage(wasLocal.lookup(fn.getName()));
      }
    }
    llvm::raw_svector_ostream os(bitcode[p]);
    llvm::WriteBitcodeToFile(*clone, os);
  }

  // Each part in a context of its own, on up to kParts threads.
  std::vector<std::string> errors(kParts);
  std::atomic<unsigned> next{0};
  auto work = [&] {
    for (unsigned p; (p = next++) < kParts;) {
      llvm::LLVMContext context;
      auto fail = [&](llvm::Error err) {
        errors[p] = llvm::toString(std::move(err));
      };
      llvm::Expected<std::unique_ptr<llvm::Module>> partModule =
          parsePart(bitcode[p], context);
      if (!partModule) {
        fail(partModule.takeError());
        continue;
      }
      llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm = makeTM();
      if (!tm) {
        fail(tm.takeError());
        continue;
      }
      auto transformer =
          makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, tm->get());
      if (llvm::Error err = transformer(partModule->get())) {
        fail(std::move(err));
        continue;
      }
      bitcode[p].clear();
      llvm::raw_svector_ostream os(bitcode[p]);
      llvm::WriteBitcodeToFile(**partModule, os);
    }
  };
  unsigned threads =
      std::clamp(std::thread::hardware_concurrency(), 1u, kParts);
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &thread : pool)
    thread.join();
  for (const std::string &error : errors)
    if (!error.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(), error);

  // The module keeps its globals (the weights) and gets the optimized
  // functions back in place of its own.
  for (llvm::Function &fn : module)
    if (!fn.isDeclaration()) {
      fn.deleteBody();
      fn.setVisibility(llvm::GlobalValue::DefaultVisibility);
      fn.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
  for (llvm::Function &fn : llvm::make_early_inc_range(module))
    if (fn.use_empty() && wasLocal.count(fn.getName()))
      fn.eraseFromParent();
  for (unsigned p = 0; p < kParts; ++p) {
    llvm::Expected<std::unique_ptr<llvm::Module>> partModule =
        parsePart(bitcode[p], module.getContext());
    if (!partModule)
      return partModule.takeError();
    if (llvm::Linker::linkModules(module, std::move(*partModule)))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot link the optimized parts");
  }
  for (const auto &local : wasLocal)
    if (llvm::GlobalValue *value = module.getNamedValue(local.getKey());
        value && !value->isDeclaration()) {
      value->setVisibility(llvm::GlobalValue::DefaultVisibility);
      value->setLinkage(local.getValue());
    }
  // What the parts' global DCE could not see unused: local globals no
  // optimized function uses any more (the weights that were packed).
  for (bool erased = true; erased;) {
    erased = false;
    for (llvm::GlobalVariable &global :
         llvm::make_early_inc_range(module.globals())) {
      global.removeDeadConstantUsers();
      if (global.hasLocalLinkage() && global.use_empty()) {
        global.eraseFromParent();
        erased = true;
      }
    }
  }
  return llvm::Error::success();
}
