//===- Activation.cpp - ONNX unary math and activations to linalg ---------===//
//
// ScalarPatterns (Patterns.h) with one scalar body per op. Float math on
// f16/bf16 is computed in f32 (libm and LLVM's intrinsics want f32/f64).
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

using F = arith::CmpFPredicate;
using I = arith::CmpIPredicate;

/// Applies `fn` to `x` in f32 when x is a narrower float, else in its type.
Value inF32(OpBuilder &b, Location loc, Value x,
            llvm::function_ref<Value(Value)> fn) {
  Type type = x.getType();
  if (type.getIntOrFloatBitWidth() >= 32)
    return fn(x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

/// A math dialect function of one float.
template <typename MathOp, typename OnnxOp>
Value mathFn(OnnxOp, OpBuilder &b, Location loc, ValueRange a) {
  return inF32(b, loc, a[0],
               [&](Value x) -> Value { return MathOp::create(b, loc, x); });
}

Value cst(OpBuilder &b, Location loc, Value like, double v) {
  return constantScalar(b, loc, like.getType(), v);
}
Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y);
}
Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddFOp::create(b, loc, x, y);
}
Value lessThanZero(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, F::OLT, x, cst(b, loc, x, 0));
}
/// max(0, min(1, x)).
Value clamp01(OpBuilder &b, Location loc, Value x) {
  Value lo = arith::MaximumFOp::create(b, loc, x, cst(b, loc, x, 0));
  return arith::MinimumFOp::create(b, loc, lo, cst(b, loc, x, 1));
}
/// log(1 + exp(x)) without overflow: max(x, 0) + log1p(exp(-|x|)).
Value softplus(OpBuilder &b, Location loc, Value x) {
  Value pos = arith::MaximumFOp::create(b, loc, x, cst(b, loc, x, 0));
  Value negAbs = arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x));
  Value e = math::ExpOp::create(b, loc, negAbs);
  return add(b, loc, pos, math::Log1pOp::create(b, loc, e));
}
/// x * sigmoid(alpha * x), the sigmoid computed in f32 and rounded to x's
/// type first, as ONNX's reference does.
Value swish(OpBuilder &b, Location loc, Value x, APFloat alpha) {
  Value gate = inF32(b, loc, x, [&](Value w) -> Value {
    Value ax = mul(b, loc, cst(b, loc, w, alpha.convertToFloat()), w);
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, ax));
    Value one = cst(b, loc, w, 1);
    return arith::DivFOp::create(b, loc, one, add(b, loc, one, e));
  });
  return mul(b, loc, x, gate);
}
/// A float attribute as a constant of x's type.
Value attr(OpBuilder &b, Location loc, Value x, APFloat v) {
  return cst(b, loc, x, v.convertToFloat());
}

Value neg(onnx::NegOp, OpBuilder &b, Location loc, ValueRange a) {
  if (isa<FloatType>(a[0].getType()))
    return arith::NegFOp::create(b, loc, a[0]);
  return arith::SubIOp::create(b, loc, cst(b, loc, a[0], 0), a[0]);
}

Value abs(onnx::AbsOp op, OpBuilder &b, Location loc, ValueRange a) {
  if (isa<FloatType>(a[0].getType()))
    return math::AbsFOp::create(b, loc, a[0]);
  if (isUnsigned(op.getX()))
    return a[0];
  return math::AbsIOp::create(b, loc, a[0]);
}

/// -1, 0 or 1 (NaN stays NaN, as x itself is returned for x == 0).
Value sign(onnx::SignOp op, OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0], zero = cst(b, loc, x, 0);
  Value one = cst(b, loc, x, 1), minusOne = cst(b, loc, x, -1);
  Value pos, negative;
  if (isa<FloatType>(x.getType())) {
    pos = arith::CmpFOp::create(b, loc, F::OGT, x, zero);
    negative = arith::CmpFOp::create(b, loc, F::OLT, x, zero);
  } else if (isUnsigned(op.getX())) {
    pos = arith::CmpIOp::create(b, loc, I::ne, x, zero);
    negative = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  } else {
    pos = arith::CmpIOp::create(b, loc, I::sgt, x, zero);
    negative = arith::CmpIOp::create(b, loc, I::slt, x, zero);
  }
  Value rest = arith::SelectOp::create(b, loc, negative, minusOne, x);
  return arith::SelectOp::create(b, loc, pos, one, rest);
}

Value relu(onnx::ReluOp op, OpBuilder &b, Location loc, ValueRange a) {
  if (isa<FloatType>(a[0].getType()))
    return arith::MaximumFOp::create(b, loc, a[0], cst(b, loc, a[0], 0));
  if (isUnsigned(op.getX()))
    return a[0];
  return arith::MaxSIOp::create(b, loc, a[0], cst(b, loc, a[0], 0));
}

/// PRelu: x < 0 ? slope * x : x, for floats and signed integers.
Value prelu(onnx::PReluOp op, OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0], slope = a[1];
  if (isa<FloatType>(x.getType())) {
    Value isNeg = lessThanZero(b, loc, x);
    return arith::SelectOp::create(b, loc, isNeg, mul(b, loc, slope, x), x);
  }
  if (isUnsigned(op.getA()))
    return x;
  Value isNeg =
      arith::CmpIOp::create(b, loc, I::slt, x, cst(b, loc, x, 0));
  return arith::SelectOp::create(
      b, loc, isNeg, arith::MulIOp::create(b, loc, slope, x), x);
}

Value gelu(onnx::GeluOp op, OpBuilder &b, Location loc, ValueRange a) {
  bool tanhForm = op.getApproximate() == "tanh";
  return inF32(b, loc, a[0], [&](Value x) -> Value {
    Value phi2; // 2 * Phi(x) = 1 + erf(x / sqrt 2), or the tanh form
    if (tanhForm) {
      Value x3 = mul(b, loc, mul(b, loc, x, x), x);
      Value inner = add(b, loc, x, mul(b, loc, cst(b, loc, x, 0.044715), x3));
      Value scaled = mul(b, loc, cst(b, loc, x, std::sqrt(2.0 / M_PI)), inner);
      phi2 = add(b, loc, cst(b, loc, x, 1), math::TanhOp::create(b, loc, scaled));
    } else {
      Value scaled = mul(b, loc, x, cst(b, loc, x, M_SQRT1_2));
      phi2 = add(b, loc, cst(b, loc, x, 1), math::ErfOp::create(b, loc, scaled));
    }
    return mul(b, loc, mul(b, loc, cst(b, loc, x, 0.5), x), phi2);
  });
}

} // namespace

void tcc::onnx_to_linalg::populateActivationPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  ScalarPatternAdder p{converter, patterns};
  p.add<onnx::NegOp>(neg);
  p.add<onnx::AbsOp>(abs);
  p.add<onnx::SignOp>(sign);
  p.add<onnx::ReluOp>(relu);
  p.add<onnx::PReluOp>(prelu);
  p.add<onnx::NotOp>([](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
    return arith::XOrIOp::create(b, l, a[0], cst(b, l, a[0], 1));
  });
  p.add<onnx::BitwiseNotOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return arith::XOrIOp::create(b, l, a[0], cst(b, l, a[0], -1));
      });
  p.add<onnx::IsNaNOp>([](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
    return arith::CmpFOp::create(b, l, F::UNO, a[0], a[0]);
  });
  p.add<onnx::IsInfOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    Value x = a[0];
    auto inf = [&](bool negative) -> Value {
      auto ft = cast<FloatType>(x.getType());
      Value c = arith::ConstantOp::create(
          b, l, ft,
          b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(), negative)));
      return arith::CmpFOp::create(b, l, F::OEQ, x, c);
    };
    Value result = arith::ConstantOp::create(b, l, b.getBoolAttr(false));
    if (op.getDetectPositive())
      result = arith::OrIOp::create(b, l, result, inf(false));
    if (op.getDetectNegative())
      result = arith::OrIOp::create(b, l, result, inf(true));
    return result;
  });

  // Float math.
  p.add<onnx::SqrtOp>(mathFn<math::SqrtOp>);
  p.add<onnx::ExpOp>(mathFn<math::ExpOp>);
  p.add<onnx::LogOp>(mathFn<math::LogOp>);
  p.add<onnx::FloorOp>(mathFn<math::FloorOp>);
  p.add<onnx::CeilOp>(mathFn<math::CeilOp>);
  p.add<onnx::RoundOp>(mathFn<math::RoundEvenOp>);
  p.add<onnx::ErfOp>(mathFn<math::ErfOp>);
  p.add<onnx::TanhOp>(mathFn<math::TanhOp>);
  p.add<onnx::SinOp>(mathFn<math::SinOp>);
  p.add<onnx::CosOp>(mathFn<math::CosOp>);
  p.add<onnx::TanOp>(mathFn<math::TanOp>);
  p.add<onnx::AsinOp>(mathFn<math::AsinOp>);
  p.add<onnx::AcosOp>(mathFn<math::AcosOp>);
  p.add<onnx::AtanOp>(mathFn<math::AtanOp>);
  p.add<onnx::SinhOp>(mathFn<math::SinhOp>);
  p.add<onnx::CoshOp>(mathFn<math::CoshOp>);
  p.add<onnx::AsinhOp>(mathFn<math::AsinhOp>);
  p.add<onnx::AcoshOp>(mathFn<math::AcoshOp>);
  p.add<onnx::AtanhOp>(mathFn<math::AtanhOp>);
  p.add<onnx::ReciprocalOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return arith::DivFOp::create(b, l, cst(b, l, a[0], 1), a[0]);
      });

  // Activations.
  p.add<onnx::SigmoidOp>([](auto, OpBuilder &b, Location l, ValueRange a) {
    return inF32(b, l, a[0], [&](Value x) -> Value {
      Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x));
      Value one = cst(b, l, x, 1);
      return arith::DivFOp::create(b, l, one, add(b, l, one, e));
    });
  });
  p.add<onnx::SwishOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return swish(b, l, a[0], op.getAlpha());
  });
  p.add<onnx::SwiGLUOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return mul(b, l, swish(b, l, a[0], op.getAlpha()), a[1]);
  });
  p.add<onnx::SoftplusOp>([](auto, OpBuilder &b, Location l, ValueRange a) {
    return inF32(b, l, a[0], [&](Value x) { return softplus(b, l, x); });
  });
  p.add<onnx::SoftsignOp>([](auto, OpBuilder &b, Location l, ValueRange a) {
    Value x = a[0];
    Value den = add(b, l, cst(b, l, x, 1), math::AbsFOp::create(b, l, x));
    return (Value)arith::DivFOp::create(b, l, x, den);
  });
  p.add<onnx::MishOp>([](auto, OpBuilder &b, Location l, ValueRange a) {
    return inF32(b, l, a[0], [&](Value x) {
      return mul(b, l, x, math::TanhOp::create(b, l, softplus(b, l, x)));
    });
  });
  p.add<onnx::HardSwishOp>([](auto, OpBuilder &b, Location l, ValueRange a) {
    Value x = a[0];
    Value t = add(b, l, mul(b, l, x, cst(b, l, x, 1.0 / 6)), cst(b, l, x, 0.5));
    return mul(b, l, x, clamp01(b, l, t));
  });
  p.add<onnx::HardSigmoidOp>([](auto op, OpBuilder &b, Location l,
                                ValueRange a) {
    Value x = a[0];
    Value t = add(b, l, mul(b, l, attr(b, l, x, op.getAlpha()), x),
                  attr(b, l, x, op.getBeta()));
    return clamp01(b, l, t);
  });
  p.add<onnx::LeakyReluOp>([](auto op, OpBuilder &b, Location l,
                              ValueRange a) -> Value {
    Value x = a[0];
    Value isNeg = lessThanZero(b, l, x);
    Value scaled = mul(b, l, attr(b, l, x, op.getAlpha()), x);
    return arith::SelectOp::create(b, l, isNeg, scaled, x);
  });
  p.add<onnx::EluOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return inF32(b, l, a[0], [&](Value x) -> Value {
      Value em1 = math::ExpM1Op::create(b, l, x);
      Value negPart = mul(b, l, attr(b, l, x, op.getAlpha()), em1);
      return arith::SelectOp::create(b, l, lessThanZero(b, l, x), negPart, x);
    });
  });
  p.add<onnx::SeluOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return inF32(b, l, a[0], [&](Value x) -> Value {
      Value em1 = math::ExpM1Op::create(b, l, x);
      Value negPart = mul(b, l, attr(b, l, x, op.getAlpha()), em1);
      Value notPos =
          arith::CmpFOp::create(b, l, F::OLE, x, cst(b, l, x, 0));
      Value y = arith::SelectOp::create(b, l, notPos, negPart, x);
      return mul(b, l, attr(b, l, x, op.getGamma()), y);
    });
  });
  p.add<onnx::CeluOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return inF32(b, l, a[0], [&](Value x) -> Value {
      Value alpha = attr(b, l, x, op.getAlpha());
      Value em1 =
          math::ExpM1Op::create(b, l, arith::DivFOp::create(b, l, x, alpha));
      Value zero = cst(b, l, x, 0);
      Value negPart = arith::MinimumFOp::create(b, l, zero, mul(b, l, alpha, em1));
      return add(b, l, arith::MaximumFOp::create(b, l, zero, x), negPart);
    });
  });
  p.add<onnx::ThresholdedReluOp>([](auto op, OpBuilder &b, Location l,
                                    ValueRange a) -> Value {
    Value x = a[0];
    Value above = arith::CmpFOp::create(b, l, F::OGT, x,
                                        attr(b, l, x, op.getAlpha()));
    return arith::SelectOp::create(b, l, above, x, cst(b, l, x, 0));
  });
  p.add<onnx::ShrinkOp>([](auto op, OpBuilder &b, Location l,
                           ValueRange a) -> Value {
    Value x = a[0];
    Value lambd = attr(b, l, x, op.getLambd());
    Value bias = attr(b, l, x, op.getBias());
    Value below = arith::CmpFOp::create(b, l, F::OLT, x,
                                        arith::NegFOp::create(b, l, lambd));
    Value above = arith::CmpFOp::create(b, l, F::OGT, x, lambd);
    Value hi = arith::SelectOp::create(
        b, l, above, arith::SubFOp::create(b, l, x, bias), cst(b, l, x, 0));
    return arith::SelectOp::create(b, l, below, add(b, l, x, bias), hi);
  });
  p.add<onnx::GeluOp>(gelu);
}
