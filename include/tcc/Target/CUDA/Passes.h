//===- Passes.h - tcc's CUDA passes -----------------------------*- C++ -*-===//
//
// The passes of the NVIDIA GPU pipeline (include/tcc/Target/CUDA/Passes.td).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_CUDA_PASSES_H
#define TCC_TARGET_CUDA_PASSES_H

#include "tcc/Passes.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/CUDA/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_CUDA_PASSES_H
