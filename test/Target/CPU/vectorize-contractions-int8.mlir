// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512 int8-dot=1" --split-input-file -canonicalize | FileCheck %s
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=NOVNNI

// With int8-dot (AVX512-VNNI), a contraction of u8 activations by s8
// weights into i32 (MatMulInteger's) is register-tiled like an f32 one.
// The weights are packed in quads along k ([1, 8 / 4, 4 * 32]: -3 is 0xFD;
// the 12 columns past 20 are zero), each step (k by 4) loads one row of
// quads at k / 4, broadcasts 4 bytes of each row of A as one 32-bit word,
// and issues one vpdpbusd per accumulator (A's bytes unsigned, the
// weights' signed). The sums are exact: no blocks of the reduction.
// CHECK: memref.global "private" constant @w_panels : memref<256xi8>
// CHECK-LABEL: func.func @int8
// CHECK: %[[P:.*]] = memref.expand_shape %{{.*}} output_shape [1, 2, 128] : memref<256xi8> into memref<1x2x128xi8>
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %c0 to %c8 step %c4 iter_args(%[[ACC:[a-z0-9_]+]] =
// CHECK: %[[Q:.*]] = arith.shrui %[[K]], %c2
// CHECK: %[[ROW:.*]] = vector.load %[[P]][%c0, %[[Q]], %c0] : memref<1x2x128xi8>, vector<64xi8>
// CHECK: %[[A4:.*]] = vector.load %arg0[%c0, %[[K]]] : memref<3x8xi8>, vector<4xi8>
// CHECK: %[[W:.*]] = vector.bitcast %[[A4]] : vector<4xi8> to vector<1xi32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[W]] : vector<1xi32> to vector<16xi32>
// CHECK: %[[QUADS:.*]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[QUADS]], %[[ROW]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT: arith.addi %{{.*}} : vector<16xi32>
// CHECK: scf.yield
// CHECK: w_panels: "0x01000000FDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFD000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000FDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFDFD000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// NOVNNI-LABEL: func.func @int8
// NOVNNI: linalg.generic
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
memref.global "private" constant @w : memref<8x20xi8> = dense<-3>
func.func @int8(%a: memref<3x8xi8>, %c: memref<3x20xi32>) {
  %w = memref.get_global @w : memref<8x20xi8>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<3x8xi8>, memref<8x20xi8>) outs(%c : memref<3x20xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// A k that 4 does not divide: left to the generic loops.
// CHECK-LABEL: func.func @odd_k
// CHECK: linalg.generic
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
memref.global "private" constant @w : memref<6x20xi8> = dense<-3>
func.func @odd_k(%a: memref<3x6xi8>, %c: memref<3x20xi32>) {
  %w = memref.get_global @w : memref<6x20xi8>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<3x6xi8>, memref<6x20xi8>) outs(%c : memref<3x20xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}
