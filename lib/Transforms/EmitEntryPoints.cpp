//===- EmitEntryPoints.cpp - tcc-emit-entry-points ------------------------===//
//
// Adds the model's public C ABI (see include/tcc/runtime.h) around the
// lowered @main, in the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#include "tcc/Header.h"
#include "tcc/Passes.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_EMITENTRYPOINTS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

constexpr int32_t kInvalidArgument = 1; // TCC_ERROR_INVALID_ARGUMENT
constexpr int64_t kRunScopeBytes = 256; // TCC_RUN_SCOPE_BYTES

struct EmitEntryPoints : tcc::impl::EmitEntryPointsBase<EmitEntryPoints> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<LLVM::LLVMFuncOp>("main");
    if (!main) {
      module.emitError("tcc-emit-entry-points: no lowered @main");
      return signalPassFailure();
    }
    auto numInputsAttr = main->getAttrOfType<IntegerAttr>("tcc.num_inputs");
    auto wsAttr = main->getAttrOfType<IntegerAttr>("tcc.workspace_size");
    if (!numInputsAttr || !wsAttr) {
      main.emitError("tcc-emit-entry-points: @main lacks tcc.num_inputs or "
                     "tcc.workspace_size");
      return signalPassFailure();
    }
    auto mainType = main.getFunctionType();
    bool takesContext = main->hasAttr(tcc::attr::kTakesContext);
    auto weightsBytes =
        main->getAttrOfType<IntegerAttr>(tcc::attr::kWeightsBytes);
    auto weightsFingerprint =
        main->getAttrOfType<IntegerAttr>(tcc::attr::kWeightsFingerprint);
    bool takesWeights = weightsBytes && weightsFingerprint;
    // The weights, inputs + outputs, then the workspace and the context.
    unsigned numBuffers =
        mainType.getNumParams() - 1 - takesContext - takesWeights;
    unsigned numInputs = numInputsAttr.getInt();
    int64_t wsSize = wsAttr.getInt();
    for (Type t : mainType.getParams())
      if (!isa<LLVM::LLVMPointerType>(t)) {
        main.emitError("tcc-emit-entry-points: @main must take pointers only");
        return signalPassFailure();
      }

    // Kernels (tcc-outline-kernels) stay functions of their own: inlined,
    // @main would again be one function of thousands of loop nests.
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
      if (!fn->hasAttr(tcc::attr::kKernel))
        continue;
      fn.setLinkage(LLVM::Linkage::Internal);
      fn.setNoInline(true);
    }

    lowerParallelCalls(module);

    MLIRContext *ctx = &getContext();
    std::string prefix = modelName;
    main.setSymName(prefix + "_main");
    main.setLinkage(LLVM::Linkage::Internal);

    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = main.getLoc();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto i32 = b.getI32Type(), i64 = b.getI64Type();
    auto constI32 = [&](int32_t v) {
      return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
    };

    // i64 NAME_workspace_size(void)
    auto sizeFn = LLVM::LLVMFuncOp::create(
        b, loc, prefix + "_workspace_size", LLVM::LLVMFunctionType::get(i64, {}));
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(sizeFn.addEntryBlock(b));
      LLVM::ReturnOp::create(
          b, loc,
          LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(wsSize))
              .getResult());
    }

    // i32 NAME_run_ctx(ptr context, [ptr weights,] ptr..., ptr workspace):
    // checks, then calls the model.
    SmallVector<Type> params(numBuffers + 2 + takesWeights, ptrTy);
    auto runCtxFn = LLVM::LLVMFuncOp::create(
        b, loc, prefix + "_run_ctx", LLVM::LLVMFunctionType::get(i32, params));
    {
      OpBuilder::InsertionGuard g(b);
      Block *entry = runCtxFn.addEntryBlock(b);
      Block *fail = b.createBlock(&runCtxFn.getBody());
      b.setInsertionPointToStart(fail);
      LLVM::ReturnOp::create(b, loc, constI32(kInvalidArgument).getResult());

      b.setInsertionPointToStart(entry);
      auto buffers = entry->getArguments().drop_front(1 + takesWeights);
      Value null = LLVM::ZeroOp::create(b, loc, ptrTy);
      Value bad = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                           b.getBoolAttr(false));
      // The weights' data, when the caller's weights are the model's.
      Value weights;
      if (takesWeights) {
        weights =
            LLVM::CallOp::create(
                b, loc,
                runtimeFn(module, "tcc_weights_bind", {ptrTy, i64, i64}, ptrTy),
                ValueRange{
                    entry->getArgument(1),
                    LLVM::ConstantOp::create(b, loc, i64, weightsBytes),
                    LLVM::ConstantOp::create(b, loc, i64, weightsFingerprint)})
                .getResult();
        bad = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, weights,
                                   null);
      }
      unsigned numChecked = wsSize > 0 ? numBuffers + 1 : numBuffers;
      if (wsSize > 0) {
        Value addr =
            LLVM::PtrToIntOp::create(b, loc, i64, buffers[numBuffers]);
        Value low = LLVM::AndOp::create(
            b, loc, addr,
            LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(63)));
        Value misaligned = LLVM::ICmpOp::create(
            b, loc, LLVM::ICmpPredicate::ne, low,
            LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0)));
        bad = LLVM::OrOp::create(b, loc, bad, misaligned);
      }
      Block *call = b.createBlock(&runCtxFn.getBody());
      // The block the checks go on in.
      Block *tail = entry;
      // No null buffer: a loop over them, stored on the stack. (A chain of
      // comparisons, one per buffer, took LLVM's SLP vectorizer and
      // ConstraintElimination time cubic in their number: 35 s at 1,200.)
      b.setInsertionPointToEnd(tail);
      if (numChecked > 0) {
        Block *next = b.createBlock(call);
        b.setInsertionPointToEnd(tail);
        Block *loop = branchIfAnyNull(b, loc, buffers.take_front(numChecked),
                                      fail, next);
        b.setInsertionPointToEnd(tail);
        LLVM::CondBrOp::create(b, loc, bad, fail, loop);
        tail = next;
        b.setInsertionPointToEnd(tail);
        bad = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                       b.getBoolAttr(false));
      }
      // A symbolic dim that varies up to a bound: its value in each input
      // that holds it (input_dims, the last input) must be one value within
      // 1 and the bound, or a loop would run past the buffers.
      auto bounded =
          main->getAttrOfType<DenseI64ArrayAttr>("tcc.run_time_inputs");
      if (bounded && numInputs > 0 && !bounded.empty()) {
        Block *checkDims = b.createBlock(call);
        b.setInsertionPointToEnd(tail);
        LLVM::CondBrOp::create(b, loc, bad, fail, checkDims);
        b.setInsertionPointToStart(checkDims);
        Value dims = buffers[numInputs - 1];
        ArrayRef<int64_t> triples = bounded.asArrayRef();
        Value first;
        bad = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                       b.getBoolAttr(false));
        for (size_t k = 0; k + 2 < triples.size(); k += 3) {
          Value at = LLVM::GEPOp::create(b, loc, ptrTy, i64, dims,
                                         ArrayRef<LLVM::GEPArg>{(int32_t)(k / 3)});
          Value v = LLVM::LoadOp::create(b, loc, i64, at);
          auto cmp = [&](LLVM::ICmpPredicate p, Value x, Value y) {
            bad = LLVM::OrOp::create(b, loc, bad,
                                     LLVM::ICmpOp::create(b, loc, p, x, y));
          };
          cmp(LLVM::ICmpPredicate::slt, v,
              LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1)));
          cmp(LLVM::ICmpPredicate::sgt, v,
              LLVM::ConstantOp::create(b, loc, i64,
                                       b.getI64IntegerAttr(triples[k + 2])));
          if (first)
            cmp(LLVM::ICmpPredicate::ne, v, first);
          else
            first = v;
        }
      }
      LLVM::CondBrOp::create(b, loc, bad, fail, call);
      b.setInsertionPointToStart(call);
      SmallVector<Value> args;
      if (takesWeights)
        args.push_back(weights);
      llvm::append_range(args, buffers);
      Value context = entry->getArgument(0);
      if (takesContext)
        args.push_back(context);
      // A model with parallel loops runs between tcc_run_begin and
      // tcc_run_end, which bind the caller to its CPU of the context and
      // restore its affinity from a scope on the stack.
      Value scope;
      if (module.lookupSymbol("tcc_parallel_for")) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&runCtxFn.getBody().front());
        scope = LLVM::AllocaOp::create(
            b, loc, ptrTy, b.getI64Type(),
            LLVM::ConstantOp::create(b, loc, i64,
                                     b.getI64IntegerAttr(kRunScopeBytes / 8)),
            /*alignment=*/8);
      }
      auto bracket = [&](StringRef name) {
        if (scope)
          LLVM::CallOp::create(b, loc, runtimeFn(module, name, {ptrTy, ptrTy}),
                               ValueRange{context, scope});
      };
      bracket("tcc_run_begin");
      auto run = LLVM::CallOp::create(b, loc, main, args);
      bracket("tcc_run_end");
      // A @main that returns a status (a CUDA model's) passes it on; one
      // with branch checks (onnx.CheckCondition) returns theirs.
      Value status = run.getNumResults() ? run.getResult()
                                         : constI32(0).getResult();
      if (module.lookupSymbol(tcc::kBranchCheckFn)) {
        Value checks = LLVM::CallOp::create(
                           b, loc, runtimeFn(module, "tcc_run_status", {}, i32),
                           ValueRange{})
                           .getResult();
        Value failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                            status, constI32(0));
        status = LLVM::SelectOp::create(b, loc, failed, status, checks);
      }
      LLVM::ReturnOp::create(b, loc, status);
    }
    // i32 NAME_run(ptr..., ptr workspace): on the calling thread.
    withNullContext(b, prefix + "_run", runCtxFn);

    // i32 NAME_run_packed_ctx(ptr context, [ptr weights,] ptr inputs,
    //                         ptr outputs, ptr workspace)
    auto packedFn = LLVM::LLVMFuncOp::create(
        b, loc, prefix + "_run_packed_ctx",
        LLVM::LLVMFunctionType::get(
            i32, SmallVector<Type>(4 + takesWeights, ptrTy)));
    {
      OpBuilder::InsertionGuard g(b);
      Block *entry = packedFn.addEntryBlock(b);
      Block *fail = b.createBlock(&packedFn.getBody());
      b.setInsertionPointToStart(fail);
      LLVM::ReturnOp::create(b, loc, constI32(kInvalidArgument).getResult());
      Block *body = b.createBlock(&packedFn.getBody());

      b.setInsertionPointToStart(entry);
      Value inputs = entry->getArgument(1 + takesWeights),
            outputs = entry->getArgument(2 + takesWeights);
      Value null = LLVM::ZeroOp::create(b, loc, ptrTy);
      Value bad = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                           b.getBoolAttr(false));
      if (numInputs > 0)
        bad = LLVM::OrOp::create(
            b, loc, bad,
            LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, inputs,
                                 null));
      if (numBuffers > numInputs)
        bad = LLVM::OrOp::create(
            b, loc, bad,
            LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, outputs,
                                 null));
      LLVM::CondBrOp::create(b, loc, bad, fail, body);

      b.setInsertionPointToStart(body);
      SmallVector<Value> args(
          entry->getArguments().take_front(1 + takesWeights));
      for (unsigned i = 0; i < numBuffers; ++i) {
        bool isInput = i < numInputs;
        int32_t idx = isInput ? i : i - numInputs;
        Value addr = LLVM::GEPOp::create(b, loc, ptrTy, ptrTy,
                                         isInput ? inputs : outputs,
                                         ArrayRef<LLVM::GEPArg>{idx});
        args.push_back(LLVM::LoadOp::create(b, loc, ptrTy, addr));
      }
      args.push_back(entry->getArguments().back());
      Value status = LLVM::CallOp::create(b, loc, runCtxFn, args).getResult();
      LLVM::ReturnOp::create(b, loc, status);
    }
    // i32 NAME_run_packed(ptr inputs, ptr outputs, ptr workspace)
    withNullContext(b, prefix + "_run_packed", packedFn);
  }

  /// The declaration of the runtime function `name` (include/tcc/runtime.h),
  /// added at the module's end when it is not there yet; `result` null:
  /// void.
  static LLVM::LLVMFuncOp runtimeFn(ModuleOp module, StringRef name,
                                    ArrayRef<Type> params,
                                    Type result = nullptr) {
    if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return fn;
    auto b = OpBuilder::atBlockEnd(module.getBody());
    if (!result)
      result = LLVM::LLVMVoidType::get(module.getContext());
    return LLVM::LLVMFuncOp::create(
        b, module.getLoc(), name, LLVM::LLVMFunctionType::get(result, params));
  }

  /// Emits, at `b`'s insertion point, the stores of `pointers` into an
  /// array on the stack and, in blocks before `next`, a loop over them that
  /// branches to `fail` when one is null and to `next` when none is; returns
  /// the loop's first block, to which the insertion block must then branch.
  static Block *branchIfAnyNull(OpBuilder &b, Location loc,
                                ValueRange pointers, Block *fail, Block *next) {
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    auto i64 = b.getI64Type();
    auto constant = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
    };
    Value count = constant(pointers.size());
    Value array = LLVM::AllocaOp::create(b, loc, ptrTy, ptrTy, count,
                                         /*alignment=*/8);
    for (auto [i, p] : llvm::enumerate(pointers)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptrTy, ptrTy, array,
                                       ArrayRef<LLVM::GEPArg>{(int32_t)i});
      LLVM::StoreOp::create(b, loc, p, slot);
    }
    Region *region = next->getParent();
    Block *start = b.createBlock(region, Region::iterator(next));
    Block *header = b.createBlock(region, Region::iterator(next), {i64}, {loc});
    Block *body = b.createBlock(region, Region::iterator(next));
    // start: into the loop at 0.
    b.setInsertionPointToEnd(start);
    LLVM::BrOp::create(b, loc, ValueRange{constant(0)}, header);
    // header(i): i < count ? body : next.
    b.setInsertionPointToEnd(header);
    Value i = header->getArgument(0);
    Value more = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, i,
                                      constant(pointers.size()));
    LLVM::CondBrOp::create(b, loc, more, body, next);
    // body: array[i] == null ? fail : header(i + 1).
    b.setInsertionPointToEnd(body);
    Value slot = LLVM::GEPOp::create(b, loc, ptrTy, ptrTy, array,
                                     ArrayRef<LLVM::GEPArg>{i});
    Value p = LLVM::LoadOp::create(b, loc, ptrTy, slot);
    Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, p,
                                        LLVM::ZeroOp::create(b, loc, ptrTy));
    Value nextI = LLVM::AddOp::create(b, loc, i, constant(1));
    LLVM::CondBrOp::create(b, loc, isNull, fail, ValueRange{}, header,
                           ValueRange{nextI});
    return start;
  }

  /// Adds `name`, which calls `withContext` (whose first parameter is the
  /// context) with a null context and its own arguments.
  void withNullContext(OpBuilder &b, const std::string &name,
                       LLVM::LLVMFuncOp withContext) {
    Location loc = withContext.getLoc();
    auto type = withContext.getFunctionType();
    auto fn = LLVM::LLVMFuncOp::create(
        b, loc, name,
        LLVM::LLVMFunctionType::get(type.getReturnType(),
                                    type.getParams().drop_front()));
    OpBuilder::InsertionGuard g(b);
    Block *entry = fn.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    SmallVector<Value> args{
        LLVM::ZeroOp::create(b, loc, type.getParams().front())};
    llvm::append_range(args, entry->getArguments());
    Value status = LLVM::CallOp::create(b, loc, withContext, args).getResult();
    LLVM::ReturnOp::create(b, loc, status);
  }

  /// Turns each call f(args..., 0, n, context) of a `tcc.parallel_chunk`
  /// function (tcc-parallelize-loops) into tcc_parallel_for(context, n,
  /// f_task, argv): argv holds the arguments in 8-byte slots, and
  /// f_task(argv, begin, end) calls f(argv's values..., begin, end, null).
  void lowerParallelCalls(ModuleOp module) {
    SmallVector<LLVM::LLVMFuncOp> chunks;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr(tcc::attr::kParallelChunk))
        chunks.push_back(fn);
    if (chunks.empty())
      return;
    MLIRContext *ctx = module.getContext();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto voidTy = LLVM::LLVMVoidType::get(ctx);
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    LLVM::LLVMFuncOp parallelFor =
        runtimeFn(module, "tcc_parallel_for", {ptrTy, i64, ptrTy, ptrTy});

    // The calls of the chunks, found in one walk.
    llvm::StringMap<SmallVector<LLVM::CallOp>> callsOf;
    module.walk([&](LLVM::CallOp call) {
      if (std::optional<StringRef> callee = call.getCallee())
        callsOf[*callee].push_back(call);
    });
    for (LLVM::LLVMFuncOp chunk : chunks) {
      SmallVector<LLVM::CallOp> calls = callsOf.lookup(chunk.getSymName());
      Location loc = chunk.getLoc();
      chunk.setLinkage(LLVM::Linkage::Internal);
      ArrayRef<Type> params = chunk.getFunctionType().getParams();
      unsigned numArgs = params.size() - 3; // then begin, end, context
      auto task = LLVM::LLVMFuncOp::create(
          b, loc, (chunk.getSymName() + "_task").str(),
          LLVM::LLVMFunctionType::get(voidTy, {ptrTy, i64, i64}));
      task.setLinkage(LLVM::Linkage::Internal);
      {
        OpBuilder::InsertionGuard g(b);
        Block *entry = task.addEntryBlock(b);
        b.setInsertionPointToStart(entry);
        SmallVector<Value> args;
        for (unsigned i = 0; i < numArgs; ++i) {
          Value slot = LLVM::GEPOp::create(
              b, loc, ptrTy, i64, entry->getArgument(0),
              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
          args.push_back(LLVM::LoadOp::create(b, loc, params[i], slot));
        }
        args.append({entry->getArgument(1), entry->getArgument(2),
                     LLVM::ZeroOp::create(b, loc, ptrTy)});
        LLVM::CallOp::create(b, loc, chunk, args);
        LLVM::ReturnOp::create(b, loc, ValueRange());
      }

      for (LLVM::CallOp call : calls) {
        auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
        OpBuilder eb = OpBuilder::atBlockBegin(&caller.getBody().front());
        Value one = LLVM::ConstantOp::create(eb, loc, i64,
                                             eb.getI64IntegerAttr(1));
        Value argv = LLVM::AllocaOp::create(
            eb, loc, ptrTy,
            LLVM::LLVMArrayType::get(i64, std::max(numArgs, 1u)), one,
            /*alignment=*/8);
        OpBuilder cb(call);
        auto operands = call.getArgOperands();
        for (unsigned i = 0; i < numArgs; ++i) {
          Value slot = LLVM::GEPOp::create(
              cb, loc, ptrTy, i64, argv,
              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
          LLVM::StoreOp::create(cb, loc, operands[i], slot);
        }
        Value fn = LLVM::AddressOfOp::create(cb, loc, task);
        LLVM::CallOp::create(cb, loc, parallelFor,
                             ValueRange{operands[numArgs + 2],
                                        operands[numArgs + 1], fn, argv});
        call.erase();
      }
    }
  }
};

} // namespace
