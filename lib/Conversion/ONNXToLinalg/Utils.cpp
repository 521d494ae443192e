//===- Utils.cpp - builders shared by the ONNX to linalg patterns ---------===//
#include "Patterns.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"

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

Type tcc::onnx_to_linalg::accumulatorType(Type elem) {
  if (isa<Float16Type, BFloat16Type>(elem))
    return Float32Type::get(elem.getContext());
  return elem;
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

RankedTensorType tcc::onnx_to_linalg::dropReducedDims(RankedTensorType type,
                                                      ArrayRef<bool> reduced) {
  SmallVector<int64_t> shape;
  for (auto [dim, isReduced] : llvm::zip_equal(type.getShape(), reduced))
    if (!isReduced)
      shape.push_back(dim);
  return RankedTensorType::get(shape, type.getElementType());
}

/// The map from the full iteration space to the dims `reduced` keeps.
static AffineMap keptDimsMap(MLIRContext *ctx, ArrayRef<bool> reduced) {
  SmallVector<AffineExpr> exprs;
  for (auto [i, isReduced] : llvm::enumerate(reduced))
    if (!isReduced)
      exprs.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(reduced.size(), 0, exprs, ctx);
}

Value tcc::onnx_to_linalg::buildReduction(OpBuilder &b, Location loc,
                                          Value input, ArrayRef<bool> reduced,
                                          Value init, BodyBuilder combine) {
  auto inType = cast<RankedTensorType>(input.getType());
  RankedTensorType outType = dropReducedDims(inType, reduced);
  outType = outType.clone(init.getType());
  SmallVector<OpFoldResult> sizes;
  for (auto [i, isReduced] : llvm::enumerate(reduced))
    if (!isReduced)
      sizes.push_back(tensor::getMixedSize(b, loc, input, i));
  Value empty = tensor::EmptyOp::create(b, loc, sizes, init.getType());
  Value filled =
      linalg::FillOp::create(b, loc, ValueRange{init}, ValueRange{empty})
          .getResult(0);
  SmallVector<utils::IteratorType> iterators;
  for (bool isReduced : reduced)
    iterators.push_back(isReduced ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(reduced.size()),
                                 keptDimsMap(b.getContext(), reduced)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{input}, ValueRange{filled},
             maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, combine(nb, nloc, args));
             })
      .getResult(0);
}

Value tcc::onnx_to_linalg::buildWithReduced(OpBuilder &b, Location loc,
                                            Value full, ValueRange partials,
                                            ArrayRef<bool> reduced,
                                            Type elementType,
                                            BodyBuilder body) {
  auto type = cast<RankedTensorType>(full.getType()).clone(elementType);
  Value empty = createEmptyLike(b, loc, type, {full});
  int64_t rank = reduced.size();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps = {identity};
  maps.append(partials.size(), keptDimsMap(b.getContext(), reduced));
  maps.push_back(identity);
  SmallVector<Value> inputs = {full};
  llvm::append_range(inputs, partials);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{empty}, maps, parallel,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc,
                                       body(nb, nloc, args.drop_back()));
             })
      .getResult(0);
}

Value tcc::onnx_to_linalg::expandReducedDims(OpBuilder &b, Location loc,
                                             Value value, RankedTensorType type,
                                             ArrayRef<bool> reduced) {
  if (!llvm::is_contained(reduced, true))
    return value;
  // Each kept dim takes the unit dims before it; the last one those after.
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [i, isReduced] : llvm::enumerate(reduced)) {
    pending.push_back(i);
    if (!isReduced) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  return tensor::ExpandShapeOp::create(b, loc, type, value, groups);
}

Value tcc::onnx_to_linalg::extremeScalar(OpBuilder &b, Location loc, Type type,
                                         bool isUnsigned, bool highest) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc, type,
        b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(), !highest)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsigned ? (highest ? APInt::getMaxValue(width)
                                      : APInt::getMinValue(width))
                           : (highest ? APInt::getSignedMaxValue(width)
                                      : APInt::getSignedMinValue(width));
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

Value tcc::onnx_to_linalg::buildArgReduction(OpBuilder &b, Location loc,
                                             Value input, int64_t axis,
                                             bool isMax, bool last,
                                             bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(input.getType());
  Type elem = inType.getElementType();
  isUnsigned = isUnsigned || elem.isInteger(1);
  int64_t rank = inType.getRank();
  SmallVector<bool> reduced(rank, false);
  reduced[axis] = true;
  RankedTensorType valueType = dropReducedDims(inType, reduced);
  RankedTensorType indexType = valueType.clone(b.getI64Type());
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      sizes.push_back(tensor::getMixedSize(b, loc, input, i));
  auto filled = [&](Type t, Value v) {
    Value empty = tensor::EmptyOp::create(b, loc, sizes, t);
    return linalg::FillOp::create(b, loc, ValueRange{v}, ValueRange{empty})
        .getResult(0);
  };
  Value initValue =
      filled(elem, extremeScalar(b, loc, elem, isUnsigned, !isMax));
  Value initIndex =
      filled(b.getI64Type(), constantScalar(b, loc, b.getI64Type(), 0));
  AffineMap keptMap = keptDimsMap(ctx, reduced);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), keptMap,
                                 keptMap};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valueType, indexType}, ValueRange{input},
      ValueRange{initValue, initIndex}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = args[0], best = args[1], bestIndex = args[2];
        Value better;
        if (isa<FloatType>(elem)) {
          using P = arith::CmpFPredicate;
          P pred = isMax ? (last ? P::OGE : P::OGT) : (last ? P::OLE : P::OLT);
          better = arith::CmpFOp::create(nb, l, pred, x, best);
          // The first NaN wins over numbers.
          Value xNaN = arith::CmpFOp::create(nb, l, P::UNO, x, x);
          Value bestNum = arith::CmpFOp::create(nb, l, P::ORD, best, best);
          better = arith::OrIOp::create(
              nb, l, better, arith::AndIOp::create(nb, l, xNaN, bestNum));
        } else {
          using P = arith::CmpIPredicate;
          P pred = isMax ? (last ? (isUnsigned ? P::uge : P::sge)
                                 : (isUnsigned ? P::ugt : P::sgt))
                         : (last ? (isUnsigned ? P::ule : P::sle)
                                 : (isUnsigned ? P::ult : P::slt));
          better = arith::CmpIOp::create(nb, l, pred, x, best);
        }
        Value index = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
        SmallVector<Value> yields = {
            arith::SelectOp::create(nb, l, better, x, best),
            arith::SelectOp::create(nb, l, better, index, bestIndex)};
        linalg::YieldOp::create(nb, l, yields);
      });
  return generic.getResult(1);
}

/// Reshapes `src` to the static `type`: one expand or collapse when the
/// dims regroup; a collapse to the dims other than 1 and an expand when
/// only dims of 1 move (a transpose of a 1-channel image to channels-last:
/// a bounded dim keeps a dim of its own); else a collapse to 1-d followed
/// by an expand. All are views once bufferized.
Value tcc::onnx_to_linalg::reshapeStatic(OpBuilder &b, Location loc,
                                         Value src, RankedTensorType type) {
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
  auto nonUnit = [](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> dims;
    llvm::copy_if(shape, std::back_inserter(dims),
                  [](int64_t d) { return d != 1; });
    return dims;
  };
  SmallVector<int64_t> kept = nonUnit(srcType.getShape());
  if (!kept.empty() && kept == nonUnit(type.getShape()) &&
      (int64_t)kept.size() < std::min(srcType.getRank(), type.getRank())) {
    auto collapse = getReassociationIndicesForCollapse(srcType.getShape(), kept);
    auto expand = getReassociationIndicesForCollapse(type.getShape(), kept);
    if (collapse && expand) {
      Value mid = tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get(kept, type.getElementType()), src,
          *collapse);
      return tensor::ExpandShapeOp::create(b, loc, type, mid, *expand);
    }
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

Value tcc::onnx_to_linalg::buildIndexed(OpBuilder &b, Location loc,
                                        RankedTensorType type,
                                        IndexedBodyBuilder body) {
  int64_t rank = type.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        SmallVector<Value> ivs;
        for (int64_t d = 0; d < rank; ++d)
          ivs.push_back(linalg::IndexOp::create(nb, nloc, d));
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, ivs));
      });
  return generic.getResult(0);
}

Value tcc::onnx_to_linalg::constantIndex(OpBuilder &b, Location loc,
                                         int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

LogicalResult tcc::onnx_to_linalg::requireStaticResult(Operation *op,
                                                       ValueRange params,
                                                       StringRef what) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (type && type.hasStaticShape())
    return success();
  for (Value p : params)
    if (!isa<NoneType>(p.getType()) && !matchPattern(p, m_Constant()))
      return op->emitOpError()
             << "needs constant " << what
             << " (here computed at run time); dynamic shapes are not "
             << "supported yet";
  return op->emitOpError() << "with dynamic shapes is not supported yet";
}

Value tcc::onnx_to_linalg::wrapIndex(OpBuilder &b, Location loc, Value index,
                                     int64_t size) {
  Value i = index;
  if (!i.getType().isIndex())
    i = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = constantIndex(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  Value wrapped =
      arith::AddIOp::create(b, loc, i, constantIndex(b, loc, size));
  return arith::SelectOp::create(b, loc, negative, wrapped, i);
}

void tcc::onnx_to_linalg::replaceByLeadingBlock(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange buffers,
    ArrayRef<OpFoldResult> sizes) {
  Location loc = op->getLoc();
  SmallVector<OpFoldResult> offsets(sizes.size(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
  SmallVector<Value> results;
  for (auto [buffer, opResult] : llvm::zip_equal(buffers, op->getResults())) {
    Value result = tensor::ExtractSliceOp::create(rewriter, loc, buffer,
                                                  offsets, sizes, strides);
    Type type = toSignless(opResult.getType());
    if (result.getType() != type)
      result = tensor::CastOp::create(rewriter, loc, type, result);
    results.push_back(result);
  }
  rewriter.replaceOp(op, results);
}
