//===- RecurrentOps.td - RNN, GRU and LSTM --------------------*- tablegen -*-===//
#ifndef TCC_ONNX_RECURRENTOPS_TD
#define TCC_ONNX_RECURRENTOPS_TD

include "ONNXBase.td"

// The three recurrent layers share their operands up to initial_h, their
// attributes and their layouts:
//   X [seq_length, batch, input] (layout 1: [batch, seq_length, input]),
//   W [num_directions, gates * hidden, input],
//   R [num_directions, gates * hidden, hidden],
//   B [num_directions, 2 * gates * hidden] (Wb then Rb),
//   sequence_lens [batch] (int32), initial_h/initial_c [num_directions,
//   batch, hidden] (layout 1: [batch, num_directions, hidden]);
//   Y [seq_length, num_directions, batch, hidden] (layout 1: [batch,
//   seq_length, num_directions, hidden]), Y_h/Y_c like initial_h.
// `activations` lists the activation functions of each direction in turn
// (absent: the op's defaults); alpha/beta are consumed in order by the
// functions that take them.
class ONNX_RecurrentOp<string mnemonic, string what, dag extraOperands,
                       dag extraAttributes, dag outputs>
    : ONNX_Op<mnemonic> {
  let summary = what;
  let arguments = !con(
    (ins FloatTensor:$X, FloatTensor:$W, FloatTensor:$R, TensorOrNone:$B,
         TensorOrNone:$sequence_lens, TensorOrNone:$initial_h),
    extraOperands,
    (ins OptionalAttr<DenseF32ArrayAttr>:$activation_alpha,
         OptionalAttr<DenseF32ArrayAttr>:$activation_beta,
         OptionalAttr<StrArrayAttr>:$activations,
         OptionalAttr<F32Attr>:$clip,
         DefaultValuedStrAttr<StrAttr, "forward">:$direction,
         OptionalAttr<ONNX_I64Attr>:$hidden_size,
         DefaultValuedAttr<ONNX_I64Attr, "0">:$layout),
    extraAttributes);
  let results = outputs;
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_RNNOp : ONNX_RecurrentOp<"RNN",
    "Elman RNN: H = f(X W^T + H R^T + Wb + Rb)", (ins), (ins),
    (outs FloatTensor:$Y, FloatTensor:$Y_h)>;

def ONNX_GRUOp : ONNX_RecurrentOp<"GRU",
    "Gated recurrent unit (gates z, r, h)", (ins),
    (ins DefaultValuedAttr<ONNX_I64Attr, "0">:$linear_before_reset),
    (outs FloatTensor:$Y, FloatTensor:$Y_h)>;

def ONNX_LSTMOp : ONNX_RecurrentOp<"LSTM",
    "Long short-term memory (gates i, o, f, c; peepholes P = [Pi, Po, Pf])",
    (ins TensorOrNone:$initial_c, TensorOrNone:$P),
    (ins DefaultValuedAttr<ONNX_I64Attr, "0">:$input_forget),
    (outs FloatTensor:$Y, FloatTensor:$Y_h, FloatTensor:$Y_c)>;

#endif // TCC_ONNX_RECURRENTOPS_TD
