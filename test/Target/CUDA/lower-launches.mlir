// RUN: tcc-opt %s --tcc-cuda-kernels | tcc-opt --gpu-module-to-binary="format=isa" --expand-strided-metadata --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv --convert-cf-to-llvm --gpu-to-llvm --reconcile-unrealized-casts --tcc-gpu-lower-launches=model-name=net | FileCheck %s
// RUN: tcc-opt %s --tcc-cuda-kernels | tcc-opt --gpu-module-to-binary="format=isa" --expand-strided-metadata --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv --convert-cf-to-llvm --gpu-to-llvm --reconcile-unrealized-casts --tcc-gpu-lower-launches=model-name=net | FileCheck %s --check-prefix=IMAGE

// The host side of a CUDA model: the binary (PTX here), the kernels' names
// and the buffers' bytes in a tcc_cuda_image; the model function on device
// pointers becomes @main_device, its launches calls of tcc_cuda_launch
// (kernel 0: a grid of 1 x 1 x 1 blocks of 256 x 1 x 1 threads); a new
// @main on the host's buffers brackets it with tcc_cuda_begin and
// tcc_cuda_end and returns their status.
// IMAGE: llvm.mlir.global internal constant @net_cuda_binary("//
// IMAGE: llvm.mlir.global internal constant @net_cuda_kernel_names("model_k0_generic_8\00")
// IMAGE: llvm.mlir.global internal constant @net_cuda_buffer_bytes(dense<32> : tensor<2xi64>)
// IMAGE: llvm.mlir.global internal constant @net_cuda_image()
// IMAGE: llvm.mlir.constant(64 : i64) : i64
// IMAGE-NEXT: llvm.insertvalue {{.*}}[7]
// IMAGE: llvm.mlir.constant(1 : i32) : i32
// IMAGE-NEXT: llvm.insertvalue {{.*}}[8]
// IMAGE: llvm.mlir.constant(2 : i32) : i32
// IMAGE-NEXT: llvm.insertvalue {{.*}}[9]
// CHECK-NOT: gpu.
// CHECK: llvm.func internal @main_device({{.*}}, %[[HANDLE:.*]]: !llvm.ptr)
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-DAG: %[[THREADS:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK: llvm.call @tcc_cuda_launch(%[[HANDLE]], %{{.*}}, %[[ONE]], %[[ONE]], %[[ONE]], %[[THREADS]], %[[ONE]], %[[ONE]], %{{.*}}, %{{.*}})
// CHECK: llvm.func @main({{.*}}) -> i32 attributes {tcc.device_workspace_size = 64 : i64, tcc.num_inputs = 1 : i64, tcc.takes_context, tcc.workspace_size = 0 : i64}
// CHECK: %[[STATUS:.*]] = llvm.call @tcc_cuda_begin(
// CHECK: llvm.cond_br
// CHECK: llvm.return
// CHECK: llvm.call @main_device(
// CHECK: %[[END:.*]] = llvm.call @tcc_cuda_end(
// CHECK: llvm.return %[[END]] : i32
// CHECK-NOT: gpu.container_module
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %ws: memref<64xi8>) attributes {tcc.num_inputs = 1 : i64, tcc.workspace_size = 64 : i64} {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  }
  return
}
