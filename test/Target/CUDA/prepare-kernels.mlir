// RUN: tcc-opt %s --tcc-gpu-prepare-kernels --mlir-print-debuginfo | FileCheck %s

// Bufferization's copies become linalg.copy (a kernel, not host code on
// device memory); each linalg op is named as its kernel will be; an op with
// no parallel loop (a 0-d fill, a full reduction) goes into a parallel loop
// of one iteration.
// CHECK-LABEL: func.func @main
// CHECK: linalg.copy {{.*}} loc(#[[K0:[a-z0-9]+]])
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1) step (%c1)
// CHECK-NEXT: linalg.fill {{.*}} loc(#[[K1:[a-z0-9]+]])
// CHECK: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c1{{.*}}) step (%c1{{.*}})
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK: } loc(#[[K2:[a-z0-9]+]])
// A loop a lowering wrote out (a scatter's) runs as a kernel of one thread
// too; a host loop that holds kernels stays, its body visited.
// CHECK: scf.parallel
// CHECK-NEXT: scf.for
// CHECK: } loc(#{{[a-z0-9]+}})
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: } loc(#[[K3:[a-z0-9]+]])
// CHECK: scf.for
// CHECK-NEXT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK-DAG: #[[K0]] = loc("k0_copy_8"({{.*}}))
// CHECK-DAG: #[[K1]] = loc("k1_fill"({{.*}}))
// CHECK-DAG: #[[K2]] = loc("k2_generic_8"({{.*}}))
// CHECK-DAG: #[[K3]] = loc("k4_for"({{.*}}))
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %s: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  memref.copy %a, %b : memref<8xf32> to memref<8xf32> loc("copy0")
  linalg.fill ins(%zero : f32) outs(%s : memref<f32>) loc("fill0")
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%b : memref<8xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } loc("sum0")
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  } loc("scatter0")
  scf.for %i = %c0 to %c8 step %c1 {
    linalg.fill ins(%zero : f32) outs(%b : memref<8xf32>)
  } loc("time0")
  return
}
