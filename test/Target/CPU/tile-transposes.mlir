// RUN: tcc-opt %s --tcc-tile-transposes --canonicalize --split-input-file | FileCheck %s

// NHWC -> NCHW of floats: 8x8 blocks of (w, c), w the output's last loop
// and c the input's, one at a time along n and h. A block loads 8 runs of
// c (at w, w + 1, ...), transposes them in 24 shuffles and stores 8 runs
// of w (at c, c + 1, ...). 56 and 256 are whole blocks: nothing is masked.
// CHECK-LABEL: func.func @nhwc_to_nchw
// CHECK: scf.for %[[H:.*]] = %c0 to %c56 step %c1
// CHECK: scf.for %[[C:.*]] = %c0 to %c256 step %c8
// CHECK: scf.for %[[W:.*]] = %c0 to %c56 step %c8
// CHECK: %[[R0:.*]] = vector.load %arg0[%c0, %[[H]], %[[W]], %[[C]]] : memref<1x56x56x256xf32>, vector<8xf32>
// CHECK: %[[W1:.*]] = arith.addi %[[W]], %c1
// CHECK: vector.load %arg0[%c0, %[[H]], %[[W1]], %[[C]]]
// CHECK-COUNT-6: vector.load
// CHECK-NOT: vector.load
// CHECK: vector.shuffle %[[R0]], %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11]
// CHECK-COUNT-23: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: vector.store %{{.*}}, %arg1[%c0, %[[C]], %[[H]], %[[W]]] : memref<1x256x56x56xf32>, vector<8xf32>
// CHECK: %[[C1:.*]] = arith.addi %[[C]], %c1
// CHECK: vector.store %{{.*}}, %arg1[%c0, %[[C1]], %[[H]], %[[W]]]
// CHECK-COUNT-6: vector.store
// CHECK-NOT: vector.
// CHECK-NOT: linalg.transpose
func.func @nhwc_to_nchw(%in: memref<1x56x56x256xf32>, %out: memref<1x256x56x56xf32>) {
  linalg.transpose ins(%in : memref<1x56x56x256xf32>) outs(%out : memref<1x256x56x56xf32>) permutation = [0, 3, 1, 2]
  return
}

// -----

// 20 x 12 -> 12 x 20: 20 = 16 + 4 along the input's last index, 12 = 8 + 4
// along the output's. A block short along the input's last index loads
// masked runs and stores only its 4 rows; one short along the output's
// loads 4 rows (the others are zeros) and stores masked runs.
// CHECK-LABEL: func.func @masked
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: scf.for %[[J:.*]] = %c0 to %c16 step %c8
// A full block: rows 0-7 of the input at J.
// CHECK-COUNT-8: vector.load %arg0[%{{.*}}, %[[J]]] : memref<12x20xf32>, vector<8xf32>
// CHECK-COUNT-8: vector.store %{{.*}}, %arg1[%{{.*}}, %c0] : memref<20x12xf32>, vector<8xf32>
// Rows 8-11: 4 loads, zeros in the shuffles, masked stores at column 8.
// CHECK-COUNT-4: vector.load %arg0[%{{.*}}, %[[J]]]
// CHECK: vector.shuffle %{{.*}}, %[[Z]]
// CHECK: %[[M:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK-COUNT-8: vector.maskedstore %arg1[%{{.*}}, %c8], %[[M]]
// CHECK: }
// Columns 16-19 of the input: masked loads, 4 stores per block.
// CHECK: %[[M1:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK-COUNT-8: vector.maskedload %arg0[%{{.*}}, %c16], %[[M1]], %[[Z]]
// CHECK-COUNT-4: vector.store %{{.*}}, %arg1[%{{.*}}, %c0]
// CHECK: %[[M2:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK-COUNT-4: vector.maskedload %arg0[%{{.*}}, %c16], %[[M2]], %[[Z]]
// CHECK: %[[M3:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK-COUNT-4: vector.maskedstore %arg1[%{{.*}}, %c8], %[[M3]]
// CHECK-NOT: vector.maskedstore
func.func @masked(%in: memref<12x20xf32>, %out: memref<20x12xf32>) {
  linalg.transpose ins(%in : memref<12x20xf32>) outs(%out : memref<20x12xf32>) permutation = [1, 0]
  return
}

// -----

// A chunk of a split kernel (strided views, contiguous along their last
// index) is transposed in registers too.
// CHECK-LABEL: func.func @strided
// CHECK: vector.load %arg0{{.*}} : memref<16x64xf32, strided<[128, 1], offset: ?>>, vector<8xf32>
// CHECK: vector.store {{.*}} : memref<64x16xf32, strided<[32, 1], offset: ?>>, vector<8xf32>
func.func @strided(%in: memref<16x64xf32, strided<[128, 1], offset: ?>>, %out: memref<64x16xf32, strided<[32, 1], offset: ?>>) {
  linalg.transpose ins(%in : memref<16x64xf32, strided<[128, 1], offset: ?>>) outs(%out : memref<64x16xf32, strided<[32, 1], offset: ?>>) permutation = [1, 0]
  return
}

// -----

// Other element types (i64 shapes) are tiled into 16x16 scalar copies:
// the output's last loop (w) and the input's (c) by 16 (56 = 3 x 16 + 8:
// the last tile is 8 wide), the others by 1.
// CHECK-LABEL: func.func @wide_elements
// CHECK: scf.for %[[C:.*]] = %c0 to %c256 step %c16
// CHECK: scf.for %[[H:.*]] = %c0 to %c56 step %c1
// CHECK: scf.for %[[W:.*]] = %c0 to %c56 step %c16
// CHECK: affine.min
// CHECK: memref.subview %arg0
// CHECK: memref.subview %arg1
// CHECK: linalg.transpose
// CHECK-NOT: linalg.transpose
// CHECK-NOT: vector.
func.func @wide_elements(%in: memref<1x56x56x256xi64>, %out: memref<1x256x56x56xi64>) {
  linalg.transpose ins(%in : memref<1x56x56x256xi64>) outs(%out : memref<1x256x56x56xi64>) permutation = [0, 3, 1, 2]
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
