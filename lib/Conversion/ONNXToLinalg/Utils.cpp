//===- Utils.cpp - builders shared by the ONNX to linalg patterns ---------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc::onnx_to_linalg;

Type tcc::onnx_to_linalg::toSignless(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(toSignless(shaped.getElementType()));
  if (auto integer = dyn_cast<IntegerType>(type); integer && !integer.isSignless())
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

void tcc::onnx_to_linalg::populateSignlessTypeConversion(
    TypeConverter &converter) {
  converter.addConversion([](Type type) { return toSignless(type); });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  converter.addSourceMaterialization(cast);
  converter.addTargetMaterialization(cast);
}

bool tcc::onnx_to_linalg::isUnsigned(Value value) {
  return getElementTypeOrSelf(value.getType()).isUnsignedInteger();
}

FailureOr<RankedTensorType>
tcc::onnx_to_linalg::getRankedResultType(Operation *op,
                                         ConversionPatternRewriter &r) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return r.notifyMatchFailure(op, "result is not ranked");
  return cast<RankedTensorType>(toSignless(type));
}

Value tcc::onnx_to_linalg::createEmptyLike(OpBuilder &b, Location loc,
                                           RankedTensorType type,
                                           ValueRange sources) {
  SmallVector<OpFoldResult> sizes;
  int64_t rank = type.getRank();
  for (int64_t i = 0; i < rank; ++i) {
    if (!type.isDynamicDim(i)) {
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
      continue;
    }
    Value dim;
    for (Value src : sources) {
      auto srcType = dyn_cast<RankedTensorType>(src.getType());
      if (!srcType)
        continue;
      int64_t j = i - (rank - srcType.getRank());
      if (j < 0 || srcType.getDimSize(j) == 1)
        continue;
      dim = tensor::DimOp::create(b, loc, src, j);
      break;
    }
    // Callers reject results whose dynamic dims no operand carries.
    assert(dim && "no source for a dynamic dim");
    sizes.push_back(dim);
  }
  return tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
}

Value tcc::onnx_to_linalg::buildElementwise(OpBuilder &b, Location loc,
                                            RankedTensorType type,
                                            ValueRange inputs,
                                            BodyBuilder body) {
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value in : inputs) {
    auto inType = cast<RankedTensorType>(in.getType());
    int64_t offset = rank - inType.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t j = 0; j < inType.getRank(); ++j) {
      bool broadcast = inType.getDimSize(j) == 1 && type.getDimSize(j + offset) != 1;
      exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(j + offset, ctx));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = createEmptyLike(b, loc, type, inputs);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

Value tcc::onnx_to_linalg::constantScalar(OpBuilder &b, Location loc,
                                          Type type, double value) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(ft, value));
  return arith::ConstantOp::create(b, loc, type,
                                   b.getIntegerAttr(type, (int64_t)value));
}

Value tcc::onnx_to_linalg::addScalars(OpBuilder &b, Location loc, Value x,
                                      Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value tcc::onnx_to_linalg::mulScalars(OpBuilder &b, Location loc, Value x,
                                      Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value tcc::onnx_to_linalg::padTrailing(OpBuilder &b, Location loc,
                                       Value source, ArrayRef<int64_t> low,
                                       ArrayRef<int64_t> high, Value padValue) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return source;
  auto type = cast<RankedTensorType>(source.getType());
  size_t lead = type.getRank() - low.size();
  SmallVector<int64_t> lo(lead, 0), hi(lead, 0);
  lo.append(low.begin(), low.end());
  hi.append(high.begin(), high.end());
  RankedTensorType resultType = tensor::PadOp::inferResultType(type, lo, hi);
  SmallVector<OpFoldResult> loF = getAsIndexOpFoldResult(b.getContext(), lo);
  SmallVector<OpFoldResult> hiF = getAsIndexOpFoldResult(b.getContext(), hi);
  return tensor::PadOp::create(b, loc, resultType, source, loF, hiF, padValue);
}

Value tcc::onnx_to_linalg::createFilled(OpBuilder &b, Location loc,
                                        RankedTensorType type, Value value,
                                        ValueRange dynamicSources) {
  Value empty = createEmptyLike(b, loc, type, dynamicSources);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

Value tcc::onnx_to_linalg::castScalar(OpBuilder &b, Location loc, Value x,
                                      bool fromUnsigned, Type to,
                                      bool toUnsigned) {
  Type from = x.getType();
  if (from == to)
    return x;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    // f16 <-> bf16 have one width: go through f32.
    if (fromFloat.getWidth() == toFloat.getWidth())
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    if (cast<FloatType>(x.getType()).getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    return arith::TruncFOp::create(b, loc, to, x);
  }
  bool fromBool = from.isInteger(1);
  if (toFloat) {
    if (fromUnsigned || fromBool)
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (to.isInteger(1)) {
    Value zero = constantScalar(b, loc, from, 0);
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (fromFloat) {
    if (toUnsigned)
      return arith::FPToUIOp::create(b, loc, to, x);
    return arith::FPToSIOp::create(b, loc, to, x);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (toWidth < fromWidth)
    return arith::TruncIOp::create(b, loc, to, x);
  if (toWidth == fromWidth)
    return x;
  if (fromUnsigned || fromBool)
    return arith::ExtUIOp::create(b, loc, to, x);
  return arith::ExtSIOp::create(b, loc, to, x);
}

DenseIntElementsAttr tcc::onnx_to_linalg::i64Elements(OpBuilder &b,
                                                      ArrayRef<int64_t> values) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({(int64_t)values.size()}, b.getI64Type()), values);
}
