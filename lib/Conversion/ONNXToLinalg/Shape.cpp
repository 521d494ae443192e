//===- Shape.cpp - ONNX shape ops to tensor/linalg ------------------------===//
//
// Shape and Size fold to constants before the lowering whenever the shape is
// static; what reaches here has a dynamic shape and is refused.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

template <typename OnnxOp>
struct DynamicShapeQuery : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor,
                  ConversionPatternRewriter &) const override {
    return op.emitOpError()
           << "of an input with a dynamic shape is not supported yet";
  }
};

/// The ConstantOfShape value as a signless scalar constant.
static Value fillValue(OpBuilder &b, Location loc, onnx::ConstantOfShapeOp op,
                       Type elem) {
  if (!op.getValue())
    return constantScalar(b, loc, elem, 0.0);
  TypedAttr value = onnx::getSingleElement(*op.getValue());
  if (auto i = dyn_cast_or_null<IntegerAttr>(value))
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(elem, i.getValue()));
  if (auto f = dyn_cast_or_null<FloatAttr>(value))
    return arith::ConstantOp::create(b, loc, f);
  return {};
}

struct ConstantOfShapePattern : OpConversionPattern<onnx::ConstantOfShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConstantOfShapeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, op.getInput(), "shape")))
      return failure();
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Value value = fillValue(rewriter, op.getLoc(), op, type.getElementType());
    if (!value)
      return op.emitOpError() << "has an unsupported value kind";
    rewriter.replaceOp(op, createFilled(rewriter, op.getLoc(), type, value));
    return success();
  }
};

/// Range: start + i * delta, computed per element (as numpy's arange).
struct RangePattern : OpConversionPattern<onnx::RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(
            op, ValueRange{op.getStart(), op.getLimit(), op.getDelta()},
            "start, limit and delta")))
      return failure();
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Type elem = type.getElementType();
    if (!elem.isIntOrFloat() || elem.isInteger(1))
      return op.emitOpError() << "of " << elem << " is not supported";
    Location loc = op.getLoc();
    // Scalars, or one-element 1-d tensors.
    auto scalar = [&](Value v) -> Value {
      SmallVector<Value> zeros(cast<RankedTensorType>(v.getType()).getRank(),
                               constantIndex(rewriter, loc, 0));
      return tensor::ExtractOp::create(rewriter, loc, v, zeros);
    };
    Value start = scalar(adaptor.getStart());
    Value delta = scalar(adaptor.getDelta());
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value i = arith::IndexCastOp::create(b, l, b.getI64Type(), ivs[0]);
          if (isa<FloatType>(elem))
            i = arith::SIToFPOp::create(b, l, elem, i);
          else if (elem.getIntOrFloatBitWidth() < 64)
            i = arith::TruncIOp::create(b, l, elem, i);
          return addScalars(b, l, start, mulScalars(b, l, i, delta));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Expand: a broadcasting copy.
struct ExpandPattern : OpConversionPattern<onnx::ExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, op.getShape(), "shape")))
      return failure();
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), type, adaptor.getInput(),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Hann, Hamming and Blackman windows of a constant size become constants:
/// a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), computed in double.
template <typename OpTy>
struct WindowPattern : OpConversionPattern<OpTy> {
  WindowPattern(const TypeConverter &converter, MLIRContext *ctx, double a0,
                double a1, double a2)
      : OpConversionPattern<OpTy>(converter, ctx), a0(a0), a1(a1), a2(a2) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, op.getSize(), "size")))
      return failure();
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    int64_t size = type.getDimSize(0);
    double n = op.getPeriodic() ? size : size - 1;
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < size; ++i) {
      double x = 2 * M_PI * i / n;
      double w = a0 - a1 * std::cos(x) + a2 * std::cos(2 * x);
      Type elem = type.getElementType();
      if (auto ft = dyn_cast<FloatType>(elem))
        values.push_back(rewriter.getFloatAttr(ft, w));
      else
        values.push_back(rewriter.getIntegerAttr(elem, (int64_t)w));
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, DenseElementsAttr::get(type, values));
    return success();
  }
  double a0, a1, a2;
};

} // namespace

void tcc::onnx_to_linalg::populateShapePatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<DynamicShapeQuery<onnx::ShapeOp>, DynamicShapeQuery<onnx::SizeOp>,
               ConstantOfShapePattern, RangePattern, ExpandPattern>(converter,
                                                                    ctx);
  patterns.add<StaticReshapePattern<onnx::SqueezeOp>>(converter, ctx, "axes");
  patterns.add<WindowPattern<onnx::HannWindowOp>>(converter, ctx, 0.5, 0.5, 0);
  patterns.add<WindowPattern<onnx::HammingWindowOp>>(converter, ctx,
                                                     25.0 / 46, 21.0 / 46, 0);
  patterns.add<WindowPattern<onnx::BlackmanWindowOp>>(converter, ctx, 0.42,
                                                      0.5, 0.08);
  patterns.add<StaticReshapePattern<onnx::UnsqueezeOp>>(converter, ctx, "axes");
}
