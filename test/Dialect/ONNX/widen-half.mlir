// RUN: tcc-opt %s --tcc-onnx-widen-half --split-input-file | FileCheck %s

// A float16 chain: each op runs in f32 on its operands cast from f16 (the
// weights become f32 constants) and its result is cast back to f16, as
// ONNX defines it: the Conv's and the MatMul's products and sums are f32.
// CHECK-LABEL: func @chain
// CHECK-DAG:   %[[W:.*]] = onnx.Constant dense_resource<widened_half> : tensor<4x3x3x3xf32>
// CHECK-DAG:   %[[M:.*]] = onnx.Constant dense<1.500000e+00> : tensor<8x5xf32>
// CHECK:       %[[X:.*]] = onnx.Cast %arg0 {to = 1 : i64} : (tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf32>
// CHECK:       %[[C:.*]] = onnx.Conv %[[X]], %[[W]]{{.*}} -> tensor<1x4x8x8xf32>
// CHECK:       %[[C16:.*]] = onnx.Cast %[[C]] {to = 10 : i64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf16>
// CHECK:       %[[C32:.*]] = onnx.Cast %[[C16]] {to = 1 : i64}
// CHECK:       %[[R:.*]] = onnx.Relu %[[C32]] : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK:       %[[R16:.*]] = onnx.Cast %[[R]] {to = 10 : i64}
// CHECK:       %[[R32:.*]] = onnx.Cast %[[R16]] {to = 1 : i64}
// CHECK:       %[[Y:.*]] = onnx.MatMul %[[R32]], %[[M]] : (tensor<1x4x8x8xf32>, tensor<8x5xf32>) -> tensor<1x4x8x5xf32>
// CHECK:       %[[H:.*]] = onnx.Cast %[[Y]] {to = 10 : i64} : (tensor<1x4x8x5xf32>) -> tensor<1x4x8x5xf16>
// CHECK-NOT:   onnx.Cast
// CHECK:       return %[[H]]
func.func @chain(%x: tensor<1x3x8x8xf16>) -> tensor<1x4x8x5xf16> {
  %w = onnx.Constant dense<0.5> : tensor<4x3x3x3xf16>
  %m = onnx.Constant dense<1.5> : tensor<8x5xf16>
  %none = onnx.NoValue
  %c = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>, none) -> tensor<1x4x8x8xf16>
  %r = onnx.Relu %c : (tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf16>
  %y = onnx.MatMul %r, %m : (tensor<1x4x8x8xf16>, tensor<8x5xf16>) -> tensor<1x4x8x5xf16>
  return %y : tensor<1x4x8x5xf16>
}

// -----

// Ops that yield another type (Shape) or choose one (Cast) stay; a bf16 op
// widens the same way.
// CHECK-LABEL: func @kept
// CHECK:       %[[H:.*]] = onnx.Cast %arg0 {to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK:       %[[W:.*]] = onnx.Cast %[[H]] {to = 1 : i64} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:       %[[N:.*]] = onnx.Neg %[[W]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       onnx.Cast %[[N]] {to = 10 : i64}
// CHECK:       onnx.Shape %[[H]]
// CHECK:       %[[B:.*]] = onnx.Cast %arg1 {to = 1 : i64} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:       %[[S:.*]] = onnx.Sqrt %[[B]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       onnx.Cast %[[S]] {to = 16 : i64} : (tensor<4xf32>) -> tensor<4xbf16>
func.func @kept(%x: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xf16>, tensor<1xi64>, tensor<4xbf16>) {
  %h = onnx.Cast %x {to = 10 : i64} : (tensor<4xf32>) -> tensor<4xf16>
  %n = onnx.Neg %h : (tensor<4xf16>) -> tensor<4xf16>
  %s = onnx.Shape %h : (tensor<4xf16>) -> tensor<1xi64>
  %q = onnx.Sqrt %b : (tensor<4xbf16>) -> tensor<4xbf16>
  return %n, %s, %q : tensor<4xf16>, tensor<1xi64>, tensor<4xbf16>
}

// -----

// Half constants held as resource blobs widen exactly: the smallest
// subnormal, -0, infinity, 1 and the largest half.
// CHECK-LABEL: func @blob
// CHECK:       onnx.Constant dense<[5.96046448E-8, -0.000000e+00, 0x7F800000, 1.000000e+00, 6.550400e+04]> : tensor<5xf32>
func.func @blob(%x: tensor<5xf16>) -> tensor<5xf16> {
  %c = onnx.Constant dense_resource<halves> : tensor<5xf16>
  %y = onnx.Add %x, %c : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xf16>
  return %y : tensor<5xf16>
}
{-#
  dialect_resources: {
    builtin: {
      halves: "0x0200000001000080007C003CFF7B"
    }
  }
#-}

// -----

// A blob whose size is not its type's (9 bytes for 5 halves, from a hostile
// file) is not read past its end: the constant stays half and is cast.
// CHECK-LABEL: func @short_blob
// CHECK:       %[[C:.*]] = onnx.Constant dense_resource<short> : tensor<5xf16>
// CHECK:       onnx.Cast %[[C]] {to = 1 : i64} : (tensor<5xf16>) -> tensor<5xf32>
func.func @short_blob(%x: tensor<5xf16>) -> tensor<5xf16> {
  %c = onnx.Constant dense_resource<short> : tensor<5xf16>
  %y = onnx.Add %x, %c : (tensor<5xf16>, tensor<5xf16>) -> tensor<5xf16>
  return %y : tensor<5xf16>
}
{-#
  dialect_resources: {
    builtin: {
      short: "0x02000000010000807C003CFF7B"
    }
  }
#-}
