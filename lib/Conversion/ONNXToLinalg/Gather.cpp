//===- Gather.cpp - ONNX gathers, slices and tiling to tensor/linalg ------===//
//
// Ops that read their input at computed positions: a linalg.generic over
// the result whose body extracts the source element (buildIndexed), or a
// strided tensor.extract_slice where one suffices.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

struct GatherPattern : OpConversionPattern<onnx::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    auto indicesType =
        dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
    if (failed(requireStaticResult(op, {}, "")))
      return failure();
    if (!dataType || !indicesType || !dataType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + dataType.getRank()
                                    : op.getAxis();
    int64_t qRank = indicesType.getRank();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    // One constant index, scalar or in a 1-d tensor (torch's x[0], multi-head
    // attention's q, k, v out of one projection): a slice, which bufferizes
    // to a view of the data rather than a copy. The verifier has checked it
    // is in range.
    DenseIntElementsAttr constant;
    if (qRank <= 1 && matchPattern(indices, m_Constant(&constant)) &&
        constant.getNumElements() == 1) {
      int64_t size = dataType.getDimSize(axis);
      int64_t index = (*constant.value_begin<APInt>()).getSExtValue();
      SmallVector<OpFoldResult> offsets(dataType.getRank(),
                                        rewriter.getIndexAttr(0));
      offsets[axis] = rewriter.getIndexAttr(index < 0 ? index + size : index);
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(rewriter.getContext(), dataType.getShape());
      sizes[axis] = rewriter.getIndexAttr(1);
      SmallVector<OpFoldResult> strides(dataType.getRank(),
                                        rewriter.getIndexAttr(1));
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, type, data, offsets, sizes, strides);
      return success();
    }
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value index = tensor::ExtractOp::create(
              b, loc, indices, ivs.slice(axis, qRank));
          SmallVector<Value> src(ivs.take_front(axis));
          src.push_back(
              wrapIndex(b, loc, index, dataType.getDimSize(axis)));
          src.append(ivs.begin() + axis + qRank, ivs.end());
          return tensor::ExtractOp::create(b, loc, data, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Slice: a strided extract_slice for positive steps, an indexed copy
/// (start + i * step) when some step is negative.
struct SlicePattern : OpConversionPattern<onnx::SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(
            op,
            ValueRange{op.getStarts(), op.getEnds(), op.getAxes(),
                       op.getSteps()},
            "starts, ends, axes and steps")))
      return failure();
    auto resolved = op.resolve();
    if (failed(resolved))
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    if (type.getNumElements() == 0) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                   type.getElementType());
      return success();
    }
    if (llvm::all_of(*resolved, [](auto &r) { return r[1] > 0; })) {
      SmallVector<int64_t> offsets, strides;
      for (auto &r : *resolved) {
        offsets.push_back(r[0]);
        strides.push_back(r[1]);
      }
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, type, data, ValueRange{}, ValueRange{}, ValueRange{}, offsets,
          type.getShape(), strides);
      return success();
    }
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<Value> src;
          for (auto [iv, r] : llvm::zip_equal(ivs, *resolved)) {
            Value scaled = arith::MulIOp::create(b, l, iv,
                                                 constantIndex(b, l, r[1]));
            src.push_back(arith::AddIOp::create(b, l, scaled,
                                                constantIndex(b, l, r[0])));
          }
          return tensor::ExtractOp::create(b, l, data, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Tile: result[i] = input[i mod dim].
struct TilePattern : OpConversionPattern<onnx::TileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, op.getRepeats(), "repeats")))
      return failure();
    auto inType = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
    if (!inType || !inType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    Value input = adaptor.getInput();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          SmallVector<Value> src;
          for (auto [d, iv] : llvm::enumerate(ivs))
            src.push_back(arith::RemUIOp::create(
                b, loc, iv, constantIndex(b, loc, inType.getDimSize(d))));
          return tensor::ExtractOp::create(b, loc, input, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherElementsPattern : OpConversionPattern<onnx::GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (failed(requireStaticResult(op, {}, "")))
      return failure();
    if (!dataType || !dataType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + dataType.getRank()
                                    : op.getAxis();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          SmallVector<Value> src(ivs);
          Value index = tensor::ExtractOp::create(b, loc, indices, ivs);
          src[axis] = wrapIndex(b, loc, index, dataType.getDimSize(axis));
          return tensor::ExtractOp::create(b, loc, data, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// GatherND: out[batch, i, rest] = data[batch, indices[batch, i, :], rest].
struct GatherNDPattern : OpConversionPattern<onnx::GatherNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    auto idxType = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
    if (failed(requireStaticResult(op, {}, "")))
      return failure();
    if (!dataType || !idxType || !dataType.hasStaticShape() ||
        !idxType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    int64_t batch = op.getBatchDims(), q = idxType.getRank();
    int64_t k = idxType.getShape().back();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          SmallVector<Value> src(ivs.take_front(batch));
          SmallVector<Value> at(ivs.take_front(q - 1));
          at.push_back(Value());
          for (int64_t j = 0; j < k; ++j) {
            at.back() = constantIndex(b, loc, j);
            Value index = tensor::ExtractOp::create(b, loc, indices, at);
            src.push_back(
                wrapIndex(b, loc, index, dataType.getDimSize(batch + j)));
          }
          llvm::append_range(src, ivs.drop_front(q - 1));
          return tensor::ExtractOp::create(b, loc, data, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// OneHot: values[1] where the (wrapped) index equals the position along
/// the new axis, else values[0]; indices out of [-depth, depth) match
/// nothing.
struct OneHotPattern : OpConversionPattern<onnx::OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticResult(op, op.getDepth(), "depth")))
      return failure();
    auto type = cast<RankedTensorType>(toSignless(op.getType()));
    auto idxType = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
    if (!idxType)
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + type.getRank()
                                    : op.getAxis();
    int64_t depth = type.getDimSize(axis);
    Location loc = op.getLoc();
    Value values = adaptor.getValues();
    Value off = tensor::ExtractOp::create(rewriter, loc, values,
                                          ValueRange{constantIndex(rewriter, loc, 0)});
    Value on = tensor::ExtractOp::create(rewriter, loc, values,
                                         ValueRange{constantIndex(rewriter, loc, 1)});
    Value indices = adaptor.getIndices();
    bool floatIndices = isa<FloatType>(idxType.getElementType());
    bool unsignedIndices = isUnsigned(op.getIndices());
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<Value> at(ivs.take_front(axis));
          at.append(ivs.begin() + axis + 1, ivs.end());
          Value index = tensor::ExtractOp::create(b, l, indices, at);
          if (floatIndices)
            index = arith::FPToSIOp::create(b, l, b.getI64Type(), index);
          else if (unsignedIndices)
            index = arith::IndexCastUIOp::create(b, l, b.getIndexType(), index);
          Value wrapped = wrapIndex(b, l, index, depth);
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            wrapped, ivs[axis]);
          return arith::SelectOp::create(b, l, hit, on, off);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// NonZero: one scan over the input in row-major order writes the index of
/// each non-zero element into column `count` of a [rank, n] buffer (n: the
/// input's elements, room for all), then counts it. The result is the
/// buffer's first `count` columns: a tensor whose dim 1 is known at run time
/// (tcc-bound-dynamic-results turns a model output of it into the buffer
/// and its dims).
struct NonZeroPattern : OpConversionPattern<onnx::NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || !xType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Location loc = op.getLoc();
    int64_t rank = xType.getRank(), n = xType.getNumElements();
    Type i64 = rewriter.getI64Type(), elem = xType.getElementType();
    Value buffer =
        createFilled(rewriter, loc, RankedTensorType::get({rank, n}, i64),
                     constantScalar(rewriter, loc, i64, 0.0));
    Value zero = constantIndex(rewriter, loc, 0);
    Value one = constantIndex(rewriter, loc, 1);
    auto scan = scf::ForOp::create(
        rewriter, loc, zero, constantIndex(rewriter, loc, n), one,
        ValueRange{buffer, zero},
        [&](OpBuilder &b, Location l, Value flat, ValueRange args) {
          // The element's index, from its row-major position.
          SmallVector<Value> index;
          int64_t stride = n;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t size = xType.getDimSize(d);
            stride /= size;
            Value i = arith::DivUIOp::create(b, l, flat,
                                             constantIndex(b, l, stride));
            index.push_back(
                arith::RemUIOp::create(b, l, i, constantIndex(b, l, size)));
          }
          Value v = tensor::ExtractOp::create(b, l, x, index);
          Value nonZero =
              isa<FloatType>(elem)
                  ? arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                          constantScalar(b, l, elem, 0.0))
                        .getResult()
                  : arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                                          constantScalar(b, l, elem, 0.0))
                        .getResult();
          auto write = scf::IfOp::create(
              b, l, nonZero,
              [&](OpBuilder &tb, Location tl) {
                Value t = args[0];
                for (int64_t r = 0; r < rank; ++r)
                  t = tensor::InsertOp::create(
                      tb, tl,
                      arith::IndexCastOp::create(tb, tl, i64, index[r]), t,
                      ValueRange{constantIndex(tb, tl, r), args[1]});
                scf::YieldOp::create(
                    tb, tl,
                    ValueRange{t, arith::AddIOp::create(tb, tl, args[1],
                                                        constantIndex(tb, tl, 1))});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, args);
              });
          scf::YieldOp::create(b, l, write.getResults());
        });
    replaceByLeadingBlock(rewriter, op, scan.getResult(0),
                          {rewriter.getIndexAttr(rank), scan.getResult(1)});
    return success();
  }
};

/// Compress: one loop over the condition (up to the dim's end) copies each
/// kept slice along the axis (an element of the flattened input, without
/// one) to position `count` of a buffer with room for all, then counts it.
/// The result is the buffer's first `count` slices, a dim known at run time
/// as NonZero's.
struct CompressPattern : OpConversionPattern<onnx::CompressOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::CompressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput(), condition = adaptor.getCondition();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto cType = dyn_cast<RankedTensorType>(condition.getType());
    if (!xType || !xType.hasStaticShape() || !cType || !cType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    Location loc = op.getLoc();
    int64_t axis = 0;
    if (op.getAxis()) {
      axis = *op.getAxis() < 0 ? *op.getAxis() + xType.getRank()
                               : *op.getAxis();
    } else if (xType.getRank() != 1) {
      ReassociationIndices all;
      for (int64_t d = 0; d < xType.getRank(); ++d)
        all.push_back(d);
      x = tensor::CollapseShapeOp::create(rewriter, loc, x,
                                          ArrayRef<ReassociationIndices>{all});
      xType = cast<RankedTensorType>(x.getType());
    }
    int64_t rank = xType.getRank();
    int64_t length =
        std::min(cType.getDimSize(0), xType.getDimSize(axis));
    SmallVector<int64_t> room(xType.getShape());
    room[axis] = length;
    Value buffer = tensor::EmptyOp::create(rewriter, loc, room,
                                           xType.getElementType());
    Value zero = constantIndex(rewriter, loc, 0);
    Value one = constantIndex(rewriter, loc, 1);
    // A slice of one along the axis at `at`.
    auto slice = [&](OpBuilder &b, Value at) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
          strides(rank, b.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(b.getIndexAttr(d == axis ? 1 : xType.getDimSize(d)));
      offsets[axis] = at;
      return std::make_tuple(offsets, sizes, strides);
    };
    auto scan = scf::ForOp::create(
        rewriter, loc, zero, constantIndex(rewriter, loc, length), one,
        ValueRange{buffer, zero},
        [&](OpBuilder &b, Location l, Value i, ValueRange args) {
          Value keep = tensor::ExtractOp::create(b, l, condition, i);
          auto copy = scf::IfOp::create(
              b, l, keep,
              [&](OpBuilder &tb, Location tl) {
                auto [from, sizes, strides] = slice(tb, i);
                Value part = tensor::ExtractSliceOp::create(
                    tb, tl, x, from, sizes, strides);
                auto [to, toSizes, toStrides] = slice(tb, args[1]);
                Value t = tensor::InsertSliceOp::create(
                    tb, tl, part, args[0], to, toSizes, toStrides);
                scf::YieldOp::create(
                    tb, tl,
                    ValueRange{t, arith::AddIOp::create(tb, tl, args[1],
                                                        constantIndex(tb, tl, 1))});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, args);
              });
          scf::YieldOp::create(b, l, copy.getResults());
        });
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(d == axis ? OpFoldResult(scan.getResult(1))
                                : rewriter.getIndexAttr(xType.getDimSize(d)));
    replaceByLeadingBlock(rewriter, op, scan.getResult(0), sizes);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateGatherPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<CompressPattern, GatherPattern, GatherElementsPattern, GatherNDPattern,
               NonZeroPattern, OneHotPattern, SlicePattern, TilePattern>(converter,
                                                         patterns.getContext());
}
