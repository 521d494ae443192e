//===- EmitEntryPoints.cpp - tcc-emit-entry-points ------------------------===//
//
// Adds the model's public C ABI (see include/tcc/runtime.h) around the
// lowered @main, in the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_EMITENTRYPOINTS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

constexpr int32_t kInvalidArgument = 1; // TCC_ERROR_INVALID_ARGUMENT

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
    unsigned numBuffers = mainType.getNumParams() - 1; // inputs + outputs
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
      if (!fn->hasAttr("tcc.kernel"))
        continue;
      fn.setLinkage(LLVM::Linkage::Internal);
      fn.setNoInline(true);
    }

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

    // i32 NAME_run(ptr..., ptr workspace): checks, then calls the model.
    SmallVector<Type> params(numBuffers + 1, ptrTy);
    auto runFn = LLVM::LLVMFuncOp::create(
        b, loc, prefix + "_run", LLVM::LLVMFunctionType::get(i32, params));
    {
      OpBuilder::InsertionGuard g(b);
      Block *entry = runFn.addEntryBlock(b);
      Block *fail = b.createBlock(&runFn.getBody());
      b.setInsertionPointToStart(fail);
      LLVM::ReturnOp::create(b, loc, constI32(kInvalidArgument).getResult());

      b.setInsertionPointToStart(entry);
      Value null = LLVM::ZeroOp::create(b, loc, ptrTy);
      Value bad = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                           b.getBoolAttr(false));
      unsigned numChecked = wsSize > 0 ? numBuffers + 1 : numBuffers;
      for (unsigned i = 0; i < numChecked; ++i) {
        Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                            entry->getArgument(i), null);
        bad = LLVM::OrOp::create(b, loc, bad, isNull);
      }
      if (wsSize > 0) {
        Value addr = LLVM::PtrToIntOp::create(b, loc, i64,
                                              entry->getArgument(numBuffers));
        Value low = LLVM::AndOp::create(
            b, loc, addr,
            LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(63)));
        Value misaligned = LLVM::ICmpOp::create(
            b, loc, LLVM::ICmpPredicate::ne, low,
            LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0)));
        bad = LLVM::OrOp::create(b, loc, bad, misaligned);
      }
      Block *call = b.createBlock(&runFn.getBody());
      b.setInsertionPointToEnd(entry);
      LLVM::CondBrOp::create(b, loc, bad, fail, call);
      b.setInsertionPointToStart(call);
      LLVM::CallOp::create(b, loc, main, call->getParent()->front().getArguments());
      LLVM::ReturnOp::create(b, loc, constI32(0).getResult());
    }

    // i32 NAME_run_packed(ptr inputs, ptr outputs, ptr workspace)
    auto packedFn = LLVM::LLVMFuncOp::create(
        b, loc, prefix + "_run_packed",
        LLVM::LLVMFunctionType::get(i32, {ptrTy, ptrTy, ptrTy}));
    {
      OpBuilder::InsertionGuard g(b);
      Block *entry = packedFn.addEntryBlock(b);
      Block *fail = b.createBlock(&packedFn.getBody());
      b.setInsertionPointToStart(fail);
      LLVM::ReturnOp::create(b, loc, constI32(kInvalidArgument).getResult());
      Block *body = b.createBlock(&packedFn.getBody());

      b.setInsertionPointToStart(entry);
      Value null = LLVM::ZeroOp::create(b, loc, ptrTy);
      Value bad = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                           b.getBoolAttr(false));
      if (numInputs > 0)
        bad = LLVM::OrOp::create(
            b, loc, bad,
            LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                 entry->getArgument(0), null));
      if (numBuffers > numInputs)
        bad = LLVM::OrOp::create(
            b, loc, bad,
            LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                 entry->getArgument(1), null));
      LLVM::CondBrOp::create(b, loc, bad, fail, body);

      b.setInsertionPointToStart(body);
      SmallVector<Value> args;
      for (unsigned i = 0; i < numBuffers; ++i) {
        bool isInput = i < numInputs;
        Value array = entry->getArgument(isInput ? 0 : 1);
        int32_t idx = isInput ? i : i - numInputs;
        Value addr = LLVM::GEPOp::create(b, loc, ptrTy, ptrTy, array,
                                         ArrayRef<LLVM::GEPArg>{idx});
        args.push_back(LLVM::LoadOp::create(b, loc, ptrTy, addr));
      }
      args.push_back(entry->getArgument(2));
      Value status = LLVM::CallOp::create(b, loc, runFn, args).getResult();
      LLVM::ReturnOp::create(b, loc, status);
    }
  }
};

} // namespace
