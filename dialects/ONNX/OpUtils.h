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

namespace tcc::onnx::detail {

/// The shape of a ranked tensor value, or nullopt (unranked, or `none`).
inline std::optional<llvm::ArrayRef<int64_t>> rankedShape(mlir::Value v) {
  if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(v.getType()))
    return t.getShape();
  return std::nullopt;
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

} // namespace tcc::onnx::detail

#endif // TCC_DIALECTS_ONNX_OPUTILS_H
