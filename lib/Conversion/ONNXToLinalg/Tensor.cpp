//===- Tensor.cpp - ONNX shape and data movement ops to tensor/linalg -----===//
#include "Patterns.h"
#include "tcc/Header.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

struct TransposePattern : OpConversionPattern<onnx::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    auto srcType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (failed(type) || !srcType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    SmallVector<int64_t> perm = onnx::transposePermutation(op);
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm)
      sizes.push_back(tensor::getMixedSize(rewriter, loc, adaptor.getData(), p));
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, type->getElementType());
    Value result = linalg::TransposeOp::create(rewriter, loc, adaptor.getData(),
                                               init, perm)
                       .getResult()[0];
    if (result.getType() != *type)
      result = tensor::CastOp::create(rewriter, loc, *type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Concat: inserts each input into an empty result at its offset.
struct ConcatPattern : OpConversionPattern<onnx::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Location loc = op.getLoc();
    int64_t rank = type->getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    SmallVector<Value> inputs;
    for (Value v : adaptor.getInputs()) {
      auto inType = dyn_cast<RankedTensorType>(v.getType());
      if (!inType)
        return rewriter.notifyMatchFailure(op, "unranked input");
      // An empty input adds nothing, and its insert_slice at the end of the
      // result would be out of bounds (RotaryEmbedding's function body
      // splits off 0 features to leave alone).
      if (inType.getDimSize(axis) != 0)
        inputs.push_back(v);
    }
    if (inputs.empty())
      inputs.assign(adaptor.getInputs().begin(), adaptor.getInputs().end());
    Value result =
        inputs.size() == 1 && inputs[0].getType() == *type
            ? inputs[0]
            : tensor::ConcatOp::create(rewriter, loc, *type, axis, inputs);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConstantPattern : OpConversionPattern<onnx::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    ElementsAttr value = op.getValue();
    if (type != op.getType()) {
      // Unsigned data: the same bytes, seen as signless integers.
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(type.getElementType());
      else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
        value = DenseResourceElementsAttr::get(type, resource.getRawHandle());
      else
        return op.emitOpError() << "has an unsupported constant kind";
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

} // namespace

namespace {
/// CheckCondition: tcc_branch_check(cond == expected, message), the message
/// the module's string the op names (the importer declares both).
struct CheckConditionPattern : OpConversionPattern<onnx::CheckConditionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::CheckConditionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = dyn_cast<RankedTensorType>(adaptor.getCond().getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() != 1)
      return op.emitOpError() << "expects a condition of one element, got "
                              << adaptor.getCond().getType();
    SmallVector<Value> zeros(type.getRank(), constantIndex(rewriter, loc, 0));
    Value cond = tensor::ExtractOp::create(rewriter, loc, adaptor.getCond(),
                                          zeros);
    if (!op.getExpected())
      cond = arith::XOrIOp::create(
          rewriter, loc, cond,
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    Value ok =
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), cond);
    auto module = op->getParentOfType<ModuleOp>();
    auto global = module.lookupSymbol<LLVM::GlobalOp>(op.getMessage());
    auto fn = module.lookupSymbol<func::FuncOp>(tcc::kBranchCheckFn);
    if (!global || !fn)
      return op.emitOpError() << "needs the module's message '"
                              << op.getMessage() << "' and "
                              << tcc::kBranchCheckFn;
    Value message = LLVM::AddressOfOp::create(rewriter, loc, global);
    rewriter.replaceOpWithNewOp<func::CallOp>(op, fn, ValueRange{ok, message});
    return success();
  }
};
} // namespace

void tcc::onnx_to_linalg::populateTensorPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<StaticReshapePattern<onnx::FlattenOp>>(converter, ctx, "");
  patterns.add<StaticReshapePattern<onnx::ReshapeOp>>(converter, ctx,
                                                      "shape");
  patterns.add<TransposePattern, ConcatPattern, ConstantPattern,
               CheckConditionPattern>(converter, ctx);
}
