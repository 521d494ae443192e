//===- Patterns.h - ONNX to linalg patterns, one populate per file -*- C++ -*-===//
//
// Private to lib/Conversion/ONNXToLinalg. Each file converts one op family
// and exposes one populate function; Utils.cpp has the builders they share.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_CONVERSION_ONNXTOLINALG_PATTERNS_H
#define TCC_LIB_CONVERSION_ONNXTOLINALG_PATTERNS_H

#include "dialects/ONNX/ONNXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tcc::onnx_to_linalg {

/// Whether and how 3x3 stride-1 f32 convolutions run as Winograd F(2x2,
/// 3x3).
struct WinogradOptions {
  bool enabled = false;
  /// Tiles that give one graph for every width (tcc compile --max-dim
  /// compares the graph at several): always one more tile column than
  /// floor(width / 2), the input padded by a constant 2 more columns, the
  /// output always a slice; tiles stored column-major, so that the
  /// products' [rows x columns] dim keeps the width outermost.
  bool anyWidth = false;
  /// Bits of the target's vector registers (onnx::winogradPays).
  int64_t vectorBits = 256;
};

void populateActivationPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateElementwisePatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateConvPoolPatterns(const mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns,
                              const WinogradOptions &winograd);
void populateImagePatterns(const mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
void populateLinearPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateLossPatterns(const mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
void populateNormalizationPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateQuantizationPatterns(const mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateRecurrentPatterns(const mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
void populateReductionPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateTensorPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateShapePatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateGatherPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateScatterPatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateRearrangePatterns(const mlir::TypeConverter &converter,
                        mlir::RewritePatternSet &patterns);
void populateSignalPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Shared builders (Utils.cpp)
//===----------------------------------------------------------------------===//

using BodyBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// `type` with unsigned (and signed) integer element types made signless,
/// as arith and linalg want them; ONNX's signedness stays on the onnx ops.
mlir::Type toSignless(mlir::Type type);

/// Replaces the results of `op` (a NonZero, Compress, NonMaxSuppression,
/// TopK with a run-time K: a count known only at run time) by the leading
/// blocks of `buffers`, one per result, of `sizes` (static sizes as
/// attributes, the count as a value), cast to the results' types.
void replaceByLeadingBlock(mlir::ConversionPatternRewriter &rewriter,
                           mlir::Operation *op, mlir::ValueRange buffers,
                           llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// The type converter of the ONNX to linalg conversion (toSignless).
void populateSignlessTypeConversion(mlir::TypeConverter &converter);

/// Whether `value`'s element type is an unsigned integer (ONNX uint*).
bool isUnsigned(mlir::Value value);

/// The (signless) result type of a converted op, which must be ranked.
mlir::FailureOr<mlir::RankedTensorType>
getRankedResultType(mlir::Operation *op, mlir::ConversionPatternRewriter &r);

/// An empty tensor of `type` whose dynamic dims are taken from `like`
/// (a value of the same rank) or, per dim, from any of `sources` that has
/// the same rank aligned to the right and a non-broadcast size there.
mlir::Value createEmptyLike(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::RankedTensorType type,
                            mlir::ValueRange sources);

/// A linalg.generic over `type` (all dims parallel) whose inputs broadcast
/// numpy-style to it (size-1 dims read index 0, missing leading dims are
/// dropped). `body` gets one scalar per input and returns the result.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType type,
                             mlir::ValueRange inputs, BodyBuilder body);

/// A scalar constant of `type` (float or integer) holding `value`.
mlir::Value constantScalar(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// The type sums of `elem` accumulate in: f32 for 16-bit floats (as numpy
/// and onnxruntime do), else `elem` itself.
mlir::Type accumulatorType(mlir::Type elem);

/// Scalar arithmetic that picks the float or integer op by type.
mlir::Value addScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Value y);
mlir::Value mulScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Value y);

/// Pads the trailing `low.size()` dims of `source` with `padValue`.
mlir::Value padTrailing(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value source, llvm::ArrayRef<int64_t> low,
                        llvm::ArrayRef<int64_t> high, mlir::Value padValue);

/// A tensor of `type` filled with `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value value,
                         mlir::ValueRange dynamicSources = {});

/// Converts scalar `x` to `to` the way ONNX Cast does: float to int
/// truncates toward zero, to bool (i1) is `x != 0`, unsigned sources
/// zero-extend. The flags give the signedness arith's types lack.
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       bool fromUnsigned, mlir::Type to, bool toUnsigned);
/// The reduced shape of `type`: the dims marked in `reduced` dropped.
mlir::RankedTensorType dropReducedDims(mlir::RankedTensorType type,
                                       llvm::ArrayRef<bool> reduced);

/// A linalg.generic reducing the dims of `input` marked in `reduced` into a
/// tensor filled with `init` (the reduced dims dropped, `init`'s element
/// type). `combine(element, accumulator)` returns the new accumulator.
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, llvm::ArrayRef<bool> reduced,
                           mlir::Value init, BodyBuilder combine);

/// A linalg.generic over `full`'s shape (all parallel) reading `full` and
/// `partials`, values reduced over `reduced` by buildReduction, broadcast
/// back along those dims. `body(fullElement, partialElements...)`; the
/// result has `elementType`.
mlir::Value buildWithReduced(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value full, mlir::ValueRange partials,
                             llvm::ArrayRef<bool> reduced,
                             mlir::Type elementType, BodyBuilder body);

/// Puts back the dims marked in `reduced` as unit dims (ONNX keepdims=1) into
/// a value reduced by buildReduction; `type` is the result type.
mlir::Value expandReducedDims(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value value, mlir::RankedTensorType type,
                              llvm::ArrayRef<bool> reduced);

/// The lowest (`highest` false) or highest value of a float (+-inf) or
/// integer type; `isUnsigned` picks the unsigned range.
mlir::Value extremeScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type, bool isUnsigned, bool highest);

/// The index (i64) of the max (`isMax`) or min of `input` along `axis`,
/// the axis dropped: ties give the first index, or the last with `last`;
/// the first NaN wins, as numpy's argmax. Booleans count as unsigned.
mlir::Value buildArgReduction(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value input, int64_t axis, bool isMax,
                              bool last, bool isUnsigned);

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

/// Softmax, LogSoftmax or Hardmax of `input` along `axis` (in [0, rank)),
/// in input's type (Normalization.cpp; SoftmaxCrossEntropyLoss uses it).
mlir::Value buildSoftmax(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value input, int64_t axis, SoftmaxKind kind);

/// Reshapes `src` to the static `type`: one expand or collapse when the
/// dims regroup, else a collapse to 1-d followed by an expand (views once
/// bufferized).
mlir::Value reshapeStatic(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value src, mlir::RankedTensorType type);

using IndexedBodyBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange ivs)>;

/// A linalg.generic with no inputs producing the static `type`; `body`
/// gets the result element's indices (linalg.index values) and returns the
/// element, typically a tensor.extract at computed indices (gathers,
/// slices with negative steps, tiling, index arithmetic).
mlir::Value buildIndexed(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, IndexedBodyBuilder body);

mlir::Value constantIndex(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t value);

/// An index read from an integer tensor element (signless, or already an
/// index), counted from the end of a dim of `size` when negative (Gather,
/// GatherElements, GatherND, the scatters, OneHot).
mlir::Value wrapIndex(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value index, int64_t size);

/// Succeeds when `op`'s result is ranked and static; otherwise fails the
/// conversion with a compile-time error on `op`: that `what` must be
/// constant when one of `params` is not (a graph input, say), else that
/// dynamic shapes are not supported yet.
mlir::LogicalResult requireStaticResult(mlir::Operation *op,
                                        mlir::ValueRange params,
                                        llvm::StringRef what);

/// Reshapes whose result is static (Flatten, Reshape, Squeeze, Unsqueeze)
/// become collapse/expand of the first operand; operands after it are the
/// shape parameters, which must have been constant.
template <typename OnnxOp>
struct StaticReshapePattern : mlir::OpConversionPattern<OnnxOp> {
  StaticReshapePattern(const mlir::TypeConverter &converter,
                       mlir::MLIRContext *ctx, llvm::StringRef what)
      : mlir::OpConversionPattern<OnnxOp>(converter, ctx), what(what) {}
  mlir::LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    mlir::Value src = adaptor.getOperands()[0];
    auto srcType = llvm::dyn_cast<mlir::RankedTensorType>(src.getType());
    if (failed(requireStaticResult(op, op->getOperands().drop_front(), what)))
      return mlir::failure();
    if (!srcType || !srcType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = llvm::cast<mlir::RankedTensorType>(
        toSignless(op->getResult(0).getType()));
    rewriter.replaceOp(op, reshapeStatic(rewriter, op.getLoc(), src, type));
    return mlir::success();
  }
  std::string what;
};

/// A sum of products `init[out] += scale * prod_i inputs[i][maps[i]]` over
/// the loops of `iterators` (Linear.cpp). Half-precision floats (f16, bf16)
/// accumulate in f32 and round once at the end, as numpy and onnxruntime do.
mlir::Value buildProductSum(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::ValueRange inputs, mlir::Value init,
                            llvm::ArrayRef<mlir::AffineMap> maps,
                            llvm::ArrayRef<mlir::utils::IteratorType> iterators,
                            std::optional<double> scale);

/// Dense i64 attribute for linalg conv/pool strides and dilations.
mlir::DenseIntElementsAttr i64Elements(mlir::OpBuilder &b,
                                       llvm::ArrayRef<int64_t> values);

/// MatMul with numpy semantics (Linear.cpp): batch dims broadcast, a 1-d
/// operand is a vector. Integers multiply and accumulate in `type`'s
/// element type, 16-bit floats in f32.
mlir::Value buildMatMul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                        mlir::Value rhs, mlir::RankedTensorType type);

/// The window attributes of Conv, ConvInteger and QLinearConv.
struct ConvAttributes {
  llvm::StringRef autoPad;
  std::optional<llvm::ArrayRef<int64_t>> pads, strides, dilations;
  int64_t group;
  WinogradOptions winograd;
  template <typename ConvLikeOp> static ConvAttributes of(ConvLikeOp op) {
    return {op.getAutoPad(), op.getPads(), op.getStrides(), op.getDilations(),
            op.getGroup()};
  }
};

/// An N-d grouped convolution (NCHW) of `x` by `w` (converted values) plus
/// `bias` ([M], or null or none for zeros) into `outType` (ConvPool.cpp); `x`
/// is padded with zeros, products accumulate in `outType`'s element type.
/// Errors go to `op`.
mlir::FailureOr<mlir::Value> buildConv(mlir::OpBuilder &b, mlir::Operation *op,
                                       mlir::Value x, mlir::Value w,
                                       mlir::Value bias,
                                       mlir::RankedTensorType outType,
                                       const ConvAttributes &attrs);

//===----------------------------------------------------------------------===//
// One pattern for every elementwise op
//===----------------------------------------------------------------------===//

/// Lowers an elementwise op to buildElementwise over its tensor operands
/// (`none` operands are skipped) with a per-op scalar `body`, which gets the
/// original op (attributes, ONNX signedness) and one scalar per operand.
/// `check`, when given, refuses unsupported forms with an op error first.
template <typename OnnxOp>
struct ScalarPattern : mlir::OpConversionPattern<OnnxOp> {
  using Body = mlir::Value (*)(OnnxOp, mlir::OpBuilder &, mlir::Location,
                               mlir::ValueRange);
  using Check = llvm::LogicalResult (*)(OnnxOp);

  ScalarPattern(const mlir::TypeConverter &converter, mlir::MLIRContext *ctx,
                Body body, Check check)
      : mlir::OpConversionPattern<OnnxOp>(converter, ctx), body(body),
        check(check) {}

  llvm::LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    mlir::FailureOr<mlir::RankedTensorType> type =
        getRankedResultType(op, rewriter);
    if (mlir::failed(type) || (check && mlir::failed(check(op))))
      return mlir::failure();
    llvm::SmallVector<mlir::Value> inputs;
    for (mlir::Value v : adaptor.getOperands()) {
      if (llvm::isa<mlir::NoneType>(v.getType()))
        continue;
      if (!llvm::isa<mlir::RankedTensorType>(v.getType()))
        return rewriter.notifyMatchFailure(op, "unranked operand");
      inputs.push_back(v);
    }
    mlir::Value result = buildElementwise(
        rewriter, op.getLoc(), *type, inputs,
        [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args) {
          return body(op, b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return mlir::success();
  }

  Body body;
  Check check;
};

/// Adds ScalarPatterns: `add<onnx::ExpOp>([](auto, OpBuilder &b, ...) {...})`.
struct ScalarPatternAdder {
  const mlir::TypeConverter &converter;
  mlir::RewritePatternSet &patterns;
  template <typename OnnxOp>
  void add(typename ScalarPattern<OnnxOp>::Body body,
           typename ScalarPattern<OnnxOp>::Check check = nullptr) {
    patterns.add<ScalarPattern<OnnxOp>>(converter, patterns.getContext(), body,
                                        check);
  }
};

} // namespace tcc::onnx_to_linalg

#endif // TCC_LIB_CONVERSION_ONNXTOLINALG_PATTERNS_H
