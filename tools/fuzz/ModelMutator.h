//===- ModelMutator.h - structure-aware mutations of ONNX models -*- C++ -*-===//
#ifndef TCC_TOOLS_FUZZ_MODELMUTATOR_H
#define TCC_TOOLS_FUZZ_MODELMUTATOR_H

#include <cstddef>
#include <cstdint>

namespace tcc::fuzz {

/// libFuzzer's custom mutator for the model harnesses: when `data` parses as
/// an onnx::ModelProto, changes one thing in it that a hostile or careless
/// exporter could (a dim, a dtype, an attribute's kind or value, an op type,
/// a node's inputs or outputs, a node itself, the opset, an initializer's
/// data) and writes it back; otherwise, and now and then anyway, mutates the
/// bytes with libFuzzer's own mutator. Returns the new size.
size_t mutateModel(uint8_t *data, size_t size, size_t maxSize, unsigned seed);

} // namespace tcc::fuzz

#endif // TCC_TOOLS_FUZZ_MODELMUTATOR_H
