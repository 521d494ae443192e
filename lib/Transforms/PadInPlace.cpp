//===- PadInPlace.cpp - tcc-pad-in-place ----------------------------------===//
//
// Makes the ops that compute a tensor a convolution pads write it straight
// into the padded buffer's interior: tensor.pad of the result of a chain
// of linalg ops (a bias, a convolution, its activation) that starts from a
// tensor.empty becomes a filled padded tensor whose interior slice is the
// chain's init, and an insert_slice that one-shot bufferization does in
// place. Without it, the padded copy is a pass of its own over the map.
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

/// The shortest innermost dim a source is padded in place with: a 7x7 map
/// still fills most of a register tile's runs of 8 map positions.
constexpr int64_t kMinRow = 7;

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

/// Rewrites `pad` when its source is computed into a tensor.empty; the
/// ops that write into that tensor.empty on the way to the source (the
/// source's chain and the chains of the linalg inputs of its ops that
/// start from the same tensor.empty) write into the padded interior.
void padInPlace(RewriterBase &b, tensor::PadOp pad) {
  auto srcType = dyn_cast<RankedTensorType>(pad.getSourceType());
  Value padValue = pad.getConstantPaddingValue();
  if (!srcType || !srcType.hasStaticShape() ||
      !pad.getResultType().hasStaticShape() || !padValue ||
      !padValue.getDefiningOp<arith::ConstantOp>() ||
      !pad.getStaticLow().size() ||
      llvm::any_of(pad.getMixedLowPad(), [](OpFoldResult r) {
        return !getConstantIntValue(r);
      }))
    return;
  // The interior is not contiguous: a 1x1 convolution computing it is not
  // a matmul over the flattened map any more. It runs its output channels
  // along the vector and stores transposed runs along the rows
  // (tcc-vectorize-contractions), which costs less than a copy of the map.
  if (srcType.getRank() < 1 || srcType.getShape().back() < kMinRow)
    return;
  SetVector<Operation *> chain;
  tensor::EmptyOp root = rootEmpty(pad.getSource(), chain);
  if (!root || !pad.getSource().hasOneUse())
    return;
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
  Value fill =
      linalg::FillOp::create(b, loc, value, padded.getResult()).getResult(0);
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
