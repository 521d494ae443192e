//===- ElementwiseOps.td - elementwise onnx ops -*- tablegen -*-===//
#ifndef TCC_ONNX_ELEMENTWISEOPS_TD
#define TCC_ONNX_ELEMENTWISEOPS_TD

include "ONNXBase.td"

// Two operands of one element type, broadcast numpy-style. `attrs` are the
// op's attributes; verifiers and shape functions are in Elementwise.cpp.
class ONNX_BinaryOp<string mnemonic, list<Trait> traits = [],
                    dag attrs = (ins)>
    : ONNX_Op<mnemonic, traits> {
  let summary = "Elementwise " # mnemonic # " with multidirectional broadcasting";
  let arguments = !con((ins AnyTensor:$A, AnyTensor:$B), attrs);
  let results = (outs AnyTensor:$C);
  let assemblyFormat = [{
    $A `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_AddOp : ONNX_BinaryOp<"Add", [Commutative]>;
def ONNX_SubOp : ONNX_BinaryOp<"Sub">;
def ONNX_MulOp : ONNX_BinaryOp<"Mul", [Commutative]>;
def ONNX_DivOp : ONNX_BinaryOp<"Div">;
def ONNX_SwiGLUOp : ONNX_BinaryOp<"SwiGLU", [],
    (ins DefaultValuedAttr<F32Attr, "1.0">:$alpha)> {
  let summary = "A * sigmoid(alpha * A) * B, A and B of one shape";
}
def ONNX_ModOp : ONNX_BinaryOp<"Mod", [],
    (ins DefaultValuedAttr<ONNX_I64Attr, "0">:$fmod)> {
  let description = [{
    fmod=0: the remainder takes the divisor's sign (Python's and numpy's %);
    fmod=1: C's fmod (the dividend's sign).
  }];
}
def ONNX_AndOp : ONNX_BinaryOp<"And", [Commutative]>;
def ONNX_OrOp : ONNX_BinaryOp<"Or", [Commutative]>;
def ONNX_XorOp : ONNX_BinaryOp<"Xor", [Commutative]>;
def ONNX_BitwiseAndOp : ONNX_BinaryOp<"BitwiseAnd", [Commutative]>;
def ONNX_BitwiseOrOp : ONNX_BinaryOp<"BitwiseOr", [Commutative]>;
def ONNX_BitwiseXorOp : ONNX_BinaryOp<"BitwiseXor", [Commutative]>;
def ONNX_BitShiftOp : ONNX_BinaryOp<"BitShift", [], (ins StrAttr:$direction)> {
  let description = [{
    Shifts A by B bits; direction is LEFT or RIGHT (arithmetic for signed
    A). A shift by a negative amount or by at least the bit width gives 0,
    or -1 for a right shift of a negative value (numpy's saturation).
  }];
}
// PRelu's slope (B) broadcasts to X (A).
def ONNX_PReluOp : ONNX_BinaryOp<"PRelu">;

// Comparisons: a bool (i1) result of the broadcast shape.
def ONNX_EqualOp : ONNX_BinaryOp<"Equal", [Commutative]>;
def ONNX_LessOp : ONNX_BinaryOp<"Less">;
def ONNX_GreaterOp : ONNX_BinaryOp<"Greater">;
def ONNX_LessOrEqualOp : ONNX_BinaryOp<"LessOrEqual">;
def ONNX_GreaterOrEqualOp : ONNX_BinaryOp<"GreaterOrEqual">;

def ONNX_PowOp : ONNX_Op<"Pow"> {
  let summary = "X to the power Y, broadcast; Y may be of another type";
  let arguments = (ins AnyTensor:$X, AnyTensor:$Y);
  let results = (outs AnyTensor:$Z);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_WhereOp : ONNX_Op<"Where"> {
  let summary = "condition ? X : Y, all three broadcast";
  let arguments = (ins TensorOf<[I1]>:$condition, AnyTensor:$X, AnyTensor:$Y);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $condition `,` $X `,` $Y attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_MulAddOp : ONNX_Op<"MulAdd"> {
  let summary = "A * B + C rounded once (a fused multiply-add), broadcast";
  let description = [{
    Not an ONNX operator: tcc-onnx-decompose writes it where the kernel it
    matches rounds a fused multiply-add (onnxruntime's QLinearAdd), so that
    the two round alike. Float operands of one element type.
  }];
  let arguments = (ins AnyTensor:$A, AnyTensor:$B, AnyTensor:$C);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B `,` $C attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// Max, Min, Sum and Mean of one or more broadcast operands.
class ONNX_VariadicOp<string mnemonic> : ONNX_Op<mnemonic> {
  let summary = "Elementwise " # mnemonic # " of its broadcast operands";
  let arguments = (ins Variadic<AnyTensor>:$data_0);
  let results = (outs AnyTensor:$result);
  let assemblyFormat = "$data_0 attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}
def ONNX_MaxOp : ONNX_VariadicOp<"Max">;
def ONNX_MinOp : ONNX_VariadicOp<"Min">;
def ONNX_SumOp : ONNX_VariadicOp<"Sum">;
def ONNX_MeanOp : ONNX_VariadicOp<"Mean">;

def ONNX_CastOp : ONNX_Op<"Cast"> {
  let summary = "Converts to the element type `to` (an ONNX DataType)";
  let description = [{
    float to int truncates toward zero; to bool is `!= 0`. `saturate` only
    affects float8 targets, which are not supported.
  }];
  let arguments = (ins AnyTensor:$input, ONNX_I64Attr:$to,
                   OptionalAttr<ONNX_I64Attr>:$saturate);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_BitCastOp : ONNX_Op<"BitCast"> {
  let summary = "Reinterprets the bits as the element type `to` (same width)";
  let arguments = (ins AnyTensor:$input, ONNX_I64Attr:$to);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_CastLikeOp : ONNX_Op<"CastLike"> {
  let summary = "Cast to the element type of target_type";
  let arguments = (ins AnyTensor:$input, AnyTensor:$target_type,
                   OptionalAttr<ONNX_I64Attr>:$saturate);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $target_type attr-dict `:` functional-type(operands, results)
  }];
}

// One operand; the result has its shape and element type.
class ONNX_UnaryOp<string mnemonic, Type type = AnyTensor, dag attrs = (ins)>
    : ONNX_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let arguments = !con((ins type:$X), attrs);
  let results = (outs type:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferShapes() {
      getY().setType(getX().getType());
      return ::mlir::success();
    }
  }];
}

def ONNX_IdentityOp : ONNX_UnaryOp<"Identity"> {
  let summary = "Forwards its input";
  let hasFolder = 1;
}
def ONNX_NegOp : ONNX_UnaryOp<"Neg"> { let summary = "-x"; }
def ONNX_AbsOp : ONNX_UnaryOp<"Abs"> { let summary = "|x|"; }
def ONNX_SignOp : ONNX_UnaryOp<"Sign"> { let summary = "-1, 0 or 1"; }
def ONNX_NotOp : ONNX_UnaryOp<"Not", TensorOf<[I1]>> {
  let summary = "Logical not";
}
def ONNX_BitwiseNotOp : ONNX_UnaryOp<"BitwiseNot", TensorOf<[AnyInteger]>> {
  let summary = "Flips every bit";
}

// Float math, one scalar function each.
class ONNX_FloatUnaryOp<string mnemonic, string fn>
    : ONNX_UnaryOp<mnemonic, FloatTensor> {
  let summary = fn;
}
def ONNX_SqrtOp : ONNX_FloatUnaryOp<"Sqrt", "sqrt(x)">;
def ONNX_ExpOp : ONNX_FloatUnaryOp<"Exp", "exp(x)">;
def ONNX_LogOp : ONNX_FloatUnaryOp<"Log", "log(x)">;
def ONNX_ReciprocalOp : ONNX_FloatUnaryOp<"Reciprocal", "1 / x">;
def ONNX_FloorOp : ONNX_FloatUnaryOp<"Floor", "floor(x)">;
def ONNX_CeilOp : ONNX_FloatUnaryOp<"Ceil", "ceil(x)">;
def ONNX_RoundOp : ONNX_FloatUnaryOp<"Round", "x rounded half to even">;
def ONNX_ErfOp : ONNX_FloatUnaryOp<"Erf", "erf(x)">;
def ONNX_TanhOp : ONNX_FloatUnaryOp<"Tanh", "tanh(x)">;
def ONNX_SinOp : ONNX_FloatUnaryOp<"Sin", "sin(x)">;
def ONNX_CosOp : ONNX_FloatUnaryOp<"Cos", "cos(x)">;
def ONNX_TanOp : ONNX_FloatUnaryOp<"Tan", "tan(x)">;
def ONNX_AsinOp : ONNX_FloatUnaryOp<"Asin", "asin(x)">;
def ONNX_AcosOp : ONNX_FloatUnaryOp<"Acos", "acos(x)">;
def ONNX_AtanOp : ONNX_FloatUnaryOp<"Atan", "atan(x)">;
def ONNX_SinhOp : ONNX_FloatUnaryOp<"Sinh", "sinh(x)">;
def ONNX_CoshOp : ONNX_FloatUnaryOp<"Cosh", "cosh(x)">;
def ONNX_AsinhOp : ONNX_FloatUnaryOp<"Asinh", "asinh(x)">;
def ONNX_AcoshOp : ONNX_FloatUnaryOp<"Acosh", "acosh(x)">;
def ONNX_AtanhOp : ONNX_FloatUnaryOp<"Atanh", "atanh(x)">;

// A bool (i1) result of the operand's shape.
def ONNX_IsNaNOp : ONNX_Op<"IsNaN"> {
  let summary = "x is NaN";
  let arguments = (ins FloatTensor:$X);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}
def ONNX_IsInfOp : ONNX_Op<"IsInf"> {
  let summary = "x is +inf (detect_positive) or -inf (detect_negative)";
  let arguments = (ins FloatTensor:$X,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$detect_negative,
                   DefaultValuedAttr<ONNX_I64Attr, "1">:$detect_positive);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def ONNX_ClipOp : ONNX_Op<"Clip"> {
  let summary = "Clamps to [min, max]; a missing bound is no bound";
  let arguments = (ins AnyTensor:$input, TensorOrNone:$min, TensorOrNone:$max);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $input `,` $min `,` $max attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_DropoutOp : ONNX_Op<"Dropout"> {
  let summary = "Dropout; inference only (forwards its input)";
  let description = "The optional mask result is all true at inference.";
  let arguments = (ins AnyTensor:$data, TensorOrNone:$ratio,
                   TensorOrNone:$training_mode, OptionalAttr<ONNX_I64Attr>:$seed);
  let results = (outs AnyTensor:$output, Optional<AnyTensor>:$mask);
  let assemblyFormat = [{
    $data `,` $ratio `,` $training_mode attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

#endif // TCC_ONNX_ELEMENTWISEOPS_TD
