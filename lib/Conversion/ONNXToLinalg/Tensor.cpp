//===- Tensor.cpp - ONNX shape and data movement ops to tensor/linalg -----===//
#include "Patterns.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Reshapes `src` to the static `type`: one expand or collapse when the
/// dims regroup, else a collapse to 1-d followed by an expand. Both are
/// views once bufferized.
static Value reshapeStatic(OpBuilder &b, Location loc, Value src,
                           RankedTensorType type) {
  auto srcType = cast<RankedTensorType>(src.getType());
  if (srcType == type)
    return src;
  if (type.getRank() < srcType.getRank()) {
    if (auto reassoc = getReassociationIndicesForCollapse(srcType.getShape(),
                                                          type.getShape()))
      return tensor::CollapseShapeOp::create(b, loc, type, src, *reassoc);
  } else if (type.getRank() > srcType.getRank()) {
    if (auto reassoc = getReassociationIndicesForCollapse(type.getShape(),
                                                          srcType.getShape()))
      return tensor::ExpandShapeOp::create(b, loc, type, src, *reassoc);
  }
  auto flatType =
      RankedTensorType::get({srcType.getNumElements()}, type.getElementType());
  SmallVector<ReassociationIndices> toFlat(1), fromFlat(1);
  for (int64_t i = 0; i < srcType.getRank(); ++i)
    toFlat[0].push_back(i);
  for (int64_t i = 0; i < type.getRank(); ++i)
    fromFlat[0].push_back(i);
  Value flat = src;
  if (srcType.getRank() != 1)
    flat = tensor::CollapseShapeOp::create(
        b, loc, flatType, src,
        srcType.getRank() == 0 ? SmallVector<ReassociationIndices>{} : toFlat);
  if (type.getRank() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(
      b, loc, type, flat,
      type.getRank() == 0 ? SmallVector<ReassociationIndices>{} : fromFlat);
}

/// Flatten and Reshape: static reshapes become collapse/expand.
template <typename OnnxOp>
struct ReshapePattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    Value src = adaptor.getOperands()[0];
    auto srcType = dyn_cast<RankedTensorType>(src.getType());
    if (failed(type) || !srcType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    if (!type->hasStaticShape() || !srcType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    rewriter.replaceOp(op, reshapeStatic(rewriter, op.getLoc(), src, *type));
    return success();
  }
};

struct TransposePattern : OpConversionPattern<onnx::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    auto srcType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (failed(type) || !srcType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    int64_t rank = srcType.getRank();
    SmallVector<int64_t> perm;
    if (auto p = op.getPerm())
      perm.assign(p->begin(), p->end());
    else
      for (int64_t i = rank - 1; i >= 0; --i)
        perm.push_back(i);
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
      if (!isa<RankedTensorType>(v.getType()))
        return rewriter.notifyMatchFailure(op, "unranked input");
      inputs.push_back(v);
    }
    Value result =
        tensor::ConcatOp::create(rewriter, loc, *type, axis, inputs);
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

void tcc::onnx_to_linalg::populateTensorPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<ReshapePattern<onnx::FlattenOp>,
               ReshapePattern<onnx::ReshapeOp>, TransposePattern,
               ConcatPattern, ConstantPattern>(converter, patterns.getContext());
}
