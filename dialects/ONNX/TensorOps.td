//===- TensorOps.td - constants and data movement -*- tablegen -*-===//
#ifndef TCC_ONNX_TENSOROPS_TD
#define TCC_ONNX_TENSOROPS_TD

include "ONNXBase.td"

def ONNX_ConstantOp : ONNX_Op<"Constant", [ConstantLike,
    AllTypesMatch<["value", "output"]>]> {
  let summary = "A constant tensor (also every graph initializer)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

def ONNX_NoValueOp : ONNX_Op<"NoValue", [ConstantLike]> {
  let summary = "Stands for an optional input that the node leaves out";
  let results = (outs NoneType:$none);
  let assemblyFormat = "attr-dict";
  let hasFolder = 1;
}

def ONNX_CheckConditionOp : Op<ONNX_Dialect, "CheckCondition",
    [DeclareOpInterfaceMethods<ShapeInferenceOpInterface>,
     MemoryEffects<[MemWrite]>]> {
  let summary = "Fails the run when an If's condition takes a branch not compiled";
  let description = [{
    The importer keeps the one branch of an If with a run-time condition
    that could be compiled for the model's sizes; this op makes a run whose
    `cond` is not `expected` return TCC_ERROR_BRANCH, with the text of the
    module's global `message` (which names the If node and the branch) from
    tcc_run_error_message(). It lowers to a call of the runtime's
    tcc_branch_check(ok, message), which the importer declares.
  }];
  let arguments = (ins TensorOf<[I1]>:$cond, BoolAttr:$expected,
                   FlatSymbolRefAttr:$message);
  let assemblyFormat = "$cond attr-dict `:` type($cond)";
}

def ONNX_FlattenOp : ONNX_Op<"Flatten"> {
  let summary = "Reshapes to 2-D around `axis`";
  let arguments = (ins AnyTensor:$input, DefaultValuedAttr<ONNX_I64Attr, "1">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_ReshapeOp : ONNX_Op<"Reshape"> {
  let summary = "Reshape to a shape given as an int64 tensor (0 copies, -1 infers)";
  let arguments = (ins AnyTensor:$data, TensorOf<[I64]>:$shape,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$allowzero);
  let results = (outs AnyTensor:$reshaped);
  let assemblyFormat = [{
    $data `,` $shape attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def ONNX_TransposeOp : ONNX_Op<"Transpose"> {
  let summary = "Permutes dims (default: reverses them)";
  let arguments = (ins AnyTensor:$data, OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs AnyTensor:$transposed);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def ONNX_ConcatOp : ONNX_Op<"Concat"> {
  let summary = "Concatenates along `axis`";
  let arguments = (ins Variadic<AnyTensor>:$inputs, ONNX_I64Attr:$axis);
  let results = (outs AnyTensor:$concat_result);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def ONNX_GatherOp : ONNX_Op<"Gather"> {
  let summary = "Picks slices along `axis` at `indices` (negative: from the end)";
  let arguments = (ins AnyTensor:$data, TensorOf<[I32, I64]>:$indices,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $indices attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def ONNX_SliceOp : ONNX_Op<"Slice"> {
  let summary = "numpy-style slicing; parameters are int tensors";
  let arguments = (ins AnyTensor:$data, TensorOf<[I32, I64]>:$starts,
                   TensorOf<[I32, I64]>:$ends, TensorOrNone:$axes,
                   TensorOrNone:$steps);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $starts `,` $ends `,` $axes `,` $steps attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// Per data dim: first index, step and element count, with ONNX's
    /// negative-index and clamping rules applied (unsliced dims: 0, 1, dim).
    /// Fails (silently) unless the input is ranked, the sliced dims static
    /// and the parameters constant; the verifier reports bad parameters.
    llvm::FailureOr<llvm::SmallVector<std::array<int64_t, 3>>> resolve();
  }];
}

def ONNX_TileOp : ONNX_Op<"Tile"> {
  let summary = "Repeats the input `repeats[i]` times along each dim";
  let arguments = (ins AnyTensor:$input, TensorOf<[I64]>:$repeats);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $repeats attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}



#endif // TCC_ONNX_TENSOROPS_TD
