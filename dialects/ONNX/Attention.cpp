//===- Attention.cpp - verifier and shapes of Attention -------------------===//
#include "dialects/ONNX/OpUtils.h"

using namespace mlir;
using namespace tcc::onnx;
using namespace tcc::onnx::detail;

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

/// a + b, or dynamic.
static int64_t addDims(int64_t a, int64_t b) {
  return isDyn(a) || isDyn(b) ? ShapedType::kDynamic : a + b;
}

/// a / b for a hidden size split in heads, or dynamic.
static int64_t divDims(int64_t a, int64_t b) {
  return isDyn(a) || isDyn(b) || b <= 0 ? ShapedType::kDynamic : a / b;
}

/// Two dims that must agree, unless one is dynamic.
static bool clash(int64_t a, int64_t b) {
  return !isDyn(a) && !isDyn(b) && a != b;
}

std::optional<AttentionOp::Dims> AttentionOp::getDims() {
  auto q = rankedShape(getQ()), k = rankedShape(getK()),
       v = rankedShape(getV());
  if (!q || !k || !v || q->size() != k->size() || q->size() != v->size())
    return std::nullopt;
  Dims d;
  d.batch = (*q)[0];
  if (q->size() == 4) {
    d.qHeads = (*q)[1];
    d.kvHeads = (*k)[1];
    d.qSeq = (*q)[2];
    d.kvSeq = (*k)[2];
    d.headSize = (*q)[3];
    d.vHeadSize = (*v)[3];
  } else {
    if (!getQNumHeads() || !getKvNumHeads())
      return std::nullopt;
    d.qHeads = *getQNumHeads();
    d.kvHeads = *getKvNumHeads();
    d.qSeq = (*q)[1];
    d.kvSeq = (*k)[1];
    d.headSize = divDims((*q)[2], d.qHeads);
    d.vHeadSize = divDims((*v)[2], d.kvHeads);
  }
  d.pastSeq = 0;
  if (!isa<NoneType>(getPastKey().getType())) {
    auto past = rankedShape(getPastKey());
    d.pastSeq = past && past->size() == 4 ? (*past)[2] : ShapedType::kDynamic;
  }
  d.totalSeq = addDims(d.pastSeq, d.kvSeq);
  return d;
}

LogicalResult AttentionOp::verify() {
  auto q = rankedShape(getQ()), k = rankedShape(getK()),
       v = rankedShape(getV());
  if (getElementTypeOrSelf(getQ()) != getElementTypeOrSelf(getK()))
    return emitOpError() << "expects Q and K of one element type";
  if (getQkMatmulOutputMode() < 0 || getQkMatmulOutputMode() > 3)
    return emitOpError() << "expects qk_matmul_output_mode in [0, 3], got "
                         << getQkMatmulOutputMode();
  if (std::optional<int64_t> p = getSoftmaxPrecision();
      p && *p != 1 && *p != 10 && *p != 11 && *p != 16)
    return emitOpError() << "expects softmax_precision to be a float type "
                            "(1, 10, 11 or 16), got "
                         << *p;
  if (getLeftWindowSize() < -1 || getRightWindowSize() < -1)
    return emitOpError() << "expects window sizes >= -1";
  for (std::optional<int64_t> heads : {getQNumHeads(), getKvNumHeads()})
    if (heads && *heads <= 0)
      return emitOpError() << "expects q_num_heads and kv_num_heads > 0";
  if (!q || !k || !v)
    return success();

  if (q->size() != k->size() || q->size() != v->size() ||
      (q->size() != 3 && q->size() != 4))
    return emitOpError() << "expects Q, K and V of one rank, 3 or 4, got "
                         << formatShape(*q) << ", " << formatShape(*k)
                         << " and " << formatShape(*v);
  if (q->size() == 3) {
    if (!getQNumHeads() || !getKvNumHeads())
      return emitOpError()
             << "expects q_num_heads and kv_num_heads with 3-d inputs";
    auto checkHidden = [&](StringRef name, int64_t hidden,
                           int64_t heads) -> LogicalResult {
      if (!isDyn(hidden) && hidden % heads != 0)
        return emitOpError() << "expects the hidden size of " << name << " ("
                             << hidden << ") to be a multiple of its "
                             << (name == "Q" ? "q_num_heads" : "kv_num_heads")
                             << " (" << heads << ")";
      return success();
    };
    if (failed(checkHidden("Q", (*q)[2], *getQNumHeads())) ||
        failed(checkHidden("K", (*k)[2], *getKvNumHeads())) ||
        failed(checkHidden("V", (*v)[2], *getKvNumHeads())))
      return failure();
  } else {
    if (clash((*k)[1], (*v)[1]))
      return emitOpError() << "expects K and V of one number of heads, got "
                           << formatShape(*k) << " and " << formatShape(*v);
    if (getQNumHeads() && clash(*getQNumHeads(), (*q)[1]))
      return emitOpError() << "has q_num_heads " << *getQNumHeads()
                           << " but Q of shape " << formatShape(*q);
    if (getKvNumHeads() && clash(*getKvNumHeads(), (*k)[1]))
      return emitOpError() << "has kv_num_heads " << *getKvNumHeads()
                           << " but K of shape " << formatShape(*k);
  }

  Dims d = *getDims();
  if (clash((*q)[0], (*k)[0]) || clash((*q)[0], (*v)[0]))
    return emitOpError() << "expects Q, K and V of one batch size, got "
                         << formatShape(*q) << ", " << formatShape(*k)
                         << " and " << formatShape(*v);
  if (clash(d.kvSeq, q->size() == 4 ? (*v)[2] : (*v)[1]))
    return emitOpError() << "expects K and V of one sequence length, got "
                         << formatShape(*k) << " and " << formatShape(*v);
  if (clash(d.headSize, q->size() == 4 ? (*k)[3] : divDims((*k)[2], d.kvHeads)))
    return emitOpError() << "expects Q and K of one head size, got "
                         << formatShape(*q) << " and " << formatShape(*k);
  if (!isDyn(d.qHeads) && !isDyn(d.kvHeads) &&
      (d.kvHeads <= 0 || d.qHeads % d.kvHeads != 0))
    return emitOpError() << "expects the number of query heads (" << d.qHeads
                         << ") to be a multiple of the number of key/value "
                            "heads ("
                         << d.kvHeads << ")";

  // The KV cache: both or neither, (batch, kv heads, past, head size).
  bool hasPastKey = !isa<NoneType>(getPastKey().getType());
  bool hasPastValue = !isa<NoneType>(getPastValue().getType());
  if (hasPastKey != hasPastValue)
    return emitOpError() << "expects past_key and past_value together";
  if (hasPastKey) {
    if (getElementTypeOrSelf(getPastKey()) != getElementTypeOrSelf(getK()) ||
        getElementTypeOrSelf(getPastValue()) != getElementTypeOrSelf(getV()))
      return emitOpError() << "expects past_key and past_value of the element "
                              "types of K and V";
    auto checkPast = [&](StringRef name, Value past,
                         int64_t headSize) -> LogicalResult {
      auto shape = rankedShape(past);
      if (!shape)
        return success();
      if (shape->size() != 4 || clash((*shape)[0], d.batch) ||
          clash((*shape)[1], d.kvHeads) || clash((*shape)[3], headSize))
        return emitOpError() << "expects " << name << " of shape "
                             << formatShape({d.batch, d.kvHeads,
                                             ShapedType::kDynamic, headSize})
                             << ", got " << formatShape(*shape);
      return success();
    };
    if (failed(checkPast("past_key", getPastKey(), d.headSize)) ||
        failed(checkPast("past_value", getPastValue(), d.vHeadSize)))
      return failure();
    auto pk = rankedShape(getPastKey()), pv = rankedShape(getPastValue());
    if (pk && pv && clash((*pk)[2], (*pv)[2]))
      return emitOpError() << "expects past_key and past_value of one "
                              "sequence length, got "
                           << formatShape(*pk) << " and " << formatShape(*pv);
  }

  if (!isa<NoneType>(getNonpadKvSeqlen().getType())) {
    if (hasPastKey)
      return emitOpError() << "expects nonpad_kv_seqlen without past_key and "
                              "past_value";
    if (!getElementTypeOrSelf(getNonpadKvSeqlen()).isInteger(64))
      return emitOpError() << "expects nonpad_kv_seqlen of int64";
    if (auto n = rankedShape(getNonpadKvSeqlen());
        n && (n->size() != 1 || clash((*n)[0], d.batch)))
      return emitOpError() << "expects nonpad_kv_seqlen of shape "
                           << formatShape({d.batch}) << ", got "
                           << formatShape(*n);
  }

  // The mask broadcasts to (batch, q heads, q seq, total seq); its last dim
  // may be shorter (padded with -inf).
  if (isa<NoneType>(getAttnMask().getType()))
    return success();
  Type maskElem = getElementTypeOrSelf(getAttnMask());
  if (!maskElem.isIntOrFloat())
    return emitOpError() << "expects attn_mask of bool, integer or float";
  auto mask = rankedShape(getAttnMask());
  if (!mask)
    return success();
  SmallVector<int64_t> target = {d.batch, d.qHeads, d.qSeq, d.totalSeq};
  bool fits = !mask->empty() && mask->size() <= 4;
  for (size_t i = 0; fits && i + 1 < mask->size(); ++i) {
    int64_t m = (*mask)[mask->size() - 2 - i], t = target[2 - i];
    fits = m == 1 || !clash(m, t);
  }
  if (fits && !isDyn(mask->back()) && !isDyn(d.totalSeq) &&
      mask->back() > d.totalSeq)
    fits = false;
  if (!fits)
    return emitOpError() << "expects attn_mask to broadcast to "
                         << formatShape(target)
                         << " (its last dim may be shorter), got "
                         << formatShape(*mask);
  return success();
}

LogicalResult AttentionOp::inferShapes() {
  std::optional<Dims> d = getDims();
  Type qElem = getElementTypeOrSelf(getQ()),
       kElem = getElementTypeOrSelf(getK()),
       vElem = getElementTypeOrSelf(getV());
  if (!d) {
    Type elems[] = {qElem, kElem, vElem, qElem};
    for (auto [result, elem] : llvm::zip_equal(getResults(), elems))
      result.setType(UnrankedTensorType::get(elem));
    return success();
  }
  SmallVector<int64_t> y = {d->batch, d->qHeads, d->qSeq, d->vHeadSize};
  if (rankedShape(getQ())->size() == 3)
    y = {d->batch, d->qSeq, mulDim(d->qHeads, d->vHeadSize)};
  (void)setShape(*this, y, qElem, 0);
  (void)setShape(*this, {d->batch, d->kvHeads, d->totalSeq, d->headSize}, kElem,
                 1);
  (void)setShape(*this, {d->batch, d->kvHeads, d->totalSeq, d->vHeadSize},
                 vElem, 2);
  return setShape(*this, {d->batch, d->qHeads, d->qSeq, d->totalSeq}, qElem, 3);
}

//===----------------------------------------------------------------------===//
// RotaryEmbedding
//===----------------------------------------------------------------------===//

LogicalResult RotaryEmbeddingOp::verify() {
  Type elem = getElementTypeOrSelf(getX());
  if (getElementTypeOrSelf(getCosCache()) != elem ||
      getElementTypeOrSelf(getSinCache()) != elem)
    return emitOpError() << "expects cos_cache and sin_cache of the element "
                            "type of X";
  if (getInterleaved() != 0 && getInterleaved() != 1)
    return emitOpError() << "expects interleaved 0 or 1, got "
                         << getInterleaved();
  if (getNumHeads() && *getNumHeads() <= 0)
    return emitOpError() << "expects num_heads > 0, got " << *getNumHeads();
  int64_t rotaryDim = getRotaryEmbeddingDim();
  if (rotaryDim < 0 || rotaryDim % 2 != 0)
    return emitOpError() << "expects an even, non-negative "
                            "rotary_embedding_dim, got "
                         << rotaryDim;
  bool hasPositions = !isa<NoneType>(getPositionIds().getType());
  if (hasPositions && !getElementTypeOrSelf(getPositionIds()).isInteger(64))
    return emitOpError() << "expects position_ids of int64";

  // The head size, when known.
  int64_t headSize = ShapedType::kDynamic, batch = ShapedType::kDynamic,
          seq = ShapedType::kDynamic;
  if (auto x = rankedShape(getX())) {
    if (x->size() != 3 && x->size() != 4)
      return emitOpError() << "expects X of rank 3 or 4, got "
                           << formatShape(*x);
    batch = (*x)[0];
    if (x->size() == 4) {
      seq = (*x)[2];
      headSize = (*x)[3];
      if (getNumHeads() && clash(*getNumHeads(), (*x)[1]))
        return emitOpError() << "has num_heads " << *getNumHeads()
                             << " but X of shape " << formatShape(*x);
    } else {
      seq = (*x)[1];
      if (!getNumHeads())
        return emitOpError() << "expects num_heads with a 3-d X";
      if (!isDyn((*x)[2]) && (*x)[2] % *getNumHeads() != 0)
        return emitOpError()
               << "expects the hidden size of X (" << (*x)[2]
               << ") to be a multiple of num_heads (" << *getNumHeads() << ")";
      headSize = divDims((*x)[2], *getNumHeads());
    }
    if (!isDyn(headSize) && rotaryDim > headSize)
      return emitOpError() << "expects rotary_embedding_dim (" << rotaryDim
                           << ") <= the head size (" << headSize << ")";
  }
  if (rotaryDim == 0)
    rotaryDim = headSize;
  if (!isDyn(rotaryDim) && rotaryDim % 2 != 0)
    return emitOpError() << "expects an even head size to rotate, got "
                         << rotaryDim;

  // (batch, seq, dim / 2), or (positions, dim / 2) with position_ids of
  // shape (batch, seq).
  auto cos = rankedShape(getCosCache()), sin = rankedShape(getSinCache());
  if (cos && sin && *cos != *sin)
    return emitOpError() << "expects cos_cache and sin_cache of one shape, got "
                         << formatShape(*cos) << " and " << formatShape(*sin);
  int64_t half = isDyn(rotaryDim) ? rotaryDim : rotaryDim / 2;
  if (hasPositions) {
    if (auto pos = rankedShape(getPositionIds());
        pos &&
        (pos->size() != 2 || clash((*pos)[0], batch) || clash((*pos)[1], seq)))
      return emitOpError() << "expects position_ids of shape "
                           << formatShape({batch, seq}) << ", got "
                           << formatShape(*pos);
    if (cos && (cos->size() != 2 || clash((*cos)[1], half)))
      return emitOpError() << "expects caches of shape "
                           << formatShape({ShapedType::kDynamic, half})
                           << " with position_ids, got " << formatShape(*cos);
  } else if (cos && (cos->size() != 3 || clash((*cos)[0], batch) ||
                     clash((*cos)[1], seq) || clash((*cos)[2], half))) {
    return emitOpError() << "expects caches of shape "
                         << formatShape({batch, seq, half})
                         << " without position_ids, got " << formatShape(*cos);
  }
  return success();
}

LogicalResult RotaryEmbeddingOp::inferShapes() {
  return inferSameAsOperand(*this, getX());
}
