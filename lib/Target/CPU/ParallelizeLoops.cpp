//===- ParallelizeLoops.cpp - tcc-parallelize-loops -----------------------===//
//
// Outlines the loops marked `tcc.parallel` into chunk functions over a range
// of their iterations, and threads the call's context (`tcc_context *`)
// from @main to the kernels that split work over it.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

namespace {

using tcc::attr::kParallel;
using tcc::attr::kTakesContext;

/// Appends the context argument to `fn`; returns it.
Value addContextArgument(func::FuncOp fn) {
  auto ptrType = LLVM::LLVMPointerType::get(fn.getContext());
  unsigned index = fn.getNumArguments();
  if (failed(fn.insertArgument(index, ptrType,
                               DictionaryAttr::get(fn.getContext()),
                               fn.getLoc())))
    return nullptr;
  fn->setAttr(kTakesContext, UnitAttr::get(fn.getContext()));
  return fn.getArgument(index);
}

struct ParallelizeLoops
    : tcc::impl::ParallelizeLoopsBase<ParallelizeLoops> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal() || main->hasAttr(kTakesContext))
      return;
    if (!addContextArgument(main)) {
      main.emitError("tcc-parallelize-loops: cannot add the context argument");
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    // The calls of each function, found in one walk.
    module.walk([&](func::CallOp call) {
      callsOf[call.getCalleeAttr().getAttr()].push_back(call);
    });
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (fn.isExternal())
        continue;
      SmallVector<scf::ForOp> loops;
      fn.walk([&](scf::ForOp loop) {
        if (!loop->hasAttr(kParallel))
          return;
        // Inside a parallel loop (tcc-fuse-attention's blocks), on the
        // thread that runs the iteration.
        for (auto outer = loop->getParentOfType<scf::ForOp>(); outer;
             outer = outer->getParentOfType<scf::ForOp>())
          if (outer->hasAttr(kParallel)) {
            loop->removeAttr(kParallel);
            return;
          }
        loops.push_back(loop);
      });
      if (loops.empty())
        continue;
      Value context = fn == main ? main.getArguments().back() : Value();
      auto getContext = [&] {
        if (!context && (context = addContextArgument(fn)))
          passContext(fn);
        return context;
      };
      int chunks = 0;
      for (scf::ForOp loop : loops)
        if (failed(outline(loop,
                           (fn.getSymName() + "_par" + Twine(chunks)).str(),
                           getContext, symbols)))
          return signalPassFailure();
        else
          chunks += !loop; // erased: outlined
    }
  }

  /// Replaces `loop` by a call of a new function `name` running a range of
  /// its iterations (and erases it); leaves it serial when that cannot be
  /// done.
  LogicalResult outline(scf::ForOp &loop, const std::string &name,
                        llvm::function_ref<Value()> getContext,
                        SymbolTable &symbols) {
    loop->removeAttr(kParallel);
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    llvm::SetVector<Operation *> recreated;
    llvm::SetVector<Value> args;
    // A run-time upper bound (a loop over blocks of a bounded dim) gives a
    // run-time trip count.
    if (!lb || !step || *step <= 0 || loop.getNumResults() ||
        !tcc::collectOutlinedInputs(loop, recreated, args))
      return success();
    Value context = getContext();
    if (!context)
      return loop.emitError("tcc-parallelize-loops: cannot add the context "
                            "argument to the function");

    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto indexType = b.getIndexType();
    SmallVector<Type> types(ValueRange(args.getArrayRef()).getTypes());
    types.append({indexType, indexType, context.getType()});
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(
        loop->getParentOfType<ModuleOp>().getBody());
    auto chunk = func::FuncOp::create(moduleBuilder, loc, name,
                                      b.getFunctionType(types, {}));
    chunk.setPrivate();
    chunk->setAttr(tcc::attr::kParallelChunk, b.getUnitAttr());
    symbols.insert(chunk);

    Block *body = chunk.addEntryBlock();
    IRMapping map;
    map.map(args.getArrayRef(), body->getArguments().take_front(args.size()));
    OpBuilder cb = OpBuilder::atBlockEnd(body);
    for (Operation *def : recreated)
      cb.clone(*def, map);
    auto index = [&](OpBuilder &builder, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto range = scf::ForOp::create(cb, loc, body->getArgument(args.size()),
                                    body->getArgument(args.size() + 1),
                                    index(cb, 1));
    cb.setInsertionPointToStart(range.getBody());
    Value iv = arith::AddIOp::create(
        cb, loc,
        arith::MulIOp::create(cb, loc, range.getInductionVar(),
                              index(cb, *step)),
        index(cb, *lb));
    map.map(loop.getInductionVar(), iv);
    for (Operation &op : loop.getBody()->without_terminator())
      cb.clone(op, map);
    cb.setInsertionPointAfter(range);
    func::ReturnOp::create(cb, loc);

    Value trips =
        ub ? index(b, llvm::divideCeil(*ub - *lb, *step))
           : arith::DivUIOp::create(
                 b, loc,
                 arith::AddIOp::create(
                     b, loc,
                     arith::SubIOp::create(b, loc, loop.getUpperBound(),
                                           index(b, *lb)),
                     index(b, *step - 1)),
                 index(b, *step))
                 .getResult();
    SmallVector<Value> operands(args.begin(), args.end());
    operands.append({index(b, 0), trips, context});
    func::CallOp::create(b, loc, chunk, operands);
    tcc::markDisjointArguments(chunk, args.getArrayRef());
    loop.erase();
    loop = nullptr;
    return success();
  }

  /// Rewrites the calls of `kernel` (which now takes a context) to pass
  /// their caller's context, or null.
  void passContext(func::FuncOp kernel) {
    for (func::CallOp call : callsOf.lookup(kernel.getSymNameAttr())) {
      OpBuilder b(call);
      auto caller = call->getParentOfType<func::FuncOp>();
      Value context =
          caller && caller->hasAttr(kTakesContext)
              ? caller.getArguments().back()
              : LLVM::ZeroOp::create(b, call.getLoc(),
                                     LLVM::LLVMPointerType::get(
                                         call.getContext()))
                    .getResult();
      SmallVector<Value> operands(call.getOperands());
      operands.push_back(context);
      func::CallOp::create(b, call.getLoc(), kernel, operands);
      call.erase();
    }
  }

  DenseMap<StringAttr, SmallVector<func::CallOp>> callsOf;
};

} // namespace
