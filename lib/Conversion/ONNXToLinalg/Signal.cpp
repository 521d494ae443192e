//===- Signal.cpp - ONNX DFT and STFT to linalg ---------------------------===//
//
// Direct O(n^2) transforms: one contraction of the signal with a constant
// table W[out, in, c_in, c_out] holding cos and sin of the angles (and the
// 1/n of an inverse), so that
//   Y[..., k, ..., co] = sum over n, ci of X[..., n, ..., ci] W[k, n, ci, co].
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

enum class DFTKind { Forward, Inverse, InverseOnesided };

/// The table of a transform of `length` points from `inputs` input points
/// of `complexIn` (1 or 2) components to `outputs` output points (of 2
/// components, or 1 for InverseOnesided); input points past the transform
/// (zero padding cut off) get zeros.
///   Forward:          X e^{-2 pi i k n / L}
///   Inverse:          X e^{+2 pi i k n / L} / L
///   InverseOnesided:  Re(X[n] e^{+2 pi i k n / L}) w_n / L, with w_n = 2
///                     but for n = 0 and n = L / 2 (the Hermitian halves).
Value buildDFTTable(OpBuilder &b, Location loc, Type elem, DFTKind kind,
                    int64_t length, int64_t outputs, int64_t inputs,
                    int64_t complexIn) {
  int64_t complexOut = kind == DFTKind::InverseOnesided ? 1 : 2;
  int64_t used = kind == DFTKind::InverseOnesided ? length / 2 + 1 : length;
  SmallVector<double> values;
  values.reserve(outputs * inputs * complexIn * complexOut);
  for (int64_t k = 0; k < outputs; ++k) {
    for (int64_t n = 0; n < inputs; ++n) {
      // (k n) mod L keeps the angle small; multiples of pi/2 are exact.
      int64_t m = (k * n) % length;
      double c, s;
      if ((4 * m) % length == 0) {
        static const double quarterCos[] = {1, 0, -1, 0};
        int64_t quarter = 4 * m / length;
        c = quarterCos[quarter];
        s = quarterCos[(quarter + 3) % 4];
      } else {
        double angle = 2 * M_PI * (double)m / (double)length;
        c = std::cos(angle);
        s = std::sin(angle);
      }
      double scale = n < used ? 1.0 : 0.0;
      if (kind != DFTKind::Forward)
        scale /= (double)length;
      if (kind == DFTKind::InverseOnesided && n != 0 &&
          !(length % 2 == 0 && n == length / 2))
        scale *= 2;
      // W[ci][co]: rows real and imaginary input parts.
      double w[2][2];
      switch (kind) {
      case DFTKind::Forward: // (xr + i xi)(c - i s)
        w[0][0] = c, w[0][1] = -s, w[1][0] = s, w[1][1] = c;
        break;
      case DFTKind::Inverse: // (xr + i xi)(c + i s)
        w[0][0] = c, w[0][1] = s, w[1][0] = -s, w[1][1] = c;
        break;
      case DFTKind::InverseOnesided: // xr c - xi s
        w[0][0] = c, w[1][0] = -s, w[0][1] = w[1][1] = 0;
        break;
      }
      for (int64_t ci = 0; ci < complexIn; ++ci)
        for (int64_t co = 0; co < complexOut; ++co)
          values.push_back(scale * w[ci][co]);
    }
  }
  auto floatType = cast<FloatType>(elem);
  SmallVector<APFloat> elements;
  for (double v : values) {
    APFloat f(v);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    elements.push_back(f);
  }
  auto type =
      RankedTensorType::get({outputs, inputs, complexIn, complexOut}, elem);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, elements));
}

/// Fails with an op error unless all of `values` (tensors or `none`) are
/// static.
LogicalResult requireStaticOperands(Operation *op, ValueRange values) {
  for (Value v : values) {
    if (isa<NoneType>(v.getType()))
      continue;
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return op->emitOpError() << "with dynamic shapes is not supported yet";
  }
  return success();
}

/// DFT: the contraction over (n, ci), the signal axis replaced by n.
struct DFTPattern : OpConversionPattern<onnx::DFTOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::DFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, {op.getDftLength(), op.getAxis()},
                                   "dft_length and axis")) ||
        failed(requireStaticOperands(op, op.getInput())))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto [axis, length] = *op.getAxisAndLength();
    int64_t rank = inType.getRank();
    DFTKind kind = !op.getInverse()   ? DFTKind::Forward
                   : op.getOnesided() ? DFTKind::InverseOnesided
                                      : DFTKind::Inverse;
    Value table =
        buildDFTTable(rewriter, loc, type.getElementType(), kind, length,
                      type.getDimSize(axis), inType.getDimSize(axis),
                      inType.getShape().back());

    // Loops: the result's dims, then n and ci.
    MLIRContext *ctx = op.getContext();
    auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> xExprs, outExprs;
    for (int64_t i = 0; i < rank; ++i)
      outExprs.push_back(dim(i));
    xExprs = outExprs;
    xExprs[axis] = dim(rank);
    xExprs.back() = dim(rank + 1);
    SmallVector<AffineExpr> wExprs = {dim(axis), dim(rank), dim(rank + 1),
                                      dim(rank - 1)};
    SmallVector<AffineMap> maps = {AffineMap::get(rank + 2, 0, xExprs, ctx),
                                   AffineMap::get(rank + 2, 0, wExprs, ctx),
                                   AffineMap::get(rank + 2, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(2, utils::IteratorType::reduction);
    Value init =
        createFilled(rewriter, loc, type,
                     constantScalar(rewriter, loc, type.getElementType(), 0.0));
    rewriter.replaceOp(op, buildProductSum(rewriter, loc,
                                           {adaptor.getInput(), table}, init,
                                           maps, iterators, std::nullopt));
    return success();
  }
};

/// STFT: Y[b, f, k, co] = sum over n, ci of
///   X[b, f * step + n, ci] window[n] W[k, n, ci, co].
struct STFTPattern : OpConversionPattern<onnx::STFTOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::STFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, {op.getFrameStep(), op.getFrameLength()},
                                   "frame_step and frame_length")) ||
        failed(requireStaticOperands(op, {op.getSignal(), op.getWindow()})))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto inType = cast<RankedTensorType>(adaptor.getSignal().getType());
    auto [step, length] = *op.getStepAndLength();
    Value table =
        buildDFTTable(rewriter, loc, type.getElementType(), DFTKind::Forward,
                      length, type.getDimSize(2), length, inType.getDimSize(2));

    // Loops: b, f, k, co, n, ci.
    MLIRContext *ctx = op.getContext();
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<Value> inputs = {adaptor.getSignal(), table};
    SmallVector<AffineMap> maps = {
        AffineMap::get(6, 0, {d(0), d(1) * step + d(4), d(5)}, ctx),
        AffineMap::get(6, 0, {d(2), d(4), d(5), d(3)}, ctx)};
    if (!isa<NoneType>(adaptor.getWindow().getType())) {
      inputs.push_back(adaptor.getWindow());
      maps.push_back(AffineMap::get(6, 0, {d(4)}, ctx));
    }
    maps.push_back(AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx));
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(2, utils::IteratorType::reduction);
    Value init =
        createFilled(rewriter, loc, type,
                     constantScalar(rewriter, loc, type.getElementType(), 0.0));
    rewriter.replaceOp(op, buildProductSum(rewriter, loc, inputs, init, maps,
                                           iterators, std::nullopt));
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateSignalPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<DFTPattern, STFTPattern>(converter, patterns.getContext());
}
