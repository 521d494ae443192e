//===- ONNXToLinalg.cpp - tcc-convert-onnx-to-linalg ----------------------===//
#include "Patterns.h"
#include "tcc/Passes.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_CONVERTONNXTOLINALG
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {
struct ConvertONNXToLinalg
    : tcc::impl::ConvertONNXToLinalgBase<ConvertONNXToLinalg> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    tcc::onnx_to_linalg::populateElementwisePatterns(patterns);
    tcc::onnx_to_linalg::populateConvPoolPatterns(patterns);
    tcc::onnx_to_linalg::populateLinearPatterns(patterns);
    tcc::onnx_to_linalg::populateNormalizationPatterns(patterns);
    tcc::onnx_to_linalg::populateTensorPatterns(patterns);

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect,
                           func::FuncDialect>();
    target.addIllegalDialect<tcc::onnx::ONNXDialect>();
    // `none` placeholders die with their users.
    target.addLegalOp<tcc::onnx::NoValueOp>();
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
