//===- Header.cpp - the generated C header of a compiled model ------------===//
#include "tcc/Header.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace mlir;

int64_t tcc::TensorSignature::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

int64_t tcc::dtypeSize(int dtype) {
  switch (dtype) {
  case 2: case 3: case 9:
    return 1;
  case 4: case 5: case 10: case 16:
    return 2;
  case 1: case 6: case 12:
    return 4;
  case 7: case 11: case 13:
    return 8;
  default:
    return 0;
  }
}

static const char *cType(int dtype) {
  switch (dtype) {
  case 1: return "float";
  case 2: return "uint8_t";
  case 3: return "int8_t";
  case 4: return "uint16_t";
  case 5: return "int16_t";
  case 6: return "int32_t";
  case 7: return "int64_t";
  case 9: return "uint8_t /* bool */";
  case 10: return "uint16_t /* float16 */";
  case 11: return "double";
  case 12: return "uint32_t";
  case 13: return "uint64_t";
  case 16: return "uint16_t /* bfloat16 */";
  default: return "void";
  }
}

/// cType for a comment: "uint16_t (float16)", not a comment that would end
/// the header's.
static std::string commentType(int dtype) {
  std::string t = cType(dtype);
  if (size_t open = t.find(" /* "); open != std::string::npos)
    t = t.substr(0, open) + " (" + t.substr(open + 4, t.size() - open - 7) +
        ")";
  return t;
}

static const char *dtypeEnum(int dtype) {
  switch (dtype) {
  case 1: return "TCC_DTYPE_F32";
  case 2: return "TCC_DTYPE_U8";
  case 3: return "TCC_DTYPE_I8";
  case 4: return "TCC_DTYPE_U16";
  case 5: return "TCC_DTYPE_I16";
  case 6: return "TCC_DTYPE_I32";
  case 7: return "TCC_DTYPE_I64";
  case 9: return "TCC_DTYPE_BOOL";
  case 10: return "TCC_DTYPE_F16";
  case 11: return "TCC_DTYPE_F64";
  case 12: return "TCC_DTYPE_U32";
  case 13: return "TCC_DTYPE_U64";
  case 16: return "TCC_DTYPE_BF16";
  default: return "0";
  }
}

/// Whether output `index` of `func` is computed from a NonZero, Compress,
/// NonMaxSuppression or TopK with a dynamic count: its dynamic dims are
/// known only after the run.
static bool fromNonZero(func::FuncOp func, unsigned index) {
  Operation *ret = func.getBody().front().getTerminator();
  SmallVector<Value> work{ret->getOperand(index)};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(v).second)
      continue;
    if (llvm::is_contained({StringRef("onnx.NonZero"), StringRef("onnx.Compress"),
                            StringRef("onnx.NonMaxSuppression"),
                            StringRef("onnx.TopK")},
                           def->getName().getStringRef()) &&
        !cast<ShapedType>(v.getType()).hasStaticShape())
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

int tcc::ModelSignature::numRunTimeDims() const {
  int n = 0;
  for (const TensorSignature &t : outputs)
    n += llvm::popcount(t.runTimeDims);
  return n;
}

int tcc::ModelSignature::numRunTimeInputDims() const {
  int n = 0;
  for (const TensorSignature &t : inputs)
    n += llvm::popcount(t.runTimeDims);
  return n;
}

LogicalResult tcc::setRunTimeBounds(ModelSignature &sig, Operation *func) {
  auto triples = func->getAttrOfType<DenseI64ArrayAttr>(kRunTimeDimsAttr);
  ArrayRef<int64_t> values = triples ? triples.asArrayRef() : ArrayRef<int64_t>();
  for (size_t i = 0; i + 2 < values.size(); i += 3) {
    int64_t out = values[i], d = values[i + 1];
    if (out < 0 || out >= (int64_t)sig.outputs.size() || d < 0 ||
        d >= (int64_t)sig.outputs[out].dims.size() ||
        !(sig.outputs[out].runTimeDims >> d & 1))
      return func->emitError() << "internal: tcc.run_time_dims names output "
                               << out << " dim " << d;
    sig.outputs[out].dims[d] = values[i + 2];
  }
  for (const TensorSignature &t : sig.outputs)
    for (size_t d = 0; d < t.dims.size(); ++d)
      if (t.dims[d] < 0)
        return func->emitError()
               << "output '" << t.name << "' has a dim (" << d
               << ") known only at run time that tcc cannot bound";
  return success();
}

FailureOr<tcc::ModelSignature> tcc::getSignature(func::FuncOp func) {
  ModelSignature sig;
  auto read = [&](Type type, DictionaryAttr attrs, StringRef what,
                  unsigned index) -> FailureOr<TensorSignature> {
    TensorSignature t;
    auto name = attrs ? attrs.getAs<StringAttr>(kNameAttr) : StringAttr();
    auto dtype = attrs ? attrs.getAs<IntegerAttr>(kDtypeAttr) : IntegerAttr();
    t.name = name ? name.str() : (what + Twine(index)).str();
    t.dtype = dtype ? dtype.getInt() : 0;
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked)
      return func.emitError()
             << what << " '" << t.name
             << "' has a rank that depends on input values (axes, a shape, "
                "...); bind them at compile time with --bind NAME=FILE";
    auto dimNames = attrs ? attrs.getAs<ArrayAttr>(kDimNamesAttr) : ArrayAttr();
    bool dataDependent = what == "output" && !ranked.hasStaticShape() &&
                         fromNonZero(func, index);
    for (int64_t d = 0; d < ranked.getRank(); ++d) {
      if (!ranked.isDynamicDim(d))
        continue;
      if (dataDependent && d < 32) {
        t.runTimeDims |= 1u << d;
        continue;
      }
      if (what == "output")
        return func.emitError()
               << "output '" << t.name << "' has a dynamic dim " << d
               << ": it depends on input values (a shape, axes, ...); bind "
               << "them at compile time with --bind NAME=FILE";
      StringRef dimName;
      if (dimNames && d < (int64_t)dimNames.size())
        dimName = cast<StringAttr>(dimNames[d]).getValue();
      InFlightDiagnostic diag = func.emitError()
                                << what << " '" << t.name << "' has a symbolic dim "
                                << d;
      if (!dimName.empty())
        diag << " ('" << dimName << "'): pin it with --dim " << dimName
             << "=VALUE";
      else
        diag << ": pin it";
      diag << " or --shape " << t.name << "=DxDx... (symbolic dims at run "
           << "time are not supported yet)";
      return diag;
    }
    t.dims.assign(ranked.getShape().begin(), ranked.getShape().end());
    if (dimNames && (int64_t)dimNames.size() == ranked.getRank())
      for (Attribute dimName : dimNames)
        t.dimNames.push_back(cast<StringAttr>(dimName).str());
    return t;
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto t = read(func.getArgument(i).getType(), func.getArgAttrDict(i),
                  "input", i);
    if (failed(t))
      return failure();
    sig.inputs.push_back(*t);
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto t = read(func.getResultTypes()[i], func.getResultAttrDict(i),
                  "output", i);
    if (failed(t))
      return failure();
    sig.outputs.push_back(*t);
  }
  return sig;
}

static std::string commentText(StringRef s);

/// "1x3x224x224"; dim 0 of a tensor with a run-time batch is "(batch)"
/// or "(8*batch)".
static std::string dimsString(const tcc::TensorSignature &t,
                              StringRef batchDim) {
  std::string s;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    s += i ? "x" : "";
    if (i == 0 && t.batchMultiple)
      s += "(" +
           (t.batchMultiple == 1 ? "" : std::to_string(t.batchMultiple) + "*") +
           commentText(batchDim) + ")";
    else if (t.runTimeDims >> i & 1)
      s += "(<=" + std::to_string(t.dims[i]) + ")";
    else
      s += std::to_string(t.dims[i]);
  }
  return s.empty() ? "scalar" : s;
}

/// C identifiers for the parameters named after the ONNX values: `in_` or
/// `out_` and the name's ASCII letters, digits and underscores (any other
/// byte as `_`, at most 48 of them), numbered where two would be the same.
/// The prefixes keep them clear of C keywords, of macros (NULL) and of the
/// header's own parameters (workspace, context, batch, status, i, ...).
struct ParamNames {
  std::vector<std::string> inputs, outputs;
};

static ParamNames paramNames(const tcc::ModelSignature &sig) {
  std::set<std::string> used;
  auto unique = [&](StringRef prefix, StringRef name) {
    std::string base = prefix.str();
    for (char c : name.take_front(48))
      base += llvm::isAlnum(c) ? c : '_';
    std::string s = base;
    for (int k = 2; !used.insert(s).second; ++k)
      s = base + "_" + std::to_string(k);
    return s;
  };
  ParamNames names;
  for (const tcc::TensorSignature &t : sig.inputs)
    names.inputs.push_back(unique("in_", t.name));
  for (const tcc::TensorSignature &t : sig.outputs)
    names.outputs.push_back(unique("out_", t.name));
  return names;
}

/// `s` in a C string literal: printable ASCII as is but for `"`, `\\` and
/// `?` (no trigraph), any other byte as a hex escape.
static std::string cString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '?')
      out += '\\';
    if (llvm::isPrint(c))
      out += c;
    else
      out += "\\x" + llvm::utohexstr((unsigned char)c, false, 2) + "\"\"";
  }
  return out + "\"";
}

/// `s` as text in a C block comment: printable ASCII as is, but no `*/`
/// that would end the comment nor a `/*` that would seem to open one (a
/// backslash goes between the two), and any other byte (a newline that
/// could start a line of code) as `\xNN`.
static std::string commentText(StringRef s) {
  std::string out;
  for (char c : s) {
    char last = out.empty() ? 0 : out.back();
    if ((last == '*' && c == '/') || (last == '/' && c == '*'))
      out += '\\';
    if (llvm::isPrint(c))
      out += c;
    else
      out += "\\x" + llvm::utohexstr((unsigned char)c, false, 2);
  }
  return out;
}

/// NAME_run_batch: NAME_run_ctx once per sample, at each sample's data.
static void writeRunBatch(const tcc::ModelSignature &sig, StringRef name,
                          bool weights, ArrayRef<std::string> params,
                          const ParamNames &names, raw_ostream &os) {
  os << "/* Runs `batch` samples, one after the other, on buffers that hold\n"
     << " * them all (dim 0 of each batched tensor is its rows x batch)."
     << (sig.numRunTimeInputDims()
             ? "\n * The inputs hold each sample in its actual dims "
               "(input_dims); an output\n * with (<=N) dims, in a buffer for "
               "`batch` x its bounds, holds them packed\n * in their actual "
               "dims (run_time_dims, which all samples share)."
             : "")
     << " */\n"
     << "static inline tcc_status " << name << "_run_batch(tcc_context *context, "
     << (weights ? "const tcc_weights *weights,\n    " : "") << "int64_t batch";
  // The weights (params' first, when there are some) came before the batch.
  for (const std::string &p : params.drop_front(weights ? 1 : 0))
    os << ",\n    " << p;
  os << ") {\n  tcc_status status = batch < 0 ? TCC_ERROR_INVALID_ARGUMENT "
     << ": TCC_OK;\n"
     << "  for (int64_t i = 0; status == TCC_OK && i < batch; ++i)\n"
     << "    status = " << name << "_run_ctx(context, ";
  if (weights)
    os << "weights, ";
  // Sample i starts i samples in; a dim that varies at run time counts at
  // its actual value (input_dims, or for outputs run_time_dims, which the
  // first sample writes and every sample shares).
  auto arg = [&](const tcc::TensorSignature &t, StringRef param,
                 StringRef values, int &next) {
    os << param;
    int64_t elements = t.batchMultiple;
    std::string actual;
    for (size_t d = 0; d < t.dims.size(); ++d) {
      if (!(t.runTimeDims >> d & 1))
        elements *= d ? t.dims[d] : 1;
      else
        actual += " * " + values.str() + "[" + std::to_string(next++) + "]";
    }
    if (t.batchMultiple && actual.empty())
      os << " + i * " << elements;
    else if (t.batchMultiple)
      os << " + (i ? i" << (elements == 1 ? "" : " * " + std::to_string(elements))
         << actual << " : 0)";
    os << ",\n        ";
  };
  int nextInput = 0, nextOutput = 0;
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    arg(sig.inputs[i], names.inputs[i], "input_dims", nextInput);
  if (sig.numRunTimeInputDims())
    os << "input_dims,\n        ";
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    arg(sig.outputs[i], names.outputs[i], "run_time_dims", nextOutput);
  if (sig.numRunTimeDims())
    os << "run_time_dims,\n        ";
  os << "workspace);\n  return status;\n}\n\n";
}

void tcc::writeHeader(const ModelSignature &sig, StringRef name,
                      int64_t workspaceSize, StringRef modelPath,
                      const WeightsFile *weights, raw_ostream &os) {
  std::string upper = StringRef(name).upper();
  std::string guard = "TCC_MODEL_" + upper + "_H";
  ParamNames names = paramNames(sig);
  // Text from the model or the command line goes into comments through
  // commentText and into strings through cString; identifiers are
  // `name` (validated by the driver) and ParamNames.
  os << "/* " << name << ".h - generated by tcc from "
     << commentText(llvm::sys::path::filename(modelPath))
     << "; do not edit.\n *\n";
  auto describe = [&](const char *what, const std::vector<TensorSignature> &ts) {
    for (size_t i = 0; i < ts.size(); ++i) {
      os << " *   " << what << " " << i << ": " << commentText(ts[i].name)
         << "  " << commentType(ts[i].dtype) << " ["
         << dimsString(ts[i], sig.batchDim) << "]";
      std::string pinned;
      for (size_t d = 0; d < ts[i].dimNames.size(); ++d)
        if (!ts[i].dimNames[d].empty() && !(d == 0 && ts[i].batchMultiple) &&
            !(ts[i].runTimeDims >> d & 1))
          pinned += (pinned.empty() ? "" : ", ") + commentText(ts[i].dimNames[d]) + "=" +
                    std::to_string(ts[i].dims[d]);
      if (!pinned.empty())
        os << "  (symbolic dims pinned: " << pinned << ")";
      if (ts[i].runTimeDims)
        os << (what == StringRef("input ")
                   ? "  (dims in (<=N) vary at run time)"
                   : "  (dims in (<=N) are known after the run)");
      os << "\n";
    }
  };
  describe("input ", sig.inputs);
  describe("output", sig.outputs);
  if (int n = sig.numRunTimeDims())
    os << " *   run_time_dims: " << n << " int64 the run writes: the actual "
       << "value of each (<=N) dim\n *   above, output by output. Each such "
       << "output is packed row-major in its\n *   actual dims at the start "
       << "of its buffer (sized for the bounds).\n";
  if (int n = sig.numRunTimeInputDims())
    os << " *   input_dims: " << n << " int64 the caller passes: the actual "
       << "value of each (<=N) input dim\n *   above, input by input: '"
       << commentText(sig.boundedDim) << "', one value from 1 to N in all. The inputs hold\n"
       << " *   their actual dims' elements.\n";
  if (!sig.batchDim.empty())
    os << " *   batch: '" << commentText(sig.batchDim) << "' varies at run time. The calls "
       << "below run one sample;\n *   " << name << "_run_batch and " << name
       << "_run_tensors run any number, one after the other.\n";
  os << " *   workspace: " << workspaceSize << " bytes, aligned to "
     << "TCC_WORKSPACE_ALIGNMENT\n";
  if (weights)
    os << " *   weights: in " << commentText(weights->fileName) << " (" << weights->bytes
       << " bytes; open it with " << name << "_weights_open and pass the\n"
       << " *   handle to every call)\n";
  os << " *\n"
     << " * Buffers are contiguous and row-major. Calls are re-entrant: the\n"
     << " * model keeps no state, so threads may run it at once, each with\n"
     << " * its own workspace. Link with libtccrt (-ltccrt -lm"
     << (sig.gpuArch.empty() ? "" : " -ldl") << ").\n";
  if (!sig.gpuArch.empty())
    os << " *\n * Runs on an NVIDIA GPU (kernels for " << sig.gpuArch
       << ", and PTX for newer GPUs):\n"
       << " * each call copies the inputs to the GPU and the outputs back. The\n"
       << " * runtime loads the CUDA driver (libcuda.so.1) at the first call;\n"
       << " * without one, calls return TCC_ERROR_NO_DEVICE.\n";
  os << " */\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <tcc/runtime.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  os << "#define " << upper << "_WORKSPACE_SIZE " << workspaceSize << "\n\n";
  os << "/* The precision of the products of matmuls and convolutions "
     << "against weights\n   (tcc compile --precision): \"fp32\", or "
     << "\"bf16\" (bf16 pairs summed in fp32). */\n#define " << upper
     << "_PRECISION \"" << sig.precision << "\"\n\n";
  if (!sig.gpuArch.empty())
    os << "/* The GPU architecture the kernels were compiled for. */\n#define "
       << upper << "_GPU_ARCH \"" << sig.gpuArch << "\"\n\n";
  if (!sig.batchDim.empty())
    os << "/* The symbolic dim that varies at run time. */\n#define " << upper
       << "_BATCH_DIM " << cString(sig.batchDim) << "\n\n";
  if (!sig.boundedDim.empty()) {
    int64_t bound = 0;
    for (const TensorSignature &t : sig.inputs)
      for (size_t d = 0; d < t.dims.size(); ++d)
        if (t.runTimeDims >> d & 1)
          bound = t.dims[d];
    os << "/* The symbolic dim that varies at run time, up to a bound. */\n"
       << "#define " << upper << "_BOUNDED_DIM " << cString(sig.boundedDim)
       << "\n#define " << upper << "_BOUNDED_DIM_MAX " << bound << "\n\n";
  }
  // The weights handle the calls take first (after the context).
  std::string weightsParam;
  if (weights) {
    weightsParam = "const tcc_weights *weights, ";
    os << "/* The weights file this object was compiled with. */\n"
       << "#define " << upper << "_WEIGHTS_BYTES " << weights->bytes << "ull\n"
       << "#define " << upper << "_WEIGHTS_FINGERPRINT 0x"
       << llvm::utohexstr(weights->fingerprint, /*LowerCase=*/true, 16)
       << "ull\n\n"
       << "/* Maps the weights file (" << commentText(weights->fileName)
       << ", or a copy of it) for the calls below;\n"
       << " * refuses the file of another model. Close with "
       << "tcc_weights_close. */\n"
       << "static inline tcc_status " << name
       << "_weights_open(const char *path, tcc_weights **weights,\n"
       << "    tcc_error *error) {\n"
       << "  return tcc_weights_open(path, " << upper << "_WEIGHTS_BYTES, "
       << upper << "_WEIGHTS_FINGERPRINT,\n"
       << "                          weights, error);\n}\n\n"
       << "/* A weights handle on `data`, the model's " << weights->bytes
       << " bytes of weights that the\n"
       << " * caller holds (aligned to 64 bytes, kept while the handle is "
       << "used): weights\n * it read or made itself, unchecked. Close with "
       << "tcc_weights_close. */\n"
       << "static inline tcc_status " << name
       << "_weights_wrap(const void *data, tcc_weights **weights) {\n"
       << "  return tcc_weights_wrap(data, " << upper << "_WEIGHTS_BYTES, "
       << upper << "_WEIGHTS_FINGERPRINT,\n"
       << "                          weights);\n}\n\n";
  }
  os << "/* Bytes of workspace one call needs. */\n"
     << "size_t " << name << "_workspace_size(void);\n\n";
  os << "/* Runs the model. Returns TCC_ERROR_INVALID_ARGUMENT for a null\n"
     << " * buffer, or (when the workspace size is not 0) a null or\n"
     << " * misaligned workspace. */\n"
     << "tcc_status " << name << "_run(";
  std::vector<std::string> params;
  if (weights)
    params.push_back("const tcc_weights *weights");
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    params.push_back(std::string("const ") + cType(sig.inputs[i].dtype) +
                     " *" + names.inputs[i]);
  if (sig.numRunTimeInputDims())
    params.push_back("const int64_t *input_dims");
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    params.push_back(std::string(cType(sig.outputs[i].dtype)) + " *" +
                     names.outputs[i]);
  if (sig.numRunTimeDims())
    params.push_back("int64_t *run_time_dims");
  params.push_back("void *workspace");
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ",\n    " : "") << params[i];
  os << ");\n\n";
  os << "/* The same, with the buffers in arrays in model order"
     << (sig.numRunTimeInputDims() ? " (input_dims\n * last among the inputs)"
                                   : "")
     << (sig.numRunTimeDims() ? " (run_time_dims\n * last among the outputs)"
                              : "")
     << ". */\n"
     << "tcc_status " << name << "_run_packed(" << weightsParam
     << "const void *const *inputs,\n    void *const *outputs, void *workspace);\n\n";
  os << "/* The two calls above on the threads of `context` (null: the\n"
     << " * calling thread alone); bit-identical results. */\n"
     << "tcc_status " << name << "_run_ctx(tcc_context *context";
  for (const std::string &p : params)
    os << ",\n    " << p;
  os << ");\n"
     << "tcc_status " << name << "_run_packed_ctx(tcc_context *context,\n"
     << "    " << weightsParam << "const void *const *inputs, "
     << "void *const *outputs,\n    void *workspace);\n\n";
  if (!sig.batchDim.empty())
    writeRunBatch(sig, name, weights != nullptr, params, names, os);

  os << "/* Names, dtypes and shapes of the inputs and outputs. */\n"
     << "static inline const tcc_model_info *" << name << "_info(void) {\n";
  auto emitDims = [&](const char *prefix, const std::vector<TensorSignature> &ts) {
    for (size_t i = 0; i < ts.size(); ++i) {
      os << "  static const int64_t " << prefix << i << "_dims[] = {";
      for (size_t j = 0; j < ts[i].dims.size(); ++j)
        os << (j ? ", " : "") << ts[i].dims[j];
      if (ts[i].dims.empty())
        os << "0";
      os << "};\n";
    }
  };
  emitDims("in", sig.inputs);
  emitDims("out", sig.outputs);
  auto emitDimNames = [&](const char *prefix,
                          const std::vector<TensorSignature> &ts) {
    for (size_t i = 0; i < ts.size(); ++i) {
      if (ts[i].dimNames.empty())
        continue;
      os << "  static const char *const " << prefix << i << "_dim_names[] = {";
      for (size_t j = 0; j < ts[i].dimNames.size(); ++j)
        os << (j ? ", " : "") << cString(ts[i].dimNames[j]);
      os << "};\n";
    }
  };
  emitDimNames("in", sig.inputs);
  emitDimNames("out", sig.outputs);
  auto emitInfos = [&](const char *array, const char *prefix,
                       const std::vector<TensorSignature> &ts) {
    os << "  static const tcc_tensor_info " << array << "[] = {\n";
    for (size_t i = 0; i < ts.size(); ++i)
      os << "    {" << cString(ts[i].name) << ", " << dtypeEnum(ts[i].dtype)
         << ", " << ts[i].dims.size() << ", " << prefix << i << "_dims, "
         << ts[i].numElements() << "u, "
         << ts[i].numElements() * dtypeSize(ts[i].dtype) << "u, "
         << (ts[i].dimNames.empty()
                 ? std::string("0")
                 : prefix + std::to_string(i) + "_dim_names")
         << ", " << ts[i].batchMultiple << ", " << ts[i].runTimeDims
         << "u},\n";
    if (ts.empty())
      os << "    {0, (tcc_dtype)0, 0, 0, 0u, 0u, 0, 0, 0u},\n";
    os << "  };\n";
  };
  emitInfos("inputs", "in", sig.inputs);
  emitInfos("outputs", "out", sig.outputs);
  os << "  static const tcc_model_info info = {" << cString(name) << ", "
     << sig.inputs.size() << ", " << sig.outputs.size()
     << ", inputs, outputs, " << workspaceSize << "u, "
     << (weights ? upper + "_WEIGHTS_BYTES, " + upper + "_WEIGHTS_FINGERPRINT"
                 : std::string("0u, 0u"))
     << ", " << (sig.batchDim.empty() ? std::string("0") : cString(sig.batchDim))
     << ", "
     << (sig.boundedDim.empty() ? std::string("0") : cString(sig.boundedDim))
     << "};\n"
     << "  return &info;\n}\n\n";
  os << "/* The checked call: compares each tensor's dtype, rank and dims\n"
     << " * (and the workspace's size and alignment) with the model's before\n"
     << " * running it; a mismatch returns TCC_ERROR_INVALID_ARGUMENT with a\n"
     << " * message in *error (when not null) naming the tensor and dim."
     << (sig.numRunTimeDims()
             ? "\n * An output with (<=N) dims takes the bounds as its dims and "
               "an array\n * in result_dims, where the call writes its actual "
               "dims."
             : "")
     << (sig.numRunTimeInputDims()
             ? "\n * An input with (<=N) dims takes its actual dims; the call "
               "passes them\n * on as input_dims."
             : "")
     << " */\n";
  const char *tensorParams =
      "const tcc_tensor *inputs, int32_t num_inputs,\n"
      "    tcc_tensor *outputs, int32_t num_outputs, void *workspace,\n"
      "    size_t workspace_bytes, tcc_error *error";
  const char *tensorArgs = "inputs, num_inputs, outputs, num_outputs,\n"
                           "      workspace, workspace_bytes, error";
  for (bool withContext : {false, true}) {
    if (withContext)
      os << "/* The checked call on the threads of `context`. */\n";
    os << "static inline tcc_status " << name << "_run_tensors"
       << (withContext ? "_ctx(tcc_context *context,\n    " : "(")
       << weightsParam << tensorParams << ") {\n";
    if (weights)
      os << "  return tcc_run_tensors_weights("
         << (withContext ? "context" : "0") << ", weights, " << name
         << "_info(),\n      " << name << "_run_packed_ctx, ";
    else if (withContext)
      os << "  return tcc_run_tensors_ctx(context, " << name << "_info(), "
         << name << "_run_packed_ctx,\n      ";
    else
      os << "  return tcc_run_tensors(" << name << "_info(), " << name
         << "_run_packed,\n      ";
    os << tensorArgs << ");\n}\n\n";
  }
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
}
