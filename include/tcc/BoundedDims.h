//===- BoundedDims.h - symbolic dims that vary at run time up to a bound -*- C++ -*-===//
//
// A symbolic dim that ops mix (a sequence: attention, a softmax over
// positions) cannot be a loop over independent samples as the batch is.
// With a bound (tcc compile --max-dim seq=512) it varies at run time as
// TensorRT's optimization profiles and XLA's bounded dims do: every tensor
// is laid out for the bound, and every loop over a dim that depends on the
// sequence runs to its actual extent (a x seq + b), so the padding is
// never read. The model is compiled at the bound; which dims depend on the
// sequence, and how, comes from comparing its linalg IR with the IR at two
// smaller values (tcc::boundRunTimeDim).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_BOUNDEDDIMS_H
#define TCC_BOUNDEDDIMS_H

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace tcc {

/// Where the inputs and outputs of @main hold the bounded dim.
struct BoundedLayout {
  /// Per input and output: the dim that holds it, or -1.
  std::vector<int64_t> inputDims, outputDims;
};

/// Rewrites `atBound` (the model's linalg-on-tensors IR with symbolic dim
/// `dimName` set to `bound`) so that the dim varies at run time from 1 to
/// `bound`. `less1` and `less2` are the same model at bound - 1 and
/// bound - 2. @main gets one more input, `input_dims` (int64 [K]: the dim's
/// value in each input that holds it, input by input; @main's
/// tcc.run_time_inputs lists (input, dim, bound) triples), and, when outputs
/// hold the dim, one more output with their actual dims (tcc.run_time_dims,
/// as for a NonZero). Emits an error naming the op that prevents it
/// (an op that computes with the dim's value, a reshape that mixes it with
/// an outer dim, ...) and fails.
mlir::FailureOr<BoundedLayout> boundRunTimeDim(mlir::ModuleOp atBound,
                                               mlir::ModuleOp less1,
                                               mlir::ModuleOp less2,
                                               int64_t bound,
                                               llvm::StringRef dimName);

/// On @main after boundRunTimeDim: (input, dim, bound) triples of the input
/// dims that vary at run time; its last input holds their values.
inline constexpr llvm::StringLiteral kRunTimeInputsAttr =
    "tcc.run_time_inputs";

/// Builds a x s + c (an index; never below 0) at b's insertion point: the
/// extent of a dim that follows the bounded dim's value s.
mlir::Value buildExtent(mlir::OpBuilder &b, mlir::Location loc, mlir::Value s,
                        int64_t a, int64_t c);

/// On a linalg op of @main after boundRunTimeDim: (a, b) per loop, the
/// loop runs a x S + b times for S the value of @main's input_dims[0] (a = 0:
/// b times, as its operands' shapes say).
inline constexpr llvm::StringLiteral kLoopExtentsAttr = "tcc.loop_extents";

} // namespace tcc

#endif // TCC_BOUNDEDDIMS_H
