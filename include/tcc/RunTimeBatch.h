//===- RunTimeBatch.h - symbolic batch dims that vary at run time -*- C++ -*-===//
//
// A model whose inputs have a symbolic batch dim compiles once for one
// sample and runs any batch by running the samples one after the other,
// when no op mixes samples. Whether one does is decided on the model's
// linalg IR at two batch sizes (tcc::analyzeRunTimeBatch).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIMEBATCH_H
#define TCC_RUNTIMEBATCH_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tcc {

/// The pairs of batch sizes the model is compared at, in order: a second
/// pair when the graph at the first differs by more than its dims (a fold
/// that stops at a size the two straddle).
inline constexpr int64_t kBatchProbes[2][2] = {{11, 13}, {3, 5}};

/// How the batch dim appears in the model's inputs and outputs.
struct BatchLayout {
  std::string dimName;
  /// Per input and output: 0 when the tensor does not depend on the batch;
  /// k > 0 when its dim 0 is k x the batch (one sample: k rows).
  std::vector<int64_t> inputMultiples, outputMultiples;
};

/// Decides whether the symbolic dim `dimName` may vary at run time: `a` and
/// `b` are the model's linalg-on-tensors IR (tcc's onnx-to-linalg stage)
/// with the dim set to `probeA` and `probeB`. It may when the two
/// differ only in the dims that are a multiple of the batch, those dims lead
/// every input and output they appear in, and every op computes each sample
/// from the same sample alone. Otherwise emits an error at the op (or the
/// model) that says why, and fails.
mlir::FailureOr<BatchLayout> analyzeRunTimeBatch(mlir::ModuleOp a,
                                                 mlir::ModuleOp b,
                                                 int64_t probeA, int64_t probeB,
                                                 llvm::StringRef dimName);

} // namespace tcc

#endif // TCC_RUNTIMEBATCH_H
