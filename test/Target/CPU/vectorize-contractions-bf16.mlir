// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512 bf16=1" --split-input-file -canonicalize | FileCheck %s
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=F32

// With bf16 (tcc compile --precision bf16): a matmul against constant
// weights takes k two terms a step. The panels hold bf16 pairs along k
// ([1, 6 / 2, 2 * 16]: 1.0 is 0x3F80; the columns past 10 are zero), each
// step loads one row of pairs at k / 2, then rounds the two scalars of each row
// of A (vcvtneps2bf16 on a vector of 8 repeating them), broadcasts them as
// one 32-bit word, and issues one x86vector.avx512.dot (vdpbf16ps) per
// accumulator. Nothing calls this function, so there is no workspace to
// round A into beforehand.
// CHECK: memref.global "private" constant @w_panels_bf16 : memref<96xbf16> = dense_resource<w_panels_bf16>
// CHECK-LABEL: func.func @packed
// CHECK: %[[P:.*]] = memref.expand_shape %{{.*}} output_shape [1, 3, 32] : memref<96xbf16> into memref<1x3x32xbf16>
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %c0 to %c6 step %c2 iter_args(%[[ACC:[a-z0-9_]+]] =
// CHECK: %[[HALF:.*]] = arith.shrui %[[K]], %c1
// CHECK: %[[ROW:.*]] = vector.load %[[P]][%c0, %[[HALF]], %c0] : memref<1x3x32xbf16>, vector<32xbf16>
// CHECK: %[[A2:.*]] = vector.load %arg0[%c0, %[[K]]] : memref<3x6xf32>, vector<2xf32>
// CHECK: %[[A8:.*]] = vector.shuffle %[[A2]], %[[A2]] [0, 1, 0, 1, 0, 1, 0, 1]
// CHECK: %[[H:.*]] = x86vector.avx512.cvt.packed.f32_to_bf16 %[[A8]] : vector<8xf32> -> vector<8xbf16>
// CHECK: %[[W:.*]] = vector.bitcast %[[H]] : vector<8xbf16> to vector<4xi32>
// CHECK: %[[W0:.*]] = vector.extract %[[W]][0] : i32 from vector<4xi32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[W0]] : i32 to vector<16xi32>
// CHECK: %[[PAIRS:.*]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<32xbf16>
// CHECK: x86vector.avx512.dot %[[ACC]], %[[PAIRS]], %[[ROW]] : vector<32xbf16> -> vector<16xf32>
// CHECK-NOT: vector.fma
// CHECK: w_panels_bf16: "0x02000000803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F000000000000000000000000000000000000000000000000803F
// F32-LABEL: func.func @packed
// F32-NOT: bf16
// F32: vector.fma
memref.global "private" constant @w : memref<6x10xf32> = dense<1.0>
func.func @packed(%a: memref<3x6xf32>, %c: memref<3x10xf32>) {
  %w = memref.get_global @w : memref<6x10xf32>
  linalg.matmul ins(%a, %w : memref<3x6xf32>, memref<6x10xf32>) outs(%c : memref<3x10xf32>)
  return
}

// -----

// Weights rounded to the nearest bf16, ties to even: 1 + 2^-8 (0x3F808000,
// halfway) rounds down to 0x3F80, 1 + 3 * 2^-8 (0x3F818000) up to 0x3F82.
// CHECK-LABEL: func.func @rounding
// CHECK: w_panels_bf16: "0x02000000803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F803F823F"
memref.global "private" constant @w : memref<2x16xf32> = dense<[[1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625, 1.00390625], [1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875, 1.01171875]]>
func.func @rounding(%a: memref<3x2xf32>, %c: memref<3x16xf32>) {
  %w = memref.get_global @w : memref<2x16xf32>
  linalg.matmul ins(%a, %w : memref<3x2xf32>, memref<2x16xf32>) outs(%c : memref<3x16xf32>)
  return
}

// -----

// An odd reduction (k = 5) has no pairs: f32 panels and FMAs.
// CHECK-LABEL: func.func @odd
// CHECK-NOT: x86vector
// CHECK: vector.fma
memref.global "private" constant @w : memref<5x10xf32> = dense<1.0>
func.func @odd(%a: memref<3x5xf32>, %c: memref<3x10xf32>) {
  %w = memref.get_global @w : memref<5x10xf32>
  linalg.matmul ins(%a, %w : memref<3x5xf32>, memref<5x10xf32>) outs(%c : memref<3x10xf32>)
  return
}

// -----

// A matmul of two activations (no weights) stays f32.
// CHECK-LABEL: func.func @activations
// CHECK-NOT: x86vector
// CHECK: vector.fma
func.func @activations(%a: memref<3x6xf32>, %b: memref<6x10xf32>, %c: memref<3x10xf32>) {
  linalg.matmul ins(%a, %b : memref<3x6xf32>, memref<6x10xf32>) outs(%c : memref<3x10xf32>)
  return
}

// -----

// A kernel that @main calls once: its broadcast input is rounded to bf16
// before the op, by a loop of 16 floats a step, into a new argument, which
// @main passes as a view of its workspace past the planned 100 bytes (at
// 128, a cache line); the workspace grows by the 4 x 32 x 2 bytes to 384.
// Each step then broadcasts a pair from there.
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: (%[[A:.*]]: memref<4x32xf32>, %{{.*}}: memref<4x16xf32>, %[[S:.*]]: memref<128xbf16>)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0, 1]] : memref<4x32xf32> into memref<128xf32>
// CHECK: scf.for %[[I:.*]] = %c0 to %c128 step %c16 {
// CHECK: %[[F:.*]] = vector.load %[[FLAT]][%[[I]]] : memref<128xf32>, vector<16xf32>
// CHECK: %[[H:.*]] = x86vector.avx512.cvt.packed.f32_to_bf16 %[[F]] : vector<16xf32> -> vector<16xbf16>
// CHECK: vector.store %[[H]], %[[S]][%[[I]]] : memref<128xbf16>, vector<16xbf16>
// CHECK: %[[COPY:.*]] = memref.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [4, 32]
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %c0 to %c32 step %c8 iter_args(%[[ACC:[a-z0-9_]+]] =
// CHECK: %[[PAIR:.*]] = vector.load %[[COPY]][%c0, %[[K]]] : memref<4x32xbf16>, vector<2xbf16>
// CHECK: %[[WORD:.*]] = vector.bitcast %[[PAIR]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[WORD]] : vector<1xi32> to vector<16xi32>
// CHECK: %[[PAIRS:.*]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<32xbf16>
// CHECK: x86vector.avx512.dot %[[ACC]], %[[PAIRS]], %{{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<384xi8>) attributes {tcc.workspace_size = 384 : i64}
// CHECK: %[[VIEW:.*]] = memref.view %[[WS]][%c128][] : memref<384xi8> to memref<128xbf16>
// CHECK: call @kernel(%{{.*}}, %{{.*}}, %[[VIEW]])
memref.global "private" constant @w : memref<32x16xf32> = dense<1.0>
func.func private @kernel(%a: memref<4x32xf32>, %c: memref<4x16xf32>) {
  %w = memref.get_global @w : memref<32x16xf32>
  linalg.matmul ins(%a, %w : memref<4x32xf32>, memref<32x16xf32>) outs(%c : memref<4x16xf32>)
  return
}
func.func @main(%a: memref<4x32xf32>, %c: memref<4x16xf32>, %ws: memref<100xi8>) attributes {tcc.workspace_size = 100 : i64} {
  func.call @kernel(%a, %c) : (memref<4x32xf32>, memref<4x16xf32>) -> ()
  return
}
