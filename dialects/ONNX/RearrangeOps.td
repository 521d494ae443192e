//===- RearrangeOps.td - onnx split, pad and block moves -*- tablegen -*-===//
#ifndef TCC_ONNX_REARRANGEOPS_TD
#define TCC_ONNX_REARRANGEOPS_TD

include "ONNXBase.td"

def ONNX_SplitOp : ONNX_Op<"Split"> {
  let summary = "Splits along axis into parts of `split` sizes (or equal parts)";
  let arguments = (ins AnyTensor:$input, TensorOrNone:$split,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis,
                   OptionalAttr<ONNX_I64Attr>:$num_outputs);
  let results = (outs Variadic<AnyTensor>:$outputs);
  let assemblyFormat = [{
    $input `,` $split attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The size of each part along the axis: `split` when constant, else
    /// equal parts (the last one smaller, as opset 18 allows). Needs a
    /// static dim when `split` is `none`.
    std::optional<llvm::SmallVector<int64_t>> getPartSizes();
  }];
}

def ONNX_PadOp : ONNX_Op<"Pad"> {
  let summary = "Pads (or crops, with negative pads) in mode constant/reflect/edge/wrap";
  let arguments = (ins AnyTensor:$data, TensorOf<[I64]>:$pads,
                   TensorOrNone:$constant_value, TensorOrNone:$axes,
                   DefaultValuedStrAttr<StrAttr, "constant">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $pads `,` $constant_value `,` $axes attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Begin and end pads for every dim when pads (and axes) are constant
    /// and the input is ranked.
    std::optional<std::pair<llvm::SmallVector<int64_t>,
                            llvm::SmallVector<int64_t>>> getStaticPads();
  }];
}

def ONNX_CenterCropPadOp : ONNX_Op<"CenterCropPad"> {
  let summary = "Center-crops or zero-pads the `axes` dims to `shape`";
  let arguments = (ins AnyTensor:$input_data, AnyTensor:$shape,
                   OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs AnyTensor:$output_data);
  let assemblyFormat = [{
    $input_data `,` $shape attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Begin and end pads for every dim (negative: cropped) when `shape` is
    /// constant and the input's dims on the axes are static.
    std::optional<std::pair<llvm::SmallVector<int64_t>,
                            llvm::SmallVector<int64_t>>> getStaticPads();
  }];
}

def ONNX_ReverseSequenceOp : ONNX_Op<"ReverseSequence"> {
  let summary = "Reverses the first sequence_lens[b] steps of each batch entry";
  let arguments = (ins AnyTensor:$input, TensorOf<[I64]>:$sequence_lens,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$batch_axis,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$time_axis);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    $input `,` $sequence_lens attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class ONNX_BlockOp<string mnemonic, string summ> : ONNX_Op<mnemonic> {
  let summary = summ;
  let arguments = (ins AnyTensor:$input, ONNX_I64Attr:$blocksize,
                   DefaultValuedStrAttr<StrAttr, "DCR">:$mode);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_DepthToSpaceOp : ONNX_BlockOp<"DepthToSpace",
    "Moves channel blocks into blocksize x blocksize spatial tiles">;
def ONNX_SpaceToDepthOp : ONNX_BlockOp<"SpaceToDepth",
    "Moves blocksize x blocksize spatial tiles into channels">;

#endif // TCC_ONNX_REARRANGEOPS_TD
