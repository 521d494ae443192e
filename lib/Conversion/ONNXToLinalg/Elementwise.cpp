//===- Elementwise.cpp - ONNX arithmetic, logic, compare, cast to linalg --===//
//
// Each op is a ScalarPattern (Patterns.h) with a scalar body here; the
// signedness arith's signless types lack comes from the onnx op's operands.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

/// A float, signed or unsigned integer op, by the scalar type and `uns`.
template <typename FloatOp, typename SignedOp, typename UnsignedOp = SignedOp>
Value pick(OpBuilder &b, Location loc, bool uns, Value x, Value y) {
  if (isFloat(x))
    return FloatOp::create(b, loc, x, y);
  if (uns)
    return UnsignedOp::create(b, loc, x, y);
  return SignedOp::create(b, loc, x, y);
}

/// A comparison with the float (ordered), signed or unsigned predicate.
Value compare(OpBuilder &b, Location loc, bool uns, arith::CmpFPredicate f,
              arith::CmpIPredicate s, arith::CmpIPredicate u, Value x,
              Value y) {
  if (isFloat(x))
    return arith::CmpFOp::create(b, loc, f, x, y);
  return arith::CmpIOp::create(b, loc, uns ? u : s, x, y);
}

/// Whether the op's first operand is an ONNX unsigned integer.
bool uns(Operation *op) { return isUnsigned(op->getOperand(0)); }

using F = arith::CmpFPredicate;
using I = arith::CmpIPredicate;

/// Mod with fmod=0 on signed ints and floats: the remainder takes the
/// divisor's sign (numpy's mod; a zero float remainder is +-0 like it).
Value floorMod(OpBuilder &b, Location loc, Value x, Value y) {
  Value zero = constantScalar(b, loc, x.getType(), 0);
  if (isFloat(x)) {
    Value r = arith::RemFOp::create(b, loc, x, y);
    Value nonzero = arith::CmpFOp::create(b, loc, F::UNE, r, zero);
    Value rNeg = arith::CmpFOp::create(b, loc, F::OLT, r, zero);
    Value yNeg = arith::CmpFOp::create(b, loc, F::OLT, y, zero);
    Value differ = arith::XOrIOp::create(b, loc, rNeg, yNeg);
    Value fix = arith::AndIOp::create(b, loc, nonzero, differ);
    Value adjusted = arith::AddFOp::create(b, loc, r, y);
    Value signedZero = math::CopySignOp::create(b, loc, zero, y);
    Value isZero = arith::CmpFOp::create(b, loc, F::OEQ, r, zero);
    Value fixed = arith::SelectOp::create(b, loc, fix, adjusted, r);
    return arith::SelectOp::create(b, loc, isZero, signedZero, fixed);
  }
  Value r = arith::RemSIOp::create(b, loc, x, y);
  Value nonzero = arith::CmpIOp::create(b, loc, I::ne, r, zero);
  Value rNeg = arith::CmpIOp::create(b, loc, I::slt, r, zero);
  Value yNeg = arith::CmpIOp::create(b, loc, I::slt, y, zero);
  Value differ = arith::XOrIOp::create(b, loc, rNeg, yNeg);
  Value fix = arith::AndIOp::create(b, loc, nonzero, differ);
  Value adjusted = arith::AddIOp::create(b, loc, r, y);
  return arith::SelectOp::create(b, loc, fix, adjusted, r);
}

/// BitShift with numpy's saturation: a shift amount outside [0, width)
/// (compared unsigned, so negative ones are outside too) gives 0, or the
/// sign fill for a signed right shift; LLVM would give poison.
Value bitShift(onnx::BitShiftOp op, OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0], y = a[1];
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Value widthC = constantScalar(b, loc, x.getType(), width);
  Value inRange = arith::CmpIOp::create(b, loc, I::ult, y, widthC);
  Value shifted, saturated;
  if (op.getDirection() == "LEFT") {
    shifted = arith::ShLIOp::create(b, loc, x, y);
    saturated = constantScalar(b, loc, x.getType(), 0);
  } else if (uns(op)) {
    shifted = arith::ShRUIOp::create(b, loc, x, y);
    saturated = constantScalar(b, loc, x.getType(), 0);
  } else {
    shifted = arith::ShRSIOp::create(b, loc, x, y);
    Value last = constantScalar(b, loc, x.getType(), width - 1);
    saturated = arith::ShRSIOp::create(b, loc, x, last);
  }
  return arith::SelectOp::create(b, loc, inRange, shifted, saturated);
}

/// Pow: float bases compute in their type (a float exponent converted to
/// it, an integer one converted exactly enough by sitofp); integer bases
/// compute in f64 and convert back, as onnxruntime does.
Value power(onnx::PowOp op, OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0], y = a[1];
  bool yUns = isUnsigned(op.getY());
  if (isFloat(x)) {
    y = castScalar(b, loc, y, yUns, x.getType(), false);
    return math::PowFOp::create(b, loc, x, y);
  }
  Type f64 = b.getF64Type();
  Value xf = castScalar(b, loc, x, uns(op), f64, false);
  Value yf = castScalar(b, loc, y, yUns, f64, false);
  Value r = math::PowFOp::create(b, loc, xf, yf);
  return castScalar(b, loc, r, false, x.getType(), uns(op));
}

/// Max/Min/Sum fold their operands with `combine`; Mean divides the sum.
template <typename FloatOp, typename SignedOp, typename UnsignedOp = SignedOp,
          typename OnnxOp>
Value fold(OnnxOp op, OpBuilder &b, Location loc, ValueRange a) {
  Value acc = a[0];
  for (Value v : a.drop_front())
    acc = pick<FloatOp, SignedOp, UnsignedOp>(b, loc, uns(op), acc, v);
  return acc;
}

LogicalResult checkMean(onnx::MeanOp op) {
  if (isa<FloatType>(getElementTypeOrSelf(op.getType())))
    return success();
  return op.emitOpError() << "on integers is not supported yet";
}

Value castTo(Operation *op, OpBuilder &b, Location loc, Value x) {
  Type to = toSignless(getElementTypeOrSelf(op->getResult(0)));
  return castScalar(b, loc, x, uns(op), to, isUnsigned(op->getResult(0)));
}

/// Clip: the bounds are scalar tensors (or none) broadcast into the body.
Value clip(onnx::ClipOp op, OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0];
  unsigned next = 1;
  if (!isa<NoneType>(op.getMin().getType()))
    x = pick<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>(
        b, loc, uns(op), x, a[next++]);
  if (!isa<NoneType>(op.getMax().getType()))
    x = pick<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>(
        b, loc, uns(op), x, a[next++]);
  return x;
}

/// CastLike: its second operand only gives the type, so it stays out of
/// the generic (its shape need not broadcast).
struct CastLikePattern : OpConversionPattern<onnx::CastLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::CastLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op, rewriter);
    if (failed(type))
      return failure();
    SmallVector<Value> inputs = {adaptor.getInput()};
    Value result = buildElementwise(
        rewriter, op.getLoc(), *type, inputs,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castTo(op, b, loc, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Identity and inference Dropout forward their input; Dropout's mask is
/// all true.
template <typename OnnxOp>
struct ForwardPattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getOperands()[0];
    Type type = toSignless(op->getResult(0).getType());
    if (input.getType() != type)
      input = tensor::CastOp::create(rewriter, op.getLoc(), type, input);
    SmallVector<Value> results = {input};
    if (op->getNumResults() == 2) {
      auto maskType = dyn_cast<RankedTensorType>(op->getResult(1).getType());
      if (!maskType)
        return rewriter.notifyMatchFailure(op, "mask is not ranked");
      Value yes = arith::ConstantOp::create(rewriter, op.getLoc(),
                                            rewriter.getBoolAttr(true));
      results.push_back(createFilled(rewriter, op.getLoc(), maskType, yes,
                                     ValueRange{input}));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateElementwisePatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  ScalarPatternAdder p{converter, patterns};
  // Arithmetic.
  p.add<onnx::AddOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return pick<arith::AddFOp, arith::AddIOp>(b, l, uns(op), a[0], a[1]);
  });
  p.add<onnx::SubOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return pick<arith::SubFOp, arith::SubIOp>(b, l, uns(op), a[0], a[1]);
  });
  p.add<onnx::MulOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return pick<arith::MulFOp, arith::MulIOp>(b, l, uns(op), a[0], a[1]);
  });
  p.add<onnx::MulAddOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return math::FmaOp::create(b, l, a[0], a[1], a[2]);
      });
  p.add<onnx::DivOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return pick<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>(b, l, uns(op),
                                                               a[0], a[1]);
  });
  p.add<onnx::ModOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    if (op.getFmod() == 0 && !uns(op))
      return floorMod(b, l, a[0], a[1]);
    // fmod=1 is C's fmod: the dividend's sign (remsi); unsigned agree.
    return pick<arith::RemFOp, arith::RemSIOp, arith::RemUIOp>(b, l, uns(op),
                                                               a[0], a[1]);
  });
  p.add<onnx::PowOp>(power);
  p.add<onnx::MaxOp>(fold<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>);
  p.add<onnx::MinOp>(fold<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>);
  p.add<onnx::SumOp>(fold<arith::AddFOp, arith::AddIOp>);
  p.add<onnx::MeanOp>(
      [](auto op, OpBuilder &b, Location l, ValueRange a) -> Value {
        Value sum = fold<arith::AddFOp, arith::AddIOp>(op, b, l, a);
        Value n = constantScalar(b, l, sum.getType(), a.size());
        return arith::DivFOp::create(b, l, sum, n);
      },
      checkMean);
  p.add<onnx::ClipOp>(clip);

  // Logic and bits.
  p.add<onnx::AndOp>([](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
    return arith::AndIOp::create(b, l, a[0], a[1]);
  });
  p.add<onnx::OrOp>([](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
    return arith::OrIOp::create(b, l, a[0], a[1]);
  });
  p.add<onnx::XorOp>([](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
    return arith::XOrIOp::create(b, l, a[0], a[1]);
  });
  p.add<onnx::BitwiseAndOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return arith::AndIOp::create(b, l, a[0], a[1]);
      });
  p.add<onnx::BitwiseOrOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return arith::OrIOp::create(b, l, a[0], a[1]);
      });
  p.add<onnx::BitwiseXorOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return arith::XOrIOp::create(b, l, a[0], a[1]);
      });
  p.add<onnx::BitShiftOp>(bitShift);

  // Comparisons and selection.
  p.add<onnx::EqualOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return compare(b, l, uns(op), F::OEQ, I::eq, I::eq, a[0], a[1]);
  });
  p.add<onnx::LessOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return compare(b, l, uns(op), F::OLT, I::slt, I::ult, a[0], a[1]);
  });
  p.add<onnx::LessOrEqualOp>(
      [](auto op, OpBuilder &b, Location l, ValueRange a) {
        return compare(b, l, uns(op), F::OLE, I::sle, I::ule, a[0], a[1]);
      });
  p.add<onnx::GreaterOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return compare(b, l, uns(op), F::OGT, I::sgt, I::ugt, a[0], a[1]);
  });
  p.add<onnx::GreaterOrEqualOp>(
      [](auto op, OpBuilder &b, Location l, ValueRange a) {
        return compare(b, l, uns(op), F::OGE, I::sge, I::uge, a[0], a[1]);
      });
  p.add<onnx::WhereOp>(
      [](auto, OpBuilder &b, Location l, ValueRange a) -> Value {
        return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
      });

  p.add<onnx::CastOp>([](auto op, OpBuilder &b, Location l, ValueRange a) {
    return castTo(op, b, l, a[0]);
  });
  // Bits reinterpreted; bool (i1 here, a byte in memory) widens to and
  // narrows from 8-bit ints by value, which is its bit pattern.
  p.add<onnx::BitCastOp>([](auto op, OpBuilder &b, Location l,
                            ValueRange a) -> Value {
    Type to = toSignless(getElementTypeOrSelf(op.getType()));
    Value x = a[0];
    if (x.getType().isInteger(1))
      return arith::ExtUIOp::create(b, l, to, x);
    if (to.isInteger(1))
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x,
                                   constantScalar(b, l, x.getType(), 0));
    return arith::BitcastOp::create(b, l, to, x);
  });

  patterns.add<CastLikePattern, ForwardPattern<onnx::IdentityOp>,
               ForwardPattern<onnx::DropoutOp>>(converter,
                                                patterns.getContext());
}
