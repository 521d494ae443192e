// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=256 registers=32" --split-input-file | FileCheck %s

// A 1x1 convolution on a 7x7 map with its output channels along the vector
// (32 of them: full vectors; the 49 map positions would fill 49 of 64
// lanes): each tile of 8 map positions x 16 channels is transposed in
// registers (8x8 blocks, 24 shuffles per vector) and stored as runs of 8
// positions per channel, and the residual its epilogue adds is loaded the
// same way: no gathers or scatters. The last tile (position 48) is one
// position: masked runs. The next panel of the packed weights is
// prefetched as this one's 7 row tiles read it, in quarters (the power of
// two at most 7; no division in the loop): tile t fetches quarter t mod 4
// (256 of its 1024 floats, through a flat view), a line for every 4 it
// loads: the first of a step's two loads prefetches, the second (8 floats
// on) would fetch the same line. The loop over the 64 input channels is
// unrolled 4 times.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: %[[RES:[a-z0-9]+]]: memref<1x32x7x7xf32>, %[[OUT:[a-z0-9]+]]: memref<1x32x7x7xf32>
// CHECK-DAG: %[[O:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0], [1], [2, 3]] : memref<1x32x7x7xf32> into memref<1x32x49xf32>
// CHECK-DAG: %[[R:.*]] = memref.collapse_shape %[[RES]] {{\[\[}}0], [1], [2, 3]] : memref<1x32x7x7xf32> into memref<1x32x49xf32>
// CHECK-DAG: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<2x64x16xf32> into memref<2x1024xf32>
// CHECK-NOT: vector.gather
// CHECK-NOT: vector.scatter
// CHECK: scf.for %{{.*}} = %{{.*}} to %c48 step %c8
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c4
// CHECK: vector.load %{{.*}}[%{{.*}}, %c0{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK: %[[T:.*]] = arith.andi %{{.*}}, %c3
// CHECK: %[[SHARE:.*]] = arith.muli %[[T]], %c256
// CHECK: %[[PART:.*]] = arith.shrui %{{.*}}, %c2
// CHECK: %[[AT:.*]] = arith.addi %[[PART]], %[[SHARE]]
// CHECK: memref.prefetch %[[FLAT]][%{{.*}}, %[[AT]]], read, locality<2>, data : memref<2x1024xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c8{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c0{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK: memref.prefetch %[[FLAT]]
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c8{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c0{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK: memref.prefetch %[[FLAT]]
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c8{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c0{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK: memref.prefetch %[[FLAT]]
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %{{.*}}[%{{.*}}, %c8{{.*}}] : memref<2x64x16xf32>, vector<8xf32>
// CHECK-NOT: memref.prefetch
// CHECK: scf.yield
// CHECK-COUNT-16: vector.load %[[R]][%{{.*}}] : memref<1x32x49xf32>, vector<8xf32>
// CHECK: vector.shuffle
// CHECK-COUNT-16: vector.store %{{.*}}, %[[O]][%{{.*}}] : memref<1x32x49xf32>, vector<8xf32>
// CHECK-COUNT-16: vector.maskedload %[[R]][%{{.*}}, %c48{{.*}}]
// CHECK-COUNT-16: vector.maskedstore %[[O]][%{{.*}}, %c48{{.*}}]
// CHECK-NOT: vector.gather
// CHECK-NOT: vector.scatter
#bias1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @w : memref<32x64x1x1xf32> = dense<0.25>
func.func @transposed(%i: memref<1x64x7x7xf32>, %bias: memref<32xf32>, %res: memref<1x32x7x7xf32>, %o: memref<1x32x7x7xf32>) {
  %cst = arith.constant 0.0 : f32
  %f = memref.get_global @w : memref<32x64x1x1xf32>
  linalg.generic {indexing_maps = [#bias1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<32xf32>) outs(%o : memref<1x32x7x7xf32>) attrs = {tcc.epilogue_init} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x64x7x7xf32>, memref<32x64x1x1xf32>) outs(%o : memref<1x32x7x7xf32>)
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %res : memref<1x32x7x7xf32>, memref<1x32x7x7xf32>) outs(%o : memref<1x32x7x7xf32>) attrs = {tcc.epilogue} {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %s = arith.addf %in, %r : f32
    %m = arith.maximumf %s, %cst : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// The output is the interior of a padded buffer (tcc-pad-in-place): not
// contiguous, so neither flattened nor gathered, but its rows are. The
// channels run along the vector and each tile is stored as masked runs of
// the 7 positions of a row.
// CHECK-LABEL: func.func @padded_interior
// CHECK-NOT: vector.scatter
// CHECK-COUNT-16: vector.maskedstore %{{.*}} : memref<1x32x7x7xf32, strided<[2592, 81, 9, 1], offset: 10>>, vector<8xi1>, vector<8xf32>
// CHECK-NOT: vector.scatter
memref.global "private" constant @w2 : memref<32x64x1x1xf32> = dense<0.25>
func.func @padded_interior(%i: memref<1x64x7x7xf32>, %padded: memref<1x32x9x9xf32>) {
  %f = memref.get_global @w2 : memref<32x64x1x1xf32>
  %o = memref.subview %padded[0, 0, 1, 1] [1, 32, 7, 7] [1, 1, 1, 1] : memref<1x32x9x9xf32> to memref<1x32x7x7xf32, strided<[2592, 81, 9, 1], offset: 10>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x64x7x7xf32>, memref<32x64x1x1xf32>) outs(%o : memref<1x32x7x7xf32, strided<[2592, 81, 9, 1], offset: 10>>)
  return
}

// -----

// A column strip of a map (the output of one tap of a conv computed tap by
// tap: 14 rows x 2 columns of a 14x14 map): not contiguous, so its tiles
// are transposed along the map's last dim, the only one whose runs are
// contiguous, though the rows dim is longer: runs of 2 positions.
// CHECK-LABEL: func.func @column_strip
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK-NOT: vector.scatter
// CHECK: vector.maskedstore %{{.*}} : memref<1x32x14x2xf32, strided<[6272, 196, 14, 1], offset: 12>>, vector<8xi1>, vector<8xf32>
// CHECK-NOT: vector.scatter
memref.global "private" constant @w3 : memref<32x64x1x1xf32> = dense<0.25>
func.func @column_strip(%x: memref<1x64x14x14xf32>, %out: memref<1x32x14x14xf32>) {
  %f = memref.get_global @w3 : memref<32x64x1x1xf32>
  %i = memref.subview %x[0, 0, 0, 0] [1, 64, 14, 2] [1, 1, 1, 1] : memref<1x64x14x14xf32> to memref<1x64x14x2xf32, strided<[12544, 196, 14, 1]>>
  %o = memref.subview %out[0, 0, 0, 12] [1, 32, 14, 2] [1, 1, 1, 1] : memref<1x32x14x14xf32> to memref<1x32x14x2xf32, strided<[6272, 196, 14, 1], offset: 12>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x64x14x2xf32, strided<[12544, 196, 14, 1]>>, memref<32x64x1x1xf32>) outs(%o : memref<1x32x14x2xf32, strided<[6272, 196, 14, 1], offset: 12>>)
  return
}
