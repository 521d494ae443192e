//===- OutlineKernels.cpp - tcc-outline-kernels ---------------------------===//
//
// Outlines each compute op of the bufferized @main into a private function
// (a kernel), called from @main in its place.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// `k<index>_<op>[_<static loop ranges>]`, e.g. k3_matmul_32x768x768.
std::string kernelName(Operation *op, int index) {
  std::string name = "k" + std::to_string(index) + "_" +
                     op->getName().stripDialect().str();
  for (char &c : name)
    if (!llvm::isAlnum(c))
      c = '_';
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    for (size_t i = 0; i < ranges.size(); ++i)
      name += (i ? "x" : "_") + (ShapedType::isDynamic(ranges[i])
                                     ? std::string("d")
                                     : std::to_string(ranges[i]));
  }
  return name;
}

struct OutlineKernels : tcc::impl::OutlineKernelsBase<OutlineKernels> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    SmallVector<Operation *> computeOps;
    for (Operation &op : main.getBody().front())
      if (op.getNumResults() == 0 &&
          (isa<linalg::LinalgOp>(op) || op.getNumRegions() > 0))
        computeOps.push_back(&op);
    SymbolTable symbols(module);
    int index = 0;
    for (Operation *op : computeOps)
      outline(op, modelName + "_" + kernelName(op, index++), symbols);
  }

  /// Moves `op` into function `name`; leaves it in place when something it
  /// reads cannot be passed.
  void outline(Operation *op, const std::string &name, SymbolTable &symbols) {
    llvm::SetVector<Operation *> recreated;
    llvm::SetVector<Value> args;
    if (!tcc::collectOutlinedInputs(op, recreated, args))
      return;

    OpBuilder b(op);
    auto type = b.getFunctionType(ValueRange(args.getArrayRef()).getTypes(), {});
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(
        op->getParentOfType<ModuleOp>().getBody());
    auto kernel =
        func::FuncOp::create(moduleBuilder, op->getLoc(), name, type);
    kernel.setPrivate();
    kernel->setAttr("tcc.kernel", b.getUnitAttr());
    symbols.insert(kernel);
    Block *body = kernel.addEntryBlock();
    IRMapping map;
    map.map(args.getArrayRef(), body->getArguments());
    OpBuilder kb = OpBuilder::atBlockEnd(body);
    for (Operation *def : recreated)
      kb.clone(*def, map);
    kb.clone(*op, map);
    func::ReturnOp::create(kb, op->getLoc());
    func::CallOp::create(b, op->getLoc(), kernel, args.getArrayRef());
    op->erase();
  }
};

} // namespace

namespace {
/// Ops a kernel recreates instead of taking their result as an argument:
/// free to compute, and their results may be views a bare-pointer argument
/// cannot carry (strided subviews).
bool isRecreated(Operation *op) {
  return isa<arith::ConstantOp, memref::GetGlobalOp, memref::SubViewOp,
             memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::ReinterpretCastOp, memref::CastOp>(op);
}

/// Whether `value` can be a kernel argument: a scalar, or a static memref
/// with the identity layout (what the bare-pointer convention passes).
bool isArgument(Value value) {
  if (auto type = dyn_cast<MemRefType>(value.getType()))
    return type.hasStaticShape() && type.getLayout().isIdentity();
  return value.getType().isIntOrIndexOrFloat();
}

} // namespace

bool tcc::collectOutlinedInputs(Operation *op,
                                llvm::SetVector<Operation *> &recreated,
                                llvm::SetVector<Value> &args) {
  llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  std::function<bool(Value)> collect = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && isRecreated(def)) {
      if (recreated.contains(def))
        return true;
      for (Value operand : def->getOperands())
        if (!collect(operand))
          return false;
      recreated.insert(def);
      return true;
    }
    if (!isArgument(v))
      return false;
    args.insert(v);
    return true;
  };
  return llvm::all_of(used, collect);
}
