//===- LossOps.td - losses over class scores -*- tablegen -*-===//
#ifndef TCC_ONNX_LOSSOPS_TD
#define TCC_ONNX_LOSSOPS_TD

include "ONNXBase.td"

def ONNX_NegativeLogLikelihoodLossOp : ONNX_Op<"NegativeLogLikelihoodLoss"> {
  let summary = "-input[n, target[n, d...], d...], weighted and reduced";
  let description = [{
    `input` is (N, C, d1, ..., dk), `target` (N, d1, ..., dk) of class
    indices in [0, C). Each element's loss is -input[n, t, d...] * weight[t]
    (weight 1 without `weight`); targets equal to `ignore_index` give 0.
    `reduction`: none keeps the (N, d1, ..., dk) losses, sum adds them up,
    mean divides that sum by the sum of the weights of the targets not
    ignored. Opsets 12, 13 and 22 only differ in the types they allow.
  }];
  let arguments = (ins FloatTensor:$input, TensorOf<[I32, I64]>:$target,
                   TensorOrNone:$weight,
                   OptionalAttr<ONNX_I64Attr>:$ignore_index,
                   DefaultValuedAttr<StrAttr, "\"mean\"">:$reduction);
  let results = (outs FloatTensor:$loss);
  let assemblyFormat = [{
    $input `,` $target `,` $weight attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_SoftmaxCrossEntropyLossOp : ONNX_Op<"SoftmaxCrossEntropyLoss"> {
  let summary = "NegativeLogLikelihoodLoss of LogSoftmax(scores) over dim 1";
  let description = [{
    log_prob = LogSoftmax(scores, axis 1), then the loss of
    NegativeLogLikelihoodLoss(log_prob, labels, weights) with the same
    `ignore_index` and `reduction`. The second result is log_prob (the
    importer always makes it; it is there when the model asks for it).
  }];
  let arguments = (ins FloatTensor:$scores, TensorOf<[I32, I64]>:$labels,
                   TensorOrNone:$weights,
                   OptionalAttr<ONNX_I64Attr>:$ignore_index,
                   DefaultValuedAttr<StrAttr, "\"mean\"">:$reduction);
  let results = (outs FloatTensor:$output, FloatTensor:$log_prob);
  let assemblyFormat = [{
    $scores `,` $labels `,` $weights attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_LOSSOPS_TD
