//===- WriteIntoDeadInputs.cpp - tcc-write-into-dead-inputs ---------------===//
//
// Gives an elementwise op that writes an empty tensor one of its inputs,
// dead after it, as its init instead: one-shot bufferization then writes
// the result over that input's buffer, element by element as it reads it
// (a residual add over its residual). The op after a contraction is not
// given the contraction's result, which tcc-vectorize-contractions keeps
// in registers when it fuses the op as its epilogue: the fused kernel then
// stores where it has just loaded the residual, instead of into a buffer
// last touched long before, whose cache lines it would first have to
// read.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_WRITEINTODEADINPUTS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// Whether nothing reads `value`'s buffer after `op`: each use of it
/// but by `op` is in (or nested in) an op of `op`'s block before it, and so
/// for each value that may share its buffer through such a use (the result
/// an op writes into it, a view of it, any result of another kind of op).
/// A linalg op's inputs do not share its results' buffers.
bool deadAfter(Value value, Operation *op) {
  Block *block = op->getBlock();
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == op)
      continue;
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || !top->isBeforeInBlock(op))
      return false;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user);
        dps && top == user) {
      if (dps.isDpsInit(&use) && !deadAfter(dps.getTiedOpResult(&use), op))
        return false;
      continue;
    }
    for (Value result : top->getResults())
      if (isa<TensorType>(result.getType()) && !deadAfter(result, op))
        return false;
  }
  return true;
}

/// Whether `value` is in a buffer of its own that nothing reads after `op`:
/// going up from it through the inits ops write it into and the sources
/// reshapes view, every value is dead after `op` (one-shot bufferization
/// would otherwise copy it before `op` writes over it), up to an empty
/// tensor (a new buffer). Not a slice of a buffer (a strided view, which
/// an epilogue is not stored to) or anything else.
bool bufferDeadAfter(Value value, Operation *op) {
  while (!value.getDefiningOp<tensor::EmptyOp>()) {
    if (!deadAfter(value, op))
      return false;
    Operation *def = value.getDefiningOp();
    if (auto dps = dyn_cast_or_null<DestinationStyleOpInterface>(def)) {
      if (isa<tensor::InsertSliceOp>(def))
        return false;
      value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
    } else if (isa_and_nonnull<tensor::ExpandShapeOp,
                               tensor::CollapseShapeOp>(def)) {
      value = def->getOperand(0);
    } else {
      // A slice, an argument (the caller's buffer), a loop's result (which
      // may be its init's buffer), ...
      return false;
    }
  }
  return true;
}

/// The input of elementwise `op` that can take its empty init's place: read
/// like the output, of the result's type, computed in the op's block by an
/// op other than a constant and than the one just before `op` (a
/// contraction whose epilogue `op` may become), and whose buffer is dead
/// after `op`.
Value deadInput(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return {};
  OpOperand *init = op.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      !op.getMatchingIndexingMap(init).isIdentity() ||
      op.payloadUsesValueFromOperand(init))
    return {};
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value value = in->get();
    Operation *def = value.getDefiningOp();
    if (value.getType() != init->get().getType() ||
        !op.getMatchingIndexingMap(in).isIdentity() || !def ||
        def->getBlock() != op->getBlock() || def == op->getPrevNode() ||
        matchPattern(value, m_Constant()) || !bufferDeadAfter(value, op))
      continue;
    return value;
  }
  return {};
}

struct WriteIntoDeadInputs
    : tcc::impl::WriteIntoDeadInputsBase<WriteIntoDeadInputs> {
  void runOnOperation() override {
    getOperation().walk([](linalg::GenericOp op) {
      if (Value input = deadInput(op))
        op.getDpsInitOperand(0)->set(input);
    });
  }
};

} // namespace
