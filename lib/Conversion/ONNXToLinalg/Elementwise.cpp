//===- Elementwise.cpp - ONNX elementwise math to linalg.generic ----------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Add/Sub/Mul/Div with broadcasting; float or integer (Div: signed).
template <typename OnnxOp, typename FloatOp, typename IntOp,
          typename UnsignedOp = IntOp>
struct BinaryPattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    bool isUnsignedOp = isUnsigned(op.getA());
    Value result = buildElementwise(
        rewriter, op.getLoc(), *type, {adaptor.getA(), adaptor.getB()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (isa<FloatType>(args[0].getType()))
            return FloatOp::create(b, loc, args[0], args[1]);
          if (isUnsignedOp)
            return UnsignedOp::create(b, loc, args[0], args[1]);
          return IntOp::create(b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ReluPattern : OpConversionPattern<onnx::ReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Value result = buildElementwise(
        rewriter, op.getLoc(), *type, {adaptor.getX()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value zero = constantScalar(b, loc, args[0].getType(), 0);
          if (isa<FloatType>(args[0].getType()))
            return arith::MaximumFOp::create(b, loc, args[0], zero);
          if (isUnsigned(op.getX()))
            return args[0];
          return arith::MaxSIOp::create(b, loc, args[0], zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SigmoidPattern : OpConversionPattern<onnx::SigmoidOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SigmoidOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    Value result = buildElementwise(
        rewriter, op.getLoc(), *type, {adaptor.getX()},
        [](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Type t = args[0].getType();
          Value neg = arith::NegFOp::create(b, loc, args[0]);
          Value exp = math::ExpOp::create(b, loc, neg);
          Value one = constantScalar(b, loc, t, 1);
          Value den = arith::AddFOp::create(b, loc, one, exp);
          return arith::DivFOp::create(b, loc, one, den);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Clip: the bounds are scalar tensors (or none) broadcast into the body.
struct ClipPattern : OpConversionPattern<onnx::ClipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ClipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    SmallVector<Value> inputs = {adaptor.getInput()};
    bool hasMin = !isa<NoneType>(adaptor.getMin().getType());
    bool hasMax = !isa<NoneType>(adaptor.getMax().getType());
    for (Value bound : {adaptor.getMin(), adaptor.getMax()}) {
      if (isa<NoneType>(bound.getType()))
        continue;
      if (!isa<RankedTensorType>(bound.getType()))
        return rewriter.notifyMatchFailure(op, "unranked bound");
      inputs.push_back(bound);
    }
    Value result = buildElementwise(
        rewriter, op.getLoc(), *type, inputs,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          bool isFloat = isa<FloatType>(x.getType());
          bool isUns = isUnsigned(op.getInput());
          unsigned next = 1;
          if (hasMin) {
            Value lo = args[next++];
            x = isFloat ? (Value)arith::MaximumFOp::create(b, loc, x, lo)
                : isUns ? (Value)arith::MaxUIOp::create(b, loc, x, lo)
                        : (Value)arith::MaxSIOp::create(b, loc, x, lo);
          }
          if (hasMax) {
            Value hi = args[next++];
            x = isFloat ? (Value)arith::MinimumFOp::create(b, loc, x, hi)
                : isUns ? (Value)arith::MinUIOp::create(b, loc, x, hi)
                        : (Value)arith::MinSIOp::create(b, loc, x, hi);
          }
          return x;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Identity and inference Dropout forward their input.
template <typename OnnxOp>
struct ForwardPattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getOperands()[0];
    Type type = toSignless(op.getType());
    if (input.getType() != type)
      input = tensor::CastOp::create(rewriter, op.getLoc(), type, input);
    rewriter.replaceOp(op, input);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateElementwisePatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryPattern<onnx::AddOp, arith::AddFOp, arith::AddIOp>,
               BinaryPattern<onnx::SubOp, arith::SubFOp, arith::SubIOp>,
               BinaryPattern<onnx::MulOp, arith::MulFOp, arith::MulIOp>,
               BinaryPattern<onnx::DivOp, arith::DivFOp, arith::DivSIOp,
                             arith::DivUIOp>,
               ReluPattern, SigmoidPattern, ClipPattern,
               ForwardPattern<onnx::IdentityOp>,
               ForwardPattern<onnx::DropoutOp>>(converter, ctx);
}
