// RUN: tcc-opt %s --tcc-cuda-kernels | FileCheck %s
// RUN: tcc-opt %s --tcc-cuda-kernels | tcc-opt --gpu-module-to-binary="format=isa" | FileCheck %s --check-prefix=PTX

// Each linalg op becomes a launch of blocks of 256 threads over its parallel
// dims flattened row-major (8 x 40 = 320 elements: 2 blocks, the threads of
// the second past element 320 doing nothing); the kernels are in NVVM for
// sm_90 with PTX 8.0, in one gpu.module of the model, named as the CPU's
// kernels are (the op and its shape) after the model.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @model_kernels::@model_k0_fill_8x40 blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1) args(%c320 : index, %c40 : index
// CHECK: gpu.launch_func @model_kernels::@model_k1_matmul_8x40x32 blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.launch_func @model_kernels::@model_k2_generic_8x40 blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NOT: linalg.
// CHECK: gpu.module @model_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// CHECK-NOT: gpu.module
// CHECK: llvm.func @model_k0_fill_8x40({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 256, 1, 1>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.icmp "ult"
// CHECK: llvm.store

// PTX: gpu.binary @model_kernels {{.*}}#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">{{.*}}assembly = "{{.*}}.version 8.0\0A.target sm_90
func.func @main(%a: memref<8x32xf32>, %b: memref<32x40xf32>, %c: memref<8x40xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x40xf32>)
  linalg.matmul ins(%a, %b : memref<8x32xf32>, memref<32x40xf32>) outs(%c : memref<8x40xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<8x40xf32>) {
  ^bb0(%x: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
