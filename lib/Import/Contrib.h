//===- Contrib.h - Ops expanded as ONNX functions ---------------*- C++ -*-===//
//
// Private to lib/Import. Exporters and onnxruntime's transformer optimizer
// emit fused operators of the `com.microsoft` domain (Gelu, FastGelu,
// SkipLayerNormalization, ...), and ONNX defines some default-domain ops by
// a function of other ops (CausalConvWithState, LinearAttention). tcc does
// not model them in the onnx dialect: each expands to a function of
// default-domain ops, which the importer inlines like a model-local
// function.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_CONTRIB_H
#define TCC_LIB_IMPORT_CONTRIB_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace tcc::import {

/// Whether `opType` is an op tcc expands (of domain com.microsoft, or of
/// the default domain where the onnx dialect has no op of that name).
bool isContribOp(llvm::StringRef opType);

/// What the importer knows of the shape of one input of a node: its dims
/// (-1 where unknown), or nullopt when the input is absent or unranked.
using InputShape = std::optional<llvm::SmallVector<int64_t>>;

/// The body `node` expands to: a function whose formal inputs and outputs
/// are positional (`in0`, `in1`, ...; `out0`, ...), written for the inputs
/// and outputs the node actually uses, given the shapes of its inputs.
/// nullopt, with `error` saying why, when the node uses a form tcc does not
/// expand.
std::optional<::onnx::FunctionProto>
contribFunction(const ::onnx::NodeProto &node,
                llvm::ArrayRef<InputShape> inputShapes, std::string &error);

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_CONTRIB_H
