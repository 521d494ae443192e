// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=128 registers=16" --split-input-file | FileCheck %s

// An RNN's step at batch 1: h[1, k] times one direction's slice of the
// recurrent weights R[d], a view (offset 64 elements) into the constant
// global, in a loop over time steps. The slice is packed into panels on its
// own (its first panel row holds R[1][n][0] = 64, 66, 68, ...: 0x42800000,
// 0x42840000, 0x42880000); a tile of one row takes 4 vectors (16 lanes,
// four independent FMA chains) rather than 2; and in the loop, whose
// panels stay in cache from one step to the next, no tile prefetches.
// CHECK-LABEL: func.func @step
// CHECK: scf.for
// CHECK: memref.get_global @r_panels : memref<64xf32>
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK-COUNT-4: vector.fma
// CHECK-NOT: memref.prefetch
// CHECK: return
// CHECK: r_panels: "0x0400000000008042000084420000884200008C42
#step = affine_map<(d0, d1, d2) -> (d0, d2)>
#wmap = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
memref.global "private" constant @r : memref<2x32x2xf32> = dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0], [16.0, 17.0], [18.0, 19.0], [20.0, 21.0], [22.0, 23.0], [24.0, 25.0], [26.0, 27.0], [28.0, 29.0], [30.0, 31.0], [32.0, 33.0], [34.0, 35.0], [36.0, 37.0], [38.0, 39.0], [40.0, 41.0], [42.0, 43.0], [44.0, 45.0], [46.0, 47.0], [48.0, 49.0], [50.0, 51.0], [52.0, 53.0], [54.0, 55.0], [56.0, 57.0], [58.0, 59.0], [60.0, 61.0], [62.0, 63.0]], [[64.0, 65.0], [66.0, 67.0], [68.0, 69.0], [70.0, 71.0], [72.0, 73.0], [74.0, 75.0], [76.0, 77.0], [78.0, 79.0], [80.0, 81.0], [82.0, 83.0], [84.0, 85.0], [86.0, 87.0], [88.0, 89.0], [90.0, 91.0], [92.0, 93.0], [94.0, 95.0], [96.0, 97.0], [98.0, 99.0], [100.0, 101.0], [102.0, 103.0], [104.0, 105.0], [106.0, 107.0], [108.0, 109.0], [110.0, 111.0], [112.0, 113.0], [114.0, 115.0], [116.0, 117.0], [118.0, 119.0], [120.0, 121.0], [122.0, 123.0], [124.0, 125.0], [126.0, 127.0]]]>

func.func @step(%h: memref<1x2xf32>, %acc: memref<1x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %g = memref.get_global @r : memref<2x32x2xf32>
  %w = memref.subview %g[1, 0, 0] [1, 32, 2] [1, 1, 1] : memref<2x32x2xf32> to memref<32x2xf32, strided<[2, 1], offset: 64>>
  scf.for %t = %c0 to %c8 step %c1 {
    linalg.generic {indexing_maps = [#step, #wmap, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %w : memref<1x2xf32>, memref<32x2xf32, strided<[2, 1], offset: 64>>) outs(%acc : memref<1x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// The same product outside a loop prefetches the next panel as before.
// CHECK-LABEL: func.func @once
// CHECK: memref.prefetch
#step = affine_map<(d0, d1, d2) -> (d0, d2)>
#wmap = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
memref.global "private" constant @r : memref<2x32x2xf32> = dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0], [16.0, 17.0], [18.0, 19.0], [20.0, 21.0], [22.0, 23.0], [24.0, 25.0], [26.0, 27.0], [28.0, 29.0], [30.0, 31.0], [32.0, 33.0], [34.0, 35.0], [36.0, 37.0], [38.0, 39.0], [40.0, 41.0], [42.0, 43.0], [44.0, 45.0], [46.0, 47.0], [48.0, 49.0], [50.0, 51.0], [52.0, 53.0], [54.0, 55.0], [56.0, 57.0], [58.0, 59.0], [60.0, 61.0], [62.0, 63.0]], [[64.0, 65.0], [66.0, 67.0], [68.0, 69.0], [70.0, 71.0], [72.0, 73.0], [74.0, 75.0], [76.0, 77.0], [78.0, 79.0], [80.0, 81.0], [82.0, 83.0], [84.0, 85.0], [86.0, 87.0], [88.0, 89.0], [90.0, 91.0], [92.0, 93.0], [94.0, 95.0], [96.0, 97.0], [98.0, 99.0], [100.0, 101.0], [102.0, 103.0], [104.0, 105.0], [106.0, 107.0], [108.0, 109.0], [110.0, 111.0], [112.0, 113.0], [114.0, 115.0], [116.0, 117.0], [118.0, 119.0], [120.0, 121.0], [122.0, 123.0], [124.0, 125.0], [126.0, 127.0]]]>

func.func @once(%h: memref<1x2xf32>, %acc: memref<1x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %g = memref.get_global @r : memref<2x32x2xf32>
  %w = memref.subview %g[1, 0, 0] [1, 32, 2] [1, 1, 1] : memref<2x32x2xf32> to memref<32x2xf32, strided<[2, 1], offset: 64>>
    linalg.generic {indexing_maps = [#step, #wmap, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %w : memref<1x2xf32>, memref<32x2xf32, strided<[2, 1], offset: 64>>) outs(%acc : memref<1x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A GRU's biases: the init of the product's output selects by column
// (linalg.index), which tiles do not have: it stays a linalg op before the
// tiles (which then accumulate onto what it wrote) instead of being fused.
// CHECK-LABEL: func.func @indexed_init
// CHECK: linalg.generic
// CHECK: linalg.index 1
// CHECK: vector.fma
#step = affine_map<(d0, d1, d2) -> (d0, d2)>
#wmap = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#vec = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
memref.global "private" constant @r2 : memref<32x2xf32> = dense<1.0>
memref.global "private" constant @b2 : memref<32xf32> = dense<2.0>

func.func @indexed_init(%h: memref<1x2xf32>, %acc: memref<1x32xf32>) {
  %c16 = arith.constant 16 : index
  %w = memref.get_global @r2 : memref<32x2xf32>
  %b = memref.get_global @b2 : memref<32xf32>
  linalg.generic {indexing_maps = [#vec, #id], iterator_types = ["parallel", "parallel"]} ins(%b : memref<32xf32>) outs(%acc : memref<1x32xf32>) attrs = {tcc.epilogue_init} {
  ^bb0(%x: f32, %o: f32):
    %col = linalg.index 1 : index
    %hi = arith.cmpi sge, %col, %c16 : index
    %z = arith.constant 0.0 : f32
    %v = arith.select %hi, %x, %z : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#step, #wmap, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %w : memref<1x2xf32>, memref<32x2xf32>) outs(%acc : memref<1x32xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
