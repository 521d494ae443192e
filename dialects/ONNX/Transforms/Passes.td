//===- Passes.td - onnx dialect passes ----------------------*- tablegen -*-===//
#ifndef TCC_ONNX_PASSES_TD
#define TCC_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXDecompose : Pass<"tcc-onnx-decompose", "::mlir::func::FuncOp"> {
  let summary = "Rewrites composite onnx ops into primitive onnx ops";
  let description = [{
    Expands ops that ONNX defines by a function body, and that have no
    lowering of their own, into the onnx ops of that body (as torch-mlir's
    DecomposeComplexOps does for torch ops). Runs after shape inference:
    it needs static shapes. For example

      %y:4 = onnx.Attention %q, %k, %v, %none, %none, %none, %none
          : (tensor<1x2x4x8xf32>, ...) -> (tensor<1x2x4x8xf32>, ...)

    becomes Mul (by sqrt(scale)), Transpose, MatMul, Softmax and MatMul,
    plus Concat for a KV cache, Expand for grouped-query heads and the
    masks as constants and Where. RotaryEmbedding becomes Gather (of the
    caches by position ids), Slice, Mul, Sub, Add and Concat. An op it
    cannot expand fails the pass with an error saying what is not
    supported.

    int8 activations that a QuantizeLinear makes become uint8 ones with
    zero points + 128 (the same values). Quantized ops of uint8
    activations and int8 constant weights (per
    tensor or per output channel) are computed as onnxruntime's int8
    kernels compute them, so that the two round alike: a QuantizeLinear of
    a QDQ residual Add becomes two fused multiply-adds (MulAdd) of the
    8-bit values and a QuantizeLinear by 1; a QuantizeLinear of a QDQ
    convolution with an int32 bias, and a QLinearConv, become the exact sums
    of the 8-bit products plus the bias, one multiply by x_scale * w_scale /
    y_scale and a QuantizeLinear by 1. Grouped (depthwise) convolutions sum
    in an f32 Conv of the integers, exact below 2^24. With
    `int8-convolutions` (a CPU with 8-bit dot products) the others sum in
    ConvInteger, a QDQ convolution whose result stays float becomes
    ConvInteger, Cast to f32, a multiply by the product of the scales and
    the bias, and a QuantizeLinear of a QDQ Gemm or MatMul sums in
    MatMulInteger, requantized as the convolutions (onnxruntime's QGemm
    and QLinearMatMul).
  }];
  let options = [
    Option<"int8Convolutions", "int8-convolutions", "bool", "false",
           "Sum ungrouped quantized convolutions in ConvInteger">
  ];
  let dependentDialects = ["::tcc::onnx::ONNXDialect"];
}

def ONNXChannelsLast : Pass<"tcc-onnx-channels-last", "::mlir::func::FuncOp"> {
  let summary = "Runs convolutions on channels-last tensors";
  let description = [{
    Rewrites each 2-d f32 Conv of static shapes with constant weights
    (grouped and dilated ones too; not one that runs tap by tap, its taps
    mostly reading padding) into
    NhwcConv between two Transposes, then moves the
    Transposes towards the outputs through elementwise ops and Concat,
    where the next convolution's Transpose cancels them. For example

      %c = onnx.Conv %x, %w, %b : (tensor<1x64x56x56xf32>, ...) -> tensor<1x256x56x56xf32>
      %s = onnx.Add %c, %r : ...
      %y = onnx.Relu %s : ...
      %d = onnx.Conv %y, %w2, %b2 : ... -> tensor<1x64x56x56xf32>

    becomes (with %r itself a Transpose of channels-last %r')

      %x' = onnx.Transpose %x {perm = array<i64: 0, 2, 3, 1>}
      %c' = onnx.NhwcConv %x', %w, %b : ... -> tensor<1x56x56x256xf32>
      %s' = onnx.Add %c', %r'
      %y' = onnx.Relu %s'
      %d' = onnx.NhwcConv %y', %w2, %b2 : ... -> tensor<1x56x56x64xf32>
      %d = onnx.Transpose %d' {perm = array<i64: 0, 3, 1, 2>}

    A Transpose moves down through an op only when that op is its one
    user, so none is added. The matmul-like kernels then read each pixel's
    channels as one contiguous row (tcc-vectorize-contractions broadcasts
    them along the filters), not a row per channel.

    A 2-d ConvInteger of uint8 x by constant int8 weights without a zero
    point (tcc-onnx-decompose makes them of QDQ convolutions) becomes
    NhwcConvInteger alike; the Transposes move through Cast and through
    QuantizeLinear and DequantizeLinear of one scale and zero point.
  }];
  let dependentDialects = ["::tcc::onnx::ONNXDialect"];
}

def ONNXWidenHalf : Pass<"tcc-onnx-widen-half", "::mlir::func::FuncOp"> {
  let summary = "Computes float16 and bfloat16 ops in f32";
  let description = [{
    Each op that reads and writes tensors of one half type (f16 or bf16),
    its other float operands and results f32 if any (a Resize's scales, a
    LayerNormalization's mean), runs on f32 tensors between Casts: its half
    operands are cast to f32 (half constants become f32 constants at
    compile time) and its half results cast back, so that its products and
    sums are f32 and its result is rounded to half as ONNX defines it.
    A MaxPool of 8-bit integers pools their f32 values the same way (exact).
    onnxruntime's CPU provider rounds only where a chain of ops it runs in
    f32 ends; the two differ by a few half ulps. Ops that choose an element
    type (Cast, CastLike, constants, quantization, ops with a `dtype` or
    `to`) and ops with regions stay as they are. For example

      %y = onnx.Conv %x, %w, %b : (tensor<1x3x8x8xf16>, ...) -> tensor<1x4x8x8xf16>
      %z = onnx.Relu %y : (tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf16>

    becomes

      %x32 = onnx.Cast %x {to = 1} : (tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf32>
      %y32 = onnx.Conv %x32, %w32, %b32 : (...) -> tensor<1x4x8x8xf32>
      %y = onnx.Cast %y32 {to = 10} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf16>
      %y2 = onnx.Cast %y {to = 1} : (tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf32>
      %z32 = onnx.Relu %y2 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
      %z = onnx.Cast %z32 {to = 10} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf16>
  }];
  let dependentDialects = ["::tcc::onnx::ONNXDialect"];
}

def ONNXShapeInference : Pass<"tcc-onnx-shape-inference", "::mlir::func::FuncOp"> {
  let summary = "Refines onnx op result types from their operands";
  let description = [{
    Walks the function in order and calls each op's inferShapes, then
    updates the function type from the returned values. For example

      %0 = onnx.Relu %arg0 : (tensor<1x8xf32>) -> tensor<*xf32>

    becomes `... -> tensor<1x8xf32>`. Fails on the first op whose shapes
    do not fit (the error names the op and the shapes).
  }];
  let dependentDialects = ["::tcc::onnx::ONNXDialect"];
}

#endif // TCC_ONNX_PASSES_TD
