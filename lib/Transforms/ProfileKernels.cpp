//===- ProfileKernels.cpp - tcc-profile-kernels ---------------------------===//
//
// Brackets each kernel call of @main with tcc_profile_enter(id) and
// tcc_profile_exit(id), ids in call order: the instrumentation of tcc bench
// --profile (which knows the call sites in the same order).
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_PROFILEKERNELS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

struct ProfileKernels : tcc::impl::ProfileKernelsBase<ProfileKernels> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main)
      return;
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Type i32 = b.getI32Type();
    auto declare = [&](StringRef name) {
      if (auto fn = module.lookupSymbol<func::FuncOp>(name))
        return fn;
      auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                     b.getFunctionType({i32}, {}));
      fn.setPrivate();
      return fn;
    };
    func::FuncOp enter = declare("tcc_profile_enter");
    func::FuncOp exit = declare("tcc_profile_exit");
    int32_t id = 0;
    main.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || !callee->hasAttr(tcc::attr::kKernel))
        return;
      OpBuilder at(call);
      Value site = arith::ConstantIntOp::create(at, call.getLoc(), i32, id++);
      func::CallOp::create(at, call.getLoc(), enter, ValueRange{site});
      at.setInsertionPointAfter(call);
      func::CallOp::create(at, call.getLoc(), exit, ValueRange{site});
    });
  }
};

} // namespace
