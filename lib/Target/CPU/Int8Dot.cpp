//===- Int8Dot.cpp - u8 x s8 quads summed in i32 --------------------------===//
//
// A contraction of u8 (broadcast) by s8 (packed, constant weights) into
// i32: the weights packed in quads along the reduction, each step
// broadcasting a quad of the u8 input as one 32-bit word. Each accumulator
// takes one vpdpbusd (AVX512-VNNI; AVX512VL below 512 bits), or without
// VNNI two pmaddwd of the quads' even and odd bytes widened to 16 bits in
// their lanes (SSE2, AVX2, AVX512BW). Both sum exactly (vpmaddubsw's 16-bit
// pair sums would saturate).
//
//===----------------------------------------------------------------------===//
#include "DotProduct.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <string>

using namespace mlir;
using namespace tcc::cpu;

namespace {

class Int8Dot : public DotProduct {
public:
  explicit Int8Dot(bool vnni) : vnni(vnni) {}

  Type accumulatorType(Builder &b) const override { return b.getI32Type(); }
  Type groupType(Builder &b) const override { return b.getI8Type(); }
  bool exactSums() const override { return true; }

  /// The broadcast input is the unsigned one.
  Value accumulate(OpBuilder &b, Location loc, Value acc, Value lhs, Value rhs,
                   int packedInput) const override {
    return packedInput == 0 ? dot(b, loc, acc, rhs, lhs)
                            : dot(b, loc, acc, lhs, rhs);
  }

private:
  /// acc + the sums of the products of each lane's 4 u8 of `quadsU8` and 4
  /// s8 of `quadsS8`.
  Value dot(OpBuilder &b, Location loc, Value acc, Value quadsU8,
            Value quadsS8) const {
    auto accType = cast<VectorType>(acc.getType());
    int64_t lanes = accType.getNumElements();
    if (vnni)
      // LLVM 22's signature: (<N x i32>, <4N x i8>, <4N x i8>).
      return LLVM::CallIntrinsicOp::create(
                 b, loc, accType,
                 b.getStringAttr("llvm.x86.avx512.vpdpbusd." +
                                 std::to_string(lanes * 32)),
                 ValueRange{acc, quadsU8, quadsS8})
          .getResult(0);
    auto halves = VectorType::get({2 * lanes}, b.getI16Type());
    auto splat = [&](int64_t v) {
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(halves, b.getI16IntegerAttr(v)));
    };
    Value eight = splat(8);
    Value u8 = vector::BitCastOp::create(b, loc, halves, quadsU8);
    Value s8 = vector::BitCastOp::create(b, loc, halves, quadsS8);
    // Bytes 0 and 2 of each lane zero- or sign-extended in place, then
    // bytes 1 and 3.
    Value evenU8 = arith::AndIOp::create(b, loc, u8, splat(0xff));
    Value oddU8 = arith::ShRUIOp::create(b, loc, u8, eight);
    Value shifted = arith::ShLIOp::create(b, loc, s8, eight);
    Value evenS8 = arith::ShRSIOp::create(b, loc, shifted, eight);
    Value oddS8 = arith::ShRSIOp::create(b, loc, s8, eight);
    StringRef name = lanes == 16  ? "llvm.x86.avx512.pmaddw.d.512"
                     : lanes == 8 ? "llvm.x86.avx2.pmadd.wd"
                                  : "llvm.x86.sse2.pmadd.wd";
    for (auto [x, y] : {std::pair(evenU8, evenS8), std::pair(oddU8, oddS8)}) {
      Value sums = LLVM::CallIntrinsicOp::create(
                       b, loc, accType, b.getStringAttr(name), ValueRange{x, y})
                       .getResult(0);
      acc = arith::AddIOp::create(b, loc, acc, sums);
    }
    return acc;
  }

  bool vnni;
};

} // namespace

std::unique_ptr<DotProduct> tcc::cpu::makeInt8Dot(bool vnni) {
  return std::make_unique<Int8Dot>(vnni);
}
