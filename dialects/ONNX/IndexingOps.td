//===- IndexingOps.td - onnx gathers, scatters and masks -*- tablegen -*-===//
#ifndef TCC_ONNX_INDEXINGOPS_TD
#define TCC_ONNX_INDEXINGOPS_TD

include "ONNXBase.td"

def ONNX_IndexTensor : TensorOf<[I32, I64]>;

def ONNX_GatherElementsOp : ONNX_Op<"GatherElements"> {
  let summary = "out[i] = data[i with i[axis] = indices[i]]";
  let arguments = (ins AnyTensor:$data, ONNX_IndexTensor:$indices,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_GatherNDOp : ONNX_Op<"GatherND"> {
  let summary = "Gathers slices of data at index tuples (the last indices dim)";
  let arguments = (ins AnyTensor:$data, ONNX_IndexTensor:$indices,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$batch_dims);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def ONNX_ScatterElementsOp : ONNX_Op<"ScatterElements"> {
  let summary = "data with updates written (or reduced) at indices along axis";
  let arguments = (ins AnyTensor:$data, ONNX_IndexTensor:$indices,
                   AnyTensor:$updates,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis,
                   DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// Deprecated since opset 11, where ScatterElements replaced it unchanged.
def ONNX_ScatterOp : ONNX_Op<"Scatter"> {
  let summary = "ScatterElements without reduction (opsets 9 and 10)";
  let arguments = (ins AnyTensor:$data, ONNX_IndexTensor:$indices,
                   AnyTensor:$updates,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    llvm::StringRef getReduction() { return "none"; }
  }];
}

def ONNX_ScatterNDOp : ONNX_Op<"ScatterND"> {
  let summary = "data with update slices written (or reduced) at index tuples";
  let arguments = (ins AnyTensor:$data, TensorOf<[I64]>:$indices,
                   AnyTensor:$updates,
                   DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_OneHotOp : ONNX_Op<"OneHot"> {
  let summary = "values[1] where the index along the new axis matches, else values[0]";
  let arguments = (ins AnyTensor:$indices, AnyTensor:$depth, AnyTensor:$values,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $indices `,` $depth `,` $values attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_TriluOp : ONNX_Op<"Trilu"> {
  let summary = "Keeps the upper (or lower) triangle of the last two dims from diagonal k";
  let arguments = (ins AnyTensor:$input, TensorOrNone:$k,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$upper);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $k attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_EyeLikeOp : ONNX_Op<"EyeLike"> {
  let summary = "Ones on diagonal k of a 2-d tensor shaped like the input";
  let arguments = (ins AnyTensor:$input, OptionalAttr<ONNX_I64Attr>:$dtype,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$k);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_NonZeroOp : ONNX_Op<"NonZero"> {
  let summary = "Indices of the non-zero elements, [rank, count], row-major order";
  let description = [{
    The count is known only at run time, so the result's dim 1 is dynamic
    unless the input is constant (then the op folds). The lowering writes
    the indices into a buffer sized for every element being non-zero.
  }];
  let arguments = (ins AnyTensor:$X);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def ONNX_CompressOp : ONNX_Op<"Compress"> {
  let summary = "The slices along axis (or the elements, flattened) where condition holds";
  let description = [{
    The count is known only at run time, so the result's dim `axis` (its
    only dim, without `axis`) is dynamic unless the condition is constant.
    A condition shorter than that dim drops the slices past its end.
  }];
  let arguments = (ins AnyTensor:$input, TensorOf<[I1]>:$condition,
                   OptionalAttr<ONNX_I64Attr>:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $condition attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_INDEXINGOPS_TD
