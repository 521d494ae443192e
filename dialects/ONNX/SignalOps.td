//===- SignalOps.td - onnx discrete Fourier transforms -*- tablegen -*-===//
#ifndef TCC_ONNX_SIGNALOPS_TD
#define TCC_ONNX_SIGNALOPS_TD

include "ONNXBase.td"

def ONNX_DFTOp : ONNX_Op<"DFT"> {
  let summary = "Discrete Fourier transform (or its inverse) along one axis";
  let description = [{
    The opset-20 form (opset 17 takes `axis` as an attribute, default 1).
    The last dim of `input` is 1 (real) or 2 (real, imaginary); `axis`
    (default -2) is any other dim, signal zero-padded or cut to
    `dft_length`. The result is complex (last dim 2), but for an inverse
    one-sided (irfft) transform, whose result is real (last dim 1).
    `onesided` keeps the dft_length / 2 + 1 non-redundant frequencies of a
    forward transform, or reads them for an inverse one (whose default
    dft_length is then 2 (n - 1)). `dft_length` and `axis` must be
    constant.
  }];
  let arguments = (ins FloatTensor:$input, TensorOrNone:$dft_length,
                   TensorOrNone:$axis,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$inverse,
                   DefaultValuedAttr<ONNX_I64Attr, "0">:$onesided);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $dft_length `,` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The axis in [0, rank - 1) and the transform length, when `axis`,
    /// `dft_length` and the input's rank (and, without dft_length, its
    /// axis dim) are known.
    std::optional<std::pair<int64_t, int64_t>> getAxisAndLength();
  }];
}

def ONNX_STFTOp : ONNX_Op<"STFT"> {
  let summary = "Short-time Fourier transform of windowed frames";
  let description = [{
    `signal` is (batch, length, 1 or 2). Frames of `frame_length` (default:
    the window's length) start every `frame_step` samples; each is
    multiplied by `window` (default: ones) and transformed, giving
    (batch, frames, bins, 2) with frames = 1 + (length - frame_length) /
    frame_step and bins = frame_length / 2 + 1 when `onesided`, else
    frame_length. `frame_step` and `frame_length` must be constant.
  }];
  let arguments = (ins FloatTensor:$signal, AnyTensor:$frame_step,
                   TensorOrNone:$window, TensorOrNone:$frame_length,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$onesided);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = [{
    $signal `,` $frame_step `,` $window `,` $frame_length attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The frame step and length, when known.
    std::optional<std::pair<int64_t, int64_t>> getStepAndLength();
  }];
}

#endif // TCC_ONNX_SIGNALOPS_TD
