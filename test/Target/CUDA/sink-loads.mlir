// RUN: tcc-opt %s --split-input-file --tcc-gpu-sink-loads | FileCheck %s

// A padding value the host would read from the workspace is read by the
// kernel that uses it: the kernel writes other bytes of the workspace.
// CHECK-LABEL: func.func @pad
// CHECK-NOT: memref.load
// CHECK: gpu.launch
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%c0] : memref<1xf32>
// CHECK: memref.store %[[V]]
func.func @pad(%ws: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %value = memref.view %ws[%c0][] : memref<64xi8> to memref<1xf32>
  %out = memref.view %ws[%c8][] : memref<64xi8> to memref<4xf32>
  %v = memref.load %value[%c0] : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Not when the kernel writes what the host read: the kernel's own read
// would see its writes.
// CHECK-LABEL: func.func @overlap
// CHECK: %[[V:.*]] = memref.load
// CHECK: gpu.launch
// CHECK-NOT: memref.load
func.func @overlap(%ws: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %value = memref.view %ws[%c0][] : memref<64xi8> to memref<4xf32>
  %v = memref.load %value[%c0] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %value[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Nor when another kernel runs between the read and the use.
// CHECK-LABEL: func.func @between
// CHECK: %[[V:.*]] = memref.load
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: memref.load
func.func @between(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %v = memref.load %a[%c0] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %b[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
