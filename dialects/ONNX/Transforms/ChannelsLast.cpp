//===- ChannelsLast.cpp - tcc-onnx-channels-last --------------------------===//
//
// Convolutions on channels-last tensors. A 2-d Conv that runs faster with
// its channels contiguous becomes
//   Transpose(NCHW -> NHWC), NhwcConv, Transpose(NHWC -> NCHW)
// and the Transposes then move towards the outputs through the ops that do
// not care about the layout (elementwise ops, Concat), until they meet the
// next convolution's Transpose and cancel. A chain of convolutions,
// activations and residual adds then runs channels-last, with Transposes
// only where it meets an op that reads NCHW.
//
//===----------------------------------------------------------------------===//
#include "dialects/ONNX/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace tcc::onnx;

namespace tcc::onnx {
#define GEN_PASS_DEF_ONNXCHANNELSLAST
#include "dialects/ONNX/Transforms/Passes.h.inc"
} // namespace tcc::onnx

namespace {

constexpr int64_t kToNHWC[] = {0, 2, 3, 1};
constexpr int64_t kToNCHW[] = {0, 3, 1, 2};

SmallVector<int64_t> inverse(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> result(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    result[p] = i;
  return result;
}

/// `shape` as a Transpose by `perm` leaves it: dim i is shape[perm[i]].
SmallVector<int64_t> permuted(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  return llvm::to_vector(
      llvm::map_range(perm, [&](int64_t p) { return shape[p]; }));
}

Value transpose(PatternRewriter &rewriter, Location loc, Value x,
                ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(x.getType());
  return TransposeOp::create(rewriter, loc,
                             type.clone(permuted(type.getShape(), perm)), x,
                             rewriter.getDenseI64ArrayAttr(perm));
}

/// Whether `conv` runs channels-last: a 2-d f32 convolution of static shapes
/// with constant weights. Ungrouped ones that run tap by tap stay NCHW
/// (tapwisePays). Winograd F(2x2, 3x3) runs on NHWC tiles as well.
bool runsChannelsLast(ConvOp conv) {
  auto x = dyn_cast<RankedTensorType>(conv.getX().getType());
  auto w = dyn_cast<RankedTensorType>(conv.getW().getType());
  auto y = dyn_cast<RankedTensorType>(conv.getY().getType());
  if (!x || !w || !y || x.getRank() != 4 || !x.hasStaticShape() ||
      !y.hasStaticShape() || !x.getElementType().isF32() ||
      !matchPattern(conv.getW(), m_Constant()))
    return false;
  if (conv.getGroup() != 1)
    return true;
  FailureOr<WindowGeometry> g = resolveWindow(
      conv, x.getShape(), w.getShape().drop_front(2), conv.getAutoPad(),
      conv.getPads(), conv.getStrides(), conv.getDilations(),
      /*ceilMode=*/false);
  return succeeded(g) && !tapwisePays(*g, x.getShape().drop_front(2));
}

/// Conv -> Transpose, NhwcConv, Transpose.
struct ConvToNhwc : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp conv,
                                PatternRewriter &rewriter) const override {
    if (!runsChannelsLast(conv))
      return rewriter.notifyMatchFailure(conv, "stays NCHW");
    Location loc = conv.getLoc();
    auto type = cast<RankedTensorType>(conv.getType());
    Value x = transpose(rewriter, loc, conv.getX(), kToNHWC);
    auto nhwc = NhwcConvOp::create(
        rewriter, loc,
        TypeRange{type.clone(permuted(type.getShape(), kToNHWC))},
        ValueRange{x, conv.getW(), conv.getB()}, conv->getAttrs());
    rewriter.replaceOp(conv, transpose(rewriter, loc, nhwc, kToNCHW));
    return success();
  }
};

/// ConvInteger -> Transpose, NhwcConvInteger, Transpose for a 2-d one of
/// static shapes, uint8 x and constant int8 weights without a zero point
/// (tcc-onnx-decompose makes them of QDQ convolutions).
struct ConvIntegerToNhwc : OpRewritePattern<ConvIntegerOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvIntegerOp conv,
                                PatternRewriter &rewriter) const override {
    auto x = dyn_cast<RankedTensorType>(conv.getX().getType());
    auto w = dyn_cast<RankedTensorType>(conv.getW().getType());
    auto type = dyn_cast<RankedTensorType>(conv.getType());
    if (!x || !w || !type || x.getRank() != 4 || !x.hasStaticShape() ||
        !type.hasStaticShape() || conv.getGroup() != 1 ||
        !x.getElementType().isUnsignedInteger(8) ||
        !w.getElementType().isSignlessInteger(8) ||
        !matchPattern(conv.getW(), m_Constant()) ||
        !isa<NoneType>(conv.getWZeroPoint().getType()))
      return rewriter.notifyMatchFailure(conv, "stays NCHW");
    Location loc = conv.getLoc();
    Value xt = transpose(rewriter, loc, conv.getX(), kToNHWC);
    auto nhwc = NhwcConvIntegerOp::create(
        rewriter, loc,
        TypeRange{type.clone(permuted(type.getShape(), kToNHWC))},
        ValueRange{xt, conv.getW(), conv.getXZeroPoint()}, conv->getAttrs());
    rewriter.replaceOp(conv, transpose(rewriter, loc, nhwc, kToNCHW));
    return success();
  }
};

/// Transpose(Transpose(x)) -> one Transpose, or x.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getData().getDefiningOp<TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "not of a Transpose");
    SmallVector<int64_t> outer = transposePermutation(op);
    SmallVector<int64_t> composed =
        permuted(transposePermutation(inner), outer);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
      rewriter.replaceOp(op, inner.getData());
    else
      rewriter.replaceOp(
          op, transpose(rewriter, op.getLoc(), inner.getData(), composed));
    return success();
  }
};

/// A Transpose that moves only dims of size 1 (a pooled [N, 1, 1, C] to
/// [N, C, 1, 1]) -> a Reshape, which moves no data.
struct TransposeOfUnitDims : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto in = dyn_cast<RankedTensorType>(op.getData().getType());
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape())
      return failure();
    SmallVector<int64_t> order;
    for (int64_t p : transposePermutation(op))
      if (in.getDimSize(p) != 1)
        order.push_back(p);
    if (!llvm::is_sorted(order))
      return rewriter.notifyMatchFailure(op, "moves data");
    Location loc = op.getLoc();
    auto shapeType =
        RankedTensorType::get({out.getRank()}, rewriter.getI64Type());
    Value shape = ConstantOp::create(
        rewriter, loc, shapeType,
        DenseIntElementsAttr::get(shapeType, out.getShape()));
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, out, op.getData(), shape,
                                           /*allowzero=*/0);
    return success();
  }
};

/// Whether `op` is a QuantizeLinear or DequantizeLinear with one scale and
/// zero point for the whole tensor: elementwise in its first operand, the
/// others read as they are.
bool isPerTensorQuantization(Operation *op) {
  auto oneValue = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return isa<NoneType>(v.getType()) ||
           (type && type.hasStaticShape() && type.getNumElements() == 1);
  };
  if (auto q = dyn_cast<QuantizeLinearOp>(op))
    return q.getBlockSize() == 0 && oneValue(q.getYScale()) &&
           oneValue(q.getYZeroPoint());
  if (auto dq = dyn_cast<DequantizeLinearOp>(op))
    return dq.getBlockSize() == 0 && oneValue(dq.getXScale()) &&
           oneValue(dq.getXZeroPoint());
  return false;
}

/// Ops that compute each element from the elements at its index of their
/// (broadcast) operands.
bool isElementwise(Operation *op) {
  if (isPerTensorQuantization(op))
    return true;
  return isa<CastOp, AddOp, SubOp, MulOp, MulAddOp, DivOp, PReluOp, PowOp,
             MaxOp, MinOp, SumOp, MeanOp, ReluOp, LeakyReluOp, SigmoidOp,
             HardSigmoidOp, HardSwishOp, SwishOp, TanhOp, EluOp, SeluOp, CeluOp,
             SoftplusOp, SoftsignOp, MishOp, GeluOp, ThresholdedReluOp,
             ShrinkOp, ClipOp, ExpOp, LogOp, SqrtOp, NegOp, AbsOp, ErfOp,
             ReciprocalOp, IdentityOp>(op);
}

/// Whether an op of rank `rank` whose result is transposed by `perm` after
/// it can read `operand` in the layout before: a scalar, a Transpose of the
/// same permutation, a tensor of at most one dim above 1 (a bias, a
/// squeeze-and-excitation scale: reshaped, which moves no data), or one
/// already transposed back for a user that stays (a convolution). With
/// `soon`, also the result of an elementwise op of such a Transpose, which
/// this pass moves too (x * sigmoid(x)).
bool readsInLayout(Value operand, ArrayRef<int64_t> perm, int64_t rank,
                   bool soon = false);

/// Whether `op` is a 2-d MaxPool or AveragePool (of a rank-4 input).
bool isPool2d(Operation *op) {
  auto poolRank = [](auto pool) { return pool.getKernelShape().size(); };
  if (auto pool = dyn_cast<MaxPoolOp>(op))
    return poolRank(pool) == 2 && !pool.getIndices() &&
           pool.getStorageOrder() == 0;
  if (auto pool = dyn_cast<AveragePoolOp>(op))
    return poolRank(pool) == 2;
  return false;
}

/// The per-channel affine map of an f32 BatchNormalization of a rank-4
/// tensor whose parameters are constants.
std::optional<BatchNormAffine> batchNormOf4d(BatchNormalizationOp bn) {
  auto type = dyn_cast<RankedTensorType>(bn.getType());
  if (!type || type.getRank() != 4 || !type.getElementType().isF32() ||
      ShapedType::isDynamic(type.getDimSize(1)))
    return std::nullopt;
  return batchNormAffine(bn, type.getDimSize(1));
}

/// Whether every op that reads `t` can read its input instead: elementwise
/// ops whose other operands are in the same layout, Concats of Transposes
/// alike, a GlobalAveragePool or a 2-d pool of a channels-last tensor,
/// Transposes.
bool usersMove(TransposeOp t) {
  SmallVector<int64_t> perm = transposePermutation(t);
  int64_t rank = perm.size();
  return llvm::all_of(t->getUsers(), [&](Operation *user) {
    if (isa<TransposeOp>(user))
      return true;
    if (isa<GlobalAveragePoolOp>(user) || isPool2d(user))
      return llvm::equal(perm, kToNCHW);
    if (auto bn = dyn_cast<BatchNormalizationOp>(user))
      return llvm::equal(perm, kToNCHW) && bn.getX() == t.getResult() &&
             batchNormOf4d(bn);
    if (auto concat = dyn_cast<ConcatOp>(user))
      return llvm::all_of(concat.getInputs(), [&](Value input) {
        auto other = input.getDefiningOp<TransposeOp>();
        return other && llvm::equal(transposePermutation(other), perm);
      });
    auto type = user->getNumResults() == 1
                    ? dyn_cast<RankedTensorType>(user->getResult(0).getType())
                    : RankedTensorType();
    return isElementwise(user) && type && type.hasStaticShape() &&
           type.getRank() == rank &&
           llvm::all_of(user->getOperands(), [&](Value operand) {
             return readsInLayout(operand, perm, rank, /*soon=*/true);
           });
  });
}

/// The Transpose by `back` (the inverse of `perm`) of `operand` that a user
/// which stays reads, if any.
TransposeOp stayingTransposeBack(Value operand, ArrayRef<int64_t> back) {
  for (Operation *user : operand.getUsers())
    if (auto t = dyn_cast<TransposeOp>(user);
        t && llvm::equal(transposePermutation(t), back) && !usersMove(t))
      return t;
  return {};
}

/// Elementwise ops between a Transpose and an op that `soon` looks
/// through: GELU's x * (erf(x / sqrt(2)) + 1) reads x three ops up.
constexpr int kMaxSoonDepth = 4;

/// Whether `v` is the result of an elementwise op of which an operand is
/// `transposedAlike`, or (up to `depth` ops up) the result of such an op.
bool fromTransposedAlike(Value v, function_ref<bool(Value)> transposedAlike,
                         int depth) {
  Operation *def = v.getDefiningOp();
  if (!def || !isElementwise(def) || depth == 0)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return transposedAlike(operand) ||
           fromTransposedAlike(operand, transposedAlike, depth - 1);
  });
}

bool readsInLayout(Value operand, ArrayRef<int64_t> perm, int64_t rank,
                   bool soon) {
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!type || type.getRank() == 0)
    return true;
  auto transposedAlike = [&](Value v) {
    auto t = v.getDefiningOp<TransposeOp>();
    return t && llvm::equal(transposePermutation(t), perm);
  };
  if (transposedAlike(operand))
    return true;
  if (soon && fromTransposedAlike(operand, transposedAlike, kMaxSoonDepth))
    return true;
  if (type.getRank() <= rank && type.hasStaticShape() &&
      llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; }) <= 1)
    return true;
  return bool(stayingTransposeBack(operand, inverse(perm)));
}

/// elementwise(Transpose(x), ...) -> Transpose(elementwise(x, ...)) when
/// every user of that Transpose can move it likewise (so that it goes,
/// and none is added), the other operands read in the same layout
/// (readsInLayout).
struct SinkThroughElementwise : RewritePattern {
  SinkThroughElementwise(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwise(op) || op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return failure();
    std::optional<SmallVector<int64_t>> perm;
    for (Value operand : op->getOperands())
      if (auto t = operand.getDefiningOp<TransposeOp>();
          t && cast<ShapedType>(t.getType()).getRank() == type.getRank() &&
          usersMove(t)) {
        perm = transposePermutation(t);
        break;
      }
    if (!perm)
      return rewriter.notifyMatchFailure(op, "no transposed operand to move");
    SmallVector<int64_t> back = inverse(*perm);
    SmallVector<Value> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      // A quantization's scale and zero point hold one value.
      if (i > 0 && isPerTensorQuantization(op)) {
        operands.push_back(operand);
        continue;
      }
      if (!readsInLayout(operand, *perm, type.getRank()))
        return rewriter.notifyMatchFailure(op, "an operand in another layout");
      operands.push_back(
          inLayout(rewriter, op, operand, *perm, back, type.getRank()));
    }
    Location loc = op->getLoc();
    OperationState state(loc, op->getName(), operands,
                         TypeRange{type.clone(permuted(type.getShape(), back))},
                         op->getAttrs());
    Operation *inner = rewriter.create(state);
    rewriter.replaceOp(op,
                       transpose(rewriter, loc, inner->getResult(0), *perm));
    return success();
  }

  /// `operand` (readsInLayout) as the op reads it before the Transpose by
  /// `perm`: y with Transpose(y, perm) equal to `operand` broadcast to
  /// `rank` dims.
  static Value inLayout(PatternRewriter &rewriter, Operation *op, Value operand,
                        ArrayRef<int64_t> perm, ArrayRef<int64_t> back,
                        int64_t rank) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getRank() == 0)
      return operand;
    if (auto t = operand.getDefiningOp<TransposeOp>();
        t && llvm::equal(transposePermutation(t), perm))
      return t.getData();
    if (TransposeOp t = stayingTransposeBack(operand, back)) {
      // It reads `operand` alone: it may move up to where `op` reads it.
      if (t->getBlock() != op->getBlock() || !t->isBeforeInBlock(op))
        rewriter.moveOpBefore(t, op);
      return t.getResult();
    }
    SmallVector<int64_t> shape(rank - type.getRank(), 1);
    llvm::append_range(shape, type.getShape());
    shape = permuted(shape, back);
    Location loc = op->getLoc();
    auto shapeType =
        RankedTensorType::get({(int64_t)shape.size()}, rewriter.getI64Type());
    Value target = ConstantOp::create(
        rewriter, loc, shapeType, DenseIntElementsAttr::get(shapeType, shape));
    return ReshapeOp::create(rewriter, loc, type.clone(shape), operand, target,
                             /*allowzero=*/0)
        .getResult();
  }
};

/// Concat(Transpose(a), Transpose(b), ...) -> Transpose(Concat(a, b, ...))
/// along the dim the Transposes move the axis from, when the users of each
/// Transpose can all move it.
struct SinkThroughConcat : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || op.getInputs().empty())
      return failure();
    SmallVector<Value> inputs;
    std::optional<SmallVector<int64_t>> perm;
    for (Value input : op.getInputs()) {
      auto t = input.getDefiningOp<TransposeOp>();
      if (!t || (perm && !llvm::equal(transposePermutation(t), *perm)) ||
          !usersMove(t))
        return rewriter.notifyMatchFailure(op, "an input not transposed alike");
      perm = transposePermutation(t);
      inputs.push_back(t.getData());
    }
    int64_t axis =
        op.getAxis() < 0 ? op.getAxis() + type.getRank() : op.getAxis();
    SmallVector<int64_t> back = inverse(*perm);
    auto concat = ConcatOp::create(rewriter, op.getLoc(),
                                   type.clone(permuted(type.getShape(), back)),
                                   inputs, (*perm)[axis]);
    rewriter.replaceOp(op, transpose(rewriter, op.getLoc(), concat, *perm));
    return success();
  }
};

/// GlobalAveragePool(Transpose(x, NHWC -> NCHW)) -> Transpose(ReduceMean(x)
/// over H and W): the mean reads the channels-last tensor, the Transpose
/// moves only its [N, 1, 1, C] result.
struct SinkThroughGlobalAveragePool : OpRewritePattern<GlobalAveragePoolOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GlobalAveragePoolOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getX().getDefiningOp<TransposeOp>();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!t || !type || type.getRank() != 4 ||
        !llvm::equal(transposePermutation(t), kToNCHW))
      return rewriter.notifyMatchFailure(op, "not of a channels-last tensor");
    Location loc = op.getLoc();
    auto axesType = RankedTensorType::get({2}, rewriter.getI64Type());
    Value axes = ConstantOp::create(
        rewriter, loc, axesType,
        DenseIntElementsAttr::get(axesType, ArrayRef<int64_t>{1, 2}));
    auto mean = ReduceMeanOp::create(
        rewriter, loc, type.clone(permuted(type.getShape(), kToNHWC)),
        t.getData(), axes, /*keepdims=*/1, /*noop_with_empty_axes=*/0);
    rewriter.replaceOp(op, transpose(rewriter, loc, mean, kToNCHW));
    return success();
  }
};

/// Pool(Transpose(x, NHWC -> NCHW)) -> Transpose(NhwcPool(x)) for a 2-d
/// MaxPool or AveragePool: the window reads the channels-last tensor, a
/// vector of channels per tap.
template <typename PoolOp, typename NhwcPoolOp>
struct SinkThroughPool : OpRewritePattern<PoolOp> {
  using OpRewritePattern<PoolOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(PoolOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getX().template getDefiningOp<TransposeOp>();
    auto type = dyn_cast<RankedTensorType>(op.getY().getType());
    if (!t || !type || type.getRank() != 4 || !isPool2d(op) ||
        !llvm::equal(transposePermutation(t), kToNCHW))
      return rewriter.notifyMatchFailure(op, "not of a channels-last tensor");
    Location loc = op.getLoc();
    auto pool = NhwcPoolOp::create(
        rewriter, loc, TypeRange{type.clone(permuted(type.getShape(), kToNHWC))},
        ValueRange{t.getData()}, op->getAttrs());
    rewriter.replaceOp(op, transpose(rewriter, loc, pool, kToNCHW));
    return success();
  }
};

/// BatchNormalization(Transpose(x, NHWC -> NCHW)) with constant parameters
/// -> Transpose(x * s + b), s and b per channel as [1, 1, 1, C]: the
/// multiply and add are elementwise, and the Transpose moves on through
/// them (DenseNet's BN + ReLU after each Concat of channels-last features).
struct SinkThroughBatchNorm : OpRewritePattern<BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormalizationOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getX().getDefiningOp<TransposeOp>();
    if (!t || !llvm::equal(transposePermutation(t), kToNCHW))
      return rewriter.notifyMatchFailure(op, "not of a channels-last tensor");
    std::optional<BatchNormAffine> affine = batchNormOf4d(op);
    if (!affine)
      return rewriter.notifyMatchFailure(op, "not constant f32 parameters");
    Location loc = op.getLoc();
    auto nhwc = cast<RankedTensorType>(t.getData().getType());
    auto paramType = RankedTensorType::get({1, 1, 1, nhwc.getDimSize(3)},
                                           nhwc.getElementType());
    auto constant = [&](ArrayRef<double> values, StringRef name) {
      SmallVector<float> data(values.begin(), values.end());
      return createFloatConstant(rewriter, loc, paramType, data, name);
    };
    Value scaled = MulOp::create(rewriter, loc, nhwc, t.getData(),
                                 constant(affine->scale, "bn_scale"));
    Value shifted = AddOp::create(rewriter, loc, nhwc, scaled,
                                  constant(affine->shift, "bn_shift"));
    rewriter.replaceOp(op, transpose(rewriter, loc, shifted, kToNCHW));
    return success();
  }
};

struct ONNXChannelsLast
    : tcc::onnx::impl::ONNXChannelsLastBase<ONNXChannelsLast> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ConvToNhwc, ConvIntegerToNhwc>(ctx);
    patterns.add<ComposeTransposes, SinkThroughElementwise, SinkThroughConcat,
                 SinkThroughGlobalAveragePool, TransposeOfUnitDims,
                 SinkThroughPool<MaxPoolOp, NhwcMaxPoolOp>,
                 SinkThroughPool<AveragePoolOp, NhwcAveragePoolOp>,
                 SinkThroughBatchNorm>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
