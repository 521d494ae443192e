// RUN: tcc-opt %s --tcc-flatten-globals --split-input-file | FileCheck %s

// A constant global of rank 4 becomes one-dimensional; its use reshapes it
// back.
// CHECK: memref.global "private" constant @w : memref<8xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]>
// CHECK-LABEL: func.func @use
// CHECK: %[[FLAT:.*]] = memref.get_global @w : memref<8xf32>
// CHECK: %[[W:.*]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1, 2, 3]] output_shape [2, 2, 1, 2] : memref<8xf32> into memref<2x2x1x2xf32>
// CHECK: return %[[W]]
memref.global "private" constant @w : memref<2x2x1x2xf32> = dense<[[[[1.0, 2.0]], [[3.0, 4.0]]], [[[5.0, 6.0]], [[7.0, 8.0]]]]>
func.func @use() -> memref<2x2x1x2xf32> {
  %0 = memref.get_global @w : memref<2x2x1x2xf32>
  return %0 : memref<2x2x1x2xf32>
}

// -----

// Rank-1, mutable and uninitialized globals stay as they are.
// CHECK: memref.global "private" constant @v : memref<4xf32>
// CHECK: memref.global "private" @m : memref<2x2xf32> = dense<0.000000e+00>
// CHECK: memref.global "private" @u : memref<2x2xf32> = uninitialized
memref.global "private" constant @v : memref<4xf32> = dense<1.0>
memref.global "private" @m : memref<2x2xf32> = dense<0.0>
memref.global "private" @u : memref<2x2xf32> = uninitialized
