//===- Contractions.h - register-tiled contractions' stages ---*- C++ -*-===//
//
// Private to lib/Target/CPU. tcc-vectorize-contractions
// (VectorizeContractions.cpp) runs three stages, each in its own file:
//  - ContractionPlan.cpp: which multiply-accumulate ops are tiled and how
//    (planTiles, canFuse);
//  - PanelPacker.cpp: their constant operands repacked into panels;
//  - TileEmitter.cpp: the loop nest and the registers of each (emitTiles),
//    each step's multiply-accumulate a DotProduct of the plan's precision
//    (DotProduct.h: F32Dot.cpp, BF16Dot.cpp, Int8Dot.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_CPU_CONTRACTIONS_H
#define TCC_LIB_TARGET_CPU_CONTRACTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace tcc::cpu {

/// How one op is tiled. Loops are the op's; `vDim` (an output loop) runs
/// along the vector lanes, `uDim` (if any) is unrolled into `rows` rows of
/// accumulators.
struct TilePlan {
  llvm::SmallVector<int64_t> sizes;
  unsigned vDim;
  std::optional<unsigned> uDim;
  int64_t lanes;   ///< elements per vector register
  int64_t vectors; ///< vectors per row of the tile
  int64_t rows;
  /// 0 when vDim is the output's last index; otherwise the output's
  /// element stride along vDim (its tiles are gathered and scattered).
  int64_t outStride = 0;
  /// With a strided output whose last index is uDim: a tile's rows are
  /// stored (and the output-shaped buffers its fused ops read are loaded)
  /// as runs of kTransposeBlock along that index, transposed in registers,
  /// instead of scattered (gathered) lane by lane.
  bool transposed = false;
  /// For each input: the step of its last index per step of vDim, or 0
  /// when it does not depend on vDim (a scalar is broadcast).
  llvm::SmallVector<int64_t> vStride;
  /// For each input: the position of its index that is vDim when it is
  /// constant and read from packed panels, or -1.
  llvm::SmallVector<int> packPos;
  /// For each packed input: its data as panels [ceil(N / width), the
  /// other dims..., width] of width `vectors * lanes` along vDim
  /// (zero-padded), which the kernel reads as one contiguous stream.
  llvm::SmallVector<mlir::Value> packed;
  /// For each packed input: the order of its other dims in the panels,
  /// those the op's parallel loops index first (a projection's heads in
  /// weights [k, heads, 64]), so that a tile's reduction walks one
  /// contiguous run.
  llvm::SmallVector<llvm::SmallVector<int64_t>> packOrder;
  /// Whether the loop over tiles along vDim is outside the other output
  /// loops, so that each panel of a packed input is read for all of them
  /// while it is in cache (set when some input is packed).
  bool columnsFirst = false;
  /// Whether tiles prefetch the next panel of their packed inputs (not
  /// when the op runs in a loop of its kernel, an RNN's step, over panels
  /// that stay in L2 from one trip to the next).
  bool prefetchPanels = true;
  /// With dot products of `group` terms: the reduction loop whose
  /// consecutive groups of terms each step multiplies and adds with one dot
  /// product per accumulator, or -1 for f32 FMAs. bf16 pairs (tcc compile
  /// --precision bf16, vdpbf16ps) or, for a u8 x s8 contraction into i32
  /// (int8 set), quads (vpdpbusd). The loop steps by `group`; the packed
  /// input's panels hold groups [ceil(N / width), the other dims (that
  /// loop's divided by group)..., width, group], and the broadcast input's
  /// group of scalars is broadcast as one 32-bit word (bf16: rounded in
  /// each step, or before the op into pairCopy).
  int pairDim = -1;
  int64_t group = 1;
  /// A contraction of u8 (the broadcast input) by s8 (the packed one) into
  /// i32: on VNNI's vpdpbusd, or (vnni unset) on pmaddwd.
  bool int8 = false;
  bool vnni = true;
  /// The packed input's index that pairDim indexes (with pairDim set).
  int pairPos = -1;
  /// With pairDim: the broadcast input rounded to bf16 before the op (same
  /// shape, identity layout; BF16Scratch), or null where each step rounds
  /// its scalars.
  mlir::Value pairCopy;
};

/// Rows of a strided output tile transposed in registers together: 8x8
/// blocks of floats (each 8 lanes of a vector), 24 two-source shuffles.
constexpr int64_t kTransposeBlock = 8;

/// The longest reduction dim unrolled inside a tile's step (a 7x7 kernel's
/// rows).
constexpr int64_t kMaxUnrolledReduction = 7;

/// The plan for `op`, or nullopt when it is not a multiply-accumulate on
/// static f32 buffers this pass can vectorize.
/// With `int8Dot`, a u8 x s8 contraction into i32 is planned too
/// (plan.int8), when its s8 input is packed and a loop of it takes quads.
std::optional<TilePlan>
planTiles(mlir::linalg::LinalgOp op, int64_t lanes, int64_t accumulators,
          int64_t l2Bytes, llvm::function_ref<bool(mlir::Value)> isConstant,
          bool int8Dot = false);

/// Whether reduction dim `d` of `op` is unrolled inside each step of the
/// tiles of `plan`: a short one (a kernel's rows) that an input indexes
/// together with the unrolled output dim, as a depthwise convolution's
/// input row oh + kh.
bool isUnrolledReduction(mlir::linalg::LinalgOp op, const TilePlan &plan,
                         unsigned d);

/// Sets plan.pairDim, plan.pairPos and plan.group to `group` where `op`'s
/// products can be dot products of `group` terms: one input read from
/// packed panels, the other broadcast, and an innermost reduction loop (not
/// unrolled) whose length `group` divides that the packed input indexes by
/// itself. Returns whether it did.
bool planPairs(mlir::linalg::LinalgOp op, TilePlan &plan, int64_t group = 2);

/// Whether elementwise op `fused` can be evaluated on the vectors of
/// `plan` (ContractionPlan.cpp says when).
bool canFuse(mlir::linalg::LinalgOp op, mlir::linalg::LinalgOp fused,
             const TilePlan &plan);

/// Bytes of `operand` that `op` reads: along each of its dims, the values
/// its index takes (a stride-2 convolution's input rows 2 * oh: every other
/// one), as far as the buffer goes.
int64_t footprintBytes(mlir::linalg::LinalgOp op, mlir::OpOperand *operand,
                       llvm::ArrayRef<int64_t> sizes);

/// Packs the constant operands of the planned ops: each distinct
/// (global, panel width) once, as a new flat global.
class PanelPacker {
public:
  explicit PanelPacker(mlir::ModuleOp module);
  ~PanelPacker();

  /// Whether `value` is a constant global this packer can repack.
  bool isPackable(mlir::Value value);
  /// Packs the panels that pack() will need for `work`, on the context's
  /// threads (optional: pack() packs what was not prepared).
  void
  prepare(llvm::ArrayRef<std::pair<mlir::linalg::LinalgOp, TilePlan>> work);
  /// Fills `plan.packed` with a view of the panels of each input the plan
  /// reads packed.
  void pack(mlir::linalg::LinalgOp op, TilePlan &plan);
  /// Erases the globals that packing replaced and nothing reads any more.
  void eraseUnused();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Rounds the broadcast inputs of bf16-paired ops to bf16 once per op,
/// into a scratch region after the workspace @main's plan made: each step
/// then broadcasts a pair from memory (vdpbf16ps's embedded broadcast)
/// instead of rounding it (vcvtneps2bf16 and a shuffle per row, on the
/// ports the dot products use). ResNet-50 --precision bf16, 1 thread, tcc
/// bench (20 runs, medians): 46.5 ms rounding in each step, 38.0 ms from
/// the scratch (fp32: 66.5 ms). One region serves every op: a kernel's
/// ops run one after another, and the kernels one at a time.
class BF16Scratch {
public:
  explicit BF16Scratch(mlir::ModuleOp module) : module(module) {}
  /// Sets plan.pairCopy to `op`'s broadcast input rounded into the scratch
  /// (a new argument of its kernel, a view of the workspace at its call),
  /// the rounding emitted before `op`. Changes nothing where it cannot
  /// (the input is not a static contiguous f32 buffer of whole vectors, the
  /// kernel has not exactly one call, from a function with a workspace).
  void round(mlir::RewriterBase &b, mlir::linalg::LinalgOp op, TilePlan &plan);
  /// Grows each workspace the scratch views by the largest scratch.
  void growWorkspaces();

private:
  mlir::ModuleOp module;
  int64_t largest = 0;
  llvm::SmallVector<mlir::func::FuncOp> callers;
  /// The ops that use each symbol (the module walked once, on first use).
  llvm::DenseMap<mlir::StringAttr, llvm::SmallVector<mlir::Operation *, 1>>
      users;
  bool usersKnown = false;
};

/// Emits the loop nest of `op` as `plan` tiles it, at b's insertion point,
/// with the output init and the epilogue tcc-outline-kernels put beside it
/// (null for none) evaluated on the tiles' vectors.
void emitTiles(mlir::RewriterBase &b, mlir::linalg::LinalgOp op,
               const TilePlan &plan, mlir::linalg::LinalgOp init,
               mlir::linalg::LinalgOp epilogue, int64_t l2Bytes);

} // namespace tcc::cpu

#endif // TCC_LIB_TARGET_CPU_CONTRACTIONS_H
