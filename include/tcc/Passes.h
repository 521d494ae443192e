//===- Passes.h - tcc conversion and transform passes -----------*- C++ -*-===//
#ifndef TCC_PASSES_H
#define TCC_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Passes.h.inc"

/// Attributes the passes hand each other (see Passes.td).
namespace attr {
/// A function outlined by tcc-outline-kernels.
constexpr llvm::StringLiteral kKernel = "tcc.kernel";
/// On tcc-outline-kernels' fused ops: a contraction's output init and its
/// elementwise epilogue.
constexpr llvm::StringLiteral kEpilogueInit = "tcc.epilogue_init";
constexpr llvm::StringLiteral kEpilogue = "tcc.epilogue";
/// On a kernel of tcc-outline-kernels: its ops run row by row over their
/// first N loops (tcc-split-kernels), N the attribute's value.
constexpr llvm::StringLiteral kRows = "tcc.rows";
/// A kernel with register-tiled vector code (tcc-vectorize-contractions).
constexpr llvm::StringLiteral kRegisterTiled = "tcc.register_tiled";
/// A loop to split over threads, and the function made of it
/// (tcc-parallelize-loops).
constexpr llvm::StringLiteral kParallel = "tcc.parallel";
constexpr llvm::StringLiteral kParallelChunk = "tcc.parallel_chunk";
/// On a loop of a lowering (an RNN's time steps) whose trips read and
/// write each sample's entries of the batched values they carry only from
/// that sample's: a run-time batch may run its samples one by one
/// (tcc::analyzeRunTimeBatch trusts it and does not look inside).
constexpr llvm::StringLiteral kSamplesApart = "tcc.samples_apart";
/// A function whose last argument is the call's `tcc_context *`.
constexpr llvm::StringLiteral kTakesContext = "tcc.takes_context";
/// On @main after tcc-externalize-weights: the weights file's data bytes
/// and fingerprint; its first argument is the weights.
constexpr llvm::StringLiteral kWeightsBytes = "tcc.weights_bytes";
constexpr llvm::StringLiteral kWeightsFingerprint = "tcc.weights_fingerprint";
/// On @main after tcc-externalize-weights with `embed`: the weights are the
/// global kWeightsGlobal of the object, not a file's.
constexpr llvm::StringLiteral kWeightsEmbedded = "tcc.weights_embedded";
constexpr llvm::StringLiteral kWeightsGlobal = "__tcc_weights";
/// On @main of a CUDA model: the bytes of each buffer argument (inputs,
/// then outputs), which the runtime copies to and from the device.
constexpr llvm::StringLiteral kBufferBytes = "tcc.buffer_bytes";
} // namespace attr

/// The reassociation that reshapes a rank-`rank` shape to one dim or back:
/// a single group of all dims.
inline llvm::SmallVector<mlir::ReassociationIndices, 1>
wholeShapeGroup(int64_t rank) {
  llvm::SmallVector<mlir::ReassociationIndices, 1> group(1);
  for (int64_t d = 0; d < rank; ++d)
    group[0].push_back(d);
  return group;
}

/// What `op` (with its regions) reads from above, split for outlining it
/// into a function: `recreated` gets the ops the function clones instead
/// (constants, globals, views), defs before uses; `args` the values it
/// takes as arguments (scalars, static identity-layout memrefs: what the
/// bare-pointer convention passes). False when some value can be neither.
bool collectOutlinedInputs(mlir::Operation *op,
                           llvm::SetVector<mlir::Operation *> &recreated,
                           llvm::SetVector<mlir::Value> &args);

/// Marks `llvm.noalias` the memref arguments of `fn` (taking `args`, the
/// values its callers pass) whose memory no other argument may touch: a
/// range of the model's buffers, of a `llvm.noalias` argument of the
/// function around, or of a constant global, overlapping no other
/// argument's. LLVM then vectorizes the kernel's loops without run-time
/// checks of whether its stores clobber its loads.
void markDisjointArguments(mlir::func::FuncOp fn,
                           llvm::ArrayRef<mlir::Value> args);

/// Makes `dims` (i64 values: the actual extents of the output dims that
/// `triples` lists as (output, dim, bound)) @main's last output, and sets
/// its tcc.run_time_dims (see tcc-bound-dynamic-results).
mlir::LogicalResult appendRunTimeDims(mlir::func::FuncOp main,
                                      mlir::func::ReturnOp ret,
                                      llvm::ArrayRef<int64_t> triples,
                                      mlir::ValueRange dims);

/// Whether the body of `op` is `out + a * b` (in either order) on f32: a
/// matmul, a convolution, their batched and broadcast forms.
bool isMultiplyAccumulate(mlir::linalg::LinalgOp op);

/// Whether the body of `op` is `out + ext(a) * ext(b)` (in either order) of
/// 8-bit a and b, each sign- or zero-extended to i32: the contractions of
/// quantized models (MatMulInteger, QDQ convolutions).
bool isInt8MultiplyAccumulate(mlir::linalg::LinalgOp op);

/// isMultiplyAccumulate or isInt8MultiplyAccumulate: a contraction that
/// tcc-outline-kernels gives its output init and epilogue.
bool isContraction(mlir::linalg::LinalgOp op);

/// Whether top-level op `op` of @main on buffers computes something that
/// tcc-outline-kernels makes (part of) a kernel: a linalg op or a loop,
/// no results.
bool isKernelOp(mlir::Operation *op);

/// Whether `op` or an op nested in it has a memory effect that `pred`
/// accepts.
bool anyMemoryEffect(
    mlir::Operation *op,
    llvm::function_ref<bool(const mlir::MemoryEffects::EffectInstance &)>
        pred);

/// `_<static loop ranges>` of a linalg op (`d` where dynamic), else "".
std::string kernelRangesSuffix(mlir::Operation *op);

/// `k<index>_<op>[_<static loop ranges>]`, e.g. k3_matmul_32x768x768: the
/// name of the kernel that computes `op`; a generic that names what it
/// computes (`library_call`, e.g. a Winograd transform) is called that.
std::string kernelName(mlir::Operation *op, int index);

/// The number of leading loops of `op` (on buffers) that are parallel and
/// that each operand indexes by its leading results, in order, or not at
/// all, the outputs always: for each value of them, the op reads and
/// writes one row of each buffer that depends on them.
unsigned leadingRowDims(mlir::linalg::LinalgOp op);

/// The extents of the first `numRows` loops of `op` after its leading
/// loops of extent 1, whose number goes in `units`.
llvm::SmallVector<int64_t> rowExtents(mlir::linalg::LinalgOp op,
                                      unsigned numRows, unsigned &units);

/// The bytes of one of `rows` (extents whose product is the row count) of
/// the largest of `buffers` (the non-memrefs are skipped).
int64_t rowBytes(mlir::ValueRange buffers, llvm::ArrayRef<int64_t> rows);

} // namespace tcc

#endif // TCC_PASSES_H
