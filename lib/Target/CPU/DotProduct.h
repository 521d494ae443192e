//===- DotProduct.h - a tile step's multiply-accumulate ------*- C++ -*-===//
//
// Private to lib/Target/CPU. TileEmitter.cpp runs a tile's loops and loads
// its operands; each step's multiply-accumulate into the accumulators is a
// DotProduct of the plan's precision, each in a file of its own:
//  - F32Dot.cpp: f32 FMAs;
//  - BF16Dot.cpp: bf16 pairs summed in f32 (vdpbf16ps, --precision bf16);
//  - Int8Dot.cpp: u8 x s8 quads summed in i32 (vpdpbusd with AVX512-VNNI,
//    pmaddwd without).
// A precision is a subclass in a new file and a case of dotProductFor.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_CPU_DOTPRODUCT_H
#define TCC_LIB_TARGET_CPU_DOTPRODUCT_H

#include "Contractions.h"

#include "mlir/IR/Builders.h"

#include <memory>

namespace tcc::cpu {

class DotProduct {
public:
  virtual ~DotProduct();
  /// The accumulators' element type.
  virtual mlir::Type accumulatorType(mlir::Builder &b) const = 0;
  /// The element type of the packed input's groups (TilePlan::group of
  /// them per lane); f32 plans have groups of one.
  virtual mlir::Type groupType(mlir::Builder &b) const = 0;
  /// Whether the sums are exact (integers): the reduction is not summed in
  /// blocks.
  virtual bool exactSums() const { return false; }
  /// The broadcast input's group of scalars `group` (vector<group x T>, as
  /// loaded) in every lane of a `groups` vector (group * lanes elements);
  /// `rounded`: the input was rounded to the group type before the op.
  virtual mlir::Value broadcastGroup(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value group, mlir::VectorType groups,
                                     bool rounded) const;
  /// `acc` plus the products of `lhs` and `rhs` (the op's inputs 0 and 1 as
  /// vectors: one a packed row, the other broadcast; `packedInput` says
  /// which).
  virtual mlir::Value accumulate(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value acc, mlir::Value lhs,
                                 mlir::Value rhs, int packedInput) const = 0;
};

std::unique_ptr<DotProduct> makeF32Dot();
std::unique_ptr<DotProduct> makeBF16Dot();
std::unique_ptr<DotProduct> makeInt8Dot(bool vnni);

/// The DotProduct of `plan`'s precision.
std::unique_ptr<DotProduct> dotProductFor(const TilePlan &plan);

/// `group` (4 bytes: a bf16 pair or an 8-bit quad) as one 32-bit word in
/// every lane of `groups`.
mlir::Value broadcastWord(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value group, mlir::VectorType groups);

} // namespace tcc::cpu

#endif // TCC_LIB_TARGET_CPU_DOTPRODUCT_H
