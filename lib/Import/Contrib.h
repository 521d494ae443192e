//===- Contrib.h - com.microsoft fused ops as ONNX functions ----*- C++ -*-===//
//
// Private to lib/Import. Exporters and onnxruntime's transformer optimizer
// emit fused operators of the `com.microsoft` domain (Gelu, FastGelu,
// SkipLayerNormalization, ...). tcc does not model them in the onnx dialect:
// each expands to a function of default-domain ops, which the importer
// inlines like a model-local function.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_CONTRIB_H
#define TCC_LIB_IMPORT_CONTRIB_H

#include "llvm/ADT/ArrayRef.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace tcc::import {

/// Whether `opType` is a com.microsoft op tcc expands.
bool isContribOp(llvm::StringRef opType);

/// The body `node` (of domain com.microsoft) expands to: a function whose
/// formal inputs and outputs are positional (`in0`, `in1`, ...; `out0`,
/// ...), written for the inputs and outputs the node actually uses, given
/// the ranks of its inputs. nullopt, with `error` saying why, when the
/// node uses a form tcc does not expand.
std::optional<::onnx::FunctionProto>
contribFunction(const ::onnx::NodeProto &node,
                llvm::ArrayRef<int64_t> inputRanks, std::string &error);

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_CONTRIB_H
