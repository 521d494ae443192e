//===- PadInPlace.cpp - tcc-pad-in-place ----------------------------------===//
//
// Makes the ops that compute a tensor a convolution pads write it straight
// into the padded buffer's interior: tensor.pad of the result of a chain
// of linalg ops (a bias, a convolution, its activation) that starts from a
// tensor.empty becomes a filled padded tensor whose interior slice is the
// chain's init, and an insert_slice that one-shot bufferization does in
// place. Without it, the padded copy is a pass of its own over the map.
// Every static pad (in place or copied) fills only its border.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_PADINPLACE
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// The shortest run of contiguous elements (the dims from the innermost
/// padded one on) a source is padded in place with: a 7x7 NCHW map still
/// fills most of a register tile's runs of 8 map positions; a channels-last
/// map's runs are rows of pixels.
constexpr int64_t kMinRow = 7;

/// The elements of `pad`'s source contiguous in the padded buffer: the
/// product of its dims from the innermost padded one on.
int64_t interiorRun(tensor::PadOp pad) {
  ArrayRef<int64_t> shape = pad.getSourceType().getShape();
  ArrayRef<int64_t> padded = pad.getResultType().getShape();
  int64_t run = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    run *= shape[d];
    if (padded[d] != shape[d])
      break;
  }
  return run;
}

/// The border fraction (1 / kMaxBorder) above which a padded tensor is
/// filled whole.
constexpr int64_t kMaxBorder = 8;

/// The tensor.empty that `v` is computed into (through the inits of linalg
/// ops with one init), and the ops on the way.
tensor::EmptyOp rootEmpty(Value v, SetVector<Operation *> &chain) {
  while (auto op = v.getDefiningOp<linalg::LinalgOp>()) {
    if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
      return {};
    chain.insert(op);
    v = op.getDpsInitOperand(0)->get();
  }
  return v.getDefiningOp<tensor::EmptyOp>();
}

/// `padded` (a tensor.empty of the padded shape) with `value` in its
/// border around the interior of shape `interior` at offsets `low`, and
/// undefined inside it: one fill per padded side, of the slab before or
/// after the interior along that dim, within the interior along the dims
/// before it (the slabs do not overlap) and whole along the dims after.
/// The interior is written once, by whatever computes it, rather than
/// filled first: a 96x114x114 map is 5 MB of memset. A border of more than
/// kMaxBorder of the tensor (a 7x7 map padded to 11x11) is filled whole
/// instead: one memset costs less than the slabs' short runs, and it
/// brings the small tensor into cache for the writes that follow.
Value fillBorder(OpBuilder &b, Location loc, Value padded, Value value,
                 ArrayRef<int64_t> low, ArrayRef<int64_t> interior) {
  auto type = cast<RankedTensorType>(padded.getType());
  ArrayRef<int64_t> shape = type.getShape();
  if ((type.getNumElements() - ShapedType::getNumElements(interior)) *
          kMaxBorder >
      type.getNumElements())
    return linalg::FillOp::create(b, loc, value, padded).getResult(0);
  SmallVector<OpFoldResult> strides(shape.size(), b.getIndexAttr(1));
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t high = shape[d] - low[d] - interior[d];
    for (auto [start, extent] : {std::pair(int64_t(0), low[d]),
                                 std::pair(low[d] + interior[d], high)}) {
      if (extent == 0)
        continue;
      SmallVector<OpFoldResult> offsets, sizes;
      SmallVector<int64_t> slabShape;
      for (unsigned i = 0; i < shape.size(); ++i) {
        offsets.push_back(b.getIndexAttr(i < d ? low[i] : i == d ? start : 0));
        slabShape.push_back(i < d ? interior[i] : i == d ? extent : shape[i]);
        sizes.push_back(b.getIndexAttr(slabShape.back()));
      }
      Value slab = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get(slabShape, type.getElementType()),
          padded, offsets, sizes, strides);
      Value filled = linalg::FillOp::create(b, loc, value, slab).getResult(0);
      padded = tensor::InsertSliceOp::create(b, loc, filled, padded, offsets,
                                             sizes, strides);
    }
  }
  return padded;
}

/// Whether `pad` is a static constant padding this pass rewrites; its low
/// padding goes into `low`.
bool isStaticPad(tensor::PadOp pad, SmallVectorImpl<int64_t> &low) {
  auto srcType = dyn_cast<RankedTensorType>(pad.getSourceType());
  Value padValue = pad.getConstantPaddingValue();
  if (!srcType || !srcType.hasStaticShape() ||
      !pad.getResultType().hasStaticShape() || !padValue ||
      !padValue.getDefiningOp<arith::ConstantOp>() || srcType.getRank() == 0)
    return false;
  for (OpFoldResult r : pad.getMixedLowPad()) {
    std::optional<int64_t> v = getConstantIntValue(r);
    if (!v)
      return false;
    low.push_back(*v);
  }
  return true;
}

/// Replaces `pad` by its source inserted into a padded tensor whose border
/// alone is filled (for pads not computed in place: of a function's
/// input, or of a tensor with other uses).
void padByCopy(RewriterBase &b, tensor::PadOp pad, ArrayRef<int64_t> low) {
  Location loc = pad.getLoc();
  b.setInsertionPoint(pad);
  auto srcType = cast<RankedTensorType>(pad.getSourceType());
  auto padded = tensor::EmptyOp::create(b, loc, pad.getResultType().getShape(),
                                        srcType.getElementType());
  // The constant may be in the pad's region, which goes with it.
  Value value =
      b.clone(*pad.getConstantPaddingValue().getDefiningOp())->getResult(0);
  Value border = fillBorder(b, loc, padded, value, low, srcType.getShape());
  SmallVector<OpFoldResult> strides(srcType.getRank(), b.getIndexAttr(1));
  b.replaceOpWithNewOp<tensor::InsertSliceOp>(
      pad, pad.getSource(), border, pad.getMixedLowPad(),
      getAsIndexOpFoldResult(b.getContext(), srcType.getShape()), strides);
}

/// Rewrites `pad` when its source is computed into a tensor.empty; the
/// ops that write into that tensor.empty on the way to the source (the
/// source's chain and the chains of the linalg inputs of its ops that
/// start from the same tensor.empty) write into the padded interior.
void padInPlace(RewriterBase &b, tensor::PadOp pad) {
  SmallVector<int64_t> low;
  if (!isStaticPad(pad, low))
    return;
  auto srcType = cast<RankedTensorType>(pad.getSourceType());
  Value padValue = pad.getConstantPaddingValue();
  // The interior is not contiguous: a 1x1 convolution computing it is not
  // a matmul over the flattened map any more. It runs its output channels
  // along the vector and stores transposed runs along the rows
  // (tcc-vectorize-contractions), which costs less than a copy of the map.
  SetVector<Operation *> chain;
  tensor::EmptyOp root = rootEmpty(pad.getSource(), chain);
  if (interiorRun(pad) < kMinRow || !root ||
      !pad.getSource().hasOneUse())
    return padByCopy(b, pad, low);
  for (size_t i = 0; i < chain.size(); ++i)
    for (OpOperand *in : cast<linalg::LinalgOp>(chain[i]).getDpsInputOperands()) {
      SetVector<Operation *> inputChain;
      if (rootEmpty(in->get(), inputChain) == root)
        chain.insert(inputChain.begin(), inputChain.end());
    }

  Location loc = pad.getLoc();
  b.setInsertionPoint(root);
  auto padded = tensor::EmptyOp::create(b, loc, pad.getResultType().getShape(),
                                        srcType.getElementType());
  Value value = b.clone(*padValue.getDefiningOp())->getResult(0);
  Value fill = fillBorder(b, loc, padded, value, low, srcType.getShape());
  SmallVector<OpFoldResult> offsets = pad.getMixedLowPad();
  SmallVector<OpFoldResult> sizes, strides(srcType.getRank(), b.getIndexAttr(1));
  for (int64_t size : srcType.getShape())
    sizes.push_back(b.getIndexAttr(size));
  Value interior = tensor::ExtractSliceOp::create(b, loc, srcType, fill,
                                                  offsets, sizes, strides);
  b.replaceUsesWithIf(root.getResult(), interior, [&](OpOperand &use) {
    return chain.contains(use.getOwner());
  });
  if (root->use_empty())
    b.eraseOp(root);
  b.setInsertionPoint(pad);
  b.replaceOpWithNewOp<tensor::InsertSliceOp>(pad, pad.getSource(), fill,
                                              offsets, sizes, strides);
}

struct PadInPlace : tcc::impl::PadInPlaceBase<PadInPlace> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    IRRewriter b(&getContext());
    for (tensor::PadOp pad : pads)
      padInPlace(b, pad);
  }
};

} // namespace
