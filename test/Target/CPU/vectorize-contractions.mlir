// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=128 registers=8" --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512 registers=32" --split-input-file | FileCheck %s --check-prefix=AVX512
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=256 registers=16" --split-input-file | FileCheck %s --check-prefix=AVX2
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=256 registers=16 l2-bytes=1048576" --split-input-file | FileCheck %s --check-prefix=BIGL2
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=256 registers=16 l2-bytes=8192" --split-input-file -canonicalize | FileCheck %s --check-prefix=SMALLL2
// RUN: not tcc-opt %s --tcc-vectorize-contractions="vector-bits=100" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: vectorize-contractions: bad vector-bits or registers option

// A matmul against another input: n (the output's last loop) runs along
// 4-lane vectors, two per row; m is unrolled by 2 rows (8 registers, half
// for accumulators). Column tiles are the outer loop, rows the inner one;
// the accumulators live in registers across the k loop. The last column
// tile (38 = 4 * 8 + 6) is masked: one full vector and one of 2 lanes.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<10x9xf32>, %[[B:.*]]: memref<9x38xf32>, %[[C:.*]]: memref<10x38xf32>)
// CHECK: scf.for %[[N:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %c8
// CHECK: scf.for %[[M:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %c2
// CHECK: %[[C0:[a-z0-9_]+]] = vector.load %[[C]][%[[M]], %[[N]]] : memref<10x38xf32>, vector<4xf32>
// CHECK: scf.for %[[K:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[C0]], {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: %[[ROW:[a-z0-9_]+]] = vector.load %[[B]][%[[K]], %[[N]]] : memref<9x38xf32>, vector<4xf32>
// CHECK: %[[S:[a-z0-9_]+]] = memref.load %[[A]][%[[M]], %[[K]]]
// CHECK: %[[SPLAT:[a-z0-9_]+]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: vector.fma %[[SPLAT]], %[[ROW]], %[[ACC]] : vector<4xf32>
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}, %[[C]][%[[M]], %[[N]]]
// CHECK: vector.constant_mask [2] : vector<4xi1>
// CHECK: vector.maskedload %[[B]]
// CHECK: vector.maskedstore %[[C]]
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<10x9xf32>, %b: memref<9x38xf32>, %c: memref<10x38xf32>) {
  linalg.matmul ins(%a, %b : memref<10x9xf32>, memref<9x38xf32>) outs(%c : memref<10x38xf32>)
  return
}

// -----

// AVX2 (16 registers): 12 accumulators, tiles of up to 6 rows x 2 vectors.
// 19 rows take four tiles; their rows are spread evenly (5, 5, 5, 4)
// rather than 6, 6, 6, 1, whose 1-row tile would wait on FMA latency.
// AVX2-LABEL: func.func @rows_spread
// AVX2: scf.for %{{.*}} = %{{.*}} to %c15 step %c5
// AVX2: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2-LABEL: func.func @rows_six
// AVX2: scf.for %{{.*}} = %{{.*}} to %c12 step %c6
// AVX2: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2-NOT: scf.for
// AVX2: return
func.func @rows_spread(%a: memref<19x32xf32>, %b: memref<32x16xf32>, %c: memref<19x16xf32>) {
  linalg.matmul ins(%a, %b : memref<19x32xf32>, memref<32x16xf32>) outs(%c : memref<19x16xf32>)
  return
}
func.func @rows_six(%a: memref<12x32xf32>, %b: memref<32x16xf32>, %c: memref<12x16xf32>) {
  linalg.matmul ins(%a, %b : memref<12x32xf32>, memref<32x16xf32>) outs(%c : memref<12x16xf32>)
  return
}

// -----

// Constant weights are repacked at compile time into panels of 8 columns
// ([ceil(10 / 8), 6, 8], zero-padded), which each tile reads as one
// contiguous stream, without masks; the original global goes away.
// CHECK-NOT: memref.global "private" constant @w :
// CHECK: memref.global "private" constant @w_panels : memref<96xf32> = dense_resource<w_panels> {alignment = 64 : i64}
// CHECK-LABEL: func.func @packed
// CHECK: %[[P:[a-z0-9_]+]] = memref.get_global @w_panels : memref<96xf32>
// CHECK: %[[PANELS:[a-z0-9_]+]] = memref.expand_shape %[[P]] {{\[\[}}0, 1, 2]] output_shape [2, 6, 8]
// CHECK: scf.for %[[N:[a-z0-9_]+]] =
// CHECK: scf.for
// CHECK: scf.for %[[K:[a-z0-9_]+]] =
// CHECK: %[[T:[a-z0-9_]+]] = arith.divui %[[N]], %c8
// CHECK: vector.load %[[PANELS]][%[[T]], %[[K]], %c0{{[_0-9]*}}] : memref<2x6x8xf32>, vector<4xf32>
// CHECK: vector.load %[[PANELS]][%{{.*}}, %[[K]], %c4{{[_0-9]*}}] : memref<2x6x8xf32>, vector<4xf32>
memref.global "private" constant @w : memref<6x10xf32> = dense<1.0>
func.func @packed(%a: memref<3x6xf32>, %c: memref<3x10xf32>) {
  %w = memref.get_global @w : memref<6x10xf32>
  linalg.matmul ins(%a, %w : memref<3x6xf32>, memref<6x10xf32>) outs(%c : memref<3x10xf32>)
  return
}

// -----

// Weights [k, heads, n] (a projection's, reshaped per head) where the
// output's heads do not merge with n (rows of 32, not 16): the panels put
// the heads, which a parallel loop walks, before k, so that a tile's
// reduction (one head) reads one contiguous run: [1, 2, 6, 8], not
// [1, 6, 2, 8].
// CHECK-LABEL: func.func @packed_heads
// CHECK: %[[PANELS:[a-z0-9_]+]] = memref.expand_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] output_shape [1, 2, 6, 8]
// CHECK: scf.for %[[H:[a-z0-9_]+]] = %{{.*}} to %c2{{[_0-9]*}} step %c1{{[_0-9]*}} {
// CHECK: scf.for %[[K:[a-z0-9_]+]] = {{.*}} iter_args
// CHECK: vector.load %[[PANELS]][%{{.*}}, %[[H]], %[[K]], %c0{{[_0-9]*}}] : memref<1x2x6x8xf32>, vector<4xf32>
memref.global "private" constant @wh : memref<6x2x8xf32> = dense<1.0>
func.func @packed_heads(%a: memref<3x6xf32>, %c: memref<3x2x8xf32, strided<[32, 8, 1]>>) {
  %w = memref.get_global @wh : memref<6x2x8xf32>
  linalg.generic {indexing_maps = [affine_map<(m, h, n, k) -> (m, k)>,
                                   affine_map<(m, h, n, k) -> (k, h, n)>,
                                   affine_map<(m, h, n, k) -> (m, h, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<3x6xf32>, memref<6x2x8xf32>) outs(%c : memref<3x2x8xf32, strided<[32, 8, 1]>>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// With a contiguous output, the heads merge with n: one 3x16x6 matmul on
// collapsed views, its columns two panels of 8 that every row tile
// shares; its init merges too, so the tiles start from it (no fill left). The output projection's sum over (heads, n) merges the
// same way, into one reduction of 16.
// CHECK-LABEL: func.func @merged_heads
// CHECK-DAG: %[[OUT:[a-z0-9_]+]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : memref<3x2x8xf32> into memref<3x16xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[COL:[a-z0-9_]+]] = %c0{{[_0-9]*}} to %c16 step %c8
// CHECK: vector.store %{{.*}}, %[[OUT]][%{{.*}}, %[[COL]]] : memref<3x16xf32>, vector<4xf32>
// CHECK-LABEL: func.func @merged_sum
// CHECK-DAG: memref.collapse_shape %arg0 {{\[\[}}0], [1, 2]] : memref<3x2x8xf32> into memref<3x16xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : memref<2x8x8xf32> into memref<16x8xf32>
// CHECK: scf.for %{{.*}} = %c0{{[_0-9]*}} to %c16{{[_0-9]*}} step %c4
memref.global "private" constant @wm : memref<6x2x8xf32> = dense<1.0>
func.func @merged_heads(%a: memref<3x6xf32>, %c: memref<3x2x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @wm : memref<6x2x8xf32>
  linalg.fill {tcc.epilogue_init} ins(%zero : f32) outs(%c : memref<3x2x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, h, n, k) -> (m, k)>,
                                   affine_map<(m, h, n, k) -> (k, h, n)>,
                                   affine_map<(m, h, n, k) -> (m, h, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<3x6xf32>, memref<6x2x8xf32>) outs(%c : memref<3x2x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @merged_sum(%a: memref<3x2x8xf32>, %w: memref<2x8x8xf32>, %c: memref<3x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, h, k) -> (m, h, k)>,
                                   affine_map<(m, n, h, k) -> (h, k, n)>,
                                   affine_map<(m, n, h, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %w : memref<3x2x8xf32>, memref<2x8x8xf32>) outs(%c : memref<3x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// A strided convolution read along ow: each row loads twice the lanes
// (masked to what it may read) and keeps every other one.
// CHECK-LABEL: func.func @conv_strided
// CHECK: vector.constant_mask [7] : vector<8xi1>
// CHECK: %[[WIDE:[a-z0-9_]+]] = vector.maskedload %arg0{{.*}} : memref<1x3x10x10xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
func.func @conv_strided(%i: memref<1x3x10x10xf32>, %f: memref<4x3x3x3xf32>, %o: memref<1x4x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %f : memref<1x3x10x10xf32>, memref<4x3x3x3xf32>) outs(%o : memref<1x4x4x4xf32>)
  return
}

// -----

// With few output columns and a long reduction, the output channels run
// along the vector instead: the constant filter is packed with f
// innermost, the input broadcast, and each accumulator gathered from and
// scattered to the output with a stride of oh * ow = 4 (the tail masked).
// CHECK-LABEL: func.func @conv_channels
// CHECK: %[[FLAT:[a-z0-9_]+]] = memref.collapse_shape %arg1 {{\[\[}}0, 1, 2, 3]] : memref<1x12x2x2xf32> into memref<48xf32>
// CHECK: %[[OFFSETS:[a-z0-9_]+]] = arith.constant dense<[0, 4, 8, 12]> : vector<4xi32>
// CHECK: vector.gather %[[FLAT]][%{{.*}}] [%[[OFFSETS]]]
// CHECK: vector.load %{{.*}} : memref<2x16x3x3x8xf32>, vector<4xf32>
// CHECK: vector.scatter %[[FLAT]][%{{.*}}] [%[[OFFSETS]]]
memref.global "private" constant @filter : memref<12x16x3x3xf32> = dense<0.5>
func.func @conv_channels(%i: memref<1x16x4x4xf32>, %o: memref<1x12x2x2xf32>) {
  %f = memref.get_global @filter : memref<12x16x3x3xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x16x4x4xf32>, memref<12x16x3x3xf32>) outs(%o : memref<1x12x2x2xf32>)
  return
}

// -----

// A stride-2 1x1 convolution reads a quarter of its input (32 of 128 KB),
// which stays in L2 while all 16 panels of the weights (512 KB) go by, so
// the panels are the outer loop, each read once from beyond L2; with the
// 4 output rows outside, the weights would be read 4 times.
// AVX2-LABEL: func.func @conv_1x1_stride2
// AVX2: memref.get_global @w1x1_panels
// AVX2-NEXT: memref.expand_shape
// AVX2: scf.for %{{.*}} = %{{.*}} to %c256 step %c16 {
// AVX2: scf.for %{{.*}} = %{{.*}} to %c4 step %c1{{[_0-9]*}} {
memref.global "private" constant @w1x1 : memref<256x1x1x512xf32> = dense<0.5>
func.func @conv_1x1_stride2(%i: memref<1x8x8x512xf32>, %o: memref<1x4x4x256xf32>) {
  %f = memref.get_global @w1x1 : memref<256x1x1x512xf32>
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%i, %f : memref<1x8x8x512xf32>, memref<256x1x1x512xf32>) outs(%o : memref<1x4x4x256xf32>)
  return
}

// -----

// Weights too big to read once per row of the output (288 KB, beyond
// kRereadBytes) run along the vector even where the output's rows would
// fill it (64 columns of the flattened 1x1 map): packed, read once. The
// loop over their panels is the one split over threads, outside the pairs
// of map positions, so each panel serves every row while it is in cache.
// The batch loop (one image) goes outside the panels: that way the weights
// are read once per image; inside them, the image's 64 KB of pixels would
// be read once per panel.
// CHECK-LABEL: func.func @conv_big_weights
// CHECK: %[[P:[a-z0-9_]+]] = memref.get_global @big_panels : memref<73728xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1
// CHECK: scf.for %[[F:[a-z0-9_]+]] = %{{.*}} to %c288 step %c8 {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step %c2 {
// CHECK: vector.gather
// CHECK: vector.scatter
// CHECK: } {tcc.parallel}
memref.global "private" constant @big : memref<288x256x1x1xf32> = dense<0.5>
func.func @conv_big_weights(%i: memref<1x256x8x8xf32>, %o: memref<1x288x8x8xf32>) {
  %f = memref.get_global @big : memref<288x256x1x1xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x256x8x8xf32>, memref<288x256x1x1xf32>) outs(%o : memref<1x288x8x8xf32>)
  return
}

// -----

// Not multiply-accumulate (a max reduction), an output that is also an
// input, dynamic shapes, and a transposed operand walked along the vector
// outside its last dim: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: vector.
#id = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @left_alone(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %d: memref<?x8xf32>, %e: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#id, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.maximumf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %c : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %b : memref<?x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %e : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction longer than 64 terms is summed in blocks of 64: each
// block's accumulators start from zero and are added to the running total
// (started from the output) when the block ends. A step of one FMA per
// accumulator is unrolled 4 times; the block of 302 - 4 * 64 = 46 terms
// would end in a rest loop of two steps, whose results are the block's.
// CHECK-LABEL: func.func @long_reduction
// CHECK: %[[INIT:[a-z0-9_]+]] = vector.load %arg2
// CHECK: %[[TOTAL:[a-z0-9_]+]] = scf.for %[[BLK:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %c64{{.*}} iter_args(%[[TOT:[a-z0-9_]+]] = %[[INIT]]) -> (vector<4xf32>)
// CHECK: %[[END:[a-z0-9_]+]] = arith.minsi %{{.*}}, %c302
// CHECK: %[[ZERO:[a-z0-9_]+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: %[[QUADS:[a-z0-9_]+]] = scf.for %{{.*}} = %[[BLK]] to %[[MID:[a-z0-9_]+]] step %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[ZERO]])
// CHECK: %[[FMA:[a-z0-9_]+]] = vector.fma {{.*}}, %[[ACC]]
// CHECK: %[[FMA2:[a-z0-9_]+]] = vector.fma {{.*}}, %[[FMA]]
// CHECK: %[[FMA3:[a-z0-9_]+]] = vector.fma {{.*}}, %[[FMA2]]
// CHECK: %[[FMA4:[a-z0-9_]+]] = vector.fma {{.*}}, %[[FMA3]]
// CHECK: scf.yield %[[FMA4]]
// CHECK: %[[PART:[a-z0-9_]+]] = scf.for %{{.*}} = %[[MID]] to %[[END]] step %{{.*}} iter_args(%{{.*}} = %[[QUADS]])
// CHECK: %[[SUM:[a-z0-9_]+]] = arith.addf %[[TOT]], %[[PART]]
// CHECK: scf.yield %[[SUM]]
// CHECK: vector.store %[[TOTAL]], %arg2
func.func @long_reduction(%a: memref<1x302xf32>, %b: memref<302x4xf32>, %c: memref<1x4xf32>) {
  linalg.matmul ins(%a, %b : memref<1x302xf32>, memref<302x4xf32>) outs(%c : memref<1x4xf32>)
  return
}

// -----

// 256 terms are 4 whole blocks: each ends 64 terms after it starts (no
// min), so the rest loop after its unrolled one runs from
// start + (64 - 64 mod 4) to start + 64, which folds away in LLVM.
// CHECK-LABEL: func.func @whole_blocks
// CHECK: scf.for %[[BLK:[a-z0-9_]+]] = %{{.*}} to %c256 step %c64
// CHECK-NOT: arith.minsi
// CHECK: %[[END:[a-z0-9_]+]] = arith.addi %[[BLK]], %c64
// CHECK-NOT: arith.minsi
// CHECK: scf.for %{{.*}} = %[[BLK]] to %{{.*}} step
// CHECK-COUNT-4: vector.fma
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-SAME: to %[[END]] step
// CHECK: vector.store
func.func @whole_blocks(%a: memref<1x256xf32>, %b: memref<256x4xf32>, %c: memref<1x4xf32>) {
  linalg.matmul ins(%a, %b : memref<1x256xf32>, memref<256x4xf32>) outs(%c : memref<1x4xf32>)
  return
}

// -----

// The block loop splits the outermost reduction loop whose inner terms fit
// in a block; the reduction loops outside it carry the totals. A
// channels-last 3x3 conv over 128 channels: its 3 kernel columns are
// unrolled, so the channels run in blocks of 64 / 3 = 21 inside the loop
// over kernel rows, which carries the running total (summing all 3 x 128
// terms of a row in one chain would round like a reduction of 384).
// CHECK-LABEL: func.func @nhwc_blocks
// CHECK: %[[TOTAL:[a-z0-9_]+]]:4 = scf.for %{{.*}} = %{{.*}} to %c3 step %{{.*}} iter_args(%[[T0:[a-z0-9_]+]] = %{{.*}}, {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: %[[BLOCKS:[a-z0-9_]+]]:4 = scf.for %[[BLK:[a-z0-9_]+]] = %{{.*}} to %c128 step %c21 iter_args(%[[B0:[a-z0-9_]+]] = %[[T0]],
// CHECK: %[[END:[a-z0-9_]+]] = arith.minsi %{{.*}}, %c128
// CHECK: %[[PART:[a-z0-9_]+]]:4 = scf.for %{{.*}} = %[[BLK]] to %[[END]] step %{{.*}} iter_args(%{{.*}} = %[[ZERO:[a-z0-9_]+]],
// CHECK: arith.addf %[[B0]], %[[PART]]#0
// CHECK: scf.yield %[[BLOCKS]]#0,
// CHECK: vector.store %[[TOTAL]]#0, %arg1
memref.global "private" constant @w3 : memref<8x3x3x128xf32> = dense<0.5>
func.func @nhwc_blocks(%i: memref<1x4x4x128xf32>, %o: memref<1x2x2x8xf32>) {
  %w = memref.get_global @w3 : memref<8x3x3x128xf32>
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %w : memref<1x4x4x128xf32>, memref<8x3x3x128xf32>) outs(%o : memref<1x2x2x8xf32>)
  return
}

// -----

// An op of at least 2^17 multiply-adds has one tile loop marked for
// tcc-parallelize-loops: the outermost of 16 or more iterations that runs
// at most 8 times, here the 32 row tiles inside the 8 column tiles (16
// iterations share out evenly over 2, 4, 8 or 16 threads, 8 column tiles
// not over 16).
// CHECK-LABEL: func.func @parallel
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step %c8
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c2
// CHECK-NOT: tcc.parallel
// CHECK: } {tcc.parallel}
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @parallel(%a: memref<64x512xf32>, %b: memref<512x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x512xf32>, memref<512x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Where no tile loop has 16 iterations (8 column tiles, 8 row tiles), the
// outermost of two or more is marked.
// CHECK-LABEL: func.func @parallel_few
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step %c8
// CHECK-NOT: tcc.parallel
// CHECK: } {tcc.parallel}
// CHECK-NEXT: return
func.func @parallel_few(%a: memref<16x256xf32>, %b: memref<256x64xf32>, %c: memref<16x64xf32>) {
  linalg.matmul ins(%a, %b : memref<16x256xf32>, memref<256x64xf32>) outs(%c : memref<16x64xf32>)
  return
}

// -----

// An output init and an epilogue (marked by tcc-outline-kernels) are fused:
// the accumulators start from the bias (a vector load along n), and each
// finished tile gets the residual added and the ReLU applied on vectors
// before it is stored straight into the epilogue's output; the matmul's own
// output buffer is never written.
// CHECK-LABEL: func.func @fused
// CHECK-SAME: %[[BIAS:[a-z0-9]+]]: memref<8xf32>, %[[RES:[a-z0-9]+]]: memref<2x8xf32>, %[[T:[a-z0-9]+]]: memref<2x8xf32>, %[[OUT:[a-z0-9]+]]: memref<2x8xf32>)
// CHECK: %[[B0:.*]] = vector.load %[[BIAS]][%{{.*}}] : memref<8xf32>, vector<4xf32>
// CHECK: %[[ACC:.*]]:4 = scf.for {{.*}} iter_args(%{{.*}} = %[[B0]],
// CHECK: vector.fma
// CHECK: %[[R:.*]] = vector.load %[[RES]]
// CHECK: %[[S:.*]] = arith.addf %[[ACC]]#0, %[[R]] : vector<4xf32>
// CHECK: %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<4xf32>
// CHECK: vector.store %[[M]], %[[OUT]]
// CHECK-NOT: linalg.
// CHECK-NOT: %[[T]]
#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fused(%a: memref<2x16xf32>, %w: memref<16x8xf32>, %bias: memref<8xf32>, %res: memref<2x8xf32>, %t: memref<2x8xf32>, %out: memref<2x8xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<8xf32>) outs(%t : memref<2x8xf32>) attrs = {tcc.epilogue_init} {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %w : memref<2x16xf32>, memref<16x8xf32>) outs(%t : memref<2x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %res : memref<2x8xf32>, memref<2x8xf32>) outs(%out : memref<2x8xf32>) attrs = {tcc.epilogue} {
  ^bb0(%in: f32, %r: f32, %o: f32):
    %s = arith.addf %in, %r : f32
    %m = arith.maximumf %s, %cst : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A 1x1 convolution with unit strides is a matmul over the flattened map
// (49 columns instead of rows of 7), and so are its init (the bias) and
// epilogue (ReLU) beside it: the bias starts the accumulators and the ReLU
// is applied to them before the one store.
// CHECK-LABEL: func.func @one_by_one
// CHECK-SAME: %[[IN:[a-z0-9]+]]: memref<1x8x7x7xf32>, %[[BIAS:[a-z0-9]+]]: memref<16xf32>, %[[OUT:[a-z0-9]+]]: memref<1x16x7x7xf32>
// CHECK-DAG: %[[O:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0], [1], [2, 3]] : memref<1x16x7x7xf32> into memref<1x16x49xf32>
// CHECK-DAG: %[[I:.*]] = memref.collapse_shape %[[IN]] {{\[\[}}0], [1], [2, 3]] : memref<1x8x7x7xf32> into memref<1x8x49xf32>
// CHECK-DAG: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : memref<16x8x1x1xf32> into memref<16x8xf32>
// CHECK-NOT: linalg.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c48 step %c8
// CHECK: %[[B:.*]] = memref.load %[[BIAS]]
// CHECK: %[[ACC:.*]]:4 = scf.for
// CHECK: vector.load %[[I]]
// CHECK: vector.fma
// CHECK: %[[M:.*]] = arith.maximumf %[[ACC]]#0
// CHECK: vector.store %[[M]], %[[O]]
// CHECK-NOT: linalg.
#bias1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @w1 : memref<16x8x1x1xf32> = dense<0.25>
func.func @one_by_one(%i: memref<1x8x7x7xf32>, %bias: memref<16xf32>, %o: memref<1x16x7x7xf32>) {
  %cst = arith.constant 0.0 : f32
  %f = memref.get_global @w1 : memref<16x8x1x1xf32>
  linalg.generic {indexing_maps = [#bias1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<16xf32>) outs(%o : memref<1x16x7x7xf32>) attrs = {tcc.epilogue_init} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x8x7x7xf32>, memref<16x8x1x1xf32>) outs(%o : memref<1x16x7x7xf32>)
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<1x16x7x7xf32>) outs(%o : memref<1x16x7x7xf32>) attrs = {tcc.epilogue} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A matmul whose constant weights are packed still starts from its init:
// the bias is loaded into the accumulators and no separate loop writes it
// (packing puts the panels' views between the init and the matmul).
// CHECK-LABEL: func.func @packed_with_init
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<2x8xf32>, %[[BIAS:[a-z0-9]+]]: memref<8xf32>, %[[C:[a-z0-9]+]]: memref<2x8xf32>
// CHECK-NOT: linalg.
// CHECK: memref.get_global @wp_panels
// CHECK-NOT: linalg.
// CHECK: %[[B0:.*]] = vector.load %[[BIAS]][%{{.*}}] : memref<8xf32>, vector<4xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[B0]],
// CHECK-NOT: linalg.
#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
memref.global "private" constant @wp : memref<8x8xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]>
func.func @packed_with_init(%a: memref<2x8xf32>, %bias: memref<8xf32>, %c: memref<2x8xf32>) {
  %w = memref.get_global @wp : memref<8x8xf32>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<8xf32>) outs(%c : memref<2x8xf32>) attrs = {tcc.epilogue_init} {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %w : memref<2x8xf32>, memref<8x8xf32>) outs(%c : memref<2x8xf32>)
  return
}

// -----

// A depthwise convolution unrolls rows of the map (one weight broadcast per
// kernel tap serves every row) and the kernel's rows inside each step: the
// input row oh + 1 that kh = 0 reads for the second output row is the one
// kh = 1 reads for the first, loaded once. Per step (a kernel column): 3
// weights, and 4 input rows x 2 vectors (not 2 rows x 3 kh x 2 vectors).
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-3: memref.load %arg1
// CHECK-NOT: memref.load %arg1
// CHECK: scf.yield
// CHECK-LABEL: func.func @depthwise_inputs
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-8: vector.load %arg0
// CHECK-NOT: vector.load %arg0
// CHECK: scf.yield
func.func @depthwise(%i: memref<1x4x10x18xf32>, %f: memref<4x3x3xf32>, %o: memref<1x4x8x16xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x4x10x18xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x8x16xf32>)
  return
}
func.func @depthwise_inputs(%i: memref<1x4x10x18xf32>, %f: memref<4x3x3xf32>, %o: memref<1x4x8x16xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x4x10x18xf32>, memref<4x3x3xf32>) outs(%o : memref<1x4x8x16xf32>)
  return
}

// -----

// On a 7x7 map (with 512-bit vectors), a depthwise convolution unrolls the
// map's 7 rows, not 16 channels: each weight broadcast serves the 7 rows and
// each input row serves the kernel rows that reach it, 11 row loads and 5
// broadcasts per 35 FMAs in each step (a kernel column), where 16 channels
// would load a row and a weight for each FMA. Rows of 7 run on 8-lane
// vectors.
// AVX512-LABEL: func.func @depthwise_small_map
// AVX512: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// AVX512-COUNT-11: vector.maskedload %arg0{{.*}} vector<8xf32>
// AVX512-NOT: vector.maskedload %arg0
// AVX512: scf.yield
func.func @depthwise_small_map(%i: memref<1x32x11x11xf32>, %f: memref<32x5x5xf32>, %o: memref<1x32x7x7xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x32x11x11xf32>, memref<32x5x5xf32>) outs(%o : memref<1x32x7x7xf32>)
  return
}

// -----

// A packed panel over a quarter of the L2 cache (16 columns x 3072 k,
// 192 KB; 512 KB of L2 by default) is walked in K blocks of 16 KB (256 k)
// on AVX2, each block by every row tile before the next: the first block
// starts from the output (a matmul accumulates into it), each stores its
// partial sums there, the blocks between the first and the last are a
// loop, and the last ends the sums. With a 1 MB L2 the panel is walked
// whole.
// AVX2-LABEL: func.func @panel_blocks
// AVX2: scf.for %[[COL:[a-z0-9_]+]] = %{{.*}} to %c16
// AVX2: scf.for %[[ROW:[a-z0-9_]+]] = %{{.*}} to %c8 step %c4
// AVX2: vector.load %arg1[%[[ROW]], %[[COL]]]
// AVX2: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c64
// AVX2: vector.store %{{.*}}, %arg1[%[[ROW]], %[[COL]]]
// AVX2: scf.for %[[KB:[a-z0-9_]+]] = %c256{{.*}} to %c2816 step %c256
// AVX2: scf.for %[[ROW2:[a-z0-9_]+]] = %{{.*}} to %c8
// AVX2: vector.load %arg1[%[[ROW2]], %[[COL]]]
// AVX2: scf.for %{{.*}} = %[[KB]] to %{{.*}} step %c64
// AVX2: vector.store %{{.*}}, %arg1[%[[ROW2]], %[[COL]]]
// AVX2: scf.for %[[ROW3:[a-z0-9_]+]] = %{{.*}} to %c8
// AVX2: scf.for %{{.*}} = %c2816{{.*}} to %{{.*}} step %c64
// AVX2: vector.store %{{.*}}, %arg1[%[[ROW3]], %[[COL]]]
// BIGL2-LABEL: func.func @panel_blocks
// BIGL2-NOT: %c256
// BIGL2: scf.for %{{.*}} = %c0{{.*}} to %c3072{{.*}} step %c64
// BIGL2-NOT: %c256
// BIGL2: return
memref.global "private" constant @long_k : memref<3072x16xf32> = dense<0.5>
func.func @panel_blocks(%a: memref<8x3072xf32>, %c: memref<8x16xf32>) {
  %b = memref.get_global @long_k : memref<3072x16xf32>
  linalg.matmul ins(%a, %b : memref<8x3072xf32>, memref<3072x16xf32>) outs(%c : memref<8x16xf32>)
  return
}

// -----

// 40 rows of a over 64 terms (10 KB) do not fit an 8 KB L2 beside a 4 KB
// panel of b: the panels are walked once per block of two 6-row tiles
// (12 rows, 3 KB), the last block [24, 36) with the 4-row remainder.
// Without an L2 that small, once for all the rows.
// SMALLL2-LABEL: func.func @row_blocks
// SMALLL2: scf.for %[[BLK:[a-z0-9_]+]] = %c0 to %c24 step %c12 {
// SMALLL2:   scf.for %{{.*}} = %c0 to %c32 step %c16 {
// SMALLL2:     %[[END:[a-z0-9_]+]] = arith.addi %[[BLK]], %c12
// SMALLL2:     scf.for %{{.*}} = %[[BLK]] to %[[END]] step %c6 {
// SMALLL2: scf.for %{{.*}} = %c0 to %c32 step %c16 {
// SMALLL2:   scf.for %{{.*}} = %c24 to %c36 step %c6 {
// SMALLL2:   vector.load %arg2[%c36, %{{.*}}]
// SMALLL2: return
// AVX2-LABEL: func.func @row_blocks
// AVX2-NOT: step %c12
// AVX2: return
func.func @row_blocks(%a: memref<40x64xf32>, %b: memref<64x32xf32>, %c: memref<40x32xf32>) {
  linalg.matmul ins(%a, %b : memref<40x64xf32>, memref<64x32xf32>) outs(%c : memref<40x32xf32>)
  return
}

// -----

// All of b (8x128, 4 KB) fits half of an 8 KB L2 but the 192x128 output
// (96 KB) does not fit it: the panels are walked once per 6-row tile, so
// each row of c is written whole before the next, and the threads share
// the row tiles. Without an L2 that small, the panels stay outermost.
// SMALLL2-LABEL: func.func @rows_outer
// SMALLL2: scf.for %[[BLK:[a-z0-9_]+]] = %c0 to %c186 step %c6 {
// SMALLL2:   scf.for %[[COL:[a-z0-9_]+]] = %c0 to %c128 step %c16 {
// SMALLL2:     scf.for %[[ROW:[a-z0-9_]+]] = %[[BLK]] to %{{.*}} step %c6 {
// SMALLL2:       vector.store %{{.*}}, %arg2[%[[ROW]], %[[COL]]]
// SMALLL2: } {tcc.parallel}
// SMALLL2: scf.for %[[COL2:[a-z0-9_]+]] = %c0 to %c128 step %c16 {
// SMALLL2:   vector.store %{{.*}}, %arg2[%c186, %[[COL2]]]
// SMALLL2: return
// AVX2-LABEL: func.func @rows_outer
// AVX2: scf.for %{{.*}} = %c0{{.*}} to %c128 step %c16 {
// AVX2:   scf.for %{{.*}} = %c0{{.*}} to %c192 step %c6 {
// AVX2: return
func.func @rows_outer(%a: memref<192x8xf32>, %b: memref<8x128xf32>, %c: memref<192x128xf32>) {
  linalg.matmul ins(%a, %b : memref<192x8xf32>, memref<8x128xf32>) outs(%c : memref<192x128xf32>)
  return
}
