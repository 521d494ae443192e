//===- Jit.cpp - a model compiled in memory, for tcc run and bench --------===//
//
// The object tcc compile would write, loaded into an LLJIT whose runtime
// functions are the copies linked into tcc; its inputs from files or
// stand-ins, checked against the model's signature before compiling.
//
//===----------------------------------------------------------------------===//
#include "Jit.h"

#include "Profile.h"

#include "tcc/Target.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdlib>
#include <map>

using namespace mlir;
using namespace tcc::driver;

/// libtccrt's fallback of compiler-rt's float -> bfloat16 conversion.
extern "C" float __truncsfbf2(float);

/// Where zero-element tensors point (never read or written).
alignas(64) static char kEmptyTensor[64];

JitModel::~JitModel() { std::free(workspace); }

int32_t JitModel::run(tcc_context *threads) {
  const tcc::ModelSignature &sig = compiled.signature;
  std::vector<const void *> in = inputPtrs;
  std::vector<void *> out = outputPtrs;
  if (!runTimeDims.empty())
    out.push_back(runTimeDims.data()); // the last output, not per sample
  if (!inputDims.empty())
    in.push_back(inputDims.data()); // the last input
  // Where sample b starts: b samples in, for the tensors that hold one
  // each, in their actual dims (an output's from the first sample's run,
  // the same in every sample).
  auto sampleBytes = [](const tcc::TensorSignature &t, ArrayRef<int64_t> dims) {
    if (!t.batchMultiple)
      return int64_t(0);
    int64_t n = t.batchMultiple * tcc::dtypeSize(t.dtype);
    for (int64_t d : dims.drop_front())
      n *= d;
    return n;
  };
  std::vector<int64_t> outputStep(outputPtrs.size());
  for (int64_t b = 0; b < batch; ++b) {
    for (size_t i = 0; i < inputPtrs.size(); ++i)
      in[i] = (const char *)inputPtrs[i] +
              b * sampleBytes(sig.inputs[i], inputs[i].dims);
    for (size_t i = 0; i < outputPtrs.size(); ++i)
      out[i] = (char *)outputPtrs[i] + b * outputStep[i];
    if (int32_t status = runPacked(threads, in.data(), out.data(), workspace))
      return status;
    const int64_t *next = runTimeDims.data();
    for (size_t i = 0; b == 0 && i < outputPtrs.size(); ++i)
      outputStep[i] =
          sampleBytes(sig.outputs[i],
                      actualDims(sig.outputs[i], sig.outputs[i].dims, next));
  }
  return 0;
}

std::vector<int64_t> JitModel::actualDims(const tcc::TensorSignature &t,
                                          std::vector<int64_t> dims,
                                          const int64_t *&next) {
  for (size_t d = 0; d < dims.size(); ++d)
    if (t.runTimeDims >> d & 1)
      dims[d] = *next++;
  return dims;
}

void JitModel::trimOutputs() {
  const int64_t *next = runTimeDims.data();
  for (auto [t, sig] : llvm::zip(outputs, compiled.signature.outputs)) {
    if (!sig.runTimeDims)
      continue;
    t.dims = actualDims(sig, t.dims, next);
    int64_t n = 1;
    for (int64_t d : t.dims)
      n *= d;
    t.data.resize(n * tcc::dtypeSize(t.dtype));
  }
}

namespace {

/// Bytes of `t` for `batch` samples.
int64_t bytesFor(const tcc::TensorSignature &t, int64_t batch) {
  return t.numElements() * (t.batchMultiple ? batch : 1) *
         tcc::dtypeSize(t.dtype);
}

/// The dims of `t` for `batch` samples.
std::vector<int64_t> batchDims(const tcc::TensorSignature &t, int64_t batch) {
  std::vector<int64_t> dims = t.dims;
  if (t.batchMultiple)
    dims[0] = t.batchMultiple * batch;
  return dims;
}

std::string shapeString(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

/// Deterministic stand-in data for an input `tcc bench` was not given:
/// floats in [-1, 1), zeros for integers and bools (valid indices, masks).
void fillInput(tcc::HostTensor &t) {
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  int64_t n = t.data.size() / tcc::dtypeSize(t.dtype);
  auto fill = [&](auto *data) {
    for (int64_t i = 0; i < n; ++i)
      data[i] = (next() >> 8) / double(1 << 23) - 1.0;
  };
  if (t.dtype == 1) // float32
    fill(reinterpret_cast<float *>(t.data.data()));
  else if (t.dtype == 11) // float64
    fill(reinterpret_cast<double *>(t.data.data()));
}

/// Reads the --input files (or, when `fillMissing`, makes stand-in data
/// for the inputs not given), compiles the model in memory and allocates
/// its outputs and workspace. Returns an exit status (0: ready).
int prepareJit(RunOptions &r, MLIRContext &ctx,
               std::map<std::string, tcc::NodeInfo> &nodes, bool fillMissing,
               JitModel &m, Progress &progress) {
  CompileOptions &o = r.compile;
  // Read and check the inputs before compiling: wrong inputs fail fast.
  std::map<std::string, tcc::HostTensor> given;
  for (const std::string &spec : r.inputs) {
    auto [name, path] = StringRef(spec).split('=');
    if (name.empty() || path.empty()) {
      llvm::errs() << "tcc: usage error: --input expects NAME=FILE, got '"
                   << spec << "'\n";
      return kExitUsageError;
    }
    tcc::HostTensor t;
    std::string err;
    if (!tcc::readTensorFile(path.str(), t, err))
      return error("input '" + name + "': " + err);
    given[name.str()] = std::move(t);
  }

  Compiled &compiled = m.compiled;
  compiled.name = o.name;
  if (failed(compileToLLVMDialect(ctx, o, compiled, tcc::Stage::LLVM, nodes,
                                  &progress)))
    return kExitModelError;

  // A run-time batch: from dim 0 of the first batched input given.
  for (const tcc::TensorSignature &in : compiled.signature.inputs) {
    auto it = given.find(in.name);
    if (!in.batchMultiple || it == given.end() || it->second.dims.empty())
      continue;
    m.batch = it->second.dims[0] / in.batchMultiple;
    break;
  }
  if (m.batch == 0 && !compiled.signature.boundedDim.empty() &&
      compiled.signature.numRunTimeDims())
    return error("a batch of 0: the dims of the outputs that follow '" +
                 compiled.signature.boundedDim +
                 "' come from a sample's run; pass one sample or more");
  // A dim that varies up to a bound: from the first input given that holds
  // it (the bound when none is given and stand-ins are made).
  std::optional<int64_t> bounded;
  int64_t bound = 0;
  for (const tcc::TensorSignature &in : compiled.signature.inputs) {
    auto it = given.find(in.name);
    for (size_t d = 0; d < in.dims.size(); ++d) {
      if (!(in.runTimeDims >> d & 1))
        continue;
      if (!bounded && it != given.end() &&
          it->second.dims.size() == in.dims.size()) {
        bounded = it->second.dims[d];
        if (*bounded < 1 || *bounded > in.dims[d])
          return error("input '" + in.name + "': dim " + std::to_string(d) +
                       " ('" + compiled.signature.boundedDim + "') is " +
                       std::to_string(*bounded) + "; the model takes 1 to " +
                       std::to_string(in.dims[d]));
      }
      bound = in.dims[d];
    }
  }
  if (!bounded)
    bounded = bound; // stand-ins (tcc bench), or a missing input below
  m.inputDims.assign(compiled.signature.numRunTimeInputDims(), *bounded);
  for (const tcc::TensorSignature &in : compiled.signature.inputs) {
    std::vector<int64_t> dims = batchDims(in, m.batch);
    for (size_t d = 0; d < dims.size(); ++d)
      if (in.runTimeDims >> d & 1)
        dims[d] = *bounded;
    auto it = given.find(in.name);
    if (it == given.end() && fillMissing) {
      tcc::HostTensor t;
      t.dtype = in.dtype;
      t.dims = dims;
      int64_t n = 1;
      for (int64_t d : dims)
        n *= d;
      t.data.resize(n * tcc::dtypeSize(in.dtype));
      fillInput(t);
      it = given.emplace(in.name, std::move(t)).first;
    }
    if (it == given.end())
      return error("missing input '" + in.name + "' (" +
                   tcc::dtypeString(in.dtype) + " " + shapeString(dims) +
                   "): pass --input " + in.name + "=FILE.npy");
    const tcc::HostTensor &t = it->second;
    if (t.dtype != in.dtype || t.dims != dims)
      return error("input '" + in.name + "': expected " +
                   tcc::dtypeString(in.dtype) + " " + shapeString(dims) +
                   (in.batchMultiple ? " (" + compiled.signature.batchDim +
                                           "=" + std::to_string(m.batch) + ")"
                                     : std::string()) +
                   ", got " + tcc::dtypeString(t.dtype) + " " +
                   shapeString(t.dims));
  }
  for (const auto &[name, t] : given)
    if (!llvm::any_of(compiled.signature.inputs,
                      [&](auto &in) { return in.name == name; }))
      return error("--input names '" + name +
                   "', which is not an input of the model");
  for (const tcc::TensorSignature &in : compiled.signature.inputs)
    m.inputs.push_back(std::move(given[in.name]));
  // A zero-element tensor has no data, but the ABI wants a non-null pointer.
  for (const tcc::HostTensor &t : m.inputs)
    m.inputPtrs.push_back(t.data.empty() ? (const void *)&kEmptyTensor
                                         : t.data.data());

  // The object `tcc compile` would write, loaded in memory: the same code,
  // its weights in .rodata (JITLink places no segment aligned beyond a
  // page).
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  tcc::TargetOptions target = o.cpuTarget();
  target.onStage = progress.stageHook();
  target.onFunction = progress.functionHook();
  target.hugePageWeights = false;
  SmallString<0> &object = m.object;
  {
    llvm::raw_svector_ostream os(object);
    if (failed(tcc::emitModule(*compiled.module, target,
                               tcc::OutputKind::Object, os)))
      return kExitModelError;
  }
  progress.stage("load");
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return error("cannot start the JIT: " + llvm::toString(jit.takeError()));
  m.jit = std::move(*jit);
  llvm::orc::JITDylib &lib = m.jit->getMainJITDylib();
  // libc and libm from the process; the runtime functions generated code
  // calls from the copy linked into tcc.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      m.jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return error("JIT: " + llvm::toString(process.takeError()));
  lib.addGenerator(std::move(*process));
  llvm::orc::SymbolMap runtime;
  auto define = [&](llvm::StringRef name, auto *fn) {
    runtime[m.jit->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(fn), llvm::JITSymbolFlags::Exported};
  };
  define("tcc_parallel_for", &tcc_parallel_for);
  define("tcc_run_begin", &tcc_run_begin);
  define("tcc_run_end", &tcc_run_end);
  define("tcc_branch_check", &tcc_branch_check);
  define("tcc_run_status", &tcc_run_status);
  define("tcc_cuda_begin", &tcc_cuda_begin);
  define("tcc_cuda_launch", &tcc_cuda_launch);
  define("tcc_cuda_read", &tcc_cuda_read);
  define("tcc_cuda_end", &tcc_cuda_end);
  define("__truncsfbf2", &__truncsfbf2);
  define("tcc_profile_enter", &tcc::driver::profileEnter);
  define("tcc_profile_exit", &tcc::driver::profileExit);
  if (llvm::Error err = lib.define(llvm::orc::absoluteSymbols(runtime)))
    return error("JIT: " + llvm::toString(std::move(err)));
  if (llvm::Error err = m.jit->addObjectFile(
          llvm::MemoryBuffer::getMemBuffer(object, "model.o",
                                           /*RequiresNullTerminator=*/false)))
    return error("JIT: cannot load the object: " +
                 llvm::toString(std::move(err)));
  auto fn = m.jit->lookup(compiled.name + "_run_packed_ctx");
  if (!fn)
    return error("JIT lookup failed: " + llvm::toString(fn.takeError()));
  m.runPacked = fn->toPtr<tcc_run_packed_ctx_fn>();

  for (const tcc::TensorSignature &out : compiled.signature.outputs) {
    tcc::HostTensor t;
    t.dtype = out.dtype;
    t.dims = batchDims(out, m.batch);
    t.data.resize(bytesFor(out, m.batch));
    m.outputs.push_back(std::move(t));
  }
  for (tcc::HostTensor &t : m.outputs)
    m.outputPtrs.push_back(t.data.empty() ? (void *)&kEmptyTensor
                                          : t.data.data());
  m.runTimeDims.resize(compiled.signature.numRunTimeDims());
  size_t wsSize =
      llvm::alignTo(std::max<int64_t>(compiled.workspaceSize, 1), 64);
  m.workspace = std::aligned_alloc(64, wsSize);
  if (!m.workspace)
    return error("cannot allocate " + std::to_string(wsSize) +
                 " bytes of workspace");
  return 0;
}

} // namespace

int tcc::driver::withJitModel(
    RunOptions &r, bool fillMissing,
    llvm::function_ref<int(JitModel &, tcc_context *)> body) {
  CompileOptions &o = r.compile;
  o.name = "model";
  if (int status = prepareTarget(o))
    return status;
  if (tcc::ImportOptions check; !makeImportOptions(o, check))
    return kExitUsageError;
  Session session;
  MLIRContext &ctx = session.ctx;
  std::map<std::string, tcc::NodeInfo> &nodes = session.nodes;
  // Another CPU's code (--mcpu, --mattr) runs here only where this one has
  // its features; prepareTarget checked that the options name a target.
  if (!o.mcpu.empty() || !o.mattr.empty()) {
    std::unique_ptr<llvm::TargetMachine> tm =
        llvm::cantFail(tcc::makeTargetMachine(o.cpuTarget()));
    if (std::vector<std::string> lacking = tcc::featuresHostLacks(*tm);
        !lacking.empty()) {
      llvm::errs() << "tcc: usage error: "
                   << (o.mcpu.empty() ? "--mattr " + o.mattr
                                      : "--mcpu " + o.mcpu)
                   << ": this CPU lacks " << llvm::join(lacking, ", ")
                   << ", which its code uses; tcc run and bench run the "
                   << "code here (tcc compile makes objects for it)\n";
      return kExitUsageError;
    }
  }
  JitModel m;
  {
    // On a terminal, a compile that takes a while says where it is; the
    // line is gone before the runs.
    Progress progress(llvm::sys::path::filename(o.model), /*verbose=*/false);
    if (int status = prepareJit(r, ctx, nodes, fillMissing, m, progress))
      return status;
  }
  tcc_context *threads = nullptr;
  if (tcc_context_create(r.threads, &threads) != TCC_OK)
    return error("cannot start " + std::to_string(r.threads) + " threads");
  llvm::scope_exit destroyThreads([&] { tcc_context_destroy(threads); });
  return body(m, threads);
}
