// RUN: tcc-opt %s --tcc-externalize-weights="weights-file=%t.weights" | FileCheck %s
// RUN: od -A d -t x1 -v %t.weights | FileCheck %s --check-prefix=FILE
// RUN: tcc-opt %s --tcc-externalize-weights | FileCheck %s

// The weights @w0 (12 bytes) and @w1 (16 bytes) move to one array, at
// offsets 0 and 64 (80 bytes); the splat stays in the object. @main and
// @k0, which reads @w0, take the array first; @k1 reads only the splat.

// CHECK-NOT: memref.global "private" constant @w0
// CHECK-NOT: memref.global "private" constant @w1
// CHECK: memref.global "private" constant @splat
memref.global "private" constant @w0 : memref<3xf32> = dense<[1.0, 2.0, 3.0]> {alignment = 64 : i64}
memref.global "private" constant @w1 : memref<2xi64> = dense<[7, 8]>
memref.global "private" constant @splat : memref<4xf32> = dense<0.5>

// CHECK-LABEL: func.func private @k0
// CHECK-SAME: (%[[W:.*]]: memref<80xi8>, %[[OUT:.*]]: memref<3xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[V:.*]] = memref.view %[[W]][%[[C0]]][] : memref<80xi8> to memref<3xf32>
// CHECK: memref.copy %[[V]], %[[OUT]]
func.func private @k0(%out: memref<3xf32>) attributes {tcc.kernel} {
  %w = memref.get_global @w0 : memref<3xf32>
  memref.copy %w, %out : memref<3xf32> to memref<3xf32>
  return
}

// CHECK-LABEL: func.func private @k1
// CHECK-SAME: (%{{.*}}: memref<4xf32>)
// CHECK: memref.get_global @splat
func.func private @k1(%out: memref<4xf32>) attributes {tcc.kernel} {
  %s = memref.get_global @splat : memref<4xf32>
  memref.copy %s, %out : memref<4xf32> to memref<4xf32>
  return
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[W:.*]]: memref<80xi8>, %[[O1:.*]]: memref<3xf32>, %[[O2:.*]]: memref<4xf32>, %[[O3:.*]]: memref<2xi64>)
// CHECK-SAME: tcc.weights_bytes = 80 : i64
// CHECK-SAME: tcc.weights_fingerprint = {{-?[0-9]+}} : i64
// CHECK: call @k0(%[[W]], %[[O1]])
// CHECK: call @k1(%[[O2]])
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: memref.view %[[W]][%[[C64]]][] : memref<80xi8> to memref<2xi64>
func.func @main(%o1: memref<3xf32>, %o2: memref<4xf32>, %o3: memref<2xi64>) {
  func.call @k0(%o1) : (memref<3xf32>) -> ()
  func.call @k1(%o2) : (memref<4xf32>) -> ()
  %w1 = memref.get_global @w1 : memref<2xi64>
  memref.copy %w1, %o3 : memref<2xi64> to memref<2xi64>
  return
}

// The file: the magic "TCCWGHT1", the header's size (64), the array's size
// (80 = 0x50), the fingerprint; then 1.0, 2.0, 3.0 as float32, zeros to
// offset 64 of the array, and 7, 8 as int64.
// FILE:      0000000 54 43 43 57 47 48 54 31 40 00 00 00 00 00 00 00
// FILE-NEXT: 0000016 50 00 00 00 00 00 00 00
// FILE:      0000064 00 00 80 3f 00 00 00 40 00 00 40 40 00 00 00 00
// FILE-NEXT: 0000080 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// FILE:      0000128 07 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
// FILE-NEXT: 0000144
