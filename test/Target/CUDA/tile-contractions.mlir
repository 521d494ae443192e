// RUN: tcc-opt %s --split-input-file --tcc-gpu-tile-contractions --canonicalize | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-gpu-tile-contractions --canonicalize --tcc-gpu-emulate-launches | FileCheck %s --check-prefix=EMU

// A 70 x 40 x 20 matmul: blocks of 16 x 16 threads, each a 64 x 32 tile of
// the output (2 x 2 tiles: a grid of 4); the inputs' tiles in shared memory,
// 16 deep along the reduction, rows padded by one; each thread's 4 x 2
// elements the loops' iteration arguments, from the output's values (zero
// outside it); two barriers per step; the body the op's own.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c16, %{{.*}} = %c1) workgroup(%[[TA:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>, %[[TB:.*]] : memref<16x33xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: private
// CHECK: arith.cmpi ult, %{{.*}}, %c70
// CHECK: arith.cmpi ult, %{{.*}}, %c40
// CHECK: scf.if %{{.*}} -> (f32)
// CHECK: memref.load %arg2
// CHECK: } else {
// CHECK: scf.yield %cst
// CHECK: %[[STEPS:.*]]:8 = scf.for %[[K0:.*]] = %c0 to %c20 step %c16 iter_args
// A's innermost dim is the reduction's: neighbouring threads, neighbouring k.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024 step %c256
// CHECK: arith.remui %{{.*}}, %c16
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.*}}, %[[TA]]
// B's is an output column: neighbouring threads, neighbouring columns.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c512 step %c256
// CHECK: arith.remui %{{.*}}, %c32
// CHECK: memref.load %arg1
// CHECK: memref.store %{{.*}}, %[[TB]]
// CHECK: gpu.barrier
// CHECK: %[[LEFT:.*]] = arith.subi %c20, %[[K0]]
// CHECK: %[[DEPTH:.*]] = arith.minui %[[LEFT]], %c16
// CHECK: scf.for %[[KK:.*]] = %c0 to %[[DEPTH]] step %c1 iter_args
// CHECK: memref.load %[[TA]][%[[KK]], %[[TY]]]
// CHECK: memref.load %[[TB]][%[[KK]], %[[TX]]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store %[[STEPS]]#0, %arg2
// The emulation: shared memory one buffer, the iteration arguments one
// element per thread; the pieces between barriers loops over the threads.
// EMU-LABEL: func.func @matmul
// EMU-NOT: gpu.
// EMU-DAG: memref.alloca() : memref<16x65xf32>
// EMU-DAG: memref.alloca() : memref<16x33xf32>
// EMU-DAG: memref.alloca() : memref<1x16x16xf32>
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c4
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c16
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c16
// EMU: memref.load %arg2
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c20 step %c16
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c16
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c16
// EMU: memref.load %arg0
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c16
// EMU: scf.for %{{.*}} = %c0{{.*}} to %c16
// EMU: arith.mulf
func.func @matmul(%a: memref<70x20xf32>, %b: memref<20x40xf32>, %c: memref<70x40xf32>) {
  linalg.matmul ins(%a, %b : memref<70x20xf32>, memref<20x40xf32>) outs(%c : memref<70x40xf32>)
  return
}

// -----

// A convolution is an implicit GEMM: M the output pixels (n, oh, ow: the
// input's dims), N the filters, K the channels and taps; each index comes
// from the op's own maps (oh * 2 + kh * 2), the flattened indices split by
// the extents (K: 3 x 3 x 5).
// CHECK-LABEL: func.func @conv
// (180 pixels: 3 tiles of 64; 24 filters: 2 tiles of 16.)
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c6,
// CHECK-SAME: workgroup(%{{.*}} : memref<16x65xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x17xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %{{.*}} = %c0 to %c45 step %c16 iter_args
// CHECK: arith.remui %{{.*}}, %c5
// CHECK: affine.apply
// CHECK: memref.load %arg0
// CHECK: gpu.barrier
// EMU-LABEL: func.func @conv
// EMU-NOT: gpu.launch
func.func @conv(%x: memref<2x23x21x5xf32>, %w: memref<24x3x3x5xf32>, %y: memref<2x10x9x24xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x23x21x5xf32>, memref<24x3x3x5xf32>) outs(%y : memref<2x10x9x24xf32>)
  return
}

// -----

// Batch dims (indexing both inputs) are the grid's outermost part; an
// integer body (u8 x s8 -> s32 with zero points) is folded as it is.
// CHECK-LABEL: func.func @batch_integer
// (3 batches of 2 x 2 tiles of 32 x 16.)
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c12,
// CHECK-SAME: workgroup(%{{.*}} : memref<16x33xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x17xi8, #gpu.address_space<workgroup>>)
// CHECK: arith.divui %{{.*}}, %c2
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (i32, i32)
// CHECK: arith.extui
// CHECK: arith.extsi
// CHECK: arith.muli
// CHECK: arith.addi
func.func @batch_integer(%a: memref<3x40x33xi8>, %b: memref<3x33x20xi8>, %c: memref<3x40x20xi32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x40x33xi8>, memref<3x33x20xi8>) outs(%c : memref<3x40x20xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// What is not tiled: a product with fewer than 16 rows (one thread per
// output element serves it better), a depthwise convolution (no dim of
// the filter's alone), an op that reads its indices.
// CHECK-LABEL: func.func @not_tiled
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: linalg.generic
// CHECK-NOT: gpu.launch
func.func @not_tiled(%a: memref<8x32xf32>, %b: memref<32x40xf32>, %c: memref<8x40xf32>,
                     %x: memref<1x10x10x32xf32>, %w: memref<3x3x32xf32>, %y: memref<1x8x8x32xf32>,
                     %p: memref<32x32xf32>, %q: memref<32x32xf32>, %r: memref<32x32xf32>) {
  linalg.matmul ins(%a, %b : memref<8x32xf32>, memref<32x40xf32>) outs(%c : memref<8x40xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x32xf32>, memref<3x3x32xf32>) outs(%y : memref<1x8x8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %q : memref<32x32xf32>, memref<32x32xf32>) outs(%r : memref<32x32xf32>) {
  ^bb0(%x0: f32, %y0: f32, %acc: f32):
    %i = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %p0 = arith.mulf %x0, %f : f32
    %s = arith.addf %acc, %p0 : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The fill that writes the whole output just before is absorbed: each
// thread's part starts from its value, and the output is not read.
// CHECK-LABEL: func.func @fill
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch
// CHECK-NOT: memref.load %arg2
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %cst, %{{.*}} = %cst,
// CHECK-NOT: memref.load %arg2
// CHECK: memref.store %{{.*}}, %arg2
func.func @fill(%a: memref<32x20xf32>, %b: memref<20x32xf32>, %c: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<32x32xf32>)
  linalg.matmul ins(%a, %b : memref<32x20xf32>, memref<20x32xf32>) outs(%c : memref<32x32xf32>)
  return
}
