//===- ActivationOps.td - onnx activation functions ----------*- tablegen -*-===//
#ifndef TCC_ONNX_ACTIVATIONOPS_TD
#define TCC_ONNX_ACTIVATIONOPS_TD

include "ElementwiseOps.td"

// Float activations; attributes with ONNX's defaults.
class ONNX_ActivationOp<string mnemonic, string fn, dag attrs = (ins)>
    : ONNX_UnaryOp<mnemonic, FloatTensor, attrs> {
  let summary = fn;
}

def ONNX_ReluOp : ONNX_UnaryOp<"Relu"> { let summary = "max(x, 0)"; }
def ONNX_SigmoidOp : ONNX_ActivationOp<"Sigmoid", "1 / (1 + exp(-x))">;
def ONNX_SwishOp : ONNX_ActivationOp<"Swish", "x * sigmoid(alpha * x)",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_SoftplusOp : ONNX_ActivationOp<"Softplus", "log(1 + exp(x))">;
def ONNX_SoftsignOp : ONNX_ActivationOp<"Softsign", "x / (1 + |x|)">;
def ONNX_MishOp : ONNX_ActivationOp<"Mish", "x * tanh(softplus(x))">;
def ONNX_HardSwishOp : ONNX_ActivationOp<"HardSwish",
    "x * max(0, min(1, x / 6 + 0.5))">;
def ONNX_LeakyReluOp : ONNX_ActivationOp<"LeakyRelu", "x < 0 ? alpha * x : x",
    (ins DefaultValuedAttr<F32Attr, "0.01">:$alpha)>;
def ONNX_EluOp : ONNX_ActivationOp<"Elu", "x < 0 ? alpha * (exp(x) - 1) : x",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_SeluOp : ONNX_ActivationOp<"Selu",
    "gamma * (x <= 0 ? alpha * (exp(x) - 1) : x)",
    (ins DefaultValuedAttr<F32Attr, "1.67326319217681884765625">:$alpha,
         DefaultValuedAttr<F32Attr, "1.05070102214813232421875">:$gamma)>;
def ONNX_CeluOp : ONNX_ActivationOp<"Celu",
    "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))",
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_HardSigmoidOp : ONNX_ActivationOp<"HardSigmoid",
    "max(0, min(1, alpha * x + beta))",
    (ins DefaultValuedAttr<F32Attr, "0.2">:$alpha,
         DefaultValuedAttr<F32Attr, "0.5">:$beta)>;
def ONNX_ThresholdedReluOp : ONNX_ActivationOp<"ThresholdedRelu",
    "x > alpha ? x : 0", (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)>;
def ONNX_GeluOp : ONNX_ActivationOp<"Gelu",
    "x * Phi(x); approximate = none (erf) or tanh",
    (ins DefaultValuedAttr<StrAttr, "\"none\"">:$approximate)> {
  let hasVerifier = 1;
}
def ONNX_ShrinkOp : ONNX_ActivationOp<"Shrink",
    "x < -lambd ? x + bias : x > lambd ? x - bias : 0",
    (ins DefaultValuedAttr<F32Attr, "0.0">:$bias,
         DefaultValuedAttr<F32Attr, "0.5">:$lambd)>;

#endif // TCC_ONNX_ACTIVATIONOPS_TD
