// RUN: tcc-opt %s --tcc-tile-transposes --split-input-file | FileCheck %s

// NHWC -> NCHW: the output's last loop (w) and the input's (c) are tiled by
// 16 (56 = 3 x 16 + 8: the last tile is 8 wide), the others by 1; each block
// is a 16x16 copy on views.
// CHECK-LABEL: func.func @nhwc_to_nchw
// CHECK: scf.for %[[N:.*]] = %c0 to %c1 step %c1
// CHECK: scf.for %[[C:.*]] = %c0{{.*}} to %c256 step %c16
// CHECK: scf.for %[[H:.*]] = %c0{{.*}} to %c56 step %c1
// CHECK: scf.for %[[W:.*]] = %c0{{.*}} to %c56{{.*}} step %c16
// CHECK: affine.min
// CHECK: memref.subview %arg0
// CHECK: memref.subview %arg1
// CHECK: linalg.transpose
// CHECK-NOT: linalg.transpose
func.func @nhwc_to_nchw(%in: memref<1x56x56x256xf32>, %out: memref<1x256x56x56xf32>) {
  linalg.transpose ins(%in : memref<1x56x56x256xf32>) outs(%out : memref<1x256x56x56xf32>) permutation = [0, 3, 1, 2]
  return
}

// -----

// Copies in the same order, and transposes whose innermost loops are too
// short to block (here 4), are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.for
// CHECK: linalg.transpose
// CHECK: linalg.copy
// CHECK-NOT: scf.for
func.func @left_alone(%a: memref<4x64xf32>, %b: memref<64x4xf32>, %c: memref<64x4xf32>) {
  linalg.transpose ins(%a : memref<4x64xf32>) outs(%b : memref<64x4xf32>) permutation = [1, 0]
  linalg.copy ins(%b : memref<64x4xf32>) outs(%c : memref<64x4xf32>)
  return
}
