//===- BF16Dot.cpp - bf16 pairs summed in f32 (vdpbf16ps) -----------------===//
//
// tcc compile --precision bf16: the packed weights are bf16 pairs along the
// reduction; each step broadcasts a pair of the other input (rounded here
// by vcvtneps2bf16, or before the op into BF16Scratch's copy) and sums both
// products into each f32 accumulator with one vdpbf16ps (AVX512-BF16).
//
//===----------------------------------------------------------------------===//
#include "DotProduct.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

using namespace mlir;
using namespace tcc::cpu;

namespace {

class BF16Dot : public DotProduct {
public:
  Type accumulatorType(Builder &b) const override { return b.getF32Type(); }
  Type groupType(Builder &b) const override { return b.getBF16Type(); }

  Value broadcastGroup(OpBuilder &b, Location loc, Value pair,
                       VectorType groups, bool rounded) const override {
    if (rounded)
      return broadcastWord(b, loc, pair, groups);
    // Rounded by vcvtneps2bf16 (8 lanes at least; arith.truncf became
    // LLVM's 8-instruction integer rounding sequence).
    Value eight = vector::ShuffleOp::create(
        b, loc, pair, pair, ArrayRef<int64_t>{0, 1, 0, 1, 0, 1, 0, 1});
    Value halves = x86vector::CvtPackedF32ToBF16Op::create(
        b, loc, VectorType::get({8}, b.getBF16Type()), eight);
    Value words = vector::BitCastOp::create(
        b, loc, VectorType::get({4}, b.getI32Type()), halves);
    Value word = vector::ExtractOp::create(b, loc, words, 0);
    Value splat = vector::BroadcastOp::create(
        b, loc, VectorType::get({groups.getNumElements() / 2}, b.getI32Type()),
        word);
    return vector::BitCastOp::create(b, loc, groups, splat);
  }

  Value accumulate(OpBuilder &b, Location loc, Value acc, Value lhs, Value rhs,
                   int) const override {
    return x86vector::DotBF16Op::create(b, loc, acc.getType(), acc, lhs, rhs);
  }
};

} // namespace

std::unique_ptr<DotProduct> tcc::cpu::makeBF16Dot() {
  return std::make_unique<BF16Dot>();
}
