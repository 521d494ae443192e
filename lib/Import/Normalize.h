//===- Normalize.h - ONNX node forms of older opsets, made current -*- C++ -*-===//
//
// Private to lib/Import. The onnx dialect models each operator in its newest
// form; normalizeNode rewrites a node of an older opset (attributes that
// later became inputs, changed defaults, legacy attributes) into that form
// before the op is created. One function per operator, in one table.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_NORMALIZE_H
#define TCC_LIB_IMPORT_NORMALIZE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"

#include <functional>
#include <onnx/onnx_pb.h>

namespace tcc::import {

/// A node being turned into an onnx op: its operands (inputs the node left
/// out are `none`) and attributes, in the state the op will be built from.
struct NodeBuild {
  mlir::OpBuilder &b;
  mlir::Location loc;
  const ::onnx::NodeProto &node;
  llvm::StringRef name; ///< node name (synthesized when empty)
  int64_t opset;        ///< the model's default-domain opset
  mlir::OperationState &state;
  /// Applied to the op's first result once it is built (and shapes are
  /// inferred); Softmax-13 uses it to restore the shape of the input.
  std::function<mlir::Value(mlir::Value)> post;

  /// "node 'NAME' (OpType, opset N): " errors.
  mlir::InFlightDiagnostic error();
  mlir::Value noValue();
  mlir::Value constant(mlir::ElementsAttr value);
  mlir::Value i64Constant(llvm::ArrayRef<int64_t> values, bool scalar = false);
  /// Fails, naming the node, when it has fewer than `count` inputs: a
  /// normalizer reads them (ONNX's schemas in tcc lack some ops, whose
  /// inputs nothing counted before).
  mlir::LogicalResult requireInputs(size_t count);
  /// Pads the operands with `none` up to `count`.
  void padOperands(size_t count);
  /// Moves attribute `attr` (ints) into operand `index` as an i64 tensor, as
  /// later opsets take it; leaves a `none` there when the attribute is absent.
  void attributeToInput(llvm::StringRef attr, size_t index);
};

/// Brings `nb` to the dialect's form. Fails with an error naming the node
/// when the node uses a form tcc does not support.
llvm::LogicalResult normalizeNode(NodeBuild &nb);

/// The onnx dialect op an ONNX op type becomes: itself, or the newer op
/// that replaced it (Upsample → Resize).
llvm::StringRef dialectOpType(llvm::StringRef opType);

/// How many results the onnx op has for `node` (most ops: 1).
unsigned numResults(const ::onnx::NodeProto &node);

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_NORMALIZE_H
