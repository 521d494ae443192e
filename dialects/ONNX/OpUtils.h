//===- OpUtils.h - helpers shared by the onnx op families -------*- C++ -*-===//
//
// Private to dialects/ONNX: small shape helpers used by the verifiers and
// shape functions of every op family file.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DIALECTS_ONNX_OPUTILS_H
#define TCC_DIALECTS_ONNX_OPUTILS_H

#include "dialects/ONNX/ONNXOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace tcc::onnx::detail {

/// The shape of a ranked tensor value, or nullopt (unranked, or `none`).
inline std::optional<llvm::ArrayRef<int64_t>> rankedShape(mlir::Value v) {
  if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(v.getType()))
    return t.getShape();
  return std::nullopt;
}

/// A dim computed in double (a scale times a dim, a range's count): NaN and
/// values past 2^62 become 2^62, which no tensor may have (the importer's
/// size check then names the node); converting them to int64 would be UB.
inline int64_t doubleToDim(double v) {
  constexpr double kLimit = double(int64_t(1) << 62);
  if (!(v > -kLimit && v < kLimit))
    return int64_t(1) << 62;
  return (int64_t)v;
}

/// a * b for a dim (a dim times a factor from an attribute or a constant):
/// dynamic when either is; past int64, 2^62, which no tensor may have.
inline int64_t mulDim(int64_t a, int64_t b) {
  if (mlir::ShapedType::isDynamic(a) || mlir::ShapedType::isDynamic(b))
    return mlir::ShapedType::kDynamic;
  int64_t r;
  if (llvm::MulOverflow(a, b, r))
    return int64_t(1) << 62;
  return r;
}

/// The constant attribute defining `v`, or null.
inline mlir::ElementsAttr constantAttr(mlir::Value v) {
  mlir::ElementsAttr attr;
  if (v && mlir::matchPattern(v, mlir::m_Constant(&attr)))
    return attr;
  return {};
}

/// Sets result `idx` of `op` to a ranked tensor type.
inline llvm::LogicalResult setShape(mlir::Operation *op,
                                    llvm::ArrayRef<int64_t> shape,
                                    mlir::Type elementType, unsigned idx = 0) {
  op->getResult(idx).setType(mlir::RankedTensorType::get(shape, elementType));
  return mlir::success();
}

/// Keeps the result unranked (of the right element type) when an operand's
/// rank is unknown: a later inference run can refine it.
inline llvm::LogicalResult keepUnranked(mlir::Operation *op,
                                        mlir::Type elementType) {
  op->getResult(0).setType(mlir::UnrankedTensorType::get(elementType));
  return mlir::success();
}

/// The result has the operand's type.
inline llvm::LogicalResult inferSameAsOperand(mlir::Operation *op,
                                              mlir::Value operand) {
  op->getResult(0).setType(operand.getType());
  return mlir::success();
}

/// An ONNX axis in [-rank, rank) as a dim index.
inline int64_t normAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Product of dims, or kDynamic when any is dynamic.
inline int64_t mulDims(llvm::ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) {
    if (mlir::ShapedType::isDynamic(d))
      return mlir::ShapedType::kDynamic;
    p *= d;
  }
  return p;
}

/// Checks axis in [-rank, rank) (or [-rank, rank] when `inclusiveEnd`).
inline llvm::LogicalResult verifyAxis(mlir::Operation *op, int64_t axis,
                                      int64_t rank, bool inclusiveEnd) {
  int64_t hi = inclusiveEnd ? rank : rank - 1;
  if (axis < -rank || axis > hi)
    return op->emitOpError() << "has axis " << axis << " out of range ["
                             << -rank << ", " << hi << "] for rank " << rank;
  return mlir::success();
}

/// `values` as an integer constant of result `idx`'s type for a folder, or
/// null when that type is not static or does not hold values.size() ints.
inline mlir::Attribute foldedInts(mlir::Operation *op,
                                  llvm::ArrayRef<int64_t> values,
                                  unsigned idx = 0) {
  auto type =
      llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(idx).getType());
  if (!type || !type.hasStaticShape() ||
      !llvm::isa<mlir::IntegerType>(type.getElementType()) ||
      type.getNumElements() != (int64_t)values.size())
    return {};
  return makeIntElements(type, values);
}

/// A dense constant reshaped to result 0's static type (Reshape, Squeeze,
/// Unsqueeze, Flatten of a constant), or null.
inline mlir::Attribute foldedReshape(mlir::Operation *op, mlir::Attribute data) {
  auto dense = llvm::dyn_cast_or_null<mlir::DenseElementsAttr>(data);
  auto type =
      llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!dense || !type || !type.hasStaticShape() ||
      type.getElementType() != dense.getElementType() ||
      type.getNumElements() != dense.getNumElements())
    return {};
  return dense.reshape(type);
}

/// Row-major strides of a static shape.
inline llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Calls `fn` with every index of a static `shape`, in row-major order.
inline void forEachIndex(llvm::ArrayRef<int64_t> shape,
                         llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn) {
  if (mulDims(shape) == 0)
    return;
  llvm::SmallVector<int64_t> index(shape.size(), 0);
  while (true) {
    fn(index);
    int64_t d = (int64_t)shape.size() - 1;
    for (; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Axes from a constant operand, normalized to [0, rank) and checked for
/// range and repeats; errors go to `op`.
inline llvm::FailureOr<llvm::SmallVector<int64_t>>
normalizeAxes(mlir::Operation *op, llvm::ArrayRef<int64_t> axes, int64_t rank) {
  llvm::SmallVector<int64_t> result;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      return op->emitOpError() << "has axis " << a << " out of range ["
                               << -rank << ", " << rank - 1 << "] for rank "
                               << rank;
    int64_t n = normAxis(a, rank);
    if (llvm::is_contained(result, n))
      return op->emitOpError() << "has axis " << a << " more than once";
    result.push_back(n);
  }
  return result;
}

/// Registers the dialect's fallback folder of integer arithmetic
/// (ONNXFolds.cpp).
void addFoldInterface(ONNXDialect &dialect);

/// Conv's checks (ConvPool.cpp), shared by ConvInteger, QLinearConv and
/// NhwcConv: group >= 1, X and W of one rank >= 3, channels (X's dim 1, or
/// its last with `channelsLast`), kernel_shape and a bias (null or none
/// allowed) of [M].
llvm::LogicalResult
verifyConvShapes(mlir::Operation *op, mlir::Value x, mlir::Value w,
                 mlir::Value bias, int64_t group,
                 std::optional<llvm::ArrayRef<int64_t>> kernelShape,
                 bool channelsLast = false);

/// Sets result 0 of a Conv-like `op` to [N, M, spatial...] of `elem`
/// ([N, spatial..., M] from X [N, spatial..., C] with `channelsLast`).
llvm::LogicalResult
inferConvShape(mlir::Operation *op, mlir::Value x, mlir::Value w,
               mlir::Type elem, llvm::StringRef autoPad,
               std::optional<llvm::ArrayRef<int64_t>> pads,
               std::optional<llvm::ArrayRef<int64_t>> strides,
               std::optional<llvm::ArrayRef<int64_t>> dilations,
               bool channelsLast = false);

/// MatMul's shape checks (Linear.cpp), shared by QLinearMatMul: ranks >= 1,
/// inner dims, broadcastable batch dims.
llvm::LogicalResult verifyMatMulShapes(mlir::Operation *op, mlir::Value a,
                                       mlir::Value b);

/// Sets result 0 to MatMul's result shape of `a` x `b`, of `elem`.
llvm::LogicalResult inferMatMulShape(mlir::Operation *op, mlir::Value a,
                                     mlir::Value b, mlir::Type elem);

} // namespace tcc::onnx::detail

#endif // TCC_DIALECTS_ONNX_OPUTILS_H
