//===- ONNXFolds.cpp - onnx canonicalization patterns ---------------------===//
#include "dialects/ONNX/OpUtils.h"

#include "mlir/Interfaces/FoldInterfaces.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

namespace {

/// Inference-mode Dropout forwards its input.
struct RemoveDropout : OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DropoutOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getData().getType() != op.getOutput().getType())
      return rewriter.notifyMatchFailure(op, "type refinement needed");
    SmallVector<Value> results = {op.getData()};
    if (Value mask = op.getMask()) {
      // The all-true mask as a constant needs a static shape.
      auto type = dyn_cast<RankedTensorType>(mask.getType());
      if (!type || !type.hasStaticShape())
        return rewriter.notifyMatchFailure(op, "mask shape not static");
      auto value = DenseElementsAttr::get(type, true);
      results.push_back(
          ConstantOp::create(rewriter, op.getLoc(), type, value).getResult());
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Folds an inference BatchNormalization into the Conv that feeds it when
/// the Conv has no other user and all parameters are f32 constants:
///   s = scale / sqrt(var + eps);  W' = W * s[m];  B' = (B - mean) * s + beta
struct FoldBatchNormIntoConv : OpRewritePattern<BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getX().getDefiningOp<ConvOp>();
    if (!conv || !conv->hasOneUse())
      return rewriter.notifyMatchFailure(bn, "input is not a single-use Conv");
    auto wType = dyn_cast<RankedTensorType>(conv.getW().getType());
    if (!wType || !wType.hasStaticShape() || !wType.getElementType().isF32())
      return rewriter.notifyMatchFailure(bn, "weights not static f32");
    auto w = getConstantFloats(conv.getW());
    int64_t m = wType.getDimSize(0);
    std::optional<BatchNormAffine> affine = batchNormAffine(bn, m);
    if (!w || !affine)
      return rewriter.notifyMatchFailure(bn, "parameters are not constant");
    SmallVector<float> bias(m, 0.0f);
    if (!isa<NoneType>(conv.getB().getType())) {
      auto b = getConstantFloats(conv.getB());
      if (!b || (int64_t)b->size() != m)
        return rewriter.notifyMatchFailure(bn, "bias is not constant");
      bias = *b;
    }

    int64_t perChannel = w->size() / m;
    SmallVector<float> newW(*w);
    for (int64_t c = 0; c < m; ++c) {
      double s = affine->scale[c];
      for (int64_t i = 0; i < perChannel; ++i)
        newW[c * perChannel + i] = (float)((*w)[c * perChannel + i] * s);
      bias[c] = (float)(bias[c] * s + affine->shift[c]);
    }

    Location loc = bn.getLoc();
    auto makeConst = [&](RankedTensorType type, ArrayRef<float> data,
                         StringRef name) {
      return createFloatConstant(rewriter, loc, type, data, name);
    };
    Value wConst = makeConst(wType, newW, "bn_folded_weight");
    Value bConst = makeConst(RankedTensorType::get({m}, rewriter.getF32Type()),
                             bias, "bn_folded_bias");
    auto newConv = ConvOp::create(
        rewriter, rewriter.getFusedLoc({conv.getLoc(), bn.getLoc()}),
        bn.getType(), conv.getX(), wConst, bConst, conv.getAutoPadAttr(),
        conv.getDilationsAttr(), conv.getGroupAttr(),
        conv.getKernelShapeAttr(), conv.getPadsAttr(), conv.getStridesAttr());
    rewriter.replaceOp(bn, newConv.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// Drops the kernel taps of a Conv that read only padding, for every output
/// position: along each spatial dim the taps that reach the input form a
/// range [k0, k1], and the Conv becomes one with that slice of the kernel
/// and `k0 * dilation` less padding at the start (`(K - 1 - k1) * dilation`
/// at the end), so the output is unchanged. A dilated convolution on a map
/// smaller than its dilation (DeepLabV3's ASPP: rates 24 and 36 on a 14x14
/// map) is then a 1x1 convolution, a ninth of the work.
struct DropPaddingTaps : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    auto xType = dyn_cast<RankedTensorType>(op.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(op.getW().getType());
    if (!xType || !wType || !xType.hasStaticShape() ||
        !wType.hasStaticShape() || !wType.getElementType().isF32() ||
        op.getAutoPad() != "NOTSET")
      return rewriter.notifyMatchFailure(op, "needs static shapes, f32 "
                                             "weights and explicit pads");
    int64_t n = wType.getRank() - 2;
    ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
    SmallVector<int64_t> pads(2 * n, 0), strides(n, 1), dilations(n, 1);
    if (auto p = op.getPads())
      pads.assign(p->begin(), p->end());
    if (auto s = op.getStrides())
      strides.assign(s->begin(), s->end());
    if (auto d = op.getDilations())
      dilations.assign(d->begin(), d->end());
    if (xType.getRank() != n + 2 || (int64_t)pads.size() != 2 * n ||
        (int64_t)strides.size() != n || (int64_t)dilations.size() != n ||
        (op.getKernelShape() && *op.getKernelShape() != kernel))
      return rewriter.notifyMatchFailure(op, "malformed window attributes");

    SmallVector<int64_t> first(n), last(n);
    bool smaller = false;
    for (int64_t i = 0; i < n; ++i) {
      int64_t in = xType.getDimSize(2 + i), s = strides[i], d = dilations[i];
      int64_t out = (in + pads[i] + pads[n + i] - (kernel[i] - 1) * d - 1) / s + 1;
      if (s < 1 || d < 1 || out < 1)
        return rewriter.notifyMatchFailure(op, "empty output");
      auto reaches = [&](int64_t k) {
        return tapReach(in, out, pads[i], s, d, k).count > 0;
      };
      first[i] = 0;
      while (first[i] < kernel[i] && !reaches(first[i]))
        ++first[i];
      last[i] = kernel[i] - 1;
      while (last[i] > first[i] && !reaches(last[i]))
        --last[i];
      if (first[i] == kernel[i])
        return rewriter.notifyMatchFailure(op, "no tap reaches the input");
      if (pads[i] < first[i] * d || pads[n + i] < (kernel[i] - 1 - last[i]) * d)
        return rewriter.notifyMatchFailure(op, "would need negative pads");
      smaller |= first[i] > 0 || last[i] < kernel[i] - 1;
    }
    if (!smaller)
      return rewriter.notifyMatchFailure(op, "every tap reaches the input");
    auto w = getConstantFloats(op.getW());
    if (!w)
      return rewriter.notifyMatchFailure(op, "weights are not constant");

    SmallVector<int64_t> shape(wType.getShape().take_front(2));
    SmallVector<int64_t> newPads(2 * n), newDilations(n);
    for (int64_t i = 0; i < n; ++i) {
      shape.push_back(last[i] - first[i] + 1);
      newPads[i] = pads[i] - first[i] * dilations[i];
      newPads[n + i] = pads[n + i] - (kernel[i] - 1 - last[i]) * dilations[i];
      newDilations[i] = shape.back() == 1 ? 1 : dilations[i];
    }
    SmallVector<int64_t> oldStrides = rowMajorStrides(wType.getShape());
    SmallVector<float> sliced;
    forEachIndex(shape, [&](ArrayRef<int64_t> index) {
      int64_t offset = 0;
      for (int64_t j = 0; j < (int64_t)index.size(); ++j)
        offset += (index[j] + (j < 2 ? 0 : first[j - 2])) * oldStrides[j];
      sliced.push_back((*w)[offset]);
    });
    auto type = RankedTensorType::get(shape, wType.getElementType());
    Value weights = ConstantOp::create(
        rewriter, op.getLoc(), type,
        DenseResourceElementsAttr::get(
            type, "conv_taps_weight",
            HeapAsmResourceBlob::allocateAndCopyInferAlign(
                ArrayRef<float>(sliced))));
    rewriter.replaceOpWithNewOp<ConvOp>(
        op, op.getType(), op.getX(), weights, op.getB(), op.getAutoPadAttr(),
        rewriter.getDenseI64ArrayAttr(newDilations), op.getGroupAttr(),
        rewriter.getDenseI64ArrayAttr(ArrayRef<int64_t>(shape).drop_front(2)),
        rewriter.getDenseI64ArrayAttr(newPads), op.getStridesAttr());
    return success();
  }
};

/// Calls `fn` with the values (of `shapes`) at each index of `shape`, each
/// broadcast numpy-style to it; fails when one has more dims.
template <typename T>
static LogicalResult broadcastEach(ArrayRef<SmallVector<int64_t>> shapes,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<SmallVector<T>> values,
                                   llvm::function_ref<void(ArrayRef<T>)> fn) {
  SmallVector<SmallVector<int64_t>> strides;
  for (ArrayRef<int64_t> s : shapes) {
    if (s.size() > shape.size())
      return failure();
    SmallVector<int64_t> st = rowMajorStrides(s);
    for (size_t j = 0; j < s.size(); ++j)
      if (s[j] == 1)
        st[j] = 0;
    st.insert(st.begin(), shape.size() - s.size(), 0);
    strides.push_back(std::move(st));
  }
  SmallVector<T> args(values.size());
  forEachIndex(shape, [&](ArrayRef<int64_t> index) {
    for (size_t k = 0; k < values.size(); ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < index.size(); ++d)
        offset += index[d] * strides[k][d];
      args[k] = values[k][offset];
    }
    fn(args);
  });
  return success();
}

/// An integer tensor computed from constants: static shape, row-major values.
struct IntTensor {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> values;
};

/// Index tensors this big are still evaluated (to recognize them, never to
/// make constants of them).
constexpr int64_t kMaxEvaluatedElements = 1 << 22;

/// The values of an integer tensor that constants, integer arithmetic and
/// shape ops compute (as exporters build gather indices from Range); nullopt
/// for anything else or anything over kMaxEvaluatedElements.
static std::optional<IntTensor> evaluateInts(Value v, int depth = 0) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (depth > 16 || !type || !type.hasStaticShape() ||
      !type.getElementType().isSignlessInteger() ||
      type.getNumElements() > kMaxEvaluatedElements)
    return std::nullopt;
  SmallVector<int64_t> shape(type.getShape());
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto c = dyn_cast<ConstantOp>(op)) {
    auto values = getIntValues(c.getValue(), kMaxEvaluatedElements);
    if (!values)
      return std::nullopt;
    return IntTensor{shape, std::move(*values)};
  }
  IntTensor out{shape, {}};
  auto push = [&](ArrayRef<int64_t> v) {
    out.values.push_back(isa<AddOp>(op)   ? v[0] + v[1]
                         : isa<SubOp>(op) ? v[0] - v[1]
                         : isa<MulOp>(op) ? v[0] * v[1]
                                          : v[0]);
  };
  if (isa<AddOp, SubOp, MulOp>(op)) {
    auto a = evaluateInts(op->getOperand(0), depth + 1);
    auto b = evaluateInts(op->getOperand(1), depth + 1);
    if (!a || !b ||
        failed(broadcastEach<int64_t>({a->shape, b->shape}, shape,
                                      {a->values, b->values}, push)))
      return std::nullopt;
    return out;
  }
  if (isa<CastOp, UnsqueezeOp, SqueezeOp, ReshapeOp, FlattenOp>(op)) {
    auto in = evaluateInts(op->getOperand(0), depth + 1);
    if (!in || (int64_t)in->values.size() != type.getNumElements())
      return std::nullopt;
    in->shape = shape;
    return in;
  }
  if (isa<ExpandOp>(op)) {
    auto in = evaluateInts(op->getOperand(0), depth + 1);
    if (!in || failed(broadcastEach<int64_t>({in->shape}, shape, {in->values},
                                             push)))
      return std::nullopt;
    return out;
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    int64_t axis = normAxis(concat.getAxis(), shape.size());
    int64_t outer = mulDims(ArrayRef<int64_t>(shape).take_front(axis));
    SmallVector<IntTensor> parts;
    for (Value input : concat.getInputs()) {
      auto part = evaluateInts(input, depth + 1);
      if (!part || part->shape.size() != shape.size())
        return std::nullopt;
      parts.push_back(std::move(*part));
    }
    for (int64_t o = 0; o < outer; ++o)
      for (const IntTensor &part : parts) {
        int64_t chunk = part.values.size() / std::max<int64_t>(outer, 1);
        out.values.insert(out.values.end(), part.values.begin() + o * chunk,
                          part.values.begin() + (o + 1) * chunk);
      }
    return out;
  }
  return std::nullopt;
}

/// `data` reshaped to the static `type`.
static Value reshapeTo(PatternRewriter &rewriter, Location loc, Value data,
                       RankedTensorType type) {
  auto shapeType =
      RankedTensorType::get({type.getRank()}, rewriter.getI64Type());
  Value shape = ConstantOp::create(
      rewriter, loc, shapeType,
      DenseElementsAttr::get(shapeType, type.getShape()));
  return ReshapeOp::create(rewriter, loc, type, data, shape,
                           rewriter.getI64IntegerAttr(0));
}

/// Replaces `op` by a Reshape of `data` to its (static) result type, or by
/// `data` itself where that already has the type.
static void replaceByReshape(PatternRewriter &rewriter, Operation *op,
                             Value data) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  rewriter.replaceOp(op, data.getType() == type
                             ? data
                             : reshapeTo(rewriter, op->getLoc(), data, type));
}

static bool staticNonEmpty(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  return type && type.hasStaticShape() && !llvm::is_contained(type.getShape(), 0);
}

/// A Gather whose indices are 0, 1, ..., n-1 in order over the whole axis
/// (of size n) moves no element: it is a Reshape. Exporters emit it for
/// advanced indexing (HF's attention masks, mask[:, None, None, :], become a
/// Gather of the flattened mask at positions computed from Range).
struct GatherOfIotaIsReshape : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto x = rankedShape(op.getData());
    if (!x || !staticNonEmpty(op.getType()))
      return rewriter.notifyMatchFailure(op, "shapes not static, non-empty");
    int64_t axis = normAxis(op.getAxis(), x->size());
    auto indices = evaluateInts(op.getIndices());
    if (!indices || (int64_t)indices->values.size() != (*x)[axis])
      return rewriter.notifyMatchFailure(op, "indices do not cover the axis");
    for (auto [i, index] : llvm::enumerate(indices->values))
      if (index != (int64_t)i)
        return rewriter.notifyMatchFailure(op, "indices are not 0, 1, ...");
    replaceByReshape(rewriter, op, op.getData());
    return success();
  }
};

/// The GatherND form of the same (the dynamo exporter's): index tuples that
/// enumerate the leading dims of the data in row-major order.
struct GatherNDOfIotaIsReshape : OpRewritePattern<GatherNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherNDOp op,
                                PatternRewriter &rewriter) const override {
    auto x = rankedShape(op.getData());
    if (!x || op.getBatchDims() != 0 || !staticNonEmpty(op.getType()))
      return rewriter.notifyMatchFailure(op, "shapes not static, non-empty");
    auto indices = evaluateInts(op.getIndices());
    if (!indices || indices->shape.empty())
      return rewriter.notifyMatchFailure(op, "indices not constant");
    int64_t r = indices->shape.back();
    if (r < 1 || r > (int64_t)x->size())
      return rewriter.notifyMatchFailure(op, "bad index tuples");
    ArrayRef<int64_t> lead = x->take_front(r);
    int64_t tuples = indices->values.size() / r;
    if (tuples != mulDims(lead))
      return rewriter.notifyMatchFailure(op, "tuples do not cover the data");
    SmallVector<int64_t> want(r, 0);
    for (int64_t t = 0; t < tuples; ++t) {
      for (int64_t d = 0; d < r; ++d)
        if (indices->values[t * r + d] != want[d])
          return rewriter.notifyMatchFailure(op, "tuples are not in order");
      for (int64_t d = r - 1; d >= 0 && ++want[d] == lead[d]; --d)
        want[d] = 0;
    }
    replaceByReshape(rewriter, op, op.getData());
    return success();
  }
};

/// Whether `perm` over `shape` keeps the dims of size > 1 in order: it
/// moves only size-1 dims, and is a reshape.
static bool movesOnlyUnitDims(ArrayRef<int64_t> perm, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> kept;
  for (int64_t p : perm)
    if (shape[p] != 1)
      kept.push_back(p);
  return llvm::is_sorted(kept);
}

/// `perm` without the positions in `dropped` (positions of the result),
/// the remaining source dims renumbered.
static SmallVector<int64_t> dropFromPermutation(ArrayRef<int64_t> perm,
                                                ArrayRef<int64_t> dropped) {
  SmallVector<int64_t> result;
  for (auto [j, p] : llvm::enumerate(perm)) {
    if (llvm::is_contained(dropped, int64_t(j)))
      continue;
    int64_t below = llvm::count_if(
        dropped, [&, p = p](int64_t d) { return perm[d] < p; });
    result.push_back(p - below);
  }
  return result;
}

/// A Transpose that keeps the order of its dims of size > 1 moves no
/// element: it is a Reshape (a view, not a copy).
struct TransposeOfUnitDimsIsReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getData().getType());
    if (!type || !type.hasStaticShape() || !staticNonEmpty(op.getType()))
      return rewriter.notifyMatchFailure(op, "shapes not static");
    if (!movesOnlyUnitDims(transposePermutation(op), type.getShape()))
      return rewriter.notifyMatchFailure(op, "moves a dim of size > 1");
    replaceByReshape(rewriter, op, op.getData());
    return success();
  }
};

/// Squeeze(Transpose(x)) is Transpose(Squeeze(x)): the size-1 dims go
/// before the permutation, which then permutes fewer dims (and may move
/// only size-1 dims, or none). torchvision's multi-head attention squeezes
/// the transposed q, k, v projection before taking q, k and v out of it.
struct SqueezeBeforeTranspose : OpRewritePattern<SqueezeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SqueezeOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getData().getDefiningOp<TransposeOp>();
    if (!transpose || !transpose->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not the one use of a Transpose");
    auto xType = dyn_cast<RankedTensorType>(transpose.getData().getType());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!xType || !xType.hasStaticShape() || !staticNonEmpty(type))
      return rewriter.notifyMatchFailure(op, "shapes not static");
    SmallVector<int64_t> perm = transposePermutation(transpose);
    int64_t rank = perm.size();
    SmallVector<int64_t> axes;
    if (isa<NoneType>(op.getAxes().getType())) {
      for (int64_t j = 0; j < rank; ++j)
        if (xType.getDimSize(perm[j]) == 1)
          axes.push_back(j);
    } else {
      std::optional<SmallVector<int64_t>> constant =
          getConstantInts(op.getAxes());
      if (!constant)
        return rewriter.notifyMatchFailure(op, "axes not constant");
      for (int64_t a : *constant)
        axes.push_back(normAxis(a, rank));
    }
    SmallVector<int64_t> squeezedShape;
    for (int64_t d = 0; d < rank; ++d)
      if (llvm::none_of(axes, [&](int64_t a) { return perm[a] == d; }))
        squeezedShape.push_back(xType.getDimSize(d));
    Value squeezed = reshapeTo(
        rewriter, op.getLoc(), transpose.getData(),
        RankedTensorType::get(squeezedShape, xType.getElementType()));
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, type, squeezed,
        rewriter.getDenseI64ArrayAttr(dropFromPermutation(perm, axes)));
    return success();
  }
};

/// Gather(Transpose(x), i, axis) with one constant index is
/// Transpose(Gather(x, i, perm[axis])): a slice of x, with the other dims
/// permuted. Only where that permutation moves only size-1 dims (a
/// reshape) and every user of the Transpose is such a Gather: the
/// Transpose, a copy, then goes, each Gather a view of x. torchvision's
/// multi-head attention takes q, k and v so out of its transposed
/// projection.
struct GatherBeforeTranspose : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  static bool oneConstantIndex(Operation *op) {
    auto gather = dyn_cast<GatherOp>(op);
    auto type = gather ? dyn_cast<RankedTensorType>(gather.getIndices().getType())
                       : RankedTensorType();
    return type && type.getRank() == 0 && constantAttr(gather.getIndices());
  }
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getData().getDefiningOp<TransposeOp>();
    if (!transpose || !llvm::all_of(transpose->getUsers(), oneConstantIndex))
      return rewriter.notifyMatchFailure(
          op, "not on a Transpose only gathered at constant indices");
    auto xType = dyn_cast<RankedTensorType>(transpose.getData().getType());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!xType || !xType.hasStaticShape() || !staticNonEmpty(type))
      return rewriter.notifyMatchFailure(op, "shapes not static");
    SmallVector<int64_t> perm = transposePermutation(transpose);
    int64_t axis = normAxis(op.getAxis(), perm.size());
    SmallVector<int64_t> rest = dropFromPermutation(perm, {axis});
    SmallVector<int64_t> gatheredShape(xType.getShape());
    gatheredShape.erase(gatheredShape.begin() + perm[axis]);
    if (!movesOnlyUnitDims(rest, gatheredShape))
      return rewriter.notifyMatchFailure(op, "the rest is a real transpose");
    Value gathered = GatherOp::create(
        rewriter, op.getLoc(),
        RankedTensorType::get(gatheredShape, xType.getElementType()),
        transpose.getData(), op.getIndices(),
        rewriter.getI64IntegerAttr(perm[axis]));
    replaceByReshape(rewriter, op, gathered);
    return success();
  }
};

} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<TransposeOfUnitDimsIsReshape>(context);
}

void SqueezeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<SqueezeBeforeTranspose>(context);
}

void GatherOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<GatherOfIotaIsReshape, GatherBeforeTranspose>(context);
}

void GatherNDOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<GatherNDOfIotaIsReshape>(context);
}

void ConvOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<DropPaddingTaps>(context);
}

void DropoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<RemoveDropout>(context);
}

void BatchNormalizationOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldBatchNormIntoConv>(context);
}

//===----------------------------------------------------------------------===//
// Integer arithmetic of shape sub-graphs
//===----------------------------------------------------------------------===//

namespace {

/// Folds elementwise ops on small integer constants, as exporters emit them
/// between Shape and Reshape (Shape -> Gather -> Mul -> Concat -> Reshape).
/// A dialect fallback keyed by op name, so it needs no folder in each
/// elementwise op's ODS and covers ops of other families alike.
struct IntegerArithFolder : DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;

  LogicalResult fold(Operation *op, ArrayRef<Attribute> operands,
                     SmallVectorImpl<OpFoldResult> &results) const override {
    using Fn = int64_t (*)(ArrayRef<int64_t>);
    StringRef name = op->getName().stripDialect();
    if (name == "Transpose")
      return foldTranspose(op, operands, results);
    if (name == "ReduceMax" || name == "ReduceMin" || name == "ReduceSum" ||
        name == "ReduceProd")
      return foldReduce(op, name, operands, results);
    Fn fn = llvm::StringSwitch<Fn>(name)
                .Case("Add", [](ArrayRef<int64_t> v) { return v[0] + v[1]; })
                .Case("Sub", [](ArrayRef<int64_t> v) { return v[0] - v[1]; })
                .Case("Mul", [](ArrayRef<int64_t> v) { return v[0] * v[1]; })
                // ONNX integer division truncates (a zero divisor is
                // rejected before this runs).
                .Case("Div", [](ArrayRef<int64_t> v) { return v[0] / v[1]; })
                .Case("Equal",
                      [](ArrayRef<int64_t> v) { return (int64_t)(v[0] == v[1]); })
                .Case("Where",
                      [](ArrayRef<int64_t> v) { return v[0] ? v[1] : v[2]; })
                .Case("Less",
                      [](ArrayRef<int64_t> v) { return (int64_t)(v[0] < v[1]); })
                .Case("LessOrEqual",
                      [](ArrayRef<int64_t> v) { return (int64_t)(v[0] <= v[1]); })
                .Case("Greater",
                      [](ArrayRef<int64_t> v) { return (int64_t)(v[0] > v[1]); })
                .Case("GreaterOrEqual",
                      [](ArrayRef<int64_t> v) { return (int64_t)(v[0] >= v[1]); })
                .Case("And", [](ArrayRef<int64_t> v) {
                  return (int64_t)(v[0] && v[1]);
                })
                .Case("Or", [](ArrayRef<int64_t> v) {
                  return (int64_t)(v[0] || v[1]);
                })
                .Case("Xor", [](ArrayRef<int64_t> v) {
                  return (int64_t)(!v[0] != !v[1]);
                })
                .Case("Not", [](ArrayRef<int64_t> v) { return (int64_t)!v[0]; })
                .Case("Max",
                      [](ArrayRef<int64_t> v) { return *llvm::max_element(v); })
                .Case("Min",
                      [](ArrayRef<int64_t> v) { return *llvm::min_element(v); })
                .Case("Abs",
                      [](ArrayRef<int64_t> v) { return v[0] < 0 ? -v[0] : v[0]; })
                .Case("Sign", [](ArrayRef<int64_t> v) {
                  return (int64_t)((v[0] > 0) - (v[0] < 0));
                })
                .Case("Neg", [](ArrayRef<int64_t> v) { return -v[0]; })
                .Case("Cast", [](ArrayRef<int64_t> v) { return v[0]; })
                .Default(nullptr);
    // Mod with fmod=0 takes the divisor's sign (Python's %), with fmod=1
    // the dividend's (C's %).
    if (name == "Mod") {
      auto fmod = op->getAttrOfType<IntegerAttr>("fmod");
      fn = fmod && fmod.getInt()
               ? Fn([](ArrayRef<int64_t> v) { return v[0] % v[1]; })
               : Fn([](ArrayRef<int64_t> v) {
                   int64_t r = v[0] % v[1];
                   return r != 0 && ((r < 0) != (v[1] < 0)) ? r + v[1] : r;
                 });
    }
    if (op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return failure();
    if (isa<FloatType>(type.getElementType()))
      return foldFloats(op, name, type, operands, results);
    if (!fn || !isa<IntegerType>(type.getElementType()) ||
        type.getNumElements() > kMaxFoldElements)
      return failure();
    SmallVector<SmallVector<int64_t>> values;
    for (Attribute attr : operands) {
      auto ints = name == "Cast" ? castToInts(attr) : getIntValues(attr);
      if (!ints)
        return failure();
      values.push_back(std::move(*ints));
    }
    if ((name == "Div" || name == "Mod") && llvm::is_contained(values[1], 0))
      return failure();
    bool toBool = type.getElementType().isInteger(1);
    SmallVector<int64_t> result;
    if (failed(broadcastApply<int64_t>(op, type, values, [&](auto args) {
          int64_t v = fn(args);
          result.push_back(toBool ? v != 0 : v);
        })))
      return failure();
    results.push_back(makeIntElements(type, result));
    return success();
  }

private:
  /// A Transpose of a small constant (a pads table of a shape sub-graph).
  static LogicalResult foldTranspose(Operation *op, ArrayRef<Attribute> operands,
                                     SmallVectorImpl<OpFoldResult> &results) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(operands[0]);
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto perm = op->getAttrOfType<DenseI64ArrayAttr>("perm");
    if (!dense || !type || !type.hasStaticShape() || !perm ||
        type.getNumElements() > kMaxFoldElements ||
        perm.size() != type.getRank())
      return failure();
    SmallVector<Attribute> in = llvm::to_vector(dense.getValues<Attribute>());
    SmallVector<int64_t> inStrides =
        rowMajorStrides(dense.getType().getShape());
    SmallVector<Attribute> out;
    forEachIndex(type.getShape(), [&](ArrayRef<int64_t> index) {
      int64_t offset = 0;
      for (size_t d = 0; d < index.size(); ++d)
        offset += index[d] * inStrides[perm[d]];
      out.push_back(in[offset]);
    });
    results.push_back(DenseElementsAttr::get(type, out));
    return success();
  }

  /// ReduceMax/Min of a small constant, and ReduceSum/Prod of a small integer
  /// one (the image sizes of a detector's transform, reduced in a shape
  /// sub-graph). Float sums are left to the compiled code: their rounding
  /// depends on the order.
  static LogicalResult foldReduce(Operation *op, StringRef name,
                                  ArrayRef<Attribute> operands,
                                  SmallVectorImpl<OpFoldResult> &results) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(operands[0]);
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!dense || !type || !type.hasStaticShape() ||
        dense.getNumElements() > kMaxFoldElements ||
        type.getElementType() != dense.getElementType())
      return failure();
    bool isFloat = isa<FloatType>(type.getElementType());
    bool extremum = name == "ReduceMax" || name == "ReduceMin";
    if (isFloat && !extremum)
      return failure();
    ArrayRef<int64_t> shape = dense.getType().getShape();
    int64_t rank = shape.size();
    // The reduced dims: the constant axes, or all of them when none are
    // given (noop_with_empty_axes then means Identity).
    SmallVector<bool> reduced(rank, true);
    bool noAxes = isa<NoneType>(op->getOperand(1).getType());
    if (!noAxes) {
      auto axes = getIntValues(operands[1]);
      if (!axes)
        return failure();
      noAxes = axes->empty();
      if (!noAxes) {
        reduced.assign(rank, false);
        for (int64_t axis : *axes) {
          if (axis < -rank || axis >= rank)
            return failure();
          reduced[axis < 0 ? axis + rank : axis] = true;
        }
      }
    }
    auto noop = op->getAttrOfType<IntegerAttr>("noop_with_empty_axes");
    if (noAxes && noop && noop.getInt())
      return failure();
    // Each input element goes to the output position of its kept dims.
    SmallVector<int64_t> outShape;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        outShape.push_back(shape[d]);
    if (mulDims(outShape) != type.getNumElements() ||
        llvm::is_contained(shape, 0))
      return failure();
    SmallVector<int64_t> outStrides = rowMajorStrides(outShape);
    auto positionOf = [&](ArrayRef<int64_t> index) {
      int64_t offset = 0, k = 0;
      for (int64_t d = 0; d < rank; ++d)
        if (!reduced[d])
          offset += index[d] * outStrides[k++];
      return offset;
    };
    bool max = name == "ReduceMax";
    if (isFloat) {
      SmallVector<APFloat> in = llvm::to_vector(dense.getValues<APFloat>());
      SmallVector<std::optional<APFloat>> out(type.getNumElements());
      int64_t flat = 0;
      forEachIndex(shape, [&](ArrayRef<int64_t> index) {
        std::optional<APFloat> &acc = out[positionOf(index)];
        const APFloat &v = in[flat++];
        if (!acc || v.isNaN())
          acc = v;
        else if (!acc->isNaN())
          acc = max ? llvm::maximum(*acc, v) : llvm::minimum(*acc, v);
      });
      SmallVector<APFloat> folded;
      for (auto &v : out)
        folded.push_back(*v);
      results.push_back(DenseElementsAttr::get(type, folded));
      return success();
    }
    auto in = getIntValues(dense);
    if (!in)
      return failure();
    SmallVector<std::optional<int64_t>> out(type.getNumElements());
    int64_t flat = 0;
    forEachIndex(shape, [&](ArrayRef<int64_t> index) {
      std::optional<int64_t> &acc = out[positionOf(index)];
      int64_t v = (*in)[flat++];
      if (!acc)
        acc = v;
      else if (name == "ReduceMax")
        acc = std::max(*acc, v);
      else if (name == "ReduceMin")
        acc = std::min(*acc, v);
      else if (name == "ReduceSum")
        acc = *acc + v;
      else
        acc = *acc * v;
    });
    SmallVector<int64_t> folded;
    for (auto &v : out)
      folded.push_back(*v);
    results.push_back(makeIntElements(type, folded));
    return success();
  }

  /// The values of a Cast's integer or float operand as integers (a float
  /// truncates toward zero, as ONNX's Cast does; NaN or out-of-range values
  /// do not fold).
  static std::optional<SmallVector<int64_t>> castToInts(Attribute attr) {
    auto floats = dyn_cast_or_null<DenseFPElementsAttr>(attr);
    if (!floats)
      return getIntValues(attr);
    SmallVector<int64_t> result;
    for (APFloat f : floats.getValues<APFloat>()) {
      double d = f.convertToDouble();
      if (!(std::fabs(d) < 9.0e18))
        return std::nullopt;
      result.push_back((int64_t)d);
    }
    return result;
  }

  /// Calls `fn` with the operands' values at each index of `type`, each
  /// operand broadcast numpy-style to it.
  template <typename T>
  static LogicalResult
  broadcastApply(Operation *op, RankedTensorType type,
                 ArrayRef<SmallVector<T>> values,
                 llvm::function_ref<void(ArrayRef<T>)> fn) {
    SmallVector<SmallVector<int64_t>> shapes;
    for (Value value : op->getOperands()) {
      // A missing optional operand (Clip's bound) stands for a scalar.
      if (isa<NoneType>(value.getType())) {
        shapes.emplace_back();
        continue;
      }
      auto s = rankedShape(value);
      if (!s)
        return failure();
      shapes.emplace_back(s->begin(), s->end());
    }
    return broadcastEach<T>(shapes, type.getShape(), values, fn);
  }

  /// Float scalars of function bodies (a window's size cast to float, a
  /// scale 1/sqrt(d)) fold in double and round once to the result type:
  /// for + - * / and sqrt that is the correctly rounded f32/f16 result the
  /// compiled code would compute. Only tiny results: this is not a data
  /// folder.
  static LogicalResult foldFloats(Operation *op, StringRef name,
                                  RankedTensorType type,
                                  ArrayRef<Attribute> operands,
                                  SmallVectorImpl<OpFoldResult> &results) {
    using Fn = double (*)(ArrayRef<double>);
    Fn fn = llvm::StringSwitch<Fn>(name)
                .Case("Add", [](ArrayRef<double> v) { return v[0] + v[1]; })
                .Case("Sub", [](ArrayRef<double> v) { return v[0] - v[1]; })
                .Case("Mul", [](ArrayRef<double> v) { return v[0] * v[1]; })
                .Case("Div", [](ArrayRef<double> v) { return v[0] / v[1]; })
                .Case("Neg", [](ArrayRef<double> v) { return -v[0]; })
                .Case("Sqrt", [](ArrayRef<double> v) { return std::sqrt(v[0]); })
                .Case("Cast", [](ArrayRef<double> v) { return v[0]; })
                .Case("Ceil", [](ArrayRef<double> v) { return std::ceil(v[0]); })
                .Case("Floor",
                      [](ArrayRef<double> v) { return std::floor(v[0]); })
                .Case("Relu",
                      [](ArrayRef<double> v) { return v[0] > 0 ? v[0] : 0.0; })
                .Case("Abs", [](ArrayRef<double> v) { return std::fabs(v[0]); })
                .Default(nullptr);
    // Clip's bounds are optional: a missing one does not bound.
    bool clip = name == "Clip";
    if (clip)
      fn = [](ArrayRef<double> v) { return std::min(std::max(v[0], v[1]), v[2]); };
    if (!fn || type.getNumElements() > 16)
      return failure();
    SmallVector<SmallVector<double>> values;
    for (auto [i, attr] : llvm::enumerate(operands)) {
      if (clip && i > 0 && isa<NoneType>(op->getOperand(i).getType())) {
        values.push_back({i == 1 ? -INFINITY : INFINITY});
        continue;
      }
      auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
      if (!elements || elements.getNumElements() > 16)
        return failure();
      SmallVector<double> v;
      if (auto floats = dyn_cast<DenseFPElementsAttr>(elements)) {
        for (APFloat f : floats.getValues<APFloat>())
          v.push_back(f.convertToDouble());
      } else if (auto ints = getIntValues(elements)) {
        for (int64_t i : *ints)
          v.push_back((double)i);
      } else {
        return failure();
      }
      values.push_back(std::move(v));
    }
    auto ft = cast<FloatType>(type.getElementType());
    SmallVector<APFloat> result;
    if (failed(broadcastApply<double>(op, type, values, [&](auto args) {
          APFloat f(fn(args));
          bool lost;
          f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
          result.push_back(f);
        })))
      return failure();
    results.push_back(DenseElementsAttr::get(type, result));
    return success();
  }
};

} // namespace

void tcc::onnx::detail::addFoldInterface(ONNXDialect &dialect) {
  dialect.addInterfaces<IntegerArithFolder>();
}
