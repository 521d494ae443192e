//===- ONNXOps.td - onnx dialect operations ------------------*- tablegen -*-===//
//
// Operations of the onnx dialect. Names, operands and attributes follow the
// ONNX operator specification (https://onnx.ai/onnx/operators/).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_ONNX_OPS_TD
#define TCC_ONNX_OPS_TD

include "ONNXDialect.td"
include "ShapeInferenceInterface.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic,
         !listconcat(traits, [Pure,
           DeclareOpInterfaceMethods<ShapeInferenceOpInterface>])>;

// ONNX ints are signed: read them with sign extension.
def ONNX_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                                "64-bit integer attribute"> {
  let returnType = [{ int64_t }];
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

def TensorOrNone : AnyTypeOf<[AnyTensor, NoneType]>;
def FloatTensor : TensorOf<[AnyFloat]>;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Elementwise math
//===----------------------------------------------------------------------===//

class ONNX_BinaryOp<string mnemonic, list<Trait> traits = []>
    : ONNX_Op<mnemonic, traits> {
  let summary = "Elementwise " # mnemonic # " with multidirectional broadcasting";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
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

class ONNX_UnaryOp<string mnemonic, Type type = AnyTensor>
    : ONNX_Op<mnemonic, [SameOperandsAndResultElementType]> {
  let arguments = (ins type:$X);
  let results = (outs type:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def ONNX_ReluOp : ONNX_UnaryOp<"Relu"> { let summary = "max(x, 0)"; }
def ONNX_SigmoidOp : ONNX_UnaryOp<"Sigmoid", FloatTensor> {
  let summary = "1 / (1 + exp(-x))";
}
def ONNX_IdentityOp : ONNX_UnaryOp<"Identity"> {
  let summary = "Forwards its input";
  let hasFolder = 1;
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
  let arguments = (ins AnyTensor:$data, TensorOrNone:$ratio,
                   TensorOrNone:$training_mode, OptionalAttr<ONNX_I64Attr>:$seed);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = [{
    $data `,` $ratio `,` $training_mode attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Neural-network ops
//===----------------------------------------------------------------------===//

def ONNX_ConvOp : ONNX_Op<"Conv"> {
  let summary = "N-d convolution (NCHW), with groups, strides, dilations, pads";
  let arguments = (ins FloatTensor:$X, FloatTensor:$W, TensorOrNone:$B,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DefaultValuedAttr<ONNX_I64Attr, "1">:$group,
    OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $W `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class ONNX_PoolOp<string mnemonic> : ONNX_Op<mnemonic> {
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_MaxPoolOp : ONNX_PoolOp<"MaxPool"> {
  let summary = "Max pooling (the Indices output is not supported)";
  let arguments = (ins FloatTensor:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$storage_order,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_AveragePoolOp : ONNX_PoolOp<"AveragePool"> {
  let summary = "Average pooling";
  let arguments = (ins FloatTensor:$X,
    DefaultValuedStrAttr<StrAttr, "NOTSET">:$auto_pad,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$ceil_mode,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$count_include_pad,
    OptionalAttr<DenseI64ArrayAttr>:$dilations,
    DenseI64ArrayAttr:$kernel_shape,
    OptionalAttr<DenseI64ArrayAttr>:$pads,
    OptionalAttr<DenseI64ArrayAttr>:$strides);
}

def ONNX_GlobalAveragePoolOp : ONNX_Op<"GlobalAveragePool"> {
  let summary = "Mean over all spatial dims, kept as size-1 dims";
  let arguments = (ins FloatTensor:$X);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_BatchNormalizationOp : ONNX_Op<"BatchNormalization"> {
  let summary = "Batch normalization, inference form";
  let arguments = (ins FloatTensor:$X, FloatTensor:$scale, FloatTensor:$B,
    FloatTensor:$input_mean, FloatTensor:$input_var,
    DefaultValuedAttr<F32Attr, "1e-05">:$epsilon,
    DefaultValuedAttr<F32Attr, "0.9">:$momentum,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$training_mode);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $scale `,` $B `,` $input_mean `,` $input_var attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def ONNX_SoftmaxOp : ONNX_Op<"Softmax"> {
  let summary = "Softmax along one axis (opset 13 semantics)";
  let arguments = (ins FloatTensor:$input,
                   DefaultValuedAttr<ONNX_I64Attr, "-1">:$axis);
  let results = (outs FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def ONNX_GemmOp : ONNX_Op<"Gemm"> {
  let summary = "alpha * op(A) * op(B) + beta * C, C broadcast";
  let arguments = (ins FloatTensor:$A, FloatTensor:$B, TensorOrNone:$C,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha,
    DefaultValuedAttr<F32Attr, "1.0">:$beta,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$transA,
    DefaultValuedAttr<ONNX_I64Attr, "0">:$transB);
  let results = (outs FloatTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B `,` $C attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def ONNX_MatMulOp : ONNX_Op<"MatMul"> {
  let summary = "numpy.matmul: batched, with broadcasting of batch dims";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
  let results = (outs AnyTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor manipulation
//===----------------------------------------------------------------------===//

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
}

def ONNX_TransposeOp : ONNX_Op<"Transpose"> {
  let summary = "Permutes dims (default: reverses them)";
  let arguments = (ins AnyTensor:$data, OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs AnyTensor:$transposed);
  let assemblyFormat = "$data attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def ONNX_ConcatOp : ONNX_Op<"Concat"> {
  let summary = "Concatenates along `axis`";
  let arguments = (ins Variadic<AnyTensor>:$inputs, ONNX_I64Attr:$axis);
  let results = (outs AnyTensor:$concat_result);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TCC_ONNX_OPS_TD
