//===- ShapeOps.td - onnx ops that compute or change shapes -*- tablegen -*-===//
#ifndef TCC_ONNX_SHAPEOPS_TD
#define TCC_ONNX_SHAPEOPS_TD

include "ONNXBase.td"

// Shape and Size fold to constants whenever their input's shape is static
// (the importer folds as it builds), so the shape sub-graphs of exported
// models become constant.
def ONNX_ShapeOp : ONNX_Op<"Shape"> {
  let summary = "The input's dims [start, end) as a 1-d int64 tensor";
  let arguments = (ins AnyTensor:$data,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$start,
                   OptionalAttr<ONNX_I64Attr>:$end);
  // Any tensor: the importer builds results with the input's element type
  // and inferShapes sets int64.
  let results = (outs AnyTensor:$shape);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// [start, end) clamped to [0, rank], as ONNX defines them.
    std::pair<int64_t, int64_t> getDimRange(int64_t rank);
  }];
}

def ONNX_SizeOp : ONNX_Op<"Size"> {
  let summary = "The input's element count as a 0-d int64 tensor";
  let arguments = (ins AnyTensor:$data);
  let results = (outs AnyTensor:$size);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def ONNX_SqueezeOp : ONNX_Op<"Squeeze"> {
  let summary = "Drops size-1 dims (`axes`, or all of them when `none`)";
  let arguments = (ins AnyTensor:$data, TensorOrNone:$axes);
  let results = (outs AnyTensor:$squeezed);
  let assemblyFormat = [{
    $data `,` $axes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def ONNX_UnsqueezeOp : ONNX_Op<"Unsqueeze"> {
  let summary = "Inserts size-1 dims at `axes` (of the result)";
  let arguments = (ins AnyTensor:$data, TensorOf<[I64]>:$axes);
  let results = (outs AnyTensor:$expanded);
  let assemblyFormat = [{
    $data `,` $axes attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def ONNX_ConstantOfShapeOp : ONNX_Op<"ConstantOfShape"> {
  let summary = "A tensor of shape `input` filled with `value` (default f32 0)";
  let arguments = (ins TensorOf<[I64]>:$input, OptionalAttr<ElementsAttr>:$value);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def ONNX_RangeOp : ONNX_Op<"Range"> {
  let summary = "start, start + delta, ... up to (excluding) limit";
  let arguments = (ins AnyTensor:$start, AnyTensor:$limit, AnyTensor:$delta);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $start `,` $limit `,` $delta attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

class ONNX_WindowOp<string mnemonic, string fn> : ONNX_Op<mnemonic> {
  let summary = "The " # fn # " window of `size` points";
  let description = [{
    w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size when
    periodic, else size - 1.
  }];
  let arguments = (ins AnyTensor:$size,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$output_datatype,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$periodic);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$size attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_HannWindowOp : ONNX_WindowOp<"HannWindow", "Hann">;
def ONNX_HammingWindowOp : ONNX_WindowOp<"HammingWindow", "Hamming">;
def ONNX_BlackmanWindowOp : ONNX_WindowOp<"BlackmanWindow", "Blackman">;

def ONNX_ExpandOp : ONNX_Op<"Expand"> {
  let summary = "Broadcasts the input to `shape` (numpy rules, both ways)";
  let arguments = (ins AnyTensor:$input, TensorOf<[I64]>:$shape);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $shape attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_SHAPEOPS_TD
