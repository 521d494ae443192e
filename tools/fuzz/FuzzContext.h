//===- FuzzContext.h - an MLIR context for one fuzzer input -----*- C++ -*-===//
#ifndef TCC_TOOLS_FUZZ_FUZZCONTEXT_H
#define TCC_TOOLS_FUZZ_FUZZCONTEXT_H

#include "tcc/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

namespace tcc::fuzz {

/// A fresh context with tcc's dialects for each input (a shared one would
/// keep every attribute an input made, and grow without bound), on one
/// thread, its diagnostics dropped: errors are an expected outcome.
struct FuzzContext {
  static const mlir::DialectRegistry &registry() {
    static mlir::DialectRegistry r = [] {
      mlir::DialectRegistry r;
      tcc::registerAllDialects(r);
      return r;
    }();
    return r;
  }
  mlir::MLIRContext ctx{registry(), mlir::MLIRContext::Threading::DISABLED};
  mlir::ScopedDiagnosticHandler quiet{
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); }};
};

} // namespace tcc::fuzz

#endif // TCC_TOOLS_FUZZ_FUZZCONTEXT_H
