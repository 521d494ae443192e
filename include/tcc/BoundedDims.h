//===- BoundedDims.h - symbolic dims that vary at run time up to a bound -*- C++ -*-===//
//
// A symbolic dim that ops mix (a sequence: attention, a softmax over
// positions) cannot be a loop over independent samples as the batch is.
// With a bound (tcc compile --max-dim seq=512) it varies at run time as
// TensorRT's optimization profiles and XLA's bounded dims do: every tensor
// is laid out for the bound, and every loop over a dim that depends on the
// sequence runs to its actual extent (a x seq + b), so the padding is
// never read. The model is compiled at the bound; which dims depend on the
// sequence, and how (floor((a x seq + b) / d): strided convolutions and
// pools divide it), comes from comparing its linalg IR with the IR at
// smaller values (tcc::boundRunTimeDim).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_BOUNDEDDIMS_H
#define TCC_BOUNDEDDIMS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace tcc {

/// Where the inputs and outputs of @main hold the bounded dim.
struct BoundedLayout {
  /// Per input and output: the dim that holds it, or -1.
  std::vector<int64_t> inputDims, outputDims;
};

/// Rewrites `modules[0]` (the model's linalg-on-tensors IR with symbolic dim
/// `dimName` set to the bound, probes[0]) so that the dim varies at run time
/// from 1 to the bound. `modules[i]` is the same model at `probes[i]`
/// (tcc::boundProbes); `why`, when given, says why it failed (more probes
/// may fit a dim, or find the graph the same at each). @main gets one more
/// input, `input_dims` (int64 [K]: the dim's
/// value in each input that holds it, input by input; @main's
/// tcc.run_time_inputs lists (input, dim, bound) triples), and, when outputs
/// hold the dim, one more output with their actual dims (tcc.run_time_dims,
/// as for a NonZero). Emits an error naming the op that prevents it
/// (an op that computes with the dim's value, a reshape that mixes it with
/// an outer dim, ...) and fails.
enum class BoundFailure {
  Other,
  /// A dim does not fit floor((a x S + b) / d) for d up to the probes' run.
  Unfitted,
  /// The graph differs between the probes (as Winograd's tiles do with the
  /// parity of a divided dim).
  GraphChanges,
};
mlir::FailureOr<BoundedLayout>
boundRunTimeDim(llvm::ArrayRef<mlir::ModuleOp> modules,
                llvm::ArrayRef<int64_t> probes, llvm::StringRef dimName,
                BoundFailure *why = nullptr);

/// The values of the dim to compare the model at for a bound: the bound,
/// then bound - 1, ... (3 in all when `divisor` is 1: extents a x S + b;
/// 2 x divisor + 1 and one far below, bound - max(that, bound / 4), to find
/// dims divided by up to `divisor`).
llvm::SmallVector<int64_t> boundProbes(int64_t bound, int64_t divisor);

/// On @main after boundRunTimeDim: (input, dim, bound) triples of the input
/// dims that vary at run time; its last input holds their values.
inline constexpr llvm::StringLiteral kRunTimeInputsAttr =
    "tcc.run_time_inputs";

/// Builds m x floor(max(a x s + c, 0) / d) (an index) at b's insertion
/// point, `extent` = (a, c[, d[, m]]): the extent of a dim that follows the
/// bounded dim's value s.
mlir::Value buildExtent(mlir::OpBuilder &b, mlir::Location loc, mlir::Value s,
                        llvm::ArrayRef<int64_t> extent);

/// On a linalg op of @main after boundRunTimeDim: (a, b, d, m) per loop,
/// the loop runs m x floor((a x S + b) / d) times for S the value of
/// @main's input_dims[0] (a = 0: b times, as its operands' shapes say).
inline constexpr llvm::StringLiteral kLoopExtentsAttr = "tcc.loop_extents";

} // namespace tcc

#endif // TCC_BOUNDEDDIMS_H
