// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// Broadcasting reads size-1 dims at index 0 and drops missing leading dims.
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @add_broadcast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<1x4xf32>) outs(%[[E]]
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<2x3x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.Add %a, %b : (tensor<2x3x4xf32>, tensor<1x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Dynamic dims come from the operand that is not broadcast there.
// CHECK-LABEL: func @sub_dynamic
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %arg0, %[[C0]]
// CHECK: tensor.empty(%[[D]]) : tensor<?x4xi64>
// CHECK: arith.subi
func.func @sub_dynamic(%a: tensor<?x4xi64>, %b: tensor<4xi64>) -> tensor<?x4xi64> {
  %0 = onnx.Sub %a, %b : (tensor<?x4xi64>, tensor<4xi64>) -> tensor<?x4xi64>
  return %0 : tensor<?x4xi64>
}

// -----

// CHECK-LABEL: func @mul_div
// CHECK: arith.mulf
// CHECK: arith.divf
func.func @mul_div(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Div %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @relu_sigmoid
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @relu_sigmoid(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Relu %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Sigmoid %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Clip bounds are scalar tensors broadcast into the body; a missing one is
// no bound.
// CHECK-LABEL: func @clip
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>)
// CHECK: arith.minimumf
// CHECK-NOT: arith.maximumf
func.func @clip(%a: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %none = onnx.NoValue
  %0 = onnx.Clip %a, %none, %hi : (tensor<4xf32>, none, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @identity_dropout
// CHECK-NOT: onnx.
// CHECK: return %arg0
func.func @identity_dropout(%a: tensor<4xf32>) -> tensor<4xf32> {
  %none = onnx.NoValue
  %0 = onnx.Identity %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Dropout %0, %none, %none : (tensor<4xf32>, none, none) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @dropout_mask
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[D:.*]] = tensor.dim %[[X]]
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?xi1>
// CHECK: %[[M:.*]] = linalg.fill ins(%[[T]] : i1) outs(%[[E]]
// CHECK: return %[[X]], %[[M]]
func.func @dropout_mask(%a: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %none = onnx.NoValue
  %0, %1 = onnx.Dropout %a, %none, %none : (tensor<?xf32>, none, none) -> (tensor<?xf32>, tensor<?xi1>)
  return %0, %1 : tensor<?xf32>, tensor<?xi1>
}

// -----

// Cast: float to int truncates (fptosi/fptoui), to bool is != 0, unsigned
// and bool sources zero-extend.
// CHECK-LABEL: func @casts
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.fptoui %{{.*}} : f32 to i8
// CHECK: arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK: arith.uitofp %{{.*}} : i1 to f16
// CHECK: arith.extui %{{.*}} : i8 to i64
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @casts(%f: tensor<4xf32>, %u: tensor<4xui8>, %b: tensor<4xi1>, %i: tensor<4xi32>, %bf: tensor<4xbf16>) {
  %0 = onnx.Cast %f {to = 6 : i64} : (tensor<4xf32>) -> tensor<4xi32>
  %1 = onnx.Cast %f {to = 2 : i64} : (tensor<4xf32>) -> tensor<4xui8>
  %2 = onnx.Cast %f {to = 9 : i64} : (tensor<4xf32>) -> tensor<4xi1>
  %3 = onnx.Cast %u {to = 1 : i64} : (tensor<4xui8>) -> tensor<4xf32>
  %4 = onnx.Cast %b {to = 10 : i64} : (tensor<4xi1>) -> tensor<4xf16>
  %5 = onnx.Cast %u {to = 7 : i64} : (tensor<4xui8>) -> tensor<4xi64>
  %6 = onnx.Cast %i {to = 7 : i64} : (tensor<4xi32>) -> tensor<4xi64>
  %7 = onnx.Cast %i {to = 3 : i64} : (tensor<4xi32>) -> tensor<4xi8>
  %8 = onnx.Cast %bf {to = 10 : i64} : (tensor<4xbf16>) -> tensor<4xf16>
  return
}

// -----

// CastLike only reads its second operand's type: it is no generic input.
// CHECK-LABEL: func @cast_like
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<2x3xf32>)
// CHECK: arith.fptosi %{{.*}} : f32 to i64
func.func @cast_like(%x: tensor<2x3xf32>, %t: tensor<5xi64>) -> tensor<2x3xi64> {
  %0 = onnx.CastLike %x, %t : (tensor<2x3xf32>, tensor<5xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// Comparisons pick ordered float, signed or unsigned predicates.
// CHECK-LABEL: func @compares
// CHECK: arith.cmpf olt
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi eq
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf ole
func.func @compares(%f: tensor<4xf32>, %u: tensor<4xui16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  %0 = onnx.Less %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = onnx.Less %u, %u : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xi1>
  %2 = onnx.GreaterOrEqual %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = onnx.Equal %b, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %4 = onnx.Greater %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = onnx.LessOrEqual %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// CHECK-LABEL: func @where
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x1xi1>, tensor<3xf32>, tensor<2x3xf32>)
// CHECK: ^bb0(%[[C:[^:]*]]: i1, %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32
// CHECK: arith.select %[[C]], %[[X]], %[[Y]] : f32
func.func @where(%c: tensor<2x1xi1>, %x: tensor<3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Where %c, %x, %y : (tensor<2x1xi1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// MulAdd (tcc-onnx-decompose's, for onnxruntime's QLinearAdd) rounds once:
// math.fma, its scalar operands broadcast.
// CHECK-LABEL: func @mul_add
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:[^:]*]]: f32, %[[S:[^:]*]]: f32, %[[T:[^:]*]]: f32
// CHECK: math.fma %[[X]], %[[S]], %[[T]] : f32
func.func @mul_add(%x: tensor<2x3xf32>, %s: tensor<f32>, %t: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.MulAdd %x, %s, %t : (tensor<2x3xf32>, tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Mod fmod=0 gives the remainder the divisor's sign (a zero float one
// too); fmod=1 is remf (C's fmod); unsigned is remui.
// CHECK-LABEL: func @mods
// CHECK: %[[R:.*]] = arith.remsi %[[A:.*]], %[[B:.*]] : i32
// CHECK: %[[FIX:.*]] = arith.andi
// CHECK: %[[ADJ:.*]] = arith.addi %[[R]], %[[B]]
// CHECK: arith.select %[[FIX]], %[[ADJ]], %[[R]]
// CHECK: arith.remf
// CHECK-NOT: math.copysign
// CHECK: arith.remui
// CHECK: arith.remf
// CHECK: math.copysign
func.func @mods(%i: tensor<4xi32>, %f: tensor<4xf32>, %u: tensor<4xui8>) {
  %0 = onnx.Mod %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = onnx.Mod %f, %f {fmod = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Mod %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = onnx.Mod %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Pow: an integer exponent is converted to the float base's type; an
// integer base computes in f64.
// CHECK-LABEL: func @pows
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: math.powf %{{.*}}, %{{.*}} : f64
// CHECK: arith.fptosi %{{.*}} : f64 to i32
func.func @pows(%f: tensor<4xf32>, %e: tensor<4xi64>, %i: tensor<4xi32>) {
  %0 = onnx.Pow %f, %e : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  %1 = onnx.Pow %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

// Variadic ops fold their broadcast operands; Max/Min propagate NaN.
// CHECK-LABEL: func @variadic
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>)
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: arith.minui
// CHECK: %[[S:.*]] = arith.addf
// CHECK: %[[N:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: arith.divf %[[S]], %[[N]]
func.func @variadic(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %u: tensor<3xui32>) {
  %0 = onnx.Max %x, %y, %x : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Min %u, %u : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xui32>
  %2 = onnx.Mean %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Shifts by amounts outside [0, width) saturate (numpy): 0, or the sign
// fill of a signed right shift.
// CHECK-LABEL: func @logic_bits
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: arith.xori %{{.*}}, %{{.*}} : i8
// CHECK: %[[W:.*]] = arith.constant 8 : i8
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[Y:.*]], %[[W]] : i8
// CHECK: %[[SH:.*]] = arith.shli %[[X:.*]], %[[Y]] : i8
// CHECK: %[[Z:.*]] = arith.constant 0 : i8
// CHECK: arith.select %[[OK]], %[[SH]], %[[Z]]
// CHECK: arith.shrui
// CHECK: %[[SR:.*]] = arith.shrsi %[[SX:.*]], %[[SY:.*]] : i8
// CHECK: %[[SEVEN:.*]] = arith.constant 7 : i8
// CHECK: %[[FILL:.*]] = arith.shrsi %[[SX]], %[[SEVEN]] : i8
// CHECK: arith.select %{{.*}}, %[[SR]], %[[FILL]]
func.func @logic_bits(%b: tensor<4xi1>, %u: tensor<4xui8>, %s: tensor<4xi8>) {
  %0 = onnx.And %b, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = onnx.BitwiseXor %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = onnx.BitShift %u, %u {direction = "LEFT"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = onnx.BitShift %u, %u {direction = "RIGHT"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %4 = onnx.BitShift %s, %s {direction = "RIGHT"} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @mean_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{on integers is not supported yet}}
  %0 = onnx.Mean %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

