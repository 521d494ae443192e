// RUN: tcc-opt %s --tcc-cuda-kernels | tcc-opt --gpu-module-to-binary="format=isa" | FileCheck %s

// Through the whole kernel pipeline, a tiled matmul's PTX: the two input
// tiles in shared memory (16 x 65 and 16 x 33 floats), two barriers per
// step, products and sums contracted to FMAs, and each thread's part of the output in registers (no local
// memory: no depot, no ld.local / st.local).
// CHECK: gpu.binary @model_kernels
// CHECK-SAME: .entry model_k0_matmul_70x40x20(
// Tiled kernels may use 128 registers a thread (ptxas would aim at more
// blocks and spill).
// CHECK-SAME: .maxnreg 128
// CHECK-NOT: __local_depot
// CHECK-SAME: .shared .align 4 .b8 {{.*}}[4160];
// CHECK-SAME: .shared .align 4 .b8 {{.*}}[2112];
// CHECK-NOT: .local
// CHECK-SAME: bar.sync
// CHECK-SAME: st.shared.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.b32
// CHECK-SAME: fma.rn.f32
// CHECK-NOT: .local
// CHECK-SAME: ret;
func.func @main(%a: memref<70x20xf32>, %b: memref<20x40xf32>, %c: memref<70x40xf32>) {
  linalg.matmul ins(%a, %b : memref<70x20xf32>, memref<20x40xf32>) outs(%c : memref<70x40xf32>)
  return
}
