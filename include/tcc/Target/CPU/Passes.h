//===- Passes.h - tcc's CPU passes ------------------------------*- C++ -*-===//
//
// The passes of the CPU pipeline (include/tcc/Target/CPU/Passes.td) and
// what they share.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_CPU_PASSES_H
#define TCC_TARGET_CPU_PASSES_H

#include "tcc/Passes.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/CPU/Passes.h.inc"

/// Whether `op` maps every element of every operand to the same element of
/// every other, on static identity-layout buffers of rank >= 2; such an op
/// is the same as one loop over all elements.
bool isFlattenable(mlir::linalg::GenericOp op);

/// Replaces a flattenable `op` by the same op on 1-d views of its buffers.
mlir::linalg::GenericOp flattenElementwise(mlir::RewriterBase &b,
                                           mlir::linalg::GenericOp op);

/// The B x B transpose of each group of B lanes of `rows` (B vectors of a
/// multiple of B lanes, B a power of two): lane g * B + i of result j is
/// lane g * B + j of row i. log2(B) stages of swapping half blocks between
/// rows D apart (D = B / 2, ..., 1): 24 two-source shuffles for B = 8.
llvm::SmallVector<mlir::Value> transposeBlocks(mlir::OpBuilder &b,
                                               mlir::Location loc,
                                               llvm::ArrayRef<mlir::Value> rows);

} // namespace tcc

#endif // TCC_TARGET_CPU_PASSES_H
