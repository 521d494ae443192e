//===- ConvPool.cpp - ONNX Conv and pooling to linalg ---------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Static-shape checks shared by Conv and pooling: 2-d windows, and no
/// dynamic dims other than the batch (output sizes come from the input's).
static LogicalResult check2d(Operation *op, RankedTensorType in,
                             RankedTensorType out,
                             ConversionPatternRewriter &rewriter) {
  if (in.getRank() != 4)
    return op->emitOpError() << "with " << in.getRank() - 2
                             << " spatial dims is not supported yet "
                             << "(only 2-d)";
  for (int64_t i = 1; i < 4; ++i)
    if (in.isDynamicDim(i) || out.isDynamicDim(i))
      return op->emitOpError()
             << "with dynamic channel or spatial dims is not supported yet";
  (void)rewriter;
  return success();
}

/// Bias broadcast along channel dim 1 (or zeros when there is none).
static Value createConvInit(OpBuilder &b, Location loc, RankedTensorType type,
                            Value bias, Value input) {
  if (isa<NoneType>(bias.getType()))
    return createFilled(b, loc, type,
                        constantScalar(b, loc, type.getElementType(), 0),
                        {input});
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx),
      b.getMultiDimIdentityMap(rank)};
  Value empty = createEmptyLike(b, loc, type, {input});
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{bias}, ValueRange{empty},
             maps, iterators,
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

struct ConvPattern : OpConversionPattern<onnx::ConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(adaptor.getW().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !wType || !outType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    if (failed(check2d(op, inType, outType, rewriter)))
      return failure();
    if (!wType.hasStaticShape())
      return op.emitOpError() << "with dynamic weight shape is not supported";
    FailureOr<onnx::WindowGeometry> g = onnx::resolveWindow(
        op, inType.getShape(), wType.getShape().drop_front(2),
        op.getAutoPad(), op.getPads(), op.getStrides(), op.getDilations(),
        false);
    if (failed(g))
      return failure();

    Type elem = outType.getElementType();
    Value input = padTrailing(rewriter, loc, adaptor.getX(), g->padsBegin,
                              g->padsEnd, constantScalar(rewriter, loc, elem, 0));
    Value init = createConvInit(rewriter, loc, outType, adaptor.getB(),
                                adaptor.getX());
    SmallVector<NamedAttribute> attrs = {
        rewriter.getNamedAttr("strides", i64Elements(rewriter, g->strides)),
        rewriter.getNamedAttr("dilations",
                              i64Elements(rewriter, g->dilations))};
    int64_t groups = op.getGroup();
    if (groups == 1) {
      Value conv = linalg::Conv2DNchwFchwOp::create(
                       rewriter, loc, TypeRange{outType},
                       ValueRange{input, adaptor.getW()}, ValueRange{init},
                       attrs)
                       .getResult(0);
      rewriter.replaceOp(op, conv);
      return success();
    }

    // Grouped: split C and M into (G, C/G) and (G, M/G) and use the
    // ngchw/gfchw form, then merge the groups back.
    auto paddedType = cast<RankedTensorType>(input.getType());
    int64_t c = paddedType.getDimSize(1), m = wType.getDimSize(0);
    auto split = [&](Value v, RankedTensorType t, int64_t dim, int64_t size) {
      SmallVector<int64_t> shape(t.getShape());
      shape[dim] = size / groups;
      shape.insert(shape.begin() + dim, groups);
      SmallVector<ReassociationIndices> reassoc;
      for (int64_t i = 0, e = t.getRank(); i < e; ++i) {
        if (i < dim)
          reassoc.push_back({i});
        else if (i == dim)
          reassoc.push_back({i, i + 1});
        else
          reassoc.push_back({i + 1});
      }
      auto type = RankedTensorType::get(shape, t.getElementType());
      return std::make_pair(
          tensor::ExpandShapeOp::create(rewriter, loc, type, v, reassoc)
              .getResult(),
          reassoc);
    };
    Value groupedIn = split(input, paddedType, 1, c).first;
    Value groupedW = split(adaptor.getW(), wType, 0, m).first;
    auto [groupedInit, outReassoc] = split(init, outType, 1, m);
    Value conv = linalg::Conv2DNgchwGfchwOp::create(
                     rewriter, loc, TypeRange{groupedInit.getType()},
                     ValueRange{groupedIn, groupedW}, ValueRange{groupedInit},
                     attrs)
                     .getResult(0);
    Value result = tensor::CollapseShapeOp::create(rewriter, loc, outType,
                                                   conv, outReassoc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// What MaxPool and AveragePool share: ranked 2-d types, the resolved
/// window, and end pads extended so that ceil_mode's last window fits.
struct PoolSetup {
  RankedTensorType inType, outType;
  onnx::WindowGeometry geometry;
  SmallVector<int64_t> padsEnd;
};

template <typename PoolOp>
static FailureOr<PoolSetup> setUpPool(PoolOp op, Value input,
                                      ConversionPatternRewriter &rewriter) {
  PoolSetup p;
  p.inType = dyn_cast<RankedTensorType>(input.getType());
  p.outType = dyn_cast<RankedTensorType>(op.getType());
  if (!p.inType || !p.outType)
    return rewriter.notifyMatchFailure(op, "unranked operands");
  if (failed(check2d(op, p.inType, p.outType, rewriter)))
    return failure();
  FailureOr<onnx::WindowGeometry> g = onnx::resolveWindow(
      op, p.inType.getShape(), op.getKernelShape(), op.getAutoPad(),
      op.getPads(), op.getStrides(), op.getDilations(), op.getCeilMode() != 0);
  if (failed(g))
    return failure();
  p.geometry = *g;
  p.padsEnd = g->padsEnd;
  for (int i = 0; i < 2; ++i) {
    int64_t need = (g->outSizes[i] - 1) * g->strides[i] +
                   (g->kernel[i] - 1) * g->dilations[i] + 1 -
                   p.inType.getDimSize(i + 2) - g->padsBegin[i];
    p.padsEnd[i] = std::max(p.padsEnd[i], need);
  }
  return p;
}

struct MaxPoolPattern : OpConversionPattern<onnx::MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PoolSetup> setup = setUpPool(op, adaptor.getX(), rewriter);
    if (failed(setup))
      return failure();
    RankedTensorType outType = setup->outType;
    const onnx::WindowGeometry *g = &setup->geometry;
    ArrayRef<int64_t> padsEnd = setup->padsEnd;
    Type elem = outType.getElementType();
    auto ft = cast<FloatType>(elem);
    Value lowest = arith::ConstantOp::create(
        rewriter, loc, elem,
        rewriter.getFloatAttr(
            ft, APFloat::getInf(ft.getFloatSemantics(), /*Negative=*/true)));
    Value input =
        padTrailing(rewriter, loc, adaptor.getX(), g->padsBegin, padsEnd, lowest);
    Value init = createFilled(rewriter, loc, outType, lowest, {adaptor.getX()});
    Value window = tensor::EmptyOp::create(rewriter, loc, g->kernel, elem);
    SmallVector<NamedAttribute> attrs = {
        rewriter.getNamedAttr("strides", i64Elements(rewriter, g->strides)),
        rewriter.getNamedAttr("dilations",
                              i64Elements(rewriter, g->dilations))};
    Value pool = linalg::PoolingNchwMaxOp::create(
                     rewriter, loc, TypeRange{outType},
                     ValueRange{input, window}, ValueRange{init}, attrs)
                     .getResult(0);
    rewriter.replaceOp(op, pool);
    return success();
  }
};

/// AveragePool: a sum pool divided by a per-position count that is computed
/// at compile time (it depends on pads, ceil_mode and count_include_pad).
struct AveragePoolPattern : OpConversionPattern<onnx::AveragePoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::AveragePoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PoolSetup> setup = setUpPool(op, adaptor.getX(), rewriter);
    if (failed(setup))
      return failure();
    RankedTensorType inType = setup->inType, outType = setup->outType;
    const onnx::WindowGeometry *g = &setup->geometry;
    ArrayRef<int64_t> padsEnd = setup->padsEnd;
    int64_t inH = inType.getDimSize(2), inW = inType.getDimSize(3);
    int64_t outH = outType.getDimSize(2), outW = outType.getDimSize(3);
    // Count of the window positions that take part in each output.
    bool includePad = op.getCountIncludePad() != 0;
    SmallVector<float> counts(outH * outW);
    for (int64_t oh = 0; oh < outH; ++oh) {
      for (int64_t ow = 0; ow < outW; ++ow) {
        int64_t n = 0;
        for (int64_t kh = 0; kh < g->kernel[0]; ++kh) {
          for (int64_t kw = 0; kw < g->kernel[1]; ++kw) {
            int64_t h = oh * g->strides[0] + kh * g->dilations[0] - g->padsBegin[0];
            int64_t w = ow * g->strides[1] + kw * g->dilations[1] - g->padsBegin[1];
            bool inside = h >= 0 && h < inH && w >= 0 && w < inW;
            bool inPads = h >= -g->padsBegin[0] && h < inH + g->padsEnd[0] &&
                          w >= -g->padsBegin[1] && w < inW + g->padsEnd[1];
            n += includePad ? inPads : inside;
          }
        }
        counts[oh * outW + ow] = n ? (float)n : 1.0f;
      }
    }
    Type elem = outType.getElementType();
    if (!elem.isF32())
      return op.emitOpError() << "is only supported for f32 yet";
    Value zero = constantScalar(rewriter, loc, elem, 0);
    Value input =
        padTrailing(rewriter, loc, adaptor.getX(), g->padsBegin, padsEnd, zero);
    Value init = createFilled(rewriter, loc, outType, zero, {adaptor.getX()});
    Value window = tensor::EmptyOp::create(rewriter, loc, g->kernel, elem);
    SmallVector<NamedAttribute> attrs = {
        rewriter.getNamedAttr("strides", i64Elements(rewriter, g->strides)),
        rewriter.getNamedAttr("dilations",
                              i64Elements(rewriter, g->dilations))};
    Value sum = linalg::PoolingNchwSumOp::create(
                    rewriter, loc, TypeRange{outType},
                    ValueRange{input, window}, ValueRange{init}, attrs)
                    .getResult(0);
    auto countType = RankedTensorType::get({outH, outW}, elem);
    Value countConst = arith::ConstantOp::create(
        rewriter, loc, countType,
        DenseElementsAttr::get(countType, ArrayRef<float>(counts)));
    Value result = buildElementwise(
        rewriter, loc, outType, {sum, countConst},
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// GlobalAveragePool: a reduction over the spatial dims into [N, C],
/// divided by their count, expanded back to [N, C, 1, ...].
struct GlobalAveragePoolPattern : OpConversionPattern<onnx::GlobalAveragePoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GlobalAveragePoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !outType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    int64_t rank = inType.getRank();
    Type elem = inType.getElementType();
    MLIRContext *ctx = rewriter.getContext();

    Value zero = constantScalar(rewriter, loc, elem, 0);
    SmallVector<OpFoldResult> nc = {
        tensor::getMixedSize(rewriter, loc, adaptor.getX(), 0),
        tensor::getMixedSize(rewriter, loc, adaptor.getX(), 1)};
    Value empty = tensor::EmptyOp::create(rewriter, loc, nc, elem);
    Value filled =
        linalg::FillOp::create(rewriter, loc, ValueRange{zero}, ValueRange{empty})
            .getResult(0);
    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(rank),
        AffineMap::get(rank, 0,
                       {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)},
                       ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    iterators[0] = iterators[1] = utils::IteratorType::parallel;
    Value sum = linalg::GenericOp::create(
                    rewriter, loc, TypeRange{filled.getType()},
                    ValueRange{adaptor.getX()}, ValueRange{filled}, maps,
                    iterators,
                    [](OpBuilder &b, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          b, l, arith::AddFOp::create(b, l, args[0], args[1])
                                    .getResult());
                    })
                    .getResult(0);
    // Divide by the number of spatial positions (a run-time value when
    // spatial dims are dynamic).
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t i = 2; i < rank; ++i)
      count = arith::MulIOp::create(
          rewriter, loc, count,
          tensor::DimOp::create(rewriter, loc, adaptor.getX(), i));
    Value countInt = arith::IndexCastOp::create(rewriter, loc,
                                                rewriter.getI64Type(), count);
    Value countF = arith::SIToFPOp::create(rewriter, loc, elem, countInt);
    auto sumType = cast<RankedTensorType>(sum.getType());
    Value mean = buildElementwise(
        rewriter, loc, sumType, {sum},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], countF);
        });
    SmallVector<ReassociationIndices> reassoc = {{0}, {1}};
    for (int64_t i = 2; i < rank; ++i)
      reassoc.back().push_back(i);
    Value result =
        tensor::ExpandShapeOp::create(rewriter, loc, outType, mean, reassoc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateConvPoolPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvPattern, MaxPoolPattern, AveragePoolPattern,
               GlobalAveragePoolPattern>(patterns.getContext());
}
