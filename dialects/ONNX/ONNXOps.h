//===- ONNXOps.h - onnx dialect and its operations --------------*- C++ -*-===//
#ifndef TCC_DIALECTS_ONNX_ONNXOPS_H
#define TCC_DIALECTS_ONNX_ONNXOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/ONNX/ONNXOpsDialect.h.inc"
#include "dialects/ONNX/ShapeInferenceInterface.h.inc"

namespace tcc::onnx {
/// Spatial geometry of a Conv or pooling op with every attribute resolved:
/// defaults filled in and auto_pad turned into explicit pads. Needs the
/// input's spatial dims to be static when auto_pad is SAME_*.
struct WindowGeometry {
  llvm::SmallVector<int64_t> kernel, strides, dilations;
  llvm::SmallVector<int64_t> padsBegin, padsEnd;
  /// Output spatial sizes (ShapedType::kDynamic where the input's is).
  llvm::SmallVector<int64_t> outSizes;
};
} // namespace tcc::onnx

#define GET_OP_CLASSES
#include "dialects/ONNX/ONNXOps.h.inc"

namespace tcc::onnx {

/// Checks the input rank (N, C and `n` spatial dims) and the sizes of the
/// pads/strides/dilations attributes of a windowed op.
llvm::LogicalResult
checkWindowAttributes(mlir::Operation *op, llvm::ArrayRef<int64_t> inShape,
                      size_t n, std::optional<llvm::ArrayRef<int64_t>> pads,
                      std::optional<llvm::ArrayRef<int64_t>> strides,
                      std::optional<llvm::ArrayRef<int64_t>> dilations);

/// The output positions [first, first + count) of one spatial dim of a
/// window (input size `in`, output size `out`, `pad` before, `stride`,
/// `dilation`) at which kernel tap `k` reads the input rather than its
/// padding; count 0 when it reads only padding.
struct TapReach {
  int64_t first, count;
};
TapReach tapReach(int64_t in, int64_t out, int64_t pad, int64_t stride,
                  int64_t dilation, int64_t k);

/// Whether a 2-d convolution of window `g` (resolved) on an input of
/// spatial sizes `in` runs tap by tap, each tap a 1x1 convolution over the
/// output positions it reaches: where its taps reach at most half of the
/// output (DeepLabV3's ASPP, a 3x3 kernel dilated by 12 on a 14x14 map).
bool tapwisePays(const WindowGeometry &g, llvm::ArrayRef<int64_t> in);

/// The permutation of `op` (its default reverses the dims of its ranked
/// input).
llvm::SmallVector<int64_t> transposePermutation(TransposeOp op);

/// Whether a 2-d convolution of window `g` (resolved, with its output sizes)
/// from `channels` to `filters` over a batch of `batch` runs as Winograd
/// F(2x2, 3x3): a 3x3 stride-1 undilated kernel, a static output of at
/// least 2x2, and sizes where it beats the direct conv. Measured, one
/// thread, conv + bias + ReLU, direct -> Winograd:
///  - each transformed input value is multiplied by every filter, and below
///    kMinWinogradFilters filters the input transform costs more than that
///    saves: 128 -> 32 on 56x56 2.31 -> 2.54 ms, on 26x26 0.45 -> 0.50;
///    16 -> 64 on 53x53 0.49 -> 0.40, 64 -> 64 on 56x56 2.07 -> 1.73.
///    With `vectorBits` 512 the direct conv's FMAs are twice as wide and the
///    transforms barely faster: 128 filters (Sapphire Rapids: 64 -> 64 on
///    56x56, with the transposes to and from NCHW, 1.22-1.28 -> 1.57-1.62
///    ms; in models, utils/ab.py: ResNet-50 58.4 -> 54.4 ms, ResNet-18 23.5
///    -> 21.0, DLA-34 37.7 -> 34.3 with these left direct);
///  - below kMinWinogradMacs multiply-adds of the direct conv, the three
///    kernels cost more than the products save: 64 -> 64 on 7x7 (1.8 M)
///    0.032 -> 0.037 ms, on 14x14 (7.2 M) 0.130 -> 0.110;
///  - beyond kMaxWinogradBytes of transformed inputs and products, they
///    stream from memory, C + F values per tile for the C * F products it
///    saves: it pays only from C * F / (C + F) = kMinStreamedWinogradRatio
///    on: 32 -> 64 on 147x147 (32 MiB, ratio 21) 8.05 -> 10.07 ms, 48 -> 96
///    on 112x112 (ratio 32) 12.1 -> 12.2, 64 -> 64 (32) 9.7 -> 8.8, 64 ->
///    128 (43) 19.2 -> 16.6, 128 -> 128 (64) 37.8 -> 28.1, 80 -> 192 on
///    71x71 (56) 13.8 -> 10.7;
///  - below kMinWinogradTiles tiles (batch included), the products read
///    their weights, 16/9 as many as the direct conv's, from memory (a
///    model's weights do not stay in cache from one run to the next) for
///    too few multiply-adds each: 512 -> 512 on 7x7 (16 tiles, 16 MB of
///    weights against 9 MB), ResNet-50 in utils/bench.py (1 thread, runs
///    interleaved with onnxruntime's and PyTorch's) 55.3 -> 53.9 ms direct.
bool winogradPays(const WindowGeometry &g, int64_t batch, int64_t channels,
                  int64_t filters, int64_t vectorBits);

/// `shape`, [N, C, spatial...] or (`channelsLast`) [N, spatial..., C], in
/// the order resolveWindow reads: [N, C, spatial...].
llvm::SmallVector<int64_t> nchwShape(llvm::ArrayRef<int64_t> shape,
                                     bool channelsLast);

/// The result shape of a windowed op of `n` images of `c` channels with
/// spatial sizes `outSizes`, in the layout `channelsLast` says.
llvm::SmallVector<int64_t> windowedShape(int64_t n, int64_t c,
                                         llvm::ArrayRef<int64_t> outSizes,
                                         bool channelsLast);

/// Resolves the window attributes for an input of `inShape` (N, C, spatial).
/// `kernel` is the kernel's spatial shape. Emits errors on `op`.
llvm::FailureOr<WindowGeometry>
resolveWindow(mlir::Operation *op, llvm::ArrayRef<int64_t> inShape,
              llvm::ArrayRef<int64_t> kernel, llvm::StringRef autoPad,
              std::optional<llvm::ArrayRef<int64_t>> pads,
              std::optional<llvm::ArrayRef<int64_t>> strides,
              std::optional<llvm::ArrayRef<int64_t>> dilations,
              bool ceilMode);

/// The window of a ConvTranspose: pads resolved from auto_pad or
/// output_shape as the ONNX spec says, outSizes the output spatial sizes.
/// Needs static input spatial dims.
llvm::FailureOr<WindowGeometry> resolveTransposedWindow(
    mlir::Operation *op, llvm::ArrayRef<int64_t> inShape,
    llvm::ArrayRef<int64_t> kernel, llvm::StringRef autoPad,
    std::optional<llvm::ArrayRef<int64_t>> pads,
    std::optional<llvm::ArrayRef<int64_t>> strides,
    std::optional<llvm::ArrayRef<int64_t>> dilations,
    std::optional<llvm::ArrayRef<int64_t>> outputPadding,
    std::optional<llvm::ArrayRef<int64_t>> outputShape);

/// Per-dim parameters of a Resize: scale, output size and (for
/// tf_crop_and_resize) the region of interest, from its constant operands.
struct ResizeGeometry {
  llvm::SmallVector<double> scales;
  llvm::SmallVector<int64_t> outSizes;
  llvm::SmallVector<double> roiStart, roiEnd;
};

/// Resolves scales/sizes/roi/axes/keep_aspect_ratio_policy of `op` for an
/// input of static `inShape` as the ONNX spec does; nullopt when scales or
/// sizes are not constants. Emits errors on `op`.
llvm::FailureOr<std::optional<ResizeGeometry>>
resolveResize(ResizeOp op, llvm::ArrayRef<int64_t> inShape);

/// An Einsum equation resolved for operands of known ranks: each operand's
/// and the output's dims as loop numbers (a letter, or one dim of the
/// ellipsis, is one loop; a letter repeated in an operand reads a diagonal),
/// and each loop's size (ShapedType::kDynamic where unknown).
struct EinsumSpec {
  llvm::SmallVector<llvm::SmallVector<int64_t>> operands;
  llvm::SmallVector<int64_t> output;
  llvm::SmallVector<int64_t> loopSizes;
};

/// Parses `equation` ("bij,bjk->bik", "...ii->...i", "ij" with an implicit
/// output of the letters used once, alphabetically) for operands of
/// `shapes`. Emits errors on `op`.
llvm::FailureOr<EinsumSpec>
resolveEinsum(mlir::Operation *op, llvm::StringRef equation,
              llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes);

/// One activation function of a recurrent op (RNN, GRU, LSTM): its name
/// lower-cased and its alpha/beta (the attribute's or the default).
struct RecurrentActivation {
  std::string name;
  float alpha = 0, beta = 0;
};

/// The activation functions of recurrent `op`, `defaults.size()` per
/// direction for each of `numDirections` directions in turn, from its
/// activations/activation_alpha/activation_beta attributes or `defaults`.
/// Emits errors on `op` (unknown name, wrong count).
llvm::FailureOr<llvm::SmallVector<RecurrentActivation>>
resolveRecurrentActivations(mlir::Operation *op, int64_t numDirections,
                            llvm::ArrayRef<llvm::StringRef> defaults);

/// Prints a shape as [1,3,?,224].
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Broadcasts two shapes the way numpy and ONNX do; failure if they clash.
llvm::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// The values of a constant integer tensor (DenseElementsAttr or
/// dense_resource), or nullopt when `value` is not such a constant.
std::optional<llvm::SmallVector<int64_t>> getConstantInts(mlir::Value value);

/// Which dims of a rank-`rank` tensor a Reduce* op with `axes` (an i64
/// tensor or `none`) reduces; nullopt when the axes are not constant.
/// Expects verified axes.
std::optional<llvm::SmallVector<bool>>
reducedDims(mlir::Value axes, int64_t rank, bool noopWithEmptyAxes);

/// The single value of a scalar or one-element integer constant.
std::optional<int64_t> getConstantInt(mlir::Value value);

/// The elements of a float constant as float (f32 data only).
std::optional<llvm::SmallVector<float>> getConstantFloats(mlir::Value value);

/// An f32 constant of `type` holding `data` (a blob resource named `name`).
mlir::Value createFloatConstant(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::RankedTensorType type,
                                llvm::ArrayRef<float> data,
                                llvm::StringRef name);

/// An inference BatchNormalization as a per-channel affine map x * s + t,
/// s = scale / sqrt(var + eps) and t = B - mean * s, computed in double so
/// that what is folded from them rounds once; nullopt unless its parameters
/// are f32 constants of `channels` values each.
struct BatchNormAffine {
  llvm::SmallVector<double> scale, shift;
};
std::optional<BatchNormAffine> batchNormAffine(BatchNormalizationOp bn,
                                               int64_t channels);

/// The element type of an ONNX TensorProto.DataType value held in an
/// attribute (EyeLike's dtype), or null for types tcc does not model.
mlir::Type elementTypeOfDataType(mlir::MLIRContext *ctx, int64_t dataType);

/// Folds only make constants this small (shape sub-graphs, not weights).
constexpr int64_t kMaxFoldElements = 4096;
/// The largest rank a tensor may have: a shape operand of 2^31 elements
/// would otherwise make a result of that rank.
constexpr int64_t kMaxRank = 64;

/// The elements of an integer (or bool) constant attribute as int64, sign-
/// or zero-extended by the element type's signedness; nullopt when `attr`
/// is not one or has more than `maxElements` elements.
std::optional<llvm::SmallVector<int64_t>>
getIntValues(mlir::Attribute attr, int64_t maxElements = kMaxFoldElements);

/// getIntValues of the constant defining `value` (int32 and int64 alike).
std::optional<llvm::SmallVector<int64_t>>
getConstantIntValues(mlir::Value value);

/// The one element of a single-element constant (dense or a blob) as an
/// IntegerAttr/FloatAttr of its element type, or null.
mlir::TypedAttr getSingleElement(mlir::ElementsAttr attr);

/// A dense attribute of integer (or bool) `type` holding `values`
/// (truncated to the element width).
mlir::DenseElementsAttr makeIntElements(mlir::ShapedType type,
                                        llvm::ArrayRef<int64_t> values);

} // namespace tcc::onnx

#endif // TCC_DIALECTS_ONNX_ONNXOPS_H
