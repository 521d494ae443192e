//===- Rearrange.cpp - ONNX split, pad, block moves and masks to linalg ---===//
#include "Patterns.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Split: one extract_slice per output.
struct SplitPattern : OpConversionPattern<onnx::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value r : op.getResults())
      if (auto t = dyn_cast<RankedTensorType>(r.getType());
          !t || !t.hasStaticShape())
        return op.emitOpError()
               << (isa<NoneType>(op.getSplit().getType()) ||
                           matchPattern(op.getSplit(), m_Constant())
                       ? "with dynamic shapes is not supported yet"
                       : "needs constant split sizes (here computed at run "
                         "time); dynamic shapes are not supported yet");
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t rank = inType.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    SmallVector<Value> results;
    int64_t offset = 0;
    for (Value r : op.getResults()) {
      auto type = cast<RankedTensorType>(toSignless(r.getType()));
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      offsets[axis] = offset;
      offset += type.getDimSize(axis);
      // extract_slice wants offsets inside the source, even for no elements.
      if (type.getNumElements() == 0) {
        results.push_back(tensor::EmptyOp::create(
            rewriter, op.getLoc(), type.getShape(), type.getElementType()));
        continue;
      }
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, op.getLoc(), type, adaptor.getInput(), ValueRange{},
          ValueRange{}, ValueRange{}, offsets, type.getShape(), strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Pad: tensor.pad in constant mode (after an extract_slice for negative
/// pads); reflect/edge/wrap read the input at a folded-back index.
/// Crops the dims with negative pads, then pads those with positive ones
/// with `value`. `data` is static.
static Value cropAndPad(OpBuilder &b, Location loc, Value data,
                        SmallVector<int64_t> begin, SmallVector<int64_t> end,
                        Value value) {
  auto inType = cast<RankedTensorType>(data.getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> offsets, sizes, strides(rank, 1);
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = std::max<int64_t>(0, -begin[d]);
    int64_t hi = std::max<int64_t>(0, -end[d]);
    crop |= lo || hi;
    offsets.push_back(lo);
    sizes.push_back(inType.getDimSize(d) - lo - hi);
    begin[d] = std::max<int64_t>(0, begin[d]);
    end[d] = std::max<int64_t>(0, end[d]);
  }
  if (crop)
    data = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(sizes, inType.getElementType()), data,
        ValueRange{}, ValueRange{}, ValueRange{}, offsets, sizes, strides);
  return padTrailing(b, loc, data, begin, end, value);
}

/// CenterCropPad: constant-mode crop and zero pad, centered.
struct CenterCropPadPattern : OpConversionPattern<onnx::CenterCropPadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::CenterCropPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, op.getShape(), "shape")))
      return failure();
    auto pads = op.getStaticPads();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getInputData().getType());
    if (!pads || !inType || !inType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Value zero = constantScalar(rewriter, op.getLoc(),
                                inType.getElementType(), 0.0);
    rewriter.replaceOp(op, cropAndPad(rewriter, op.getLoc(),
                                      adaptor.getInputData(), pads->first,
                                      pads->second, zero));
    return success();
  }
};

struct PadPattern : OpConversionPattern<onnx::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, ValueRange{op.getPads(), op.getAxes()},
                                   "pads and axes")))
      return failure();
    auto pads = op.getStaticPads();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (!pads || !inType || !inType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Location loc = op.getLoc();
    auto [begin, end] = *pads;
    Value data = adaptor.getData();
    StringRef mode = op.getMode();
    if (mode == "constant") {
      Value value;
      if (isa<NoneType>(adaptor.getConstantValue().getType())) {
        value = constantScalar(rewriter, loc, type.getElementType(), 0.0);
      } else {
        auto vType =
            cast<RankedTensorType>(adaptor.getConstantValue().getType());
        SmallVector<Value> at(vType.getRank(), constantIndex(rewriter, loc, 0));
        value = tensor::ExtractOp::create(rewriter, loc,
                                          adaptor.getConstantValue(), at);
      }
      rewriter.replaceOp(op, cropAndPad(rewriter, loc, data, begin, end,
                                        value));
      return success();
    }
    if (llvm::any_of(begin, [](int64_t p) { return p < 0; }) ||
        llvm::any_of(end, [](int64_t p) { return p < 0; }))
      return op.emitOpError() << "with negative pads in mode '" << mode
                              << "' is not supported yet";
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<Value> src;
          for (int64_t d = 0; d < type.getRank(); ++d) {
            int64_t n = inType.getDimSize(d);
            Value i = arith::SubIOp::create(b, l, ivs[d],
                                            constantIndex(b, l, begin[d]));
            if (begin[d] == 0 && end[d] == 0) {
              src.push_back(ivs[d]);
              continue;
            }
            Value zero = constantIndex(b, l, 0);
            Value last = constantIndex(b, l, n - 1);
            if (mode == "edge") {
              i = arith::MaxSIOp::create(b, l, i, zero);
              i = arith::MinSIOp::create(b, l, i, last);
            } else if (mode == "wrap") {
              Value size = constantIndex(b, l, n);
              // ((i mod n) + n) mod n, for i below zero too.
              i = arith::RemSIOp::create(b, l, i, size);
              i = arith::AddIOp::create(b, l, i, size);
              i = arith::RemSIOp::create(b, l, i, size);
            } else {
              // reflect: mirror at 0 and at n-1 (without repeating the
              // edge), period 2(n-1), so pads may exceed the dim.
              Value period = constantIndex(b, l, std::max<int64_t>(1, 2 * (n - 1)));
              i = arith::RemSIOp::create(b, l, i, period);
              i = arith::AddIOp::create(b, l, i, period);
              i = arith::RemSIOp::create(b, l, i, period);
              Value mirrored = arith::SubIOp::create(b, l, period, i);
              Value past = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sgt, i, last);
              i = arith::SelectOp::create(b, l, past, mirrored, i);
            }
            src.push_back(i);
          }
          return tensor::ExtractOp::create(b, l, data, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// DepthToSpace and SpaceToDepth: out(n, c, h, w) reads one input element
/// whose channel mixes c with the position in the block (DCR: blocks
/// outermost in the channel dim; CRD: channels outermost).
template <typename OnnxOp, bool ToSpace>
struct BlockPattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    if (!inType || !inType.hasStaticShape() || !type.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    int64_t bs = op.getBlocksize();
    bool dcr = op.getMode() == "DCR";
    // Channels of the space-side tensor.
    int64_t c = ToSpace ? type.getDimSize(1) : inType.getDimSize(1);
    Value input = adaptor.getInput();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          auto cst = [&](int64_t v) { return constantIndex(b, l, v); };
          auto add = [&](Value x, Value y) {
            return arith::AddIOp::create(b, l, x, y).getResult();
          };
          auto mul = [&](Value x, int64_t y) {
            return arith::MulIOp::create(b, l, x, cst(y)).getResult();
          };
          auto div = [&](Value x, int64_t y) {
            return arith::DivUIOp::create(b, l, x, cst(y)).getResult();
          };
          auto rem = [&](Value x, int64_t y) {
            return arith::RemUIOp::create(b, l, x, cst(y)).getResult();
          };
          // Deep channel of (space channel ch, block row bh, block col bw).
          auto deep = [&](Value ch, Value bh, Value bw) {
            Value block = add(mul(bh, bs), bw);
            return dcr ? add(mul(block, c), ch) : add(mul(ch, bs * bs), block);
          };
          if (ToSpace) {
            Value bh = rem(ivs[2], bs), bw = rem(ivs[3], bs);
            return tensor::ExtractOp::create(
                       b, l, input,
                       ValueRange{ivs[0], deep(ivs[1], bh, bw),
                                  div(ivs[2], bs), div(ivs[3], bs)})
                .getResult();
          }
          Value ch, block;
          if (dcr) {
            ch = rem(ivs[1], c);
            block = div(ivs[1], c);
          } else {
            ch = div(ivs[1], bs * bs);
            block = rem(ivs[1], bs * bs);
          }
          // One call per statement: the IR order is fixed.
          Value bh = div(block, bs);
          Value h = add(mul(ivs[2], bs), bh);
          Value bw = rem(block, bs);
          Value w = add(mul(ivs[3], bs), bw);
          return tensor::ExtractOp::create(b, l, input,
                                           ValueRange{ivs[0], ch, h, w})
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The (row, col) indices of the last two dims as i64, and `col - row`.
static Value diagonalOffset(OpBuilder &b, Location loc, ValueRange ivs) {
  Value row = ivs[ivs.size() - 2], col = ivs.back();
  Value diff = arith::SubIOp::create(b, loc, col, row);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), diff);
}

/// Trilu: keeps elements with col - row >= k (upper) or <= k (lower); k may
/// be a run-time value.
struct TriluPattern : OpConversionPattern<onnx::TriluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::TriluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    if (!type.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Location loc = op.getLoc();
    Value k;
    if (isa<NoneType>(adaptor.getK().getType())) {
      k = constantScalar(rewriter, loc, rewriter.getI64Type(), 0.0);
    } else {
      auto kType = cast<RankedTensorType>(adaptor.getK().getType());
      SmallVector<Value> at(kType.getRank(), constantIndex(rewriter, loc, 0));
      k = tensor::ExtractOp::create(rewriter, loc, adaptor.getK(), at);
    }
    Value input = adaptor.getInput();
    bool upper = op.getUpper() != 0;
    Value zero = constantScalar(rewriter, loc, type.getElementType(), 0.0);
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value x = tensor::ExtractOp::create(b, l, input, ivs);
          Value keep = arith::CmpIOp::create(
              b, l, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
              diagonalOffset(b, l, ivs), k);
          return arith::SelectOp::create(b, l, keep, x, zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// ReverseSequence: y[.., t, ..] = x[.., len[b] - 1 - t, ..] for t < len[b]
/// (len clamped to the time dim), else x itself.
struct ReverseSequencePattern : OpConversionPattern<onnx::ReverseSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ReverseSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    if (!type.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Location loc = op.getLoc();
    int64_t batchAxis = op.getBatchAxis(), timeAxis = op.getTimeAxis();
    Value input = adaptor.getInput(), lens = adaptor.getSequenceLens();
    int64_t steps = type.getDimSize(timeAxis);
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value len = arith::IndexCastOp::create(
              b, l, b.getIndexType(),
              tensor::ExtractOp::create(b, l, lens, ivs[batchAxis]));
          len = arith::MinSIOp::create(b, l, len, constantIndex(b, l, steps));
          Value t = ivs[timeAxis];
          Value reversed = arith::SubIOp::create(
              b, l, arith::SubIOp::create(b, l, len, constantIndex(b, l, 1)),
              t);
          Value inside =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, t, len);
          SmallVector<Value> src(ivs);
          src[timeAxis] = arith::SelectOp::create(b, l, inside, reversed, t);
          return tensor::ExtractOp::create(b, l, input, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// EyeLike: 1 where col - row == k.
struct EyeLikePattern : OpConversionPattern<onnx::EyeLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::EyeLikeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    if (!type.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Location loc = op.getLoc();
    Type elem = type.getElementType();
    Value k = constantScalar(rewriter, loc, rewriter.getI64Type(),
                             (double)op.getK());
    Value one = constantScalar(rewriter, loc, elem, 1.0);
    Value zero = constantScalar(rewriter, loc, elem, 0.0);
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value on = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                           diagonalOffset(b, l, ivs), k);
          return arith::SelectOp::create(b, l, on, one, zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateRearrangePatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SplitPattern, PadPattern, CenterCropPadPattern,
               ReverseSequencePattern,
               BlockPattern<onnx::DepthToSpaceOp, true>,
               BlockPattern<onnx::SpaceToDepthOp, false>, TriluPattern,
               EyeLikePattern>(converter, patterns.getContext());
}
