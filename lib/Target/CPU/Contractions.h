//===- Contractions.h - register-tiled contractions' stages ---*- C++ -*-===//
//
// Private to lib/Target/CPU. tcc-vectorize-contractions
// (VectorizeContractions.cpp) runs three stages, each in its own file:
//  - ContractionPlan.cpp: which multiply-accumulate ops are tiled and how
//    (planTiles, canFuse);
//  - PanelPacker.cpp: their constant operands repacked into panels;
//  - TileEmitter.cpp: the loop nest and the f32 vector micro-kernel of each
//    (emitTiles).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_CPU_CONTRACTIONS_H
#define TCC_LIB_TARGET_CPU_CONTRACTIONS_H

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
};

/// Rows of a strided output tile transposed in registers together: 8x8
/// blocks of floats (each 8 lanes of a vector), 24 two-source shuffles.
constexpr int64_t kTransposeBlock = 8;

/// The longest reduction dim unrolled inside a tile's step (a 7x7 kernel's
/// rows).
constexpr int64_t kMaxUnrolledReduction = 7;

/// The plan for `op`, or nullopt when it is not a multiply-accumulate on
/// static f32 buffers this pass can vectorize.
std::optional<TilePlan>
planTiles(mlir::linalg::LinalgOp op, int64_t lanes, int64_t accumulators,
          int64_t l2Bytes, llvm::function_ref<bool(mlir::Value)> isConstant);

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
  /// Fills `plan.packed` with a view of the panels of each input the plan
  /// reads packed.
  void pack(mlir::linalg::LinalgOp op, TilePlan &plan);
  /// Erases the globals that packing replaced and nothing reads any more.
  void eraseUnused();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Emits the loop nest of `op` as `plan` tiles it, at b's insertion point,
/// with the output init and the epilogue tcc-outline-kernels put beside it
/// (null for none) evaluated on the tiles' vectors.
void emitTiles(mlir::RewriterBase &b, mlir::linalg::LinalgOp op,
               const TilePlan &plan, mlir::linalg::LinalgOp init,
               mlir::linalg::LinalgOp epilogue, int64_t l2Bytes);

} // namespace tcc::cpu

#endif // TCC_LIB_TARGET_CPU_CONTRACTIONS_H
