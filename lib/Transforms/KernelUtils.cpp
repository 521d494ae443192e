//===- KernelUtils.cpp - What tcc's passes ask of kernel ops -------------===//
//
// Queries on the compute ops of the bufferized @main that outlining,
// workspace planning and the targets' kernel passes share.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

bool tcc::isKernelOp(Operation *op) {
  return op->getNumResults() == 0 &&
         (isa<linalg::LinalgOp>(op) || op->getNumRegions() > 0);
}

bool tcc::isMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || body->getOperations().size() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body->getArgument(2);
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == out) == (add.getRhs() == out))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

bool tcc::isInt8MultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || body->getOperations().size() != 5 ||
      !body->getArgument(2).getType().isInteger(32))
    return false;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddIOp>();
  Value out = body->getArgument(2);
  if (!add || (add.getLhs() == out) == (add.getRhs() == out))
    return false;
  auto mul = (add.getLhs() == out ? add.getRhs() : add.getLhs())
                 .getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  // The input each factor extends, or -1.
  auto extended = [&](Value v) -> int {
    Operation *def = v.getDefiningOp();
    if (!isa_and_nonnull<arith::ExtUIOp, arith::ExtSIOp>(def))
      return -1;
    auto arg = dyn_cast<BlockArgument>(def->getOperand(0));
    return arg && arg.getOwner() == body && arg.getArgNumber() < 2 &&
                   arg.getType().isInteger(8)
               ? (int)arg.getArgNumber()
               : -1;
  };
  int a = extended(mul.getLhs()), b = extended(mul.getRhs());
  return a >= 0 && b >= 0 && a != b;
}

bool tcc::isContraction(linalg::LinalgOp op) {
  return isMultiplyAccumulate(op) || isInt8MultiplyAccumulate(op);
}

unsigned tcc::leadingRowDims(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned parallel = 0;
  while (parallel < iterators.size() &&
         iterators[parallel] == utils::IteratorType::parallel)
    ++parallel;
  MLIRContext *ctx = op.getContext();
  // Whether each operand reads d0...d(k-1) as its first k indices and
  // nowhere else, or not at all (a broadcast input).
  auto isRows = [&](unsigned k) {
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      bool uses = false;
      for (unsigned d = 0; d < k; ++d)
        uses |= map.isFunctionOfDim(d);
      if (!uses) {
        if (op.isDpsInit(&operand))
          return false;
        continue;
      }
      if (map.getNumResults() < k)
        return false;
      for (unsigned r = 0; r < k; ++r)
        if (map.getResult(r) != getAffineDimExpr(r, ctx))
          return false;
      for (unsigned r = 0; r < map.getNumResults(); ++r)
        for (unsigned d = 0; d < k; ++d)
          if (map.getResult(r).isFunctionOfDim(d) &&
              (r != d || map.getResult(r) != getAffineDimExpr(d, ctx)))
            return false;
    }
    return true;
  };
  for (unsigned k = parallel; k > 0; --k)
    if (isRows(k))
      return k;
  return 0;
}

SmallVector<int64_t> tcc::rowExtents(linalg::LinalgOp op, unsigned numRows,
                                     unsigned &units) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  units = 0;
  while (units < numRows && ranges[units] == 1)
    ++units;
  return SmallVector<int64_t>(ranges.begin() + units,
                              ranges.begin() + numRows);
}

int64_t tcc::rowBytes(ValueRange buffers, ArrayRef<int64_t> rows) {
  int64_t numRows = 1, bytes = 0;
  for (int64_t extent : rows)
    numRows *= extent;
  for (Value v : buffers)
    if (auto type = dyn_cast<MemRefType>(v.getType());
        type && type.getElementType().isIntOrFloat())
      bytes = std::max(bytes,
                       type.getNumElements() / numRows *
                           llvm::divideCeil(type.getElementTypeBitWidth(), 8));
  return bytes;
}

bool tcc::anyMemoryEffect(
    Operation *op,
    function_ref<bool(const MemoryEffects::EffectInstance &)> pred) {
  return op
      ->walk([&](Operation *inner) {
        auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
        if (!iface)
          return WalkResult::advance();
        SmallVector<MemoryEffects::EffectInstance> effects;
        iface.getEffects(effects);
        return llvm::any_of(effects, pred) ? WalkResult::interrupt()
                                           : WalkResult::advance();
      })
      .wasInterrupted();
}

std::string tcc::kernelRangesSuffix(Operation *op) {
  std::string suffix;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    for (size_t i = 0; i < ranges.size(); ++i)
      suffix += (i ? "x" : "_") + (ShapedType::isDynamic(ranges[i])
                                       ? std::string("d")
                                       : std::to_string(ranges[i]));
  }
  return suffix;
}

std::string tcc::kernelName(Operation *op, int index) {
  std::string opName = op->getName().stripDialect().str();
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    if (std::optional<StringRef> call = generic.getLibraryCall())
      opName = call->str();
  std::string name = "k" + std::to_string(index) + "_" + opName;
  for (char &c : name)
    if (!llvm::isAlnum(c))
      c = '_';
  return name + kernelRangesSuffix(op);
}
