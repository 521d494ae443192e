//===- ONNXToLinalg.cpp - tcc-convert-onnx-to-linalg ----------------------===//
#include "Patterns.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_CONVERTONNXTOLINALG
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {
struct ConvertONNXToLinalg
    : tcc::impl::ConvertONNXToLinalgBase<ConvertONNXToLinalg> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    using namespace tcc::onnx_to_linalg;
    TypeConverter converter;
    populateSignlessTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    populateActivationPatterns(converter, patterns);
    populateElementwisePatterns(converter, patterns);
    populateConvPoolPatterns(converter, patterns,
                             {winograd, winogradAnyWidth, vectorBits});
    populateImagePatterns(converter, patterns);
    populateLinearPatterns(converter, patterns);
    populateLossPatterns(converter, patterns);
    populateNormalizationPatterns(converter, patterns);
    populateQuantizationPatterns(converter, patterns);
    populateRecurrentPatterns(converter, patterns);
    populateReductionPatterns(converter, patterns);
    populateTensorPatterns(converter, patterns);
    populateShapePatterns(converter, patterns);
    populateGatherPatterns(converter, patterns);
    populateScatterPatterns(converter, patterns);
    populateRearrangePatterns(converter, patterns);
    populateSignalPatterns(converter, patterns);
    // Unsigned integers become signless: in the signature too.
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect,
                           scf::SCFDialect, LLVM::LLVMDialect>();
    target.addLegalOp<func::CallOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return converter.isLegal(op); });
    target.addIllegalDialect<tcc::onnx::ONNXDialect>();
    // `none` placeholders die with their users.
    target.addLegalOp<tcc::onnx::NoValueOp>();
    // A pattern that refuses an op says why; the driver's "failed to
    // legalize" after it would only repeat that the op is left.
    DenseSet<Location> explained;
    ScopedDiagnosticHandler quiet(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (StringRef(diag.str()).starts_with("failed to legalize operation") &&
          explained.contains(diag.getLocation()))
        return success();
      explained.insert(diag.getLocation());
      return failure();
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    getOperation().walk([](tcc::onnx::NoValueOp op) {
      if (op->use_empty())
        op->erase();
    });
  }
};
} // namespace
