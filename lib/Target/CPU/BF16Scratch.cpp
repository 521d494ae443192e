//===- BF16Scratch.cpp - broadcast inputs rounded to bf16 once -----------===//
//
// tcc-vectorize-contractions with bf16 pairs (Contractions.h): the input a
// paired op broadcasts is rounded to bf16 by one vectorized loop before the
// op, into scratch memory past the workspace @main planned.
//
//===----------------------------------------------------------------------===//
#include "Contractions.h"
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tcc::cpu;

namespace {

/// Elements one vectorized step rounds (vcvtneps2bf16 on 512 bits).
constexpr int64_t kRoundLanes = 16;
/// Elements of one iteration of the loop split over threads.
constexpr int64_t kRoundChunk = 16 * 1024;
/// The scratch region starts at a multiple of this (a cache line).
constexpr int64_t kScratchAlignment = 64;

/// The workspace `caller` takes (its last argument, tcc-plan-workspace's),
/// or null.
Value workspaceOf(func::FuncOp caller) {
  if (!caller->hasAttr("tcc.workspace_size") || caller.getNumArguments() == 0)
    return {};
  Value ws = caller.getArgument(caller.getNumArguments() - 1);
  auto type = dyn_cast<MemRefType>(ws.getType());
  if (!type || type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getElementType().isInteger(8))
    return {};
  return ws;
}

int64_t scratchOffset(func::FuncOp caller) {
  int64_t size =
      caller->getAttrOfType<IntegerAttr>("tcc.workspace_size").getInt();
  return llvm::alignTo(size, kScratchAlignment);
}

} // namespace

void BF16Scratch::round(RewriterBase &b, linalg::LinalgOp op, TilePlan &plan) {
  if (plan.pairDim < 0)
    return;
  int packed = plan.packPos[0] >= 0 ? 0 : 1;
  Value input = op.getDpsInputOperands()[1 - packed]->get();
  auto type = dyn_cast<MemRefType>(input.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isF32() ||
      type.getNumElements() % kRoundLanes != 0)
    return;
  // The kernel, its one call, and the workspace of the function calling it.
  auto kernel = op->getParentOfType<func::FuncOp>();
  if (!usersKnown) {
    // One walk of the module for every op (a walk per op was quadratic).
    usersKnown = true;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        users[use.getSymbolRef().getRootReference()].push_back(use.getUser());
  }
  auto found = users.find(kernel.getSymNameAttr());
  auto call = found != users.end() && found->second.size() == 1
                  ? dyn_cast<func::CallOp>(found->second.front())
                  : func::CallOp();
  if (!call)
    return;
  auto caller = call->getParentOfType<func::FuncOp>();
  Value ws = caller ? workspaceOf(caller) : Value();
  if (!ws)
    return;
  // The whole input is rounded: the op may read any of it.
  int64_t n = type.getNumElements();
  auto flatType = MemRefType::get({n}, b.getBF16Type());
  Location loc = op.getLoc();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(call);
    Value offset =
        arith::ConstantIndexOp::create(b, loc, scratchOffset(caller));
    Value view =
        memref::ViewOp::create(b, loc, flatType, ws, offset, ValueRange{});
    call->insertOperands(call->getNumOperands(), view);
  }
  unsigned index = kernel.getNumArguments();
  if (failed(kernel.insertArgument(index, flatType, {}, loc)))
    return;
  Value scratch = kernel.getArgument(index);
  largest = std::max(largest, n * 2);
  if (!llvm::is_contained(callers, caller))
    callers.push_back(caller);

  // for c in chunks (split over threads): for i in c: round 16 floats.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value flatIn = memref::CollapseShapeOp::create(
      b, loc, input, tcc::wholeShapeGroup(type.getRank()));
  auto chunks = scf::ForOp::create(b, loc, constant(0), constant(n),
                                   constant(kRoundChunk));
  if (n > kRoundChunk)
    chunks->setAttr(tcc::attr::kParallel, b.getUnitAttr());
  {
    OpBuilder::InsertionGuard inChunk(b);
    b.setInsertionPoint(chunks.getBody()->getTerminator());
    Value start = chunks.getInductionVar();
    Value end = arith::MinSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, start, constant(kRoundChunk)),
        constant(n));
    auto steps = scf::ForOp::create(b, loc, start, end, constant(kRoundLanes));
    b.setInsertionPoint(steps.getBody()->getTerminator());
    Value at = steps.getInductionVar();
    Value floats = vector::LoadOp::create(
        b, loc, VectorType::get({kRoundLanes}, b.getF32Type()), flatIn, at);
    Value halves = x86vector::CvtPackedF32ToBF16Op::create(
        b, loc, VectorType::get({kRoundLanes}, b.getBF16Type()), floats);
    vector::StoreOp::create(b, loc, halves, scratch, at);
  }
  plan.pairCopy = memref::ExpandShapeOp::create(
      b, loc, MemRefType::get(type.getShape(), b.getBF16Type()), scratch,
      tcc::wholeShapeGroup(type.getRank()));
}

void BF16Scratch::growWorkspaces() {
  for (func::FuncOp caller : callers) {
    int64_t size = scratchOffset(caller) + largest;
    caller->setAttr(
        "tcc.workspace_size",
        IntegerAttr::get(IntegerType::get(caller.getContext(), 64), size));
    BlockArgument ws = caller.getArgument(caller.getNumArguments() - 1);
    ws.setType(
        MemRefType::get({size}, IntegerType::get(caller.getContext(), 8)));
    SmallVector<Type> inputs(caller.front().getArgumentTypes());
    caller.setType(FunctionType::get(caller.getContext(), inputs,
                                     caller.getResultTypes()));
  }
}
