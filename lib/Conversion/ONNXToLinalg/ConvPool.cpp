//===- ConvPool.cpp - ONNX Conv and pooling to linalg ---------------------===//
#include "Patterns.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Checks shared by Conv and pooling: ranked operands, and no dynamic dims
/// other than the batch (output sizes come from static input sizes).
/// An f32 constant of `type` holding `values`, as a resource blob named
/// `name` (weights rearranged at compile time).
static Value floatConstant(OpBuilder &b, Location loc, RankedTensorType type,
                           StringRef name, ArrayRef<float> values) {
  return arith::ConstantOp::create(
      b, loc, type,
      DenseResourceElementsAttr::get(
          type, name, HeapAsmResourceBlob::allocateAndCopyInferAlign(values)));
}

static LogicalResult checkWindowed(Operation *op, RankedTensorType in,
                                   RankedTensorType out) {
  for (int64_t i = 1; i < in.getRank(); ++i)
    if (in.isDynamicDim(i) || out.isDynamicDim(i))
      return op->emitOpError()
             << "with dynamic channel or spatial dims is not supported yet";
  return success();
}

/// Inserts a group dim: [.., size, ..] -> [.., groups, size/groups, ..] at
/// `dim`; returns the expanded value and the reassociation to undo it.
static std::pair<Value, SmallVector<ReassociationIndices>>
splitGroups(OpBuilder &b, Location loc, Value v, int64_t dim, int64_t groups) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = t.getDimSize(dim) / groups;
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
  return {tensor::ExpandShapeOp::create(b, loc, type, v, reassoc).getResult(),
          reassoc};
}

/// `o * stride + k * dilation`, the input index a window position reads.
static AffineExpr windowIndex(AffineExpr o, AffineExpr k, int64_t stride,
                              int64_t dilation) {
  return o * stride + k * dilation;
}

/// Grouped N-d convolution as one linalg.generic over
/// in [N, G, C/G, S...], w [G, M/G, C/G, K...], init [N, G, M/G, O...].
/// Dims: n, g, m, o..., c, k... (the last 1 + #k are reductions).
static Value buildGenericConv(OpBuilder &b, Location loc, Value in, Value w,
                              Value init, const onnx::WindowGeometry &g) {
  MLIRContext *ctx = b.getContext();
  int64_t k = g.kernel.size();
  int64_t numDims = 4 + 2 * k;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  AffineExpr n = d(0), grp = d(1), m = d(2), c = d(3 + k);
  SmallVector<AffineExpr> inExprs = {n, grp, c}, wExprs = {grp, m, c},
                          outExprs = {n, grp, m};
  for (int64_t i = 0; i < k; ++i) {
    inExprs.push_back(
        windowIndex(d(3 + i), d(4 + k + i), g.strides[i], g.dilations[i]));
    wExprs.push_back(d(4 + k + i));
    outExprs.push_back(d(3 + i));
  }
  SmallVector<utils::IteratorType> iterators(3 + k,
                                             utils::IteratorType::parallel);
  iterators.append(1 + k, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{in, w},
             ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(numDims, 0, inExprs, ctx),
                                 AffineMap::get(numDims, 0, wExprs, ctx),
                                 AffineMap::get(numDims, 0, outExprs, ctx)},
             iterators,
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               Value prod = mulScalars(nb, nloc, args[0], args[1]);
               linalg::YieldOp::create(nb, nloc,
                                       addScalars(nb, nloc, args[2], prod));
             })
      .getResult(0);
}

/// The iteration space of an N-d pool over in [N, C, S...] as a
/// linalg.generic: dims n, c, o..., k...; the maps of the input, of a
/// kernel-shaped tensor (which gives the k bounds) and of the output.
struct PoolSpace {
  AffineMap input, window, output;
  SmallVector<utils::IteratorType> iterators;
};
static PoolSpace poolSpace(MLIRContext *ctx, const onnx::WindowGeometry &g) {
  int64_t k = g.kernel.size();
  int64_t numDims = 2 + 2 * k;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inExprs = {d(0), d(1)}, windowExprs,
                          outExprs = {d(0), d(1)};
  for (int64_t i = 0; i < k; ++i) {
    inExprs.push_back(
        windowIndex(d(2 + i), d(2 + k + i), g.strides[i], g.dilations[i]));
    windowExprs.push_back(d(2 + k + i));
    outExprs.push_back(d(2 + i));
  }
  PoolSpace space{AffineMap::get(numDims, 0, inExprs, ctx),
                  AffineMap::get(numDims, 0, windowExprs, ctx),
                  AffineMap::get(numDims, 0, outExprs, ctx),
                  SmallVector<utils::IteratorType>(
                      2 + k, utils::IteratorType::parallel)};
  space.iterators.append(k, utils::IteratorType::reduction);
  return space;
}

/// N-d max or sum pooling as one linalg.generic (poolSpace).
static Value buildGenericPool(OpBuilder &b, Location loc, Value in, Value init,
                              const onnx::WindowGeometry &g, bool isMax) {
  PoolSpace space = poolSpace(b.getContext(), g);
  Type elem = cast<RankedTensorType>(init.getType()).getElementType();
  Value window = tensor::EmptyOp::create(b, loc, g.kernel, elem);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{in, window},
             ValueRange{init},
             ArrayRef<AffineMap>{space.input, space.window, space.output},
             space.iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value r = isMax ? (Value)arith::MaximumFOp::create(
                                     nb, nloc, args[2], args[0])
                               : (Value)arith::AddFOp::create(nb, nloc,
                                                              args[2], args[0]);
               linalg::YieldOp::create(nb, nloc, r);
             })
      .getResult(0);
}

/// Bias broadcast along channel dim `channelDim` (or zeros when there is
/// none).
static Value createConvInit(OpBuilder &b, Location loc, RankedTensorType type,
                            Value bias, Value input, int64_t channelDim = 1) {
  if (!bias || isa<NoneType>(bias.getType()))
    return createFilled(b, loc, type,
                        constantScalar(b, loc, type.getElementType(), 0),
                        {input});
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, {getAffineDimExpr(channelDim, ctx)}, ctx),
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

/// Where kernel tap `k` of spatial dim `dim` reads the input (onnx::tapReach)
/// and the input index it reads at the first of those positions.
struct TapRange {
  int64_t first, count, inputIndex;
};

static TapRange tapRange(const onnx::WindowGeometry &g, int64_t dim,
                         int64_t inSize, int64_t k) {
  onnx::TapReach reach =
      onnx::tapReach(inSize, g.outSizes[dim], g.padsBegin[dim], g.strides[dim],
                     g.dilations[dim], k);
  return {reach.first, reach.count,
          reach.first * g.strides[dim] + k * g.dilations[dim] -
              g.padsBegin[dim]};
}

/// A 2-d convolution whose taps mostly read padding (DeepLabV3's ASPP: a
/// 3x3 kernel dilated by 12 on a 14x14 map, where a border tap reaches 2
/// rows) as one 1x1 convolution per tap over the output rectangle it
/// reaches, each accumulated in place into that slice of the output: no
/// padded copy of the input, and only the products that read it. Null when
/// the weights are not f32 constants or the taps reach more than half the
/// output, where one convolution over the padded input is faster.
static Value buildTapwiseConv(OpBuilder &b, Location loc, Value x, Value w,
                              Value bias, RankedTensorType outType,
                              const onnx::WindowGeometry &g) {
  auto wType = cast<RankedTensorType>(w.getType());
  auto xType = cast<RankedTensorType>(x.getType());
  std::optional<SmallVector<float>> weights;
  auto ranges = [&](int64_t dim) {
    SmallVector<TapRange> r;
    for (int64_t k = 0; k < g.kernel[dim]; ++k)
      r.push_back(tapRange(g, dim, xType.getDimSize(2 + dim), k));
    return r;
  };
  SmallVector<TapRange> rows = ranges(0), cols = ranges(1);
  if (!onnx::tapwisePays(g, xType.getShape().drop_front(2)) ||
      !(weights = onnx::getConstantFloats(w)))
    return {};

  int64_t filters = wType.getDimSize(0), channels = wType.getDimSize(1);
  auto tapType = RankedTensorType::get({filters, channels, 1, 1},
                                       wType.getElementType());
  SmallVector<NamedAttribute> namedAttrs = {
      b.getNamedAttr("strides", i64Elements(b, g.strides)),
      b.getNamedAttr("dilations", i64Elements(b, {1, 1}))};
  Value acc = createConvInit(b, loc, outType, bias, x);
  for (int64_t kh = 0; kh < g.kernel[0]; ++kh) {
    for (int64_t kw = 0; kw < g.kernel[1]; ++kw) {
      TapRange r = rows[kh], c = cols[kw];
      if (r.count == 0 || c.count == 0)
        continue;
      SmallVector<float> tap;
      tap.reserve(filters * channels);
      for (int64_t f = 0; f < filters; ++f)
        for (int64_t ch = 0; ch < channels; ++ch)
          tap.push_back((*weights)[((f * channels + ch) * g.kernel[0] + kh) *
                                       g.kernel[1] +
                                   kw]);
      Value tapWeights =
          floatConstant(b, loc, tapType, "conv_tap_weight", tap);
      // The input window of the rectangle, at stride 1 (the 1x1 conv
      // strides through it), and the rectangle of the output.
      SmallVector<OpFoldResult> inOffsets = {b.getIndexAttr(0),
                                             b.getIndexAttr(0),
                                             b.getIndexAttr(r.inputIndex),
                                             b.getIndexAttr(c.inputIndex)};
      SmallVector<OpFoldResult> inSizes = tensor::getMixedSizes(b, loc, x);
      inSizes[2] = b.getIndexAttr((r.count - 1) * g.strides[0] + 1);
      inSizes[3] = b.getIndexAttr((c.count - 1) * g.strides[1] + 1);
      SmallVector<OpFoldResult> ones(4, b.getIndexAttr(1));
      Value window =
          tensor::ExtractSliceOp::create(b, loc, x, inOffsets, inSizes, ones);
      SmallVector<OpFoldResult> outOffsets = {
          b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(r.first),
          b.getIndexAttr(c.first)};
      SmallVector<OpFoldResult> outSizes = tensor::getMixedSizes(b, loc, acc);
      outSizes[2] = b.getIndexAttr(r.count);
      outSizes[3] = b.getIndexAttr(c.count);
      Value slice =
          tensor::ExtractSliceOp::create(b, loc, acc, outOffsets, outSizes, ones);
      Value conv = linalg::Conv2DNchwFchwOp::create(
                       b, loc, TypeRange{slice.getType()},
                       ValueRange{window, tapWeights}, ValueRange{slice},
                       namedAttrs)
                       .getResult(0);
      acc = tensor::InsertSliceOp::create(b, loc, conv, acc, outOffsets,
                                          outSizes, ones)
                .getResult();
    }
  }
  return acc;
}

/// Winograd F(2x2, 3x3) (Lavin and Gray): each 2x2 block of outputs of a
/// 3x3 stride-1 convolution from the 4x4 block of input around it, with 16
/// products per channel pair instead of 36. The three transforms' matrices.
constexpr float kWinogradBT[4][4] = {
    {1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
constexpr float kWinogradG[4][3] = {
    {1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
constexpr float kWinogradAT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

/// `sum_i coefs[i] * values[i]` for coefficients 0 and +-1, as adds and
/// subtracts from the first term with a positive coefficient (negated at
/// the end only when there is none).
static Value signedSum(OpBuilder &b, Location loc, ArrayRef<Value> values,
                       ArrayRef<float> coefs) {
  const auto *first = llvm::find_if(coefs, [](float c) { return c > 0; });
  bool negated = first == coefs.end();
  if (negated)
    first = llvm::find_if(coefs, [](float c) { return c != 0; });
  size_t start = first - coefs.begin();
  Value sum = values[start];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i == start || coefs[i] == 0)
      continue;
    if ((coefs[i] < 0) == negated)
      sum = arith::AddFOp::create(b, loc, sum, values[i]);
    else
      sum = arith::SubFOp::create(b, loc, sum, values[i]);
  }
  return negated ? arith::NegFOp::create(b, loc, sum).getResult() : sum;
}

/// A 3x3 stride-1 convolution with constant f32 weights as Winograd
/// F(2x2, 3x3) over the padded input `input` [N, C, 2T+2, 2S+2] (an odd
/// output height or width gets one more row or column of zeros):
///  - the input transform, one linalg.generic with 16 results
///    V_xy [N, C, T, S] = (B^T d B)_xy of each tile's 4x4 window d;
///  - 16 1x1 convolutions M_xy = U_xy V_xy, U = G g G^T computed here
///    from the weights;
///  - the output transform, a linalg.generic over [N, F, T, 2, S, 2]
///    (the output's layout) adding A^T M A and the bias; with an odd
///    height or width, the output is a slice of it.
/// `channelsLast`: `x` and the result are NHWC, and so are the tiles: V_xy
/// [N, T, S, C], M_xy [N, T*S, F], the output transform over [N, T, 2, S,
/// 2, F]. The products then run as a 1x1 convolution does channels-last,
/// a row of V per tile along the contiguous channels, a vector of M along
/// the filters.
/// `options.anyWidth` (tcc compile --max-dim): S = floor(width / 2) + 1
/// tiles whatever the width's parity, the input padded by a constant 2
/// more columns, the output a slice of [.., 2S, ..] (the graph is then
/// the same at every width); the tiles stored [S, T] instead of [T, S] so
/// that the products' T*S dim has the width outermost.
/// Null when the convolution does not qualify (winogradPays): a static
/// shape of at least 2x2 outputs, and sizes where the transforms cost less
/// than the products save.
static Value buildWinogradConv(OpBuilder &b, Location loc, Value x, Value w,
                               Value bias, RankedTensorType outType,
                               const onnx::WindowGeometry &g,
                               const WinogradOptions &options,
                               bool channelsLast = false) {
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t filters = wType.getDimSize(0), channels = wType.getDimSize(1);
  if (!outType.hasStaticShape() ||
      !onnx::winogradPays(g, outType.getDimSize(0), channels, filters,
                          options.vectorBits))
    return {};
  int64_t batch = outType.getDimSize(0);
  int64_t height = outType.getDimSize(channelsLast ? 1 : 2);
  int64_t width = outType.getDimSize(channelsLast ? 2 : 3);
  int64_t tilesH = llvm::divideCeil(height, 2);
  // options.anyWidth: 2 x tilesW > width, always a slice.
  int64_t tilesW =
      options.anyWidth ? width / 2 + 1 : llvm::divideCeil(width, 2);
  std::optional<SmallVector<float>> weights = onnx::getConstantFloats(w);
  if (!weights)
    return {};
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  SmallVector<int64_t> padsBegin(g.padsBegin), padsEnd(g.padsEnd);
  padsEnd[0] += 2 * tilesH - height;
  // The tiles read 2 x tilesW + 2 columns (anyWidth: up to width + 4).
  padsEnd[1] += options.anyWidth ? 2 : 2 * tilesW - width;
  if (channelsLast) {
    padsBegin.push_back(0);
    padsEnd.push_back(0);
  }
  Value input = padTrailing(b, loc, x, padsBegin, padsEnd,
                            constantScalar(b, loc, f32, 0));
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // Dims (n, channel, t, s) in the layout's order, as affine exprs or
  // sizes.
  auto ordered = [&](auto n, auto c, auto t, auto s) {
    using T = decltype(n);
    return channelsLast ? SmallVector<T>{n, t, s, c}
                        : SmallVector<T>{n, c, t, s};
  };
  // The same for the tiles (t, s): column-major with anyWidth.
  auto tiled = [&](auto n, auto c, auto t, auto s) {
    return options.anyWidth ? ordered(n, c, s, t) : ordered(n, c, t, s);
  };

  // The 16 values of every tile, [16, N, C, T*S] ([16, N, T*S, C]
  // channels-last): the input transform writes each into its slice, and
  // one batched contraction reads them all.
  int64_t tiles = tilesH * tilesW;
  SmallVector<int64_t> valuesShape{16};
  llvm::append_range(valuesShape, tiled(batch, channels, tilesH, tilesW));
  auto valuesType = RankedTensorType::get(valuesShape, f32);
  auto sliceType =
      RankedTensorType::get(tiled(batch, channels, tilesH, tilesW), f32);
  Value values = tensor::EmptyOp::create(b, loc, valuesType.getShape(), f32);
  // Slice `k` of a [16, ...] tensor, as `type` (the 16 dropped).
  struct Slice {
    SmallVector<OpFoldResult> offsets, sizes, strides;
  };
  auto sliceAt = [&](RankedTensorType type, int64_t k) {
    Slice slice{SmallVector<OpFoldResult>(5, b.getIndexAttr(0)),
                {b.getIndexAttr(1)},
                SmallVector<OpFoldResult>(5, b.getIndexAttr(1))};
    slice.offsets[0] = b.getIndexAttr(k);
    for (int64_t size : type.getShape())
      slice.sizes.push_back(b.getIndexAttr(size));
    return slice;
  };
  auto slice = [&](Value whole, RankedTensorType type, int64_t k) {
    Slice at = sliceAt(type, k);
    return tensor::ExtractSliceOp::create(b, loc, type, whole, at.offsets,
                                          at.sizes, at.strides)
        .getResult();
  };

  // Input transform: loops n, c, t, s (n, t, s, c channels-last).
  SmallVector<Value> windows(16, input), slices;
  SmallVector<AffineMap> maps;
  // The loops are the tiles' dims in their order.
  AffineExpr n = d(0), ch = channelsLast ? d(3) : d(1),
             first = channelsLast ? d(1) : d(2),
             second = channelsLast ? d(2) : d(3);
  AffineExpr t = options.anyWidth ? second : first,
             s = options.anyWidth ? first : second;
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 4; ++c)
      maps.push_back(
          AffineMap::get(4, 0, ordered(n, ch, t * 2 + r, s * 2 + c), ctx));
  for (int64_t k = 0; k < 16; ++k) {
    slices.push_back(slice(values, sliceType, k));
    maps.push_back(b.getMultiDimIdentityMap(4));
  }
  SmallVector<utils::IteratorType> parallel4(4, utils::IteratorType::parallel);
  auto inputTransform = linalg::GenericOp::create(
      b, loc, SmallVector<Type>(16, sliceType), windows, slices, maps,
      parallel4, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // (B^T d) row by row, then (B^T d) B.
        Value rows[4][4], out[16];
        for (int64_t p = 0; p < 4; ++p)
          for (int64_t c = 0; c < 4; ++c)
            rows[p][c] = signedSum(
                nb, nloc,
                {args[c], args[4 + c], args[8 + c], args[12 + c]},
                kWinogradBT[p]);
        for (int64_t p = 0; p < 4; ++p)
          for (int64_t q = 0; q < 4; ++q)
            out[p * 4 + q] = signedSum(nb, nloc, rows[p], kWinogradBT[q]);
        linalg::YieldOp::create(nb, nloc, ArrayRef<Value>(out));
      });
  inputTransform.setLibraryCall("winograd_input");
  for (int64_t k = 0; k < 16; ++k) {
    Slice at = sliceAt(sliceType, k);
    values = tensor::InsertSliceOp::create(b, loc, inputTransform.getResult(k),
                                           values, at.offsets, at.sizes,
                                           at.strides);
  }

  // U_xy = G g G^T for each filter and channel, [16, F, C]; then
  // M [16, N, F, T*S] = U V ([16, N, T*S, F] channels-last), one
  // contraction with loops x, n, f, p, c.
  SmallVector<float> u(16 * filters * channels);
  for (int64_t p = 0; p < 4; ++p)
    for (int64_t q = 0; q < 4; ++q)
      for (int64_t fc = 0; fc < filters * channels; ++fc) {
        const float *k = weights->data() + fc * 9;
        double sum = 0;
        for (int64_t i = 0; i < 3; ++i)
          for (int64_t j = 0; j < 3; ++j)
            sum += (double)kWinogradG[p][i] * kWinogradG[q][j] * k[i * 3 + j];
        u[(p * 4 + q) * filters * channels + fc] = (float)sum;
      }
  auto uType = RankedTensorType::get({16, filters, channels}, f32);
  Value uValue = floatConstant(b, loc, uType, "winograd_weight", u);
  auto pair = [&](int64_t channel, int64_t p) {
    return channelsLast ? SmallVector<int64_t>{16, batch, p, channel}
                        : SmallVector<int64_t>{16, batch, channel, p};
  };
  auto flatType = RankedTensorType::get(pair(channels, tiles), f32);
  auto productsType = RankedTensorType::get(pair(filters, tiles), f32);
  SmallVector<ReassociationIndices> flatTiles =
      channelsLast ? SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4}}
                   : SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}};
  Value flatValues =
      tensor::CollapseShapeOp::create(b, loc, flatType, values, flatTiles);
  // (x, n, channel, p) in the layout's order.
  auto at = [&](AffineExpr channel) {
    return channelsLast
               ? AffineMap::get(5, 0, {d(0), d(1), d(3), channel}, ctx)
               : AffineMap::get(5, 0, {d(0), d(1), channel, d(3)}, ctx);
  };
  SmallVector<utils::IteratorType> contraction(4, utils::IteratorType::parallel);
  contraction.push_back(utils::IteratorType::reduction);
  auto contract =
      linalg::GenericOp::create(
          b, loc, TypeRange{productsType}, ValueRange{flatValues, uValue},
          ValueRange{createFilled(b, loc, productsType,
                                  constantScalar(b, loc, f32, 0))},
          ArrayRef<AffineMap>{at(d(4)),
                              AffineMap::get(5, 0, {d(0), d(2), d(4)}, ctx),
                              at(d(2))},
          contraction,
          [](OpBuilder &nb, Location nloc, ValueRange args) {
            Value prod = arith::MulFOp::create(nb, nloc, args[0], args[1]);
            linalg::YieldOp::create(
                nb, nloc,
                arith::AddFOp::create(nb, nloc, args[2], prod).getResult());
          });
  contract.setLibraryCall("winograd_matmul");
  Value flatProducts = contract.getResult(0);
  auto mType =
      RankedTensorType::get(tiled(batch, filters, tilesH, tilesW), f32);
  SmallVector<int64_t> allShape{16};
  llvm::append_range(allShape, mType.getShape());
  Value allProducts = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(allShape, f32), flatProducts, flatTiles);
  SmallVector<Value> products;
  for (int64_t k = 0; k < 16; ++k)
    products.push_back(slice(allProducts, mType, k));

  // Output transform: loops n, f, t, i, s, j (n, t, i, s, j, f
  // channels-last) write output (2t + i, 2s + j).
  auto blockType = RankedTensorType::get(
      channelsLast
          ? SmallVector<int64_t>{batch, tilesH, 2, tilesW, 2, filters}
          : SmallVector<int64_t>{batch, filters, tilesH, 2, tilesW, 2},
      f32);
  int64_t fDim = channelsLast ? 5 : 1, iDim = channelsLast ? 2 : 3,
          jDim = channelsLast ? 4 : 5;
  SmallVector<Value> inputs = products;
  SmallVector<AffineMap> outputMaps(
      16, AffineMap::get(6, 0, tiled(d(0), d(fDim), d(iDim - 1), d(jDim - 1)),
                         ctx));
  bool hasBias = bias && !isa<NoneType>(bias.getType());
  if (hasBias) {
    inputs.push_back(bias);
    outputMaps.push_back(AffineMap::get(6, 0, {d(fDim)}, ctx));
  }
  outputMaps.push_back(b.getMultiDimIdentityMap(6));
  auto outputTransform = linalg::GenericOp::create(
      b, loc, TypeRange{blockType}, inputs,
      ValueRange{tensor::EmptyOp::create(b, loc, blockType.getShape(), f32)},
      outputMaps,
      SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // Whether loop `dim` (i or j) is at the tile's second row or column.
        auto isSecond = [&](int64_t dim) {
          Value index = linalg::IndexOp::create(nb, nloc, dim);
          return arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::ne, index,
              arith::ConstantIndexOp::create(nb, nloc, 0));
        };
        Value second = isSecond(jDim), secondRow = isSecond(iDim);
        // A^T M A: (M A) along the row, then A^T (M A).
        SmallVector<Value> cols;
        for (int64_t p = 0; p < 4; ++p) {
          SmallVector<Value> row(args.slice(p * 4, 4));
          cols.push_back(arith::SelectOp::create(
              nb, nloc, second, signedSum(nb, nloc, row, kWinogradAT[1]),
              signedSum(nb, nloc, row, kWinogradAT[0])));
        }
        Value y = arith::SelectOp::create(
            nb, nloc, secondRow, signedSum(nb, nloc, cols, kWinogradAT[1]),
            signedSum(nb, nloc, cols, kWinogradAT[0]));
        if (hasBias)
          y = arith::AddFOp::create(nb, nloc, y, args[16]);
        linalg::YieldOp::create(nb, nloc, y);
      });
  outputTransform.setLibraryCall("winograd_output");
  Value blocks = outputTransform.getResult(0);
  auto evenType = RankedTensorType::get(
      ordered(batch, filters, 2 * tilesH, 2 * tilesW), f32);
  Value even = tensor::CollapseShapeOp::create(
      b, loc, evenType, blocks,
      channelsLast
          ? SmallVector<ReassociationIndices>{{0}, {1, 2}, {3, 4}, {5}}
          : SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  if (evenType == outType)
    return even;
  SmallVector<OpFoldResult> zeroOffsets(4, b.getIndexAttr(0)),
      ones(4, b.getIndexAttr(1)), sizes;
  for (int64_t size : outType.getShape())
    sizes.push_back(b.getIndexAttr(size));
  return tensor::ExtractSliceOp::create(b, loc, outType, even, zeroOffsets,
                                        sizes, ones)
      .getResult();
}

} // namespace

FailureOr<Value> tcc::onnx_to_linalg::buildConv(OpBuilder &b, Operation *op,
                                                Value x, Value w, Value bias,
                                                RankedTensorType outType,
                                                const ConvAttributes &attrs) {
  Location loc = op->getLoc();
  auto inType = dyn_cast<RankedTensorType>(x.getType());
  auto wType = dyn_cast<RankedTensorType>(w.getType());
  if (!inType || !wType)
    return op->emitOpError() << "with unranked operands is not supported yet";
  if (failed(checkWindowed(op, inType, outType)))
    return failure();
  if (!wType.hasStaticShape())
    return op->emitOpError() << "with dynamic weight shape is not supported";
  FailureOr<onnx::WindowGeometry> g = onnx::resolveWindow(
      op, inType.getShape(), wType.getShape().drop_front(2), attrs.autoPad,
      attrs.pads, attrs.strides, attrs.dilations, false);
  if (failed(g))
    return failure();

  Type elem = outType.getElementType();
  int64_t groups = attrs.group;
  bool is2d = inType.getRank() == 4;
  if (is2d && groups == 1 && elem.isF32())
    if (Value tapwise = buildTapwiseConv(b, loc, x, w, bias, outType, *g))
      return tapwise;
  if (is2d && groups == 1 && elem.isF32() && attrs.winograd.enabled)
    if (Value winograd =
            buildWinogradConv(b, loc, x, w, bias, outType, *g, attrs.winograd))
      return winograd;
  Value input = padTrailing(b, loc, x, g->padsBegin, g->padsEnd,
                            constantScalar(b, loc, elem, 0));
  Value init = createConvInit(b, loc, outType, bias, x);
  SmallVector<NamedAttribute> namedAttrs = {
      b.getNamedAttr("strides", i64Elements(b, g->strides)),
      b.getNamedAttr("dilations", i64Elements(b, g->dilations))};
  if (is2d && groups == 1)
    return linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{outType},
                                            ValueRange{input, w},
                                            ValueRange{init}, namedAttrs)
        .getResult(0);

  // A depthwise convolution (a group per channel, one filter each) keeps
  // the NCHW layout: no group dim for the ops around it to be reshaped to.
  if (is2d && groups == inType.getDimSize(1) &&
      wType.getDimSize(0) == groups && wType.getDimSize(1) == 1) {
    Value filter = tensor::CollapseShapeOp::create(
        b, loc, w, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    return linalg::DepthwiseConv2DNchwChwOp::create(
               b, loc, TypeRange{outType}, ValueRange{input, filter},
               ValueRange{init}, namedAttrs)
        .getResult(0);
  }

  // Split C and M into (G, C/G) and (G, M/G), convolve per group, merge.
  Value groupedIn = splitGroups(b, loc, input, 1, groups).first;
  Value groupedW = splitGroups(b, loc, w, 0, groups).first;
  auto [groupedInit, outReassoc] = splitGroups(b, loc, init, 1, groups);
  Value conv =
      is2d ? linalg::Conv2DNgchwGfchwOp::create(
                 b, loc, TypeRange{groupedInit.getType()},
                 ValueRange{groupedIn, groupedW}, ValueRange{groupedInit},
                 namedAttrs)
                 .getResult(0)
           : buildGenericConv(b, loc, groupedIn, groupedW, groupedInit, *g);
  return tensor::CollapseShapeOp::create(b, loc, outType, conv, outReassoc)
      .getResult();
}

namespace {

/// 2-d convolutions use linalg's named ops (ungrouped and grouped); other
/// ranks a grouped linalg.generic.
struct ConvPattern : OpConversionPattern<onnx::ConvOp> {
  ConvPattern(const TypeConverter &converter, MLIRContext *ctx,
              const WinogradOptions &winograd)
      : OpConversionPattern(converter, ctx), winograd(winograd) {}
  LogicalResult
  matchAndRewrite(onnx::ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!outType || !isa<RankedTensorType>(adaptor.getX().getType()) ||
        !isa<RankedTensorType>(adaptor.getW().getType()))
      return rewriter.notifyMatchFailure(op, "unranked operands");
    ConvAttributes attrs = ConvAttributes::of(op);
    attrs.winograd = winograd;
    FailureOr<Value> conv = buildConv(rewriter, op, adaptor.getX(),
                                      adaptor.getW(), adaptor.getB(), outType,
                                      attrs);
    if (failed(conv))
      return failure();
    rewriter.replaceOp(op, *conv);
    return success();
  }
  WinogradOptions winograd;
};

/// NhwcConv (tcc-onnx-channels-last makes them, of f32 constant weights):
/// linalg.conv_2d_nhwc_fhwc with the weights transposed here to [M, kH, kW,
/// C], linalg.depthwise_conv_2d_nhwc_hwc with them as [kH, kW, C], or,
/// grouped, linalg.conv_2d_nhwgc_gfhwc with them as [G, M/G, kH, kW, C/G]
/// on the channels split into [G, C/G] and [G, M/G], so that the reduction
/// reads both operands in the order they are stored. With `winograd`, a 3x3
/// one that Winograd F(2x2, 3x3) pays for runs as that, on NHWC tiles.
struct NhwcConvPattern : OpConversionPattern<onnx::NhwcConvOp> {
  NhwcConvPattern(const TypeConverter &converter, MLIRContext *ctx,
                  const WinogradOptions &winograd)
      : OpConversionPattern(converter, ctx), winograd(winograd) {}
  LogicalResult
  matchAndRewrite(onnx::NhwcConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    auto inType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(adaptor.getW().getType());
    std::optional<SmallVector<float>> weights =
        onnx::getConstantFloats(adaptor.getW());
    if (!outType || !inType || !wType || !outType.hasStaticShape() ||
        !inType.hasStaticShape() || !outType.getElementType().isF32() ||
        !weights)
      return op.emitOpError()
             << "is supported only with static shapes and f32 constant weights";
    ArrayRef<int64_t> in = inType.getShape(), w = wType.getShape();
    int64_t channels = in[3], filters = w[0], group = op.getGroup();
    bool depthwise = group > 1 && group == channels && filters == channels;
    FailureOr<onnx::WindowGeometry> g = onnx::resolveWindow(
        op, onnx::nchwShape(in, /*channelsLast=*/true), w.drop_front(2),
        op.getAutoPad(),
        op.getPads(), op.getStrides(), op.getDilations(), false);
    if (failed(g))
      return failure();
    Location loc = op.getLoc();
    if (winograd.enabled && group == 1)
      if (Value conv = buildWinogradConv(
              rewriter, loc, adaptor.getX(), adaptor.getW(), adaptor.getB(),
              outType, *g, winograd, /*channelsLast=*/true)) {
        rewriter.replaceOp(op, conv);
        return success();
      }
    Type f32 = rewriter.getF32Type();
    SmallVector<int64_t> padsBegin(g->padsBegin), padsEnd(g->padsEnd);
    padsBegin.push_back(0);
    padsEnd.push_back(0);
    Value input = padTrailing(rewriter, loc, adaptor.getX(), padsBegin,
                              padsEnd, constantScalar(rewriter, loc, f32, 0));
    Value init = createConvInit(rewriter, loc, outType, adaptor.getB(),
                                adaptor.getX(), /*channelDim=*/3);
    // [M, C/group, kH, kW] -> [M, kH, kW, C/group] (depthwise: [kH, kW, M]).
    int64_t kh = w[2], kw = w[3], perFilter = w[1];
    SmallVector<float> moved(weights->size());
    for (int64_t m = 0; m < filters; ++m)
      for (int64_t c = 0; c < perFilter; ++c)
        for (int64_t i = 0; i < kh * kw; ++i) {
          float v = (*weights)[(m * perFilter + c) * kh * kw + i];
          if (depthwise)
            moved[i * filters + m] = v;
          else
            moved[(m * kh * kw + i) * perFilter + c] = v;
        }
    // Grouped: [G, M/G, kH, kW, C/G], the same data.
    auto movedType =
        depthwise ? RankedTensorType::get({kh, kw, filters}, f32)
        : group > 1
            ? RankedTensorType::get(
                  {group, filters / group, kh, kw, perFilter}, f32)
            : RankedTensorType::get({filters, kh, kw, perFilter}, f32);
    Value filter =
        floatConstant(rewriter, loc, movedType, "nhwc_weight", moved);
    SmallVector<NamedAttribute> attrs = {
        rewriter.getNamedAttr("strides", i64Elements(rewriter, g->strides)),
        rewriter.getNamedAttr("dilations",
                              i64Elements(rewriter, g->dilations))};
    if (group > 1 && !depthwise) {
      Value groupedIn = splitGroups(rewriter, loc, input, 3, group).first;
      auto [groupedInit, outReassoc] =
          splitGroups(rewriter, loc, init, 3, group);
      Value conv = linalg::Conv2DNhwgcGfhwcOp::create(
                       rewriter, loc, TypeRange{groupedInit.getType()},
                       ValueRange{groupedIn, filter}, ValueRange{groupedInit},
                       attrs)
                       .getResult(0);
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, outType, conv,
                                                           outReassoc);
      return success();
    }
    Value conv =
        depthwise
            ? linalg::DepthwiseConv2DNhwcHwcOp::create(
                  rewriter, loc, TypeRange{outType}, ValueRange{input, filter},
                  ValueRange{init}, attrs)
                  .getResult(0)
            : linalg::Conv2DNhwcFhwcOp::create(
                  rewriter, loc, TypeRange{outType}, ValueRange{input, filter},
                  ValueRange{init}, attrs)
                  .getResult(0);
    rewriter.replaceOp(op, conv);
    return success();
  }
  WinogradOptions winograd;
};

/// ConvTranspose as a stride-1 convolution over the input spread out by the
/// strides (zeros in between) and padded by `dilated kernel - 1 - pads`,
/// with the kernel read flipped and its in/out channels swapped:
///   y[n, g, m, o] += xs[n, g, c, o + (K - 1 - k) * d] * w[g, c, m, k]
/// Negative padding (pads larger than the kernel) crops the result.
struct ConvTransposePattern : OpConversionPattern<onnx::ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(adaptor.getW().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!inType || !wType || !outType)
      return rewriter.notifyMatchFailure(op, "unranked operands");
    if (failed(checkWindowed(op, inType, outType)))
      return failure();
    if (!wType.hasStaticShape())
      return op.emitOpError() << "with dynamic weight shape is not supported";
    int64_t k = wType.getRank() - 2;
    FailureOr<onnx::WindowGeometry> g = onnx::resolveTransposedWindow(
        op, inType.getShape(), wType.getShape().drop_front(2),
        op.getAutoPad(), op.getPads(), op.getStrides(), op.getDilations(),
        op.getOutputPadding(), op.getOutputShape());
    if (failed(g))
      return failure();
    Type elem = outType.getElementType();
    MLIRContext *ctx = rewriter.getContext();

    // Spread and pad the input.
    SmallVector<int64_t> spreadShape(inType.getShape().take_front(2));
    SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0)),
        sizes, steps(2, rewriter.getIndexAttr(1));
    SmallVector<int64_t> crop;
    for (int64_t i = 0; i < 2; ++i)
      sizes.push_back(tensor::getMixedSize(rewriter, loc, adaptor.getX(), i));
    for (int64_t i = 0; i < k; ++i) {
      int64_t in = inType.getDimSize(i + 2);
      int64_t effKernel = (g->kernel[i] - 1) * g->dilations[i] + 1;
      int64_t lo = effKernel - 1 - g->padsBegin[i];
      int64_t convOut = g->outSizes[i] + std::max<int64_t>(-lo, 0);
      // The spread input must cover every window of the (uncropped) output.
      int64_t extent = convOut + effKernel - 1;
      spreadShape.push_back(extent);
      crop.push_back(std::max<int64_t>(-lo, 0));
      offsets.push_back(rewriter.getIndexAttr(std::max<int64_t>(lo, 0)));
      sizes.push_back(rewriter.getIndexAttr(in));
      steps.push_back(rewriter.getIndexAttr(g->strides[i]));
      if (std::max<int64_t>(lo, 0) + (in - 1) * g->strides[i] >= extent)
        return op.emitOpError() << "has an output_shape smaller than its "
                                << "input spreads to; not supported yet";
    }
    auto spreadType = RankedTensorType::get(spreadShape, elem);
    Value zero = constantScalar(rewriter, loc, elem, 0);
    Value spread = createFilled(rewriter, loc, spreadType, zero, {adaptor.getX()});
    spread = tensor::InsertSliceOp::create(rewriter, loc, adaptor.getX(), spread,
                                           offsets, sizes, steps);

    // The uncropped output, with the bias.
    int64_t groups = op.getGroup();
    SmallVector<int64_t> fullShape(outType.getShape());
    for (int64_t i = 0; i < k; ++i)
      fullShape[i + 2] += crop[i];
    auto fullType = RankedTensorType::get(fullShape, elem);
    Value init = createConvInit(rewriter, loc, fullType, adaptor.getB(),
                                adaptor.getX());
    Value groupedIn = splitGroups(rewriter, loc, spread, 1, groups).first;
    Value groupedW = splitGroups(rewriter, loc, adaptor.getW(), 0, groups).first;
    auto [groupedInit, outReassoc] = splitGroups(rewriter, loc, init, 1, groups);

    // Dims: n, g, m, o..., c, k...
    int64_t numDims = 4 + 2 * k;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> inExprs = {d(0), d(1), d(3 + k)},
                            wExprs = {d(1), d(3 + k), d(2)},
                            outExprs = {d(0), d(1), d(2)};
    for (int64_t i = 0; i < k; ++i) {
      // The kernel dim indexes W directly (linalg derives loop bounds
      // from it); the input reads the flipped tap o + (K - 1 - k) * d.
      inExprs.push_back(d(3 + i) + (g->kernel[i] - 1) * g->dilations[i] -
                        d(4 + k + i) * g->dilations[i]);
      wExprs.push_back(d(4 + k + i));
      outExprs.push_back(d(3 + i));
    }
    SmallVector<utils::IteratorType> iterators(3 + k,
                                               utils::IteratorType::parallel);
    iterators.append(1 + k, utils::IteratorType::reduction);
    Value conv =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{groupedInit.getType()},
            ValueRange{groupedIn, groupedW}, ValueRange{groupedInit},
            ArrayRef<AffineMap>{AffineMap::get(numDims, 0, inExprs, ctx),
                                AffineMap::get(numDims, 0, wExprs, ctx),
                                AffineMap::get(numDims, 0, outExprs, ctx)},
            iterators,
            [](OpBuilder &b, Location l, ValueRange args) {
              Value prod = mulScalars(b, l, args[0], args[1]);
              linalg::YieldOp::create(b, l, addScalars(b, l, args[2], prod));
            })
            .getResult(0);
    Value result = tensor::CollapseShapeOp::create(rewriter, loc, fullType,
                                                   conv, outReassoc);
    if (fullType != outType) {
      SmallVector<OpFoldResult> cropOffsets(2, rewriter.getIndexAttr(0));
      for (int64_t c : crop)
        cropOffsets.push_back(rewriter.getIndexAttr(c));
      SmallVector<OpFoldResult> cropSizes = {
          tensor::getMixedSize(rewriter, loc, result, 0),
          rewriter.getIndexAttr(outType.getDimSize(1))};
      for (int64_t i = 0; i < k; ++i)
        cropSizes.push_back(rewriter.getIndexAttr(outType.getDimSize(i + 2)));
      SmallVector<OpFoldResult> ones(k + 2, rewriter.getIndexAttr(1));
      result = tensor::ExtractSliceOp::create(rewriter, loc, outType, result,
                                              cropOffsets, cropSizes, ones);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// What MaxPool and AveragePool share: ranked types, the resolved window,
/// and end pads extended so that ceil_mode's last window fits.
struct PoolSetup {
  RankedTensorType inType, outType;
  onnx::WindowGeometry geometry;
  /// The input's pads, of its trailing dims (H, W, and C of 0 channels-last).
  SmallVector<int64_t> padsBegin, padsEnd;
};

/// The pools on channels-last tensors (tcc-onnx-channels-last's).
template <typename PoolOp>
constexpr bool kChannelsLast =
    std::is_same_v<PoolOp, onnx::NhwcMaxPoolOp> ||
    std::is_same_v<PoolOp, onnx::NhwcAveragePoolOp>;

template <typename PoolOp>
static FailureOr<PoolSetup> setUpPool(PoolOp op, Value input,
                                      ConversionPatternRewriter &rewriter) {
  PoolSetup p;
  p.inType = dyn_cast<RankedTensorType>(input.getType());
  p.outType = dyn_cast<RankedTensorType>(op.getY().getType());
  if (!p.inType || !p.outType)
    return rewriter.notifyMatchFailure(op, "unranked operands");
  if (!isa<FloatType>(p.inType.getElementType()))
    return op.emitOpError() << "is only supported on floats";
  if (failed(checkWindowed(op, p.inType, p.outType)))
    return failure();
  SmallVector<int64_t> nchw =
      onnx::nchwShape(p.inType.getShape(), kChannelsLast<PoolOp>);
  FailureOr<onnx::WindowGeometry> g = onnx::resolveWindow(
      op, nchw, op.getKernelShape(), op.getAutoPad(), op.getPads(),
      op.getStrides(), op.getDilations(), op.getCeilMode() != 0);
  if (failed(g))
    return failure();
  p.geometry = *g;
  p.padsBegin = g->padsBegin;
  p.padsEnd = g->padsEnd;
  for (size_t i = 0; i < g->kernel.size(); ++i) {
    int64_t need = (g->outSizes[i] - 1) * g->strides[i] +
                   (g->kernel[i] - 1) * g->dilations[i] + 1 - nchw[i + 2] -
                   g->padsBegin[i];
    p.padsEnd[i] = std::max(p.padsEnd[i], need);
  }
  if (kChannelsLast<PoolOp>) {
    p.padsBegin.push_back(0);
    p.padsEnd.push_back(0);
  }
  return p;
}

/// Pools the padded input: linalg's named NCHW (or NHWC) op for 2-d, else
/// a generic.
static Value buildPool(OpBuilder &b, Location loc, Value input, Value init,
                       const onnx::WindowGeometry &g, bool isMax,
                       bool channelsLast = false) {
  if (g.kernel.size() != 2)
    return buildGenericPool(b, loc, input, init, g, isMax);
  Type elem = cast<RankedTensorType>(init.getType()).getElementType();
  Value window = tensor::EmptyOp::create(b, loc, g.kernel, elem);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("strides", i64Elements(b, g.strides)),
      b.getNamedAttr("dilations", i64Elements(b, g.dilations))};
  SmallVector<Value> ins = {input, window};
  auto create = [&](auto opTag) {
    using Op = decltype(opTag);
    return Op::create(b, loc, TypeRange{init.getType()}, ins, ValueRange{init},
                      attrs)
        .getResult(0);
  };
  if (channelsLast)
    return isMax ? create(linalg::PoolingNhwcMaxOp())
                 : create(linalg::PoolingNhwcSumOp());
  return isMax ? create(linalg::PoolingNchwMaxOp())
               : create(linalg::PoolingNchwSumOp());
}

/// MaxPool with its Indices: one generic over the padded input and the
/// window, carrying the maximum and its position in the flattened input
/// (the first of equal maxima: a later one must be greater).
static std::pair<Value, Value>
buildPoolWithIndices(OpBuilder &b, Location loc, Value in, Value init,
                     Value indexInit, const onnx::WindowGeometry &g,
                     ArrayRef<int64_t> inShape, bool columnMajor) {
  int64_t k = g.kernel.size();
  PoolSpace space = poolSpace(b.getContext(), g);
  Type elem = cast<RankedTensorType>(init.getType()).getElementType();
  Value window = tensor::EmptyOp::create(b, loc, g.kernel, elem);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType(), indexInit.getType()},
      ValueRange{in, window}, ValueRange{init, indexInit},
      ArrayRef<AffineMap>{space.input, space.window, space.output,
                          space.output},
      space.iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Type i64 = nb.getI64Type();
        auto index = [&](int64_t dim) -> Value {
          return arith::IndexCastOp::create(
              nb, nloc, i64, linalg::IndexOp::create(nb, nloc, dim));
        };
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantOp::create(nb, nloc, nb.getI64IntegerAttr(v));
        };
        auto muladd = [&](Value acc, int64_t scale, Value v) -> Value {
          return arith::AddIOp::create(
              nb, nloc, arith::MulIOp::create(nb, nloc, acc, constant(scale)),
              v);
        };
        // Position along each spatial dim of the unpadded input.
        SmallVector<Value> at;
        for (int64_t i = 0; i < k; ++i) {
          Value pos = arith::AddIOp::create(
              nb, nloc,
              arith::MulIOp::create(nb, nloc, index(2 + i),
                                    constant(g.strides[i])),
              arith::MulIOp::create(nb, nloc, index(2 + k + i),
                                    constant(g.dilations[i])));
          at.push_back(arith::SubIOp::create(nb, nloc, pos,
                                             constant(g.padsBegin[i])));
        }
        Value flat = muladd(index(0), inShape[1], index(1));
        for (int64_t i = 0; i < k; ++i)
          flat = muladd(flat, inShape[2 + i],
                        columnMajor ? constant(0) : at[i]);
        if (columnMajor) {
          Value spatial = at[k - 1];
          for (int64_t i = k - 2; i >= 0; --i)
            spatial = muladd(spatial, inShape[2 + i], at[i]);
          flat = arith::AddIOp::create(nb, nloc, flat, spatial);
        }
        Value greater = arith::CmpFOp::create(
            nb, nloc, arith::CmpFPredicate::OGT, args[0], args[2]);
        linalg::YieldOp::create(
            nb, nloc,
            ValueRange{
                arith::SelectOp::create(nb, nloc, greater, args[0], args[2]),
                arith::SelectOp::create(nb, nloc, greater, flat, args[3])});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// MaxPool and NhwcMaxPool.
template <typename PoolOp>
struct MaxPoolPattern : OpConversionPattern<PoolOp> {
  using OpConversionPattern<PoolOp>::OpConversionPattern;
  using OpAdaptor = typename PoolOp::Adaptor;
  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PoolSetup> setup = setUpPool(op, adaptor.getX(), rewriter);
    if (failed(setup))
      return failure();
    RankedTensorType outType = setup->outType;
    auto ft = cast<FloatType>(outType.getElementType());
    Value lowest = arith::ConstantOp::create(
        rewriter, loc, ft,
        rewriter.getFloatAttr(
            ft, APFloat::getInf(ft.getFloatSemantics(), /*Negative=*/true)));
    Value input = padTrailing(rewriter, loc, adaptor.getX(), setup->padsBegin,
                              setup->padsEnd, lowest);
    Value init = createFilled(rewriter, loc, outType, lowest, {adaptor.getX()});
    if constexpr (std::is_same_v<PoolOp, onnx::MaxPoolOp>) {
      if (op.getIndices()) {
        auto indexType = outType.clone(rewriter.getI64Type());
        Value indexInit = createFilled(
            rewriter, loc, indexType,
            constantScalar(rewriter, loc, rewriter.getI64Type(), 0),
            {adaptor.getX()});
        if (!setup->inType.hasStaticShape() &&
            llvm::any_of(setup->inType.getShape().drop_front(),
                         ShapedType::isDynamic))
          return op.emitOpError()
                 << "with Indices needs the channel and spatial dims known";
        auto [values, indices] = buildPoolWithIndices(
            rewriter, loc, input, init, indexInit, setup->geometry,
            setup->inType.getShape(), op.getStorageOrder() == 1);
        rewriter.replaceOp(op, ValueRange{values, indices});
        return success();
      }
    }
    rewriter.replaceOp(op, buildPool(rewriter, loc, input, init,
                                     setup->geometry, /*isMax=*/true,
                                     kChannelsLast<PoolOp>));
    return success();
  }
};

/// Number of window positions that take part in each output of an average
/// pool: inside the input, or (count_include_pad) inside the explicit pads.
static SmallVector<float> poolCounts(const onnx::WindowGeometry &g,
                                     ArrayRef<int64_t> inSizes,
                                     bool includePad) {
  int64_t k = g.kernel.size();
  int64_t numOut = 1, numWindow = 1;
  for (int64_t i = 0; i < k; ++i) {
    numOut *= g.outSizes[i];
    numWindow *= g.kernel[i];
  }
  SmallVector<float> counts(numOut);
  for (int64_t o = 0; o < numOut; ++o) {
    int64_t n = 0;
    for (int64_t w = 0; w < numWindow; ++w) {
      bool inside = true, inPads = true;
      for (int64_t i = k - 1, oi = o, wi = w; i >= 0; --i) {
        int64_t oc = oi % g.outSizes[i], kc = wi % g.kernel[i];
        oi /= g.outSizes[i];
        wi /= g.kernel[i];
        int64_t x = oc * g.strides[i] + kc * g.dilations[i] - g.padsBegin[i];
        inside &= x >= 0 && x < inSizes[i];
        inPads &= x >= -g.padsBegin[i] && x < inSizes[i] + g.padsEnd[i];
      }
      n += includePad ? inPads : inside;
    }
    counts[o] = n ? (float)n : 1.0f;
  }
  return counts;
}

/// AveragePool: a sum pool divided by a per-position count that is computed
/// at compile time (it depends on pads, ceil_mode and count_include_pad).
template <typename PoolOp>
struct AveragePoolPattern : OpConversionPattern<PoolOp> {
  using OpConversionPattern<PoolOp>::OpConversionPattern;
  using OpAdaptor = typename PoolOp::Adaptor;
  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PoolSetup> setup = setUpPool(op, adaptor.getX(), rewriter);
    if (failed(setup))
      return failure();
    RankedTensorType inType = setup->inType, outType = setup->outType;
    const onnx::WindowGeometry &g = setup->geometry;
    Type elem = outType.getElementType();
    if (!elem.isF32())
      return op.emitOpError() << "is only supported for f32 yet";
    bool channelsLast = kChannelsLast<PoolOp>;
    SmallVector<float> counts = poolCounts(
        g, ArrayRef(onnx::nchwShape(inType.getShape(), channelsLast)).drop_front(2),
        op.getCountIncludePad() != 0);
    Value zero = constantScalar(rewriter, loc, elem, 0);
    Value input = padTrailing(rewriter, loc, adaptor.getX(), setup->padsBegin,
                              setup->padsEnd, zero);
    Value init = createFilled(rewriter, loc, outType, zero, {adaptor.getX()});
    Value sum = buildPool(rewriter, loc, input, init, g, /*isMax=*/false,
                          channelsLast);
    // [OH, OW] (channels-last [OH, OW, 1]), broadcast to the output.
    SmallVector<int64_t> countShape(g.outSizes);
    if (channelsLast)
      countShape.push_back(1);
    auto countType = RankedTensorType::get(countShape, elem);
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

/// LpPool: |x|^p elementwise, a sum pool over the zero-padded result, and
/// the p-th root of each sum.
struct LpPoolPattern : OpConversionPattern<onnx::LpPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::LpPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<PoolSetup> setup = setUpPool(op, adaptor.getX(), rewriter);
    if (failed(setup))
      return failure();
    RankedTensorType outType = setup->outType;
    const onnx::WindowGeometry &g = setup->geometry;
    Type elem = outType.getElementType();
    double p = op.getP();
    Value powered = buildElementwise(
        rewriter, loc, setup->inType, {adaptor.getX()},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value a = math::AbsFOp::create(b, l, args[0]);
          if (p == 1)
            return a;
          if (p == 2)
            return arith::MulFOp::create(b, l, a, a);
          return math::PowFOp::create(b, l, a, constantScalar(b, l, elem, p));
        });
    Value zero = constantScalar(rewriter, loc, elem, 0);
    Value input =
        padTrailing(rewriter, loc, powered, g.padsBegin, setup->padsEnd, zero);
    Value init = createFilled(rewriter, loc, outType, zero, {adaptor.getX()});
    Value sum = buildPool(rewriter, loc, input, init, g, /*isMax=*/false);
    Value result = buildElementwise(
        rewriter, loc, outType, {sum},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (p == 1)
            return args[0];
          if (p == 2)
            return math::SqrtOp::create(b, l, args[0]);
          return math::PowFOp::create(b, l, args[0],
                                      constantScalar(b, l, elem, 1.0 / p));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Col2Im as a gather: output (n, c, x...) sums, over the block offsets
/// k..., input[n, c * prod(block) + k, l] where x + padBegin - k * dilation
/// = l_i * stride lands on a block l_i. The block offsets are reduction
/// loops, bounded by an empty tensor of the block's shape.
struct Col2ImPattern : OpConversionPattern<onnx::Col2ImOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::Col2ImOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(
            op, SmallVector<Value>{op.getImageShape(), op.getBlockShape()},
            "image_shape and block_shape")))
      return failure();
    std::optional<onnx::WindowGeometry> g = op.getStaticWindow();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
    if (!g || !inType || !inType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t n = g->kernel.size(), rank = type.getRank();
    int64_t numLoops = rank + n;
    Type elem = type.getElementType();
    Value zero = constantScalar(rewriter, loc, elem, 0);
    Value init = createFilled(rewriter, loc, type, zero);
    Value window = tensor::EmptyOp::create(rewriter, loc, g->kernel, elem);
    SmallVector<AffineExpr> windowExprs;
    for (int64_t i = 0; i < n; ++i)
      windowExprs.push_back(getAffineDimExpr(rank + i, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, windowExprs, ctx),
        AffineMap::getMultiDimIdentityMap(numLoops, ctx).getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(n, utils::IteratorType::reduction);
    Value input = adaptor.getInput();
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{window},
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              auto cst = [&](int64_t v) { return constantIndex(b, l, v); };
              Value valid = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
              Value block = cst(0), offset = cst(0);
              for (int64_t i = 0; i < n; ++i) {
                Value x = linalg::IndexOp::create(b, l, 2 + i);
                Value k = linalg::IndexOp::create(b, l, rank + i);
                // pos = x + padBegin - k * dilation
                Value pos = arith::SubIOp::create(
                    b, l, arith::AddIOp::create(b, l, x, cst(g->padsBegin[i])),
                    arith::MulIOp::create(b, l, k, cst(g->dilations[i])));
                Value li = arith::DivSIOp::create(b, l, pos, cst(g->strides[i]));
                Value rem = arith::RemSIOp::create(b, l, pos, cst(g->strides[i]));
                auto cmp = [&](arith::CmpIPredicate p, Value a,
                               Value c) -> Value {
                  return arith::CmpIOp::create(b, l, p, a, c);
                };
                using P = arith::CmpIPredicate;
                for (Value ok : SmallVector<Value>{cmp(P::sge, pos, cst(0)),
                                 cmp(P::eq, rem, cst(0)),
                                 cmp(P::slt, li, cst(g->outSizes[i]))})
                  valid = arith::AndIOp::create(b, l, valid, ok);
                // Clamped so the (discarded) read stays in bounds.
                li = arith::MaxSIOp::create(
                    b, l, cst(0),
                    arith::MinSIOp::create(b, l, li, cst(g->outSizes[i] - 1)));
                block = arith::AddIOp::create(
                    b, l, arith::MulIOp::create(b, l, block, cst(g->outSizes[i])),
                    li);
                offset = arith::AddIOp::create(
                    b, l, arith::MulIOp::create(b, l, offset, cst(g->kernel[i])),
                    k);
              }
              int64_t blockSize = inType.getDimSize(1) / type.getDimSize(1);
              Value channel = arith::AddIOp::create(
                  b, l,
                  arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, 1),
                                        cst(blockSize)),
                  offset);
              Value v = tensor::ExtractOp::create(
                  b, l, input,
                  ValueRange{linalg::IndexOp::create(b, l, 0), channel, block});
              Value term = arith::SelectOp::create(b, l, valid, v,
                                                   constantScalar(b, l, elem, 0));
              linalg::YieldOp::create(b, l, addScalars(b, l, args[1], term));
            })
            .getResult(0);
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

void tcc::onnx_to_linalg::populateConvPoolPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const WinogradOptions &winograd) {
  patterns.add<ConvPattern>(converter, patterns.getContext(), winograd);
  patterns.add<NhwcConvPattern>(converter, patterns.getContext(), winograd);
  patterns.add<ConvTransposePattern, MaxPoolPattern<onnx::MaxPoolOp>,
               MaxPoolPattern<onnx::NhwcMaxPoolOp>,
               AveragePoolPattern<onnx::AveragePoolOp>,
               AveragePoolPattern<onnx::NhwcAveragePoolOp>, Col2ImPattern,
               LpPoolPattern, GlobalAveragePoolPattern>(converter,
                                                        patterns.getContext());
}
