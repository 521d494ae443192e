//===- AttentionOps.td - scaled dot-product attention -*- tablegen -*-===//
#ifndef TCC_ONNX_ATTENTIONOPS_TD
#define TCC_ONNX_ATTENTIONOPS_TD

include "ONNXBase.td"

def ONNX_AttentionOp : ONNX_Op<"Attention"> {
  let summary = "Scaled dot-product attention (MHA, GQA, MQA) with a KV cache";
  let description = [{
    The opset-24 form (opset 23 lacks `nonpad_kv_seqlen`), plus opset 25's
    sliding window (`left_window_size`, `right_window_size`; -1: unbounded).
    Q, K and V are 4-d (batch, heads, sequence, head size) or 3-d (batch,
    sequence, heads * head size, with `q_num_heads` and `kv_num_heads`).
    K and V are appended to `past_key`/`past_value` (present_key/value);
    then

      Y = softmax(softcap(Q' K'^T) + bias) V'

    where Q' and K' are scaled by sqrt(scale) (default 1/sqrt(head size)),
    KV heads are repeated for GQA, and `bias` gathers `attn_mask` (bool:
    false -> -inf; float: added; padded with -inf up to the total KV
    length), the causal mask (`is_causal`, aligned bottom-right), the
    window and the padding given by `nonpad_kv_seqlen`. A query row with no
    key left gives a zero row. `qk_matmul_output` is Q'K'^T (mode 0), after
    softcap (1), plus bias (2), or after softmax (3). All four results are
    always there; an output the model does not ask for has no users.
    `tcc-onnx-decompose` rewrites the op into primitive onnx ops.
  }];
  let arguments = (ins FloatTensor:$Q, FloatTensor:$K, FloatTensor:$V,
                   TensorOrNone:$attn_mask, TensorOrNone:$past_key,
                   TensorOrNone:$past_value, TensorOrNone:$nonpad_kv_seqlen,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$is_causal,
                   OptionalAttr<ONNX_I64Attr>:$kv_num_heads,
                   OptionalAttr<ONNX_I64Attr>:$q_num_heads,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$qk_matmul_output_mode,
                   OptionalAttr<F32Attr>:$scale,
                   DefaultValuedAttr<F32Attr, "0.0">:$softcap,
                   OptionalAttr<ONNX_I64Attr>:$softmax_precision,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$left_window_size,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$right_window_size);
  let results = (outs FloatTensor:$Y, FloatTensor:$present_key,
                 FloatTensor:$present_value, FloatTensor:$qk_matmul_output);
  let assemblyFormat = [{
    $Q `,` $K `,` $V `,` $attn_mask `,` $past_key `,` $past_value `,`
    $nonpad_kv_seqlen attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Sizes of the computation, from the (ranked) operands: batch, heads,
    /// sequence lengths (past, new, total) and head sizes. Null when a rank
    /// is unknown; dims may be ShapedType::kDynamic.
    struct Dims {
      int64_t batch, qHeads, kvHeads, qSeq, pastSeq, kvSeq, totalSeq;
      int64_t headSize, vHeadSize;
    };
    std::optional<Dims> getDims();
  }];
}

def ONNX_RotaryEmbeddingOp : ONNX_Op<"RotaryEmbedding"> {
  let summary = "Rotary positional embedding (RoPE) of the heads of X";
  let description = [{
    The opset-23 op. X is 4-d (batch, heads, sequence, head size) or 3-d
    (batch, sequence, num_heads * head size). The first
    `rotary_embedding_dim` (0: the whole head) features of each head are
    rotated as pairs (x1, x2) -- the two halves, or even and odd features
    when `interleaved` -- by angles whose cos and sin are
    `cos_cache`/`sin_cache` (batch, sequence, dim / 2), or rows of them
    (max position, dim / 2) picked by `position_ids` (batch, sequence):

      (x1, x2) -> (cos x1 - sin x2, sin x1 + cos x2)

    `tcc-onnx-decompose` rewrites the op into primitive onnx ops.
  }];
  let arguments = (ins FloatTensor:$X, FloatTensor:$cos_cache,
                   FloatTensor:$sin_cache, TensorOrNone:$position_ids,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$interleaved,
                   OptionalAttr<ONNX_I64Attr>:$num_heads,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$rotary_embedding_dim);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $cos_cache `,` $sin_cache `,` $position_ids attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_ATTENTIONOPS_TD
