//===- ReductionOps.td - reductions over axes -*- tablegen -*-===//
#ifndef TCC_ONNX_REDUCTIONOPS_TD
#define TCC_ONNX_REDUCTIONOPS_TD

include "ONNXBase.td"

// The opset-18 form: `axes` is an input (the importer moves older opsets'
// attribute there). No axes (or empty axes) reduce every dim, unless
// noop_with_empty_axes, where the op only applies its elementwise part.
class ONNX_ReduceOp<string mnemonic, string what>
    : ONNX_Op<mnemonic> {
  let summary = what # " over `axes`";
  let arguments = (ins AnyTensor:$data, TensorOrNone:$axes,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$noop_with_empty_axes);
  let results = (outs AnyTensor:$reduced);
  let assemblyFormat = [{
    $data `,` $axes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_ReduceL1Op : ONNX_ReduceOp<"ReduceL1", "Sum of |x|">;
def ONNX_ReduceL2Op : ONNX_ReduceOp<"ReduceL2", "sqrt of the sum of x^2">;
def ONNX_ReduceLogSumOp : ONNX_ReduceOp<"ReduceLogSum", "log of the sum">;
def ONNX_ReduceLogSumExpOp
    : ONNX_ReduceOp<"ReduceLogSumExp", "log of the sum of exp(x)">;
def ONNX_ReduceMaxOp : ONNX_ReduceOp<"ReduceMax", "Maximum">;
def ONNX_ReduceMeanOp : ONNX_ReduceOp<"ReduceMean", "Mean">;
def ONNX_ReduceMinOp : ONNX_ReduceOp<"ReduceMin", "Minimum">;
def ONNX_ReduceProdOp : ONNX_ReduceOp<"ReduceProd", "Product">;
def ONNX_ReduceSumOp : ONNX_ReduceOp<"ReduceSum", "Sum">;
def ONNX_ReduceSumSquareOp : ONNX_ReduceOp<"ReduceSumSquare", "Sum of x^2">;

class ONNX_ArgOp<string mnemonic, string what> : ONNX_Op<mnemonic> {
  let summary = "Index of the " # what # " along `axis` (int64)";
  let arguments = (ins AnyTensor:$data,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$select_last_index);
  // i64 once shapes are inferred; the importer first gives every result the
  // element type of the first operand.
  let results = (outs AnyTensor:$reduced);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_ArgMaxOp : ONNX_ArgOp<"ArgMax", "maximum">;
def ONNX_ArgMinOp : ONNX_ArgOp<"ArgMin", "minimum">;

def ONNX_GlobalMaxPoolOp : ONNX_Op<"GlobalMaxPool"> {
  let summary = "Max over the spatial dims (N, C, 1, ..., 1)";
  let arguments = (ins FloatTensor:$X);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

class ONNX_CumulativeOp<string mnemonic, string what>
    : ONNX_Op<mnemonic> {
  let summary = "Cumulative " # what # " along the axis given as input";
  let arguments = (ins AnyTensor:$x, AnyTensor:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$exclusive,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$reverse);
  let results = (outs AnyTensor:$y);
  let assemblyFormat = [{
    $x `,` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_CumSumOp : ONNX_CumulativeOp<"CumSum", "sum">;
def ONNX_CumProdOp : ONNX_CumulativeOp<"CumProd", "product">;

def ONNX_TopKOp : ONNX_Op<"TopK"> {
  let summary = "The K largest (or smallest) elements along `axis`";
  let description = [{
    Values and their int64 Indices, best first; equal values keep the lower
    index first (`sorted` = 0 allows any order, so sorted output is right).
  }];
  let arguments = (ins AnyTensor:$X, AnyTensor:$K,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$largest,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$sorted);
  // Indices is i64 once shapes are inferred.
  let results = (outs AnyTensor:$Values, AnyTensor:$Indices);
  let assemblyFormat = [{
    $X `,` $K attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_REDUCTIONOPS_TD
