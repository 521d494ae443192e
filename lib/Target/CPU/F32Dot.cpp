//===- F32Dot.cpp - f32 FMAs ----------------------------------------------===//
//
// The f32 step: one FMA per accumulator of a packed (or loaded) row and a
// broadcast scalar.
//
//===----------------------------------------------------------------------===//
#include "DotProduct.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tcc::cpu;

namespace {

class F32Dot : public DotProduct {
public:
  Type accumulatorType(Builder &b) const override { return b.getF32Type(); }
  Type groupType(Builder &b) const override { return b.getF32Type(); }
  Value accumulate(OpBuilder &b, Location loc, Value acc, Value lhs, Value rhs,
                   int) const override {
    return vector::FMAOp::create(b, loc, lhs, rhs, acc);
  }
};

} // namespace

std::unique_ptr<DotProduct> tcc::cpu::makeF32Dot() {
  return std::make_unique<F32Dot>();
}
