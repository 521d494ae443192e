//===- DotProduct.cpp - the precisions of a tile's step -------------------===//
//
// What the DotProducts (DotProduct.h) share: the choice of one for a plan
// and the 32-bit broadcast of a group.
//
//===----------------------------------------------------------------------===//
#include "DotProduct.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tcc::cpu;

DotProduct::~DotProduct() = default;

Value DotProduct::broadcastGroup(OpBuilder &b, Location loc, Value group,
                                 VectorType groups, bool) const {
  return broadcastWord(b, loc, group, groups);
}

std::unique_ptr<DotProduct> tcc::cpu::dotProductFor(const TilePlan &plan) {
  if (plan.int8)
    return makeInt8Dot(plan.vnni);
  if (plan.pairDim >= 0)
    return makeBF16Dot();
  return makeF32Dot();
}

Value tcc::cpu::broadcastWord(OpBuilder &b, Location loc, Value group,
                              VectorType groups) {
  int64_t lanes =
      groups.getNumElements() * groups.getElementTypeBitWidth() / 32;
  Value word = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI32Type()), group);
  Value splat = vector::BroadcastOp::create(
      b, loc, VectorType::get({lanes}, b.getI32Type()), word);
  return vector::BitCastOp::create(b, loc, groups, splat);
}
