//===- Decompose.cpp - tcc-onnx-decompose ---------------------------------===//
//
// Composite onnx ops rewritten into the primitive onnx ops of their ONNX
// function body, which all have lowerings. Attention follows the reference
// (onnx/reference/ops/op_attention.py) and the function body of the spec;
// RotaryEmbedding follows op_rotary_embedding.py.
//
//===----------------------------------------------------------------------===//
#include "dialects/ONNX/OpUtils.h"
#include "dialects/ONNX/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace tcc::onnx;

namespace tcc::onnx {
#define GEN_PASS_DEF_ONNXDECOMPOSE
#include "dialects/ONNX/Transforms/Passes.h.inc"
} // namespace tcc::onnx

namespace {

/// Creates onnx ops at one location with their result types inferred from
/// their operands, and constants.
class ONNXBuilder {
public:
  ONNXBuilder(PatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

  template <typename OpTy, typename... Args> Value create(Args &&...args) {
    auto op = OpTy::create(rewriter, loc,
                           UnrankedTensorType::get(rewriter.getF32Type()),
                           std::forward<Args>(args)...);
    // The operands are verified and static: inference cannot fail.
    (void)op.inferShapes();
    return op->getResult(0);
  }

  Value constant(DenseElementsAttr value) {
    return ConstantOp::create(rewriter, loc, value.getType(), value);
  }

  Value i64s(ArrayRef<int64_t> values) {
    auto type =
        RankedTensorType::get({(int64_t)values.size()}, rewriter.getI64Type());
    return constant(DenseElementsAttr::get(type, values));
  }

  /// A `shape` tensor of `elem` filled with `value`.
  Value splat(Type elem, double value, ArrayRef<int64_t> shape = {}) {
    return constant(DenseElementsAttr::get(RankedTensorType::get(shape, elem),
                                           FloatAttr::get(elem, value)));
  }

  Value transpose(Value x, ArrayRef<int64_t> perm) {
    return create<TransposeOp>(x, rewriter.getDenseI64ArrayAttr(perm));
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    return create<ReshapeOp>(x, i64s(shape), 0);
  }

  /// x[..., start:end, ...] along `axis`.
  Value slice(Value x, int64_t axis, int64_t start, int64_t end) {
    Value none = NoValueOp::create(rewriter, loc, rewriter.getNoneType());
    return create<SliceOp>(x, i64s({start}), i64s({end}), i64s({axis}), none);
  }

private:
  PatternRewriter &rewriter;
  Location loc;
};

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// Why `op` cannot be decomposed, or nullopt.
std::optional<std::string> unsupportedAttention(AttentionOp op) {
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<ShapedType>(operand.getType());
        type && !type.hasStaticShape())
      return std::string("with dynamic shapes");
  if (getElementTypeOrSelf(op.getV()) != getElementTypeOrSelf(op.getQ()))
    return std::string("with V of another element type than Q and K");
  return std::nullopt;
}

/// onnx.Attention as the spec's function body:
///   Y = where(row fully masked, 0, softmax(softcap(Q' K'^T) + bias)) V'
struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> reason = unsupportedAttention(op))
      return rewriter.notifyMatchFailure(op, *reason);
    ONNXBuilder b(rewriter, op.getLoc());
    AttentionOp::Dims d = *op.getDims();
    Type elem = getElementTypeOrSelf(op.getQ());
    bool is3d = cast<ShapedType>(op.getQ().getType()).getRank() == 3;

    // (batch, seq, heads * size) -> (batch, heads, seq, size).
    auto toHeads = [&](Value x, int64_t heads) {
      if (!is3d)
        return x;
      int64_t seq = cast<ShapedType>(x.getType()).getDimSize(1);
      return b.transpose(b.reshape(x, {d.batch, seq, heads, -1}), {0, 2, 1, 3});
    };
    Value q = toHeads(op.getQ(), d.qHeads);
    Value presentKey = toHeads(op.getK(), d.kvHeads);
    Value presentValue = toHeads(op.getV(), d.kvHeads);
    if (!isa<NoneType>(op.getPastKey().getType())) {
      presentKey = b.create<ConcatOp>(ValueRange{op.getPastKey(), presentKey},
                                      /*axis=*/2);
      presentValue = b.create<ConcatOp>(
          ValueRange{op.getPastValue(), presentValue}, /*axis=*/2);
    }

    // Grouped-query attention: each KV head serves `groups` query heads in
    // a row (h0, h0, h1, h1, ...).
    int64_t groups = d.qHeads / d.kvHeads;
    auto repeatHeads = [&](Value x, int64_t size) {
      if (groups == 1)
        return x;
      Value unsqueezed = b.create<UnsqueezeOp>(x, b.i64s({2}));
      Value expanded = b.create<ExpandOp>(
          unsqueezed, b.i64s({d.batch, d.kvHeads, groups, d.totalSeq, size}));
      return b.reshape(expanded, {d.batch, d.qHeads, d.totalSeq, size});
    };
    Value k = repeatHeads(presentKey, d.headSize);
    Value v = repeatHeads(presentValue, d.vHeadSize);

    // Q and K^T are each scaled by sqrt(scale), rounded to the input type.
    double scale = op.getScale() ? (double)op.getScale()->convertToFloat()
                                 : 1.0 / std::sqrt((double)d.headSize);
    Value sqrtScale = b.splat(elem, std::sqrt(scale));
    Value qScaled = b.create<MulOp>(q, sqrtScale);
    Value kScaled = b.create<MulOp>(b.transpose(k, {0, 1, 3, 2}), sqrtScale);
    Value qk = b.create<MatMulOp>(qScaled, kScaled);

    Value capped = qk;
    if (float softcap = op.getSoftcap().convertToFloat(); softcap > 0) {
      Value cap = b.splat(elem, softcap);
      capped = b.create<MulOp>(b.create<TanhOp>(b.create<DivOp>(qk, cap)), cap);
    }

    Value bias = buildBias(op, b, d, elem);
    Value scores = bias ? b.create<AddOp>(capped, bias) : capped;

    Value probs = scores;
    std::optional<int64_t> precision = op.getSoftmaxPrecision();
    Type softmaxElem =
        precision ? elementTypeOfDataType(op.getContext(), *precision) : elem;
    if (softmaxElem != elem)
      probs = b.create<CastOp>(probs, *precision, IntegerAttr());
    probs = b.create<SoftmaxOp>(probs, /*axis=*/-1);
    if (softmaxElem != elem)
      probs = b.create<CastLikeOp>(probs, op.getQ(), IntegerAttr());
    // A row whose bias is -inf everywhere attends no key: its
    // probabilities (NaN out of the softmax) are 0.
    if (bias) {
      Value rowMax = b.create<ReduceMaxOp>(bias, b.i64s({-1}), 1, 0);
      Value fullyMasked = b.create<EqualOp>(rowMax, b.splat(elem, kNegInf));
      probs = b.create<WhereOp>(fullyMasked, b.splat(elem, 0.0), probs);
    }

    Value y = b.create<MatMulOp>(probs, v);
    if (is3d)
      y = b.reshape(b.transpose(y, {0, 2, 1, 3}),
                    {d.batch, d.qSeq, d.qHeads * d.vHeadSize});
    Value qkOutput[] = {qk, capped, scores, probs};
    rewriter.replaceOp(op, {y, presentKey, presentValue,
                            qkOutput[op.getQkMatmulOutputMode()]});
    return success();
  }

private:
  /// The additive bias (0 or -inf, plus a float mask) of the scores, of a
  /// shape that broadcasts to (batch, q heads, q seq, total seq); null
  /// when nothing is masked.
  static Value buildBias(AttentionOp op, ONNXBuilder &b,
                         const AttentionOp::Dims &d, Type elem) {
    Value bias;
    auto add = [&](Value term) {
      bias = bias ? b.create<AddOp>(bias, term) : term;
    };
    // allowed ? 0 : -inf.
    auto select = [&](Value allowed) {
      return b.create<WhereOp>(allowed, b.splat(elem, 0.0),
                               b.splat(elem, kNegInf));
    };

    // attn_mask: bool (false -> -inf) or added; a short last dim is padded
    // with -inf.
    if (Value mask = op.getAttnMask(); !isa<NoneType>(mask.getType())) {
      Type maskElem = getElementTypeOrSelf(mask);
      if (maskElem.isInteger(1))
        mask = select(mask);
      else if (maskElem != elem)
        mask = b.create<CastLikeOp>(mask, op.getQ(), IntegerAttr());
      SmallVector<int64_t> shape(cast<ShapedType>(mask.getType()).getShape());
      if (shape.back() < d.totalSeq) {
        shape.back() = d.totalSeq - shape.back();
        mask =
            b.create<ConcatOp>(ValueRange{mask, b.splat(elem, kNegInf, shape)},
                               (int64_t)shape.size() - 1);
      }
      add(mask);
    }

    // Query i (at position offset + i) may attend key j when
    //   causal: j <= offset + i;
    //   window: offset + i - left <= j <= offset + i + right (-1: no bound).
    // The offset is the past length, or nonpad_kv_seqlen[b] - q seq per
    // batch for an external cache.
    bool causal = op.getIsCausal() != 0;
    int64_t left = op.getLeftWindowSize(), right = op.getRightWindowSize();
    Value seqlen = op.getNonpadKvSeqlen();
    int64_t rows = d.qSeq, cols = d.totalSeq;
    if (isa<NoneType>(seqlen.getType())) {
      if (!causal && left < 0 && right < 0)
        return bias;
      const llvm::fltSemantics &semantics =
          cast<FloatType>(elem).getFloatSemantics();
      SmallVector<APFloat> values;
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
          int64_t diff = d.pastSeq + i - j;
          bool allowed = (!causal || diff >= 0) && (left < 0 || diff <= left) &&
                         (right < 0 || -diff <= right);
          values.push_back(allowed ? APFloat::getZero(semantics)
                                   : APFloat::getInf(semantics, true));
        }
      }
      auto type = RankedTensorType::get({rows, cols}, elem);
      add(b.constant(DenseElementsAttr::get(type, values)));
      return bias;
    }

    // Per batch: allowed[b, 0, i, j] compares a constant c(i, j) with
    // n = nonpad_kv_seqlen[b]; keys from n on are padding.
    Value n = b.reshape(seqlen, {d.batch, 1, 1, 1});
    Value allowed;
    auto require = [&](int64_t r, bool lessThanN,
                       llvm::function_ref<int64_t(int64_t, int64_t)> c) {
      SmallVector<int64_t> values;
      for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < cols; ++j)
          values.push_back(c(i, j));
      auto type = RankedTensorType::get({1, 1, r, cols},
                                        IntegerType::get(op.getContext(), 64));
      Value constant =
          b.constant(DenseElementsAttr::get(type, ArrayRef<int64_t>(values)));
      Value term = lessThanN ? b.create<LessOp>(constant, n)
                             : b.create<LessOp>(n, constant);
      allowed = allowed ? b.create<AndOp>(allowed, term) : term;
    };
    // j <= i + n - rows  <=>  j - i + rows - 1 < n.
    if (causal)
      require(rows, true,
              [&](int64_t i, int64_t j) { return j - i + rows - 1; });
    // i + n - rows - j <= left  <=>  n < j - i + rows + left + 1.
    if (left >= 0)
      require(rows, false,
              [&](int64_t i, int64_t j) { return j - i + rows + left + 1; });
    // j - (i + n - rows) <= right  <=>  j - i + rows - right - 1 < n.
    if (right >= 0)
      require(rows, true,
              [&](int64_t i, int64_t j) { return j - i + rows - right - 1; });
    require(1, true, [](int64_t, int64_t j) { return j; });
    add(select(allowed));
    return bias;
  }
};

/// Why `op` cannot be decomposed, or nullopt.
std::optional<std::string> unsupportedRotaryEmbedding(RotaryEmbeddingOp op) {
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<ShapedType>(operand.getType());
        type && !type.hasStaticShape())
      return std::string("with dynamic shapes");
  return std::nullopt;
}

/// onnx.RotaryEmbedding as the reference does it, without moving the heads
/// of a 4-d X: with H the heads axis (1 for a 4-d X, 2 once a 3-d X is
/// reshaped to (batch, seq, heads, head size)), the caches are unsqueezed
/// at H, the rotated features are split in halves (or, interleaved,
/// reshaped to (..., dim / 2, 2) and split in the last axis), rotated and
/// concatenated back before the features left alone.
struct DecomposeRotaryEmbedding : OpRewritePattern<RotaryEmbeddingOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RotaryEmbeddingOp op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> reason = unsupportedRotaryEmbedding(op))
      return rewriter.notifyMatchFailure(op, *reason);
    ONNXBuilder b(rewriter, op.getLoc());
    ArrayRef<int64_t> shape = cast<ShapedType>(op.getX().getType()).getShape();
    Value x = op.getX();
    SmallVector<int64_t> heads(shape); // X as (.., heads, .., head size).
    int64_t headsAxis = 1;
    if (shape.size() == 3) {
      int64_t numHeads = *op.getNumHeads();
      heads = {shape[0], shape[1], numHeads, shape[2] / numHeads};
      x = b.reshape(x, heads);
      headsAxis = 2;
    }
    int64_t headSize = heads[3];
    int64_t dim =
        op.getRotaryEmbeddingDim() ? op.getRotaryEmbeddingDim() : headSize;
    int64_t half = dim / 2;

    // cos and sin of shape (batch, seq, dim / 2), unsqueezed at the heads.
    auto cache = [&](Value c) {
      if (!isa<NoneType>(op.getPositionIds().getType()))
        c = b.create<GatherOp>(c, op.getPositionIds(), /*axis=*/0);
      return b.create<UnsqueezeOp>(c, b.i64s({headsAxis}));
    };
    Value cos = cache(op.getCosCache()), sin = cache(op.getSinCache());

    Value rotate = dim < headSize ? b.slice(x, 3, 0, dim) : x;
    Value x1, x2;
    SmallVector<int64_t> pairs(heads);
    pairs.back() = dim;
    if (op.getInterleaved()) {
      pairs.back() = half;
      pairs.push_back(2);
      Value paired = b.reshape(rotate, pairs);
      x1 = b.slice(paired, 4, 0, 1);
      x2 = b.slice(paired, 4, 1, 2);
      cos = b.create<UnsqueezeOp>(cos, b.i64s({4}));
      sin = b.create<UnsqueezeOp>(sin, b.i64s({4}));
    } else {
      x1 = b.slice(rotate, 3, 0, half);
      x2 = b.slice(rotate, 3, half, dim);
    }
    Value real =
        b.create<SubOp>(b.create<MulOp>(cos, x1), b.create<MulOp>(sin, x2));
    Value imag =
        b.create<AddOp>(b.create<MulOp>(sin, x1), b.create<MulOp>(cos, x2));
    Value rotated =
        b.create<ConcatOp>(ValueRange{real, imag}, (int64_t)pairs.size() - 1);
    if (op.getInterleaved()) {
      pairs.pop_back();
      pairs.back() = dim;
      rotated = b.reshape(rotated, pairs);
    }
    Value y = rotated;
    if (dim < headSize)
      y = b.create<ConcatOp>(ValueRange{rotated, b.slice(x, 3, dim, headSize)},
                             /*axis=*/3);
    if (shape.size() == 3)
      y = b.reshape(y, shape);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// The most elements of a constant the patterns below read (weights).
constexpr int64_t kMaxWeightElements = int64_t(1) << 28;

/// A DequantizeLinear of constants (quantized weights, an int32 bias) is
/// an f32 constant: (x - zero point) * scale per tensor or per axis,
/// computed in f32 as the lowering computes it. The float kernels then
/// take a QDQ model's weights as they take an f32 model's (packed panels,
/// Winograd). Blocked scales and half scales are left to the lowering.
struct FoldConstantDequantize : OpRewritePattern<DequantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeLinearOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto xType = dyn_cast<RankedTensorType>(op.getX().getType());
    if (!type || !xType || !type.hasStaticShape() ||
        !type.getElementType().isF32() || op.getBlockSize() != 0)
      return failure();
    std::optional<SmallVector<int64_t>> x = getIntValues(
        tcc::onnx::detail::constantAttr(op.getX()), kMaxWeightElements);
    std::optional<SmallVector<float>> scale = getConstantFloats(op.getXScale());
    if (!x || !scale || scale->empty())
      return failure();
    SmallVector<int64_t> zero(scale->size(), 0);
    if (!isa<NoneType>(op.getXZeroPoint().getType())) {
      std::optional<SmallVector<int64_t>> z =
          getIntValues(tcc::onnx::detail::constantAttr(op.getXZeroPoint()),
                       kMaxWeightElements);
      if (!z || z->size() != scale->size())
        return failure();
      zero = *z;
    }
    // Per axis: element i's parameter is its index along the axis.
    int64_t rank = xType.getRank(), inner = 1, channels = scale->size();
    if (channels > 1) {
      int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
      if (axis < 0 || axis >= rank || xType.getDimSize(axis) != channels)
        return failure();
      for (int64_t d = axis + 1; d < rank; ++d)
        inner *= xType.getDimSize(d);
    }
    SmallVector<float> y(x->size());
    for (size_t i = 0; i < y.size(); ++i) {
      int64_t c = channels > 1 ? (i / inner) % channels : 0;
      y[i] = ((float)(*x)[i] - (float)zero[c]) * (*scale)[c];
    }
    rewriter.replaceOp(
        op, createFloatConstant(rewriter, op.getLoc(), type, y, "dequantized"));
    return success();
  }
};

/// Transpose(w) of a constant 2-D 8-bit integer tensor (a QGemm's or QDQ
/// Gemm's transB weights before MatMulInteger) -> the transposed constant:
/// the kernels pack constant weights at compile time, where a Transpose
/// would run at every call (ResNet-50's 2048 x 1000 classifier: 5.5 ms of
/// 27).
struct FoldInt8WeightsTranspose : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    if (!type || !inType || !inType.hasStaticShape() || inType.getRank() != 2 ||
        !inType.getElementType().isInteger(8) ||
        type !=
            RankedTensorType::get({inType.getDimSize(1), inType.getDimSize(0)},
                                  inType.getElementType()))
      return rewriter.notifyMatchFailure(op, "not a 2-D 8-bit transpose");
    std::optional<SmallVector<int64_t>> values = getIntValues(
        tcc::onnx::detail::constantAttr(op.getData()), kMaxWeightElements);
    if (!values)
      return rewriter.notifyMatchFailure(op, "not of a constant");
    int64_t rows = inType.getDimSize(0), cols = inType.getDimSize(1);
    bool isSigned = !inType.getElementType().isUnsignedInteger();
    SmallVector<APInt> out;
    out.reserve(values->size());
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i)
        out.push_back(APInt(8, (*values)[i * cols + j], isSigned));
    rewriter.replaceOpWithNewOp<ConstantOp>(op, type,
                                            DenseElementsAttr::get(type, out));
    return success();
  }
};

/// Whether `v` is none or holds one value.
bool isNoneOrSingle(Value v) {
  if (isa<NoneType>(v.getType()))
    return true;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getNumElements() == 1;
}

/// The one value of zero point `zero` of a QuantizeLinear or
/// DequantizeLinear (0 when none), if constant.
std::optional<int64_t> singleZeroPoint(Value zero) {
  if (isa<NoneType>(zero.getType()))
    return 0;
  std::optional<SmallVector<int64_t>> values =
      getIntValues(tcc::onnx::detail::constantAttr(zero));
  if (!values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
}

/// DequantizeLinear(QuantizeLinear(v, sq, zq) : int8, sd, zd) per tensor
/// -> DequantizeLinear(QuantizeLinear(v, sq, zq + 128) : uint8, sd,
/// zd + 128): the same values (each int8 q is the uint8 q + 128 less 128,
/// saturated alike), so that int8 activations (quantize_static's default)
/// take the uint8 patterns below, as onnxruntime's kernels flip int8
/// activations to uint8 for u8 x s8 dot products.
struct Int8ActivationsAsUint8 : OpRewritePattern<DequantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeLinearOp dq,
                                PatternRewriter &rewriter) const override {
    auto q = dq.getX().getDefiningOp<QuantizeLinearOp>();
    auto qType = q ? dyn_cast<RankedTensorType>(q.getType()) : nullptr;
    if (!qType || !qType.getElementType().isSignlessInteger(8) ||
        q.getBlockSize() != 0 || dq.getBlockSize() != 0 ||
        !isNoneOrSingle(q.getYScale()) || !isNoneOrSingle(dq.getXScale()))
      return rewriter.notifyMatchFailure(dq, "not of int8 per tensor");
    std::optional<int64_t> zq = singleZeroPoint(q.getYZeroPoint());
    std::optional<int64_t> zd = singleZeroPoint(dq.getXZeroPoint());
    if (!zq || !zd)
      return rewriter.notifyMatchFailure(dq, "zero points not constant");
    Location loc = dq.getLoc();
    Type u8 = rewriter.getIntegerType(8, /*isSigned=*/false);
    auto shifted = [&](int64_t zero) {
      auto type = RankedTensorType::get({}, u8);
      return ConstantOp::create(
          rewriter, loc, type,
          DenseElementsAttr::get(type, APInt(8, zero + 128)));
    };
    Value zqU8 = shifted(*zq);
    Value zdU8 = shifted(*zd);
    auto quantized = QuantizeLinearOp::create(
        rewriter, q.getLoc(), qType.clone(u8), q.getX(), q.getYScale(), zqU8,
        q.getAxis(), /*block_size=*/0, /*output_dtype=*/0, q.getSaturate(),
        q.getPrecision());
    rewriter.replaceOpWithNewOp<DequantizeLinearOp>(
        dq, dq.getType(), quantized, dq.getXScale(), zdU8, dq.getAxis(),
        /*block_size=*/0);
    if (q->use_empty())
      rewriter.eraseOp(q);
    return success();
  }
};

/// The operands of an 8-bit convolution that runs as ConvInteger: uint8 x
/// (its zero point none or one value), constant int8 weights [M, C, kH, kW]
/// without a zero point (or 0), per-tensor x_scale and w_scale per tensor
/// or per output channel.
struct Int8Conv {
  Value x, xZero, w;
  float xScale;
  SmallVector<float> wScale; ///< one per output channel
  int64_t group;
  SmallVector<float> wValues; ///< grouped: w's integers, for exactSum
};

/// The largest partial sum a grouped Int8Conv may reach for exactSum to sum
/// it in f32 exactly: half of 2^24, the other half left to the bias.
constexpr int64_t kExactF32 = int64_t(1) << 23;

/// Int8Conv of the given operands of `op` (a Conv or QLinearConv), or
/// nullopt.
std::optional<Int8Conv> int8Conv(Operation *op, int64_t group, Value x,
                                 Value xScale, Value xZero, Value w,
                                 Value wScale, Value wZero, int64_t wAxis) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  auto wType = dyn_cast<RankedTensorType>(w.getType());
  if (!type || !type.hasStaticShape() || type.getRank() != 4 || group < 1 ||
      !xType || !xType.getElementType().isUnsignedInteger(8) || !wType ||
      !wType.hasStaticShape() || !wType.getElementType().isSignlessInteger(8) ||
      !matchPattern(w, m_Constant()) || !isNoneOrSingle(xZero))
    return std::nullopt;
  std::optional<SmallVector<float>> sx = getConstantFloats(xScale);
  std::optional<SmallVector<float>> sw = getConstantFloats(wScale);
  int64_t filters = wType.getDimSize(0);
  if (wAxis < 0)
    wAxis += 4;
  if (!sx || sx->size() != 1 || !sw ||
      (sw->size() != 1 && ((int64_t)sw->size() != filters || wAxis != 0)))
    return std::nullopt;
  if (!isa<NoneType>(wZero.getType())) {
    std::optional<SmallVector<int64_t>> zw = getConstantIntValues(wZero);
    if (!zw || llvm::any_of(*zw, [](int64_t z) { return z != 0; }))
      return std::nullopt;
  }
  // A grouped convolution's sums are in f32 (exactSum): exact while
  // |x - zx| * |w| <= 255 * 128 summed over a filter stays below 2^23.
  if (group != 1 && wType.getNumElements() / filters * 255 * 128 >= kExactF32)
    return std::nullopt;
  Int8Conv conv{x, xZero, w, (*sx)[0], {}, group, {}};
  if (group != 1) {
    std::optional<SmallVector<int64_t>> values = getIntValues(
        tcc::onnx::detail::constantAttr(w), wType.getNumElements());
    if (!values)
      return std::nullopt;
    for (int64_t v : *values)
      conv.wValues.push_back((float)v);
  }
  for (int64_t m = 0; m < filters; ++m)
    conv.wScale.push_back((*sw)[sw->size() == 1 ? 0 : m]);
  return conv;
}

/// `v` (a ranked tensor) cast to f32.
Value castToF32(PatternRewriter &rewriter, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return CastOp::create(rewriter, loc, type.clone(rewriter.getF32Type()), v,
                        rewriter.getI64IntegerAttr(1), IntegerAttr());
}

/// Whether exactSum takes `bias` (int32 [M], or null) for `conv`: a grouped
/// convolution's f32 sums stay exact with a constant bias below 2^23.
bool exactWithBias(const Int8Conv &conv, Value bias) {
  if (!bias || conv.group == 1)
    return true;
  auto type = dyn_cast<RankedTensorType>(bias.getType());
  std::optional<SmallVector<int64_t>> values =
      type && type.hasStaticShape()
          ? getIntValues(tcc::onnx::detail::constantAttr(bias),
                         type.getNumElements())
          : std::nullopt;
  return values && llvm::all_of(*values, [](int64_t v) {
           return std::abs(v) < kExactF32;
         });
}

/// The sums of `conv`'s products of x - x_zero_point by w, with the
/// attributes of `op` (a Conv or QLinearConv), plus `bias` (int32 [M], or
/// null) per channel: an int32 ConvInteger (which the CPU kernels run on
/// VNNI's dot products) or, grouped (a depthwise convolution, which they do
/// not tile), an f32 Conv of the same integers, whose sums are exact below
/// 2^24 (int8Conv, exactWithBias) and so equal the int32 ones.
Value exactSum(PatternRewriter &rewriter, Operation *op, const Int8Conv &conv,
               Value bias) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type elem = conv.group == 1 ? Type(rewriter.getI32Type())
                              : Type(rewriter.getF32Type());
  auto type = resultType.clone(elem);
  Value none = NoValueOp::create(rewriter, loc, rewriter.getNoneType());
  SmallVector<NamedAttribute> attrs;
  for (StringRef name :
       {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"})
    if (Attribute attr = op->getAttr(name))
      attrs.push_back(rewriter.getNamedAttr(name, attr));
  ONNXBuilder b(rewriter, loc);
  auto toF32 = [&](Value v) { return castToF32(rewriter, loc, v); };
  Value acc;
  if (conv.group == 1) {
    acc = ConvIntegerOp::create(rewriter, loc, TypeRange{type},
                                ValueRange{conv.x, conv.w, conv.xZero, none},
                                attrs);
  } else {
    Value x = toF32(conv.x);
    if (!isa<NoneType>(conv.xZero.getType()))
      x = SubOp::create(rewriter, loc, x.getType(), x, toF32(conv.xZero));
    auto wType = cast<RankedTensorType>(conv.w.getType());
    acc = ConvOp::create(
        rewriter, loc, TypeRange{type},
        ValueRange{x,
                   createFloatConstant(rewriter, loc,
                                       wType.clone(rewriter.getF32Type()),
                                       conv.wValues, "conv_weights"),
                   none},
        attrs);
  }
  if (!bias)
    return acc;
  if (conv.group != 1)
    bias = toF32(bias);
  return AddOp::create(rewriter, loc, type, acc,
                       b.reshape(bias, {1, type.getDimSize(1), 1, 1}));
}

/// `acc` (int32 or f32 [N, M, H, W], exactSum's) as f32, times `scale[m]`
/// per channel.
Value scaledSum(PatternRewriter &rewriter, Location loc, Value acc,
                ArrayRef<float> scale) {
  auto type =
      cast<RankedTensorType>(acc.getType()).clone(rewriter.getF32Type());
  Value sum = acc.getType() == type ? acc : castToF32(rewriter, loc, acc);
  auto channelType = RankedTensorType::get({1, (int64_t)scale.size(), 1, 1},
                                           rewriter.getF32Type());
  return MulOp::create(
      rewriter, loc, type, sum,
      createFloatConstant(rewriter, loc, channelType, scale, "conv_scale"));
}

/// `x` (f32, already divided by the output scale) rounded half to even,
/// plus `zero`, saturated to `type`'s 8 bits: a QuantizeLinear by 1.
Value quantizedByOne(PatternRewriter &rewriter, Location loc, Type type,
                     Value x, Value zero) {
  ONNXBuilder b(rewriter, loc);
  return QuantizeLinearOp::create(rewriter, loc, type, x,
                                  b.splat(rewriter.getF32Type(), 1.0), zero,
                                  /*axis=*/1, /*block_size=*/0,
                                  /*output_dtype=*/0, /*saturate=*/1,
                                  /*precision=*/0);
}

/// `acc` + its bias requantized as onnxruntime's QLinearConv does:
/// round_half_even(f32(acc) * (x_scale * w_scale[m] / y_scale)) +
/// y_zero_point, saturated (a QuantizeLinear by 1), the multiplier
/// computed in f32 in that order.
Value requantized(PatternRewriter &rewriter, Operation *op, Value acc,
                  const Int8Conv &conv, float yScale, Value yZero,
                  Type resultType) {
  Location loc = op->getLoc();
  SmallVector<float> multiplier;
  for (float sw : conv.wScale)
    multiplier.push_back(conv.xScale * sw / yScale);
  Value scaled = scaledSum(rewriter, loc, acc, multiplier);
  return quantizedByOne(rewriter, loc, resultType, scaled, yZero);
}

/// The Int8Conv of a Conv of DequantizeLinear'd operands (QDQ), or nullopt.
std::optional<Int8Conv> qdqConv(ConvOp op) {
  auto x = op.getX().getDefiningOp<DequantizeLinearOp>();
  auto w = op.getW().getDefiningOp<DequantizeLinearOp>();
  auto type = dyn_cast<RankedTensorType>(op.getType());
  if (!x || !w || x.getBlockSize() != 0 || w.getBlockSize() != 0 || !type ||
      !type.getElementType().isF32())
    return std::nullopt;
  return int8Conv(op, op.getGroup(), x.getX(), x.getXScale(), x.getXZeroPoint(),
                  w.getX(), w.getXScale(), w.getXZeroPoint(), w.getAxis());
}

/// What a QDQ convolution or Gemm `op` whose one user is a QuantizeLinear
/// per tensor needs to run as onnxruntime's QLinearConv or QGemm: that
/// QuantizeLinear, y_scale, and the int32 bias (null for none) when `b` (the
/// bias input) is null, none or a constant dequantized by x_scale *
/// w_scale[m] (as quantize_static writes it).
struct Requantization {
  QuantizeLinearOp q;
  float yScale;
  Value bias;
};
std::optional<Requantization>
requantization(Operation *op, Value b, float xScale, ArrayRef<float> wScale) {
  if (!op->hasOneUse())
    return std::nullopt;
  auto q = dyn_cast<QuantizeLinearOp>(*op->user_begin());
  std::optional<SmallVector<float>> sy =
      q ? getConstantFloats(q.getYScale()) : std::nullopt;
  if (!sy || sy->size() != 1 || q.getBlockSize() != 0 ||
      !isNoneOrSingle(q.getYZeroPoint()) || q.getOutputDtype() != 0 ||
      !getElementTypeOrSelf(q.getType()).isInteger(8))
    return std::nullopt;
  Requantization r{q, (*sy)[0], Value()};
  if (!b || isa<NoneType>(b.getType()))
    return r;
  auto dq = b.getDefiningOp<DequantizeLinearOp>();
  std::optional<SmallVector<float>> sb =
      dq ? getConstantFloats(dq.getXScale()) : std::nullopt;
  if (!sb || !getElementTypeOrSelf(dq.getX()).isInteger(32) ||
      !matchPattern(dq.getX(), m_Constant()) ||
      (sb->size() != 1 && sb->size() != wScale.size()))
    return std::nullopt;
  if (!isa<NoneType>(dq.getXZeroPoint().getType())) {
    std::optional<SmallVector<int64_t>> zb =
        getConstantIntValues(dq.getXZeroPoint());
    if (!zb || llvm::any_of(*zb, [](int64_t z) { return z != 0; }))
      return std::nullopt;
  }
  for (auto [m, sw] : llvm::enumerate(wScale)) {
    float want = xScale * sw, got = (*sb)[sb->size() == 1 ? 0 : m];
    if (std::abs(got - want) > 1e-6f * std::abs(want))
      return std::nullopt;
  }
  r.bias = dq.getX();
  return r;
}

/// Conv(DequantizeLinear(xq, sx, zx), DequantizeLinear(wq, sw), B), as
/// onnxruntime's quantize_static writes it (QDQ), of uint8 xq and constant
/// int8 wq (per tensor or per output channel, zero points 0) ->
///   Cast(ConvInteger(xq, wq, zx), f32) * (sx * sw) + B
/// the scale and B per output channel as [1, M, 1, 1]. The convolution sums
/// the 8-bit products exactly in int32 (the CPU kernels run it on VNNI's
/// dot products), and one multiply per element scales the sum. One that
/// RequantizedConv takes is left to it.
struct QuantizedConv : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Int8Conv> conv = qdqConv(op);
    if (!conv || conv->group != 1)
      return rewriter.notifyMatchFailure(op, "not uint8 x by int8 weights");
    if (requantization(op, op.getB(), conv->xScale, conv->wScale))
      return rewriter.notifyMatchFailure(op, "requantized");
    Location loc = op.getLoc();
    Value acc = exactSum(rewriter, op, *conv, Value());
    SmallVector<float> scale;
    for (float sw : conv->wScale)
      scale.push_back(conv->xScale * sw);
    Value y = scaledSum(rewriter, loc, acc, scale);
    if (!isa<NoneType>(op.getB().getType())) {
      ONNXBuilder b(rewriter, loc);
      y = AddOp::create(
          rewriter, loc, y.getType(), y,
          b.reshape(op.getB(), {1, (int64_t)conv->wScale.size(), 1, 1}));
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// QuantizeLinear(QDQ convolution) with the convolution's requantization
/// (an int32 bias, see requantization) -> onnxruntime's QLinearConv
/// arithmetic:
///   QuantizeLinear(Cast(ConvInteger(xq, wq, zx) + Bq, f32) * (sx * sw / sy),
///   1, zy)
/// so that the two round alike.
struct RequantizedConv : OpRewritePattern<QuantizeLinearOp> {
  RequantizedConv(MLIRContext *context, bool int8Convolutions)
      : OpRewritePattern(context), int8Convolutions(int8Convolutions) {}
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto op = q.getX().getDefiningOp<ConvOp>();
    std::optional<Int8Conv> conv = op ? qdqConv(op) : std::nullopt;
    std::optional<Requantization> r =
        conv ? requantization(op, op.getB(), conv->xScale, conv->wScale)
             : std::nullopt;
    if (!r || !exactWithBias(*conv, r->bias) ||
        (conv->group == 1 && !int8Convolutions))
      return rewriter.notifyMatchFailure(q, "not of a QDQ convolution");
    Value acc = exactSum(rewriter, op, *conv, r->bias);
    rewriter.replaceOp(q, requantized(rewriter, op, acc, *conv, r->yScale,
                                      q.getYZeroPoint(), q.getType()));
    return success();
  }

  bool int8Convolutions;
};

/// The scale and zero point of DequantizeLinear `dq` of uint8 per tensor,
/// both constants (the zero point 0 when absent), or nullopt.
std::optional<std::pair<float, int64_t>>
uint8Dequantize(DequantizeLinearOp dq) {
  if (!dq || dq.getBlockSize() != 0 ||
      !getElementTypeOrSelf(dq.getX()).isUnsignedInteger(8))
    return std::nullopt;
  std::optional<SmallVector<float>> scale = getConstantFloats(dq.getXScale());
  if (!scale || scale->size() != 1)
    return std::nullopt;
  std::optional<int64_t> zero = singleZeroPoint(dq.getXZeroPoint());
  if (!zero)
    return std::nullopt;
  return std::pair((*scale)[0], *zero);
}

/// The operands of QuantizeLinear(op(DequantizeLinear(a),
/// DequantizeLinear(b))) of uint8 per tensor, constant scales and zero
/// points: what RequantizedAdd and RequantizedMul compute from.
struct QdqBinary {
  Value a, b;
  float sa, sb, sc;
  int64_t za, zb, zc;
  RankedTensorType type; ///< of op's f32 result
};
std::optional<QdqBinary> qdqBinary(QuantizeLinearOp q, Operation *op) {
  auto type = dyn_cast<RankedTensorType>(q.getType());
  std::optional<SmallVector<float>> sc = getConstantFloats(q.getYScale());
  if (!op || !op->hasOneUse() || op->getNumOperands() != 2 || !type || !sc ||
      sc->size() != 1 || !type.getElementType().isUnsignedInteger(8) ||
      q.getBlockSize() != 0 || q.getOutputDtype() != 0)
    return std::nullopt;
  auto da = op->getOperand(0).getDefiningOp<DequantizeLinearOp>();
  auto db = op->getOperand(1).getDefiningOp<DequantizeLinearOp>();
  std::optional<std::pair<float, int64_t>> pa = uint8Dequantize(da);
  std::optional<std::pair<float, int64_t>> pb = uint8Dequantize(db);
  auto opType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!pa || !pb || !opType || !opType.getElementType().isF32())
    return std::nullopt;
  std::optional<int64_t> zero = singleZeroPoint(q.getYZeroPoint());
  if (!zero)
    return std::nullopt;
  int64_t zc = *zero;
  return QdqBinary{da.getX(),  db.getX(),  pa->first, pb->first, (*sc)[0],
                   pa->second, pb->second, zc,        opType};
}

/// Replaces `q` by quantizedByOne of `x` (its zero point already added).
void replaceByRounded(PatternRewriter &rewriter, QuantizeLinearOp q, Value x) {
  auto type = cast<RankedTensorType>(q.getType());
  auto zeroType = RankedTensorType::get({}, type.getElementType());
  ONNXBuilder b(rewriter, q.getLoc());
  Value zero = b.constant(DenseElementsAttr::get(
      zeroType, rewriter.getIntegerAttr(type.getElementType(), 0)));
  rewriter.replaceOp(q, quantizedByOne(rewriter, q.getLoc(), type, x, zero));
}

/// QuantizeLinear(Add(DequantizeLinear(a), DequantizeLinear(b))) of uint8
/// per tensor (a QDQ residual add), computed as onnxruntime's QLinearAdd
/// (which its optimizer makes of the three) does on x86:
///   saturate(round_half_even(fma(a, sa / sc, fma(b, sb / sc, fixed))))
/// with fixed = zc - fma(sa / sc, za, (sb / sc) * zb), all in f32, so that
/// the two round alike.
struct RequantizedAdd : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto add = q.getX().getDefiningOp<AddOp>();
    std::optional<QdqBinary> m = qdqBinary(q, add);
    // Of one shape (its kernel for a broadcast operand rounds otherwise).
    if (!m ||
        cast<RankedTensorType>(m->a.getType()).getShape() !=
            m->type.getShape() ||
        cast<RankedTensorType>(m->b.getType()).getShape() != m->type.getShape())
      return rewriter.notifyMatchFailure(q, "not a QDQ add of two tensors");
    float ra = m->sa / m->sc, rb = m->sb / m->sc;
    // As GCC contracts it in onnxruntime's build: the first product fused.
    float fixed = (float)m->zc - std::fma(ra, (float)m->za, rb * (float)m->zb);
    Location loc = q.getLoc();
    ONNXBuilder b(rewriter, loc);
    Type f32 = rewriter.getF32Type();
    // Two fused multiply-adds, b's first, as its AVX2 kernel rounds them.
    auto scaledAdd = [&](Value x, float ratio, Value addend) -> Value {
      // One op per statement: the order of arguments' evaluation is the
      // compiler's (GCC and Clang print the IR differently).
      Value f = castToF32(rewriter, loc, x);
      return MulAddOp::create(rewriter, loc, m->type, f, b.splat(f32, ratio),
                              addend);
    };
    Value sum = scaledAdd(m->b, rb, b.splat(f32, fixed));
    replaceByRounded(rewriter, q, scaledAdd(m->a, ra, sum));
    return success();
  }
};

/// QuantizeLinear(Mul(DequantizeLinear(a), DequantizeLinear(b))) of uint8
/// per tensor (a QDQ squeeze-and-excitation scale or SiLU product), computed
/// as onnxruntime's QLinearMul does on x86:
///   saturate(round_half_even(f32((a - za) * (b - zb)) * (sa * sb / sc) + zc))
/// the product of the integers exact, the multiply and add rounded apart.
struct RequantizedMul : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    std::optional<QdqBinary> m = qdqBinary(q, q.getX().getDefiningOp<MulOp>());
    if (!m)
      return rewriter.notifyMatchFailure(q, "not a QDQ mul");
    Location loc = q.getLoc();
    ONNXBuilder b(rewriter, loc);
    Type f32 = rewriter.getF32Type();
    auto centered = [&](Value x, int64_t zero) -> Value {
      Value f = castToF32(rewriter, loc, x);
      return zero ? SubOp::create(rewriter, loc, f.getType(), f,
                                  b.splat(f32, (float)zero))
                  : f;
    };
    Value a = centered(m->a, m->za);
    Value product =
        MulOp::create(rewriter, loc, m->type, a, centered(m->b, m->zb));
    Value scaled = MulOp::create(rewriter, loc, m->type, product,
                                 b.splat(f32, m->sa * m->sb / m->sc));
    Value shifted = AddOp::create(rewriter, loc, m->type, scaled,
                                  b.splat(f32, (float)m->zc));
    replaceByRounded(rewriter, q, shifted);
    return success();
  }
};

/// QuantizeLinear(GlobalAveragePool(DequantizeLinear(x))) of uint8 per
/// tensor (a QDQ squeeze-and-excitation or classifier pool), computed as
/// onnxruntime's QLinearGlobalAveragePool (which its optimizer makes of the
/// three): the int32 sum of x - zx over the image, times xs / (ys * size)
/// in f32, rounded once.
struct RequantizedGlobalAveragePool : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto pool = q.getX().getDefiningOp<GlobalAveragePoolOp>();
    auto dq = pool ? pool.getX().getDefiningOp<DequantizeLinearOp>() : nullptr;
    std::optional<std::pair<float, int64_t>> px = uint8Dequantize(dq);
    auto xType = dq ? dyn_cast<RankedTensorType>(dq.getX().getType()) : nullptr;
    auto type = dyn_cast<RankedTensorType>(q.getType());
    std::optional<SmallVector<float>> sy = getConstantFloats(q.getYScale());
    if (!px || !pool->hasOneUse() || !xType || !xType.hasStaticShape() ||
        xType.getRank() < 3 || !type || !sy || sy->size() != 1 ||
        !type.getElementType().isUnsignedInteger(8) || q.getBlockSize() != 0 ||
        q.getOutputDtype() != 0 || !isNoneOrSingle(q.getYZeroPoint()))
      return rewriter.notifyMatchFailure(q, "not a QDQ global average pool");
    SmallVector<int64_t> axes;
    int64_t size = 1;
    for (int64_t d = 2; d < xType.getRank(); ++d) {
      axes.push_back(d);
      size *= xType.getDimSize(d);
    }
    if (size >= (int64_t(1) << 24))
      return rewriter.notifyMatchFailure(q, "sums past f32's integers");
    Location loc = q.getLoc();
    ONNXBuilder b(rewriter, loc);
    Type i32 = rewriter.getI32Type();
    Value x = CastOp::create(rewriter, loc, xType.clone(i32), dq.getX(),
                             rewriter.getI64IntegerAttr(6), IntegerAttr());
    Value sum = b.create<ReduceSumOp>(x, b.i64s(axes), 1, 0);
    if (px->second) {
      Value offset = b.constant(DenseElementsAttr::get(
          RankedTensorType::get({}, i32),
          rewriter.getI32IntegerAttr(px->second * size)));
      sum = SubOp::create(rewriter, loc, sum.getType(), sum, offset);
    }
    Value f = castToF32(rewriter, loc, sum);
    Type f32 = rewriter.getF32Type();
    float scale = px->first / ((*sy)[0] * (float)size);
    Value y = MulOp::create(rewriter, loc, f.getType(), f, b.splat(f32, scale));
    rewriter.replaceOp(
        q, quantizedByOne(rewriter, loc, type, y, q.getYZeroPoint()));
    return success();
  }
};

/// QuantizeLinear(Gemm(DequantizeLinear(a), DequantizeLinear(w), C)) of
/// uint8 a per tensor by constant int8 w (per tensor or per column of W',
/// zero points 0), C none or an int32 bias dequantized by a_scale *
/// w_scale (quantize_static's classifier) -> onnxruntime's QGemm arithmetic:
///   QuantizeLinear(Cast(MatMulInteger(a, W', za) + Cq, f32)
///                  * (alpha * sa * sw / sy), 1, zy)
/// and the same of a MatMul of [..., K] activations by 2-d weights [K, N]
/// (a QDQ transformer's projections; onnxruntime's QLinearMatMul).
struct RequantizedGemm : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    Operation *op = q.getX().getDefiningOp();
    auto gemm = dyn_cast_or_null<GemmOp>(op);
    auto matmul = dyn_cast_or_null<MatMulOp>(op);
    if (!gemm && !matmul)
      return rewriter.notifyMatchFailure(q, "not of a Gemm or MatMul");
    auto a = op->getOperand(0).getDefiningOp<DequantizeLinearOp>();
    auto w = op->getOperand(1).getDefiningOp<DequantizeLinearOp>();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    bool transB = gemm && gemm.getTransB();
    Value bias = gemm ? gemm.getC() : Value();
    if (!a || !w || !type || !type.hasStaticShape() ||
        (gemm &&
         (gemm.getTransA() || (!isa<NoneType>(bias.getType()) &&
                               gemm.getBeta().convertToFloat() != 1.0f))) ||
        (matmul &&
         (type.getRank() < 2 ||
          cast<RankedTensorType>(w.getX().getType()).getRank() != 2)) ||
        a.getBlockSize() != 0 || w.getBlockSize() != 0 ||
        !getElementTypeOrSelf(a.getX()).isUnsignedInteger(8) ||
        !isNoneOrSingle(a.getXZeroPoint()) ||
        !getElementTypeOrSelf(w.getX()).isSignlessInteger(8) ||
        !matchPattern(w.getX(), m_Constant()))
      return rewriter.notifyMatchFailure(q, "not a QDQ Gemm of int8 weights");
    std::optional<SmallVector<float>> sa = getConstantFloats(a.getXScale());
    std::optional<SmallVector<float>> sw = getConstantFloats(w.getXScale());
    int64_t n = type.getDimSize(type.getRank() - 1);
    // A per-column scale runs along W's axis 0 when it is transposed.
    int64_t axis = w.getAxis() < 0 ? w.getAxis() + 2 : w.getAxis();
    if (!sa || sa->size() != 1 || !sw ||
        (sw->size() != 1 &&
         ((int64_t)sw->size() != n || axis != (transB ? 0 : 1))))
      return rewriter.notifyMatchFailure(q, "not per-column scales");
    if (!isa<NoneType>(w.getXZeroPoint().getType())) {
      std::optional<SmallVector<int64_t>> zw =
          getConstantIntValues(w.getXZeroPoint());
      if (!zw || llvm::any_of(*zw, [](int64_t z) { return z != 0; }))
        return rewriter.notifyMatchFailure(q, "weights' zero point not 0");
    }
    SmallVector<float> wScale;
    for (int64_t m = 0; m < n; ++m)
      wScale.push_back((*sw)[sw->size() == 1 ? 0 : m]);
    std::optional<Requantization> r =
        requantization(op, bias, (*sa)[0], wScale);
    if (!r || r->q != q)
      return rewriter.notifyMatchFailure(q, "not requantized");
    Location loc = q.getLoc();
    ONNXBuilder b(rewriter, loc);
    Value weights = transB ? b.transpose(w.getX(), {1, 0}) : w.getX();
    Value none = NoValueOp::create(rewriter, loc, rewriter.getNoneType());
    auto accType = type.clone(rewriter.getI32Type());
    Value acc = MatMulIntegerOp::create(rewriter, loc, accType, a.getX(),
                                        weights, a.getXZeroPoint(), none);
    if (r->bias)
      acc = AddOp::create(rewriter, loc, accType, acc, r->bias);
    Value sum = castToF32(rewriter, loc, acc);
    SmallVector<float> multiplier;
    for (float s : wScale)
      multiplier.push_back((gemm ? gemm.getAlpha().convertToFloat() : 1.0f) *
                           (*sa)[0] * s / r->yScale);
    Value scaled = MulOp::create(
        rewriter, loc, type, sum,
        createFloatConstant(rewriter, loc,
                            RankedTensorType::get({n}, rewriter.getF32Type()),
                            multiplier, "gemm_scale"));
    rewriter.replaceOp(q, quantizedByOne(rewriter, loc, q.getType(), scaled,
                                         q.getYZeroPoint()));
    return success();
  }
};

/// QLinearConv of uint8 x by constant int8 weights (zero point 0): the same
/// ConvInteger on 8-bit dot products, its int32 bias added, requantized as
/// onnxruntime's kernel does (requantized).
struct QLinearConvToInteger : OpRewritePattern<QLinearConvOp> {
  QLinearConvToInteger(MLIRContext *context, bool int8Convolutions)
      : OpRewritePattern(context), int8Convolutions(int8Convolutions) {}
  LogicalResult matchAndRewrite(QLinearConvOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Int8Conv> conv = int8Conv(
        op, op.getGroup(), op.getX(), op.getXScale(), op.getXZeroPoint(),
        op.getW(), op.getWScale(), op.getWZeroPoint(), /*wAxis=*/0);
    std::optional<SmallVector<float>> sy = getConstantFloats(op.getYScale());
    if (!conv || !sy || sy->size() != 1 ||
        !isNoneOrSingle(op.getYZeroPoint()) ||
        (conv->group == 1 && !int8Convolutions))
      return rewriter.notifyMatchFailure(op, "not uint8 x by int8 weights");
    Value bias = isa<NoneType>(op.getB().getType()) ? Value() : op.getB();
    if (!exactWithBias(*conv, bias))
      return rewriter.notifyMatchFailure(op, "a bias past f32's integers");
    Value acc = exactSum(rewriter, op, *conv, bias);
    rewriter.replaceOp(op, requantized(rewriter, op, acc, *conv, (*sy)[0],
                                       op.getYZeroPoint(), op.getType()));
    return success();
  }

  bool int8Convolutions;
};

struct ONNXDecompose : tcc::onnx::impl::ONNXDecomposeBase<ONNXDecompose> {
  using Base::Base;

  void runOnOperation() override {
    // Before the weights' DequantizeLinear folds into f32 constants.
    // Requantized ops round as onnxruntime's int8 kernels do; convolutions
    // on int32 sums only where ConvInteger runs on 8-bit dot products.
    RewritePatternSet activations(&getContext());
    activations.add<Int8ActivationsAsUint8>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(activations));
    RewritePatternSet quantized(&getContext());
    quantized.add<RequantizedAdd, RequantizedMul, RequantizedGlobalAveragePool>(
        &getContext());
    quantized.add<RequantizedConv, QLinearConvToInteger>(&getContext(),
                                                         int8Convolutions);
    if (int8Convolutions)
      quantized.add<QuantizedConv, RequantizedGemm>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(quantized));
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAttention, DecomposeRotaryEmbedding,
                 FoldConstantDequantize, FoldInt8WeightsTranspose>(
        &getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // What is left could not be decomposed: say why.
    WalkResult result = getOperation().walk([](Operation *op) {
      std::optional<std::string> reason;
      if (auto attention = dyn_cast<AttentionOp>(op))
        reason = unsupportedAttention(attention);
      else if (auto rope = dyn_cast<RotaryEmbeddingOp>(op))
        reason = unsupportedRotaryEmbedding(rope);
      if (!reason)
        return WalkResult::advance();
      op->emitOpError() << *reason << " is not supported yet";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
