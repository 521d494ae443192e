// RUN: tcc-opt %s --tcc-vectorize-pools="vector-bits=256" --split-input-file | FileCheck %s
// RUN: not tcc-opt %s --tcc-vectorize-pools="vector-bits=100" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: vectorize-pools: bad vector-bits option

// A 3x3 sum pool at stride 1 on 10 rows of 10: each row is a full vector
// of 8 columns and a masked one of 2, read from the output once, carried
// through the loop over the window's rows, and stored once; each tap is
// one load per vector (masked for the second). Blocks of 4 rows (8
// accumulators) go through the loop together, as independent chains,
// then the last 2 rows.
// CHECK-LABEL: func.func @sum_stride1
// CHECK-NOT: linalg.pooling
// CHECK: scf.for %[[OH:.*]] = %{{.*}} to %c8 step %c4
// CHECK: %[[A0:.*]] = vector.load %arg2[{{.*}}, %[[OH]], %{{.*}}] : memref<1x2x10x10xf32>, vector<8xf32>
// CHECK: %[[M:.*]] = vector.constant_mask [2] : vector<8xi1>
// CHECK: %[[A1:.*]] = vector.maskedload %arg2[{{.*}}], %[[M]]
// CHECK-COUNT-3: vector.maskedload %arg2
// CHECK: %[[R:.*]]:8 = scf.for {{.*}} to %c3{{.*}} iter_args(%[[X0:.*]] = %[[A0]], %[[X1:.*]] = %[[A1]], {{.*}})
// CHECK: %[[T0:.*]] = vector.load %arg0[{{.*}}] : memref<1x2x12x12xf32>, vector<8xf32>
// CHECK: arith.addf %[[X0]], %[[T0]] : vector<8xf32>
// CHECK: %[[T1:.*]] = vector.maskedload %arg0
// CHECK: arith.addf %[[X1]], %[[T1]] : vector<8xf32>
// CHECK-COUNT-22: arith.addf {{.*}} : vector<8xf32>
// CHECK: scf.yield
// CHECK: vector.store %[[R]]#0, %arg2[{{.*}}, %[[OH]], %{{.*}}]
// CHECK: vector.maskedstore %arg2[{{.*}}], %{{.*}}, %[[R]]#1
// CHECK-COUNT-3: vector.maskedstore %arg2
// CHECK: %[[L:.*]]:4 = scf.for {{.*}} to %c3
// CHECK-COUNT-12: arith.addf {{.*}} : vector<8xf32>
// CHECK: vector.store %[[L]]#0, %arg2[{{.*}}, %c8{{.*}}, %{{.*}}]
func.func @sum_stride1(%in: memref<1x2x12x12xf32>, %w: memref<3x3xf32>, %out: memref<1x2x10x10xf32>) {
  linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x2x12x12xf32>, memref<3x3xf32>) outs(%out : memref<1x2x10x10xf32>)
  return
}

// -----

// At stride 2 a tap's 5 columns are the even elements of the 9 from its
// first: a load of 8 and a masked load of 1, shuffled. The 5 rows are one
// block. The max need not order -0 below +0 (nsz); it still propagates
// NaNs.
// CHECK-LABEL: func.func @max_stride2
// CHECK-NOT: step %c5
// CHECK: scf.for {{.*}} to %c3{{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: %[[LO:.*]] = vector.load %arg0[{{.*}}] : memref<1x2x11x11xf32>, vector<8xf32>
// CHECK: %[[M:.*]] = vector.constant_mask [1] : vector<8xi1>
// CHECK: %[[HI:.*]] = vector.maskedload %arg0[{{.*}}], %[[M]]
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[LO]], %[[HI]] [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK: arith.maximumf %{{.*}}, %[[EVEN]] fastmath<nsz> : vector<8xf32>
// CHECK-COUNT-2: vector.shuffle
// CHECK-COUNT-5: vector.maskedstore
func.func @max_stride2(%in: memref<1x2x11x11xf32>, %w: memref<3x3xf32>, %out: memref<1x2x5x5xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x2x11x11xf32>, memref<3x3xf32>) outs(%out : memref<1x2x5x5xf32>)
  return
}

// -----

// Other column strides are left to the loops.
// CHECK-LABEL: func.func @max_stride3
// CHECK: linalg.pooling_nchw_max
func.func @max_stride3(%in: memref<1x2x9x9xf32>, %w: memref<3x3xf32>, %out: memref<1x2x3x3xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
    ins(%in, %w : memref<1x2x9x9xf32>, memref<3x3xf32>) outs(%out : memref<1x2x3x3xf32>)
  return
}
