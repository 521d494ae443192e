//===- Scatter.cpp - ONNX scatters to scf loops of tensor.insert ----------===//
//
// A scatter writes data at positions read from `indices`: a loop nest over
// the updates carries the result tensor and inserts (or reduces) one
// element per iteration; bufferization makes the inserts in-place stores
// into one copy of the data. Duplicate indices apply in order, as ONNX's
// reference does.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::onnx_to_linalg;

namespace {

/// Combines the old element with an update per ONNX's `reduction`.
static Value reduce(OpBuilder &b, Location loc, StringRef reduction,
                    bool isUnsignedInt, Value old, Value update) {
  bool isFloat = isa<FloatType>(update.getType());
  if (reduction == "add")
    return addScalars(b, loc, old, update);
  if (reduction == "mul")
    return mulScalars(b, loc, old, update);
  if (reduction == "max") {
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, old, update);
    if (isUnsignedInt)
      return arith::MaxUIOp::create(b, loc, old, update);
    return arith::MaxSIOp::create(b, loc, old, update);
  }
  if (reduction == "min") {
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, old, update);
    if (isUnsignedInt)
      return arith::MinUIOp::create(b, loc, old, update);
    return arith::MinSIOp::create(b, loc, old, update);
  }
  return update;
}

/// Loops over every element of `updates`; `target` maps the loop indices
/// to the data position it writes.
static Value
scatterLoop(OpBuilder &b, Location loc, Value data, Value updates,
            StringRef reduction, bool isUnsignedInt,
            function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>
                target) {
  auto updType = cast<RankedTensorType>(updates.getType());
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d : updType.getShape()) {
    lbs.push_back(constantIndex(b, loc, 0));
    ubs.push_back(constantIndex(b, loc, d));
    steps.push_back(constantIndex(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{data},
      [&](OpBuilder &nb, Location l, ValueRange ivs,
          ValueRange iter) -> scf::ValueVector {
        SmallVector<Value> pos = target(nb, l, ivs);
        Value update = tensor::ExtractOp::create(nb, l, updates, ivs);
        if (reduction != "none") {
          Value old = tensor::ExtractOp::create(nb, l, iter[0], pos);
          update = reduce(nb, l, reduction, isUnsignedInt, old, update);
        }
        return {tensor::InsertOp::create(nb, l, update, iter[0], pos)};
      });
  return nest.results.empty() ? data : nest.results[0];
}

/// ScatterElements and the older Scatter (no reduction).
template <typename OnnxOp>
struct ScatterElementsPattern : OpConversionPattern<OnnxOp> {
  using OpConversionPattern<OnnxOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnnxOp op, typename OnnxOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    auto updType = dyn_cast<RankedTensorType>(adaptor.getUpdates().getType());
    if (!dataType || !updType || !dataType.hasStaticShape() ||
        !updType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + dataType.getRank()
                                    : op.getAxis();
    Value indices = adaptor.getIndices();
    Value result = scatterLoop(
        rewriter, op.getLoc(), adaptor.getData(), adaptor.getUpdates(),
        op.getReduction(), isUnsigned(op.getData()),
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<Value> pos(ivs);
          Value index = tensor::ExtractOp::create(b, l, indices, ivs);
          pos[axis] = wrapIndex(b, l, index, dataType.getDimSize(axis));
          return pos;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterNDPattern : OpConversionPattern<onnx::ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(onnx::ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    auto idxType = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
    auto updType = dyn_cast<RankedTensorType>(adaptor.getUpdates().getType());
    if (!dataType || !idxType || !updType || !dataType.hasStaticShape() ||
        !idxType.hasStaticShape() || !updType.hasStaticShape())
      return op.emitOpError() << "with dynamic shapes is not supported yet";
    int64_t q = idxType.getRank(), k = idxType.getShape().back();
    Value indices = adaptor.getIndices();
    Value result = scatterLoop(
        rewriter, op.getLoc(), adaptor.getData(), adaptor.getUpdates(),
        op.getReduction(), isUnsigned(op.getData()),
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<Value> at(ivs.take_front(q - 1)), pos;
          at.push_back(Value());
          for (int64_t j = 0; j < k; ++j) {
            at.back() = constantIndex(b, l, j);
            Value index = tensor::ExtractOp::create(b, l, indices, at);
            pos.push_back(wrapIndex(b, l, index, dataType.getDimSize(j)));
          }
          llvm::append_range(pos, ivs.drop_front(q - 1));
          return pos;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::onnx_to_linalg::populateScatterPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScatterElementsPattern<onnx::ScatterElementsOp>,
               ScatterElementsPattern<onnx::ScatterOp>, ScatterNDPattern>(
      converter, patterns.getContext());
}
