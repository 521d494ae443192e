// REQUIRES: ptxas
// RUN: tcc-opt %s --tcc-cuda-kernels | tcc-opt --gpu-module-to-binary="format=fatbin toolkit=%cuda_path" | FileCheck %s

// CUDA's ptxas accepts the kernel, with exp from libdevice (__nv_expf,
// linked from the toolkit): a fatbin (magic 0xBA55ED50) with SASS for
// sm_90 and the PTX.
// CHECK: gpu.binary @model_kernels {{.*}}#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {{{.*}}ISAToBinaryTimeInMs{{.*}}}, "P\EDU\BA
func.func @main(%x: memref<4x1000xf32>, %y: memref<4x1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x1000xf32>) outs(%y : memref<4x1000xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}
