// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512 int8-dot=1" --split-input-file -canonicalize | FileCheck %s
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=NOINT8
// RUN: tcc-opt %s --tcc-vectorize-contractions="vector-bits=256 int8-dot=1 vnni=0" --split-input-file -canonicalize | FileCheck %s --check-prefix=PMADDWD

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
// NOINT8-LABEL: func.func @int8
// NOINT8: linalg.generic
// Without VNNI (vnni=0: AVX2 here), the same panels and broadcast quads;
// each step widens the quads' bytes 0 and 2 (u8: masked, s8: shifted up
// and back arithmetically) and bytes 1 and 3 (shifted down) to 16 bits in
// place, and adds two pmaddwd: exact sums of the four products.
// PMADDWD-LABEL: func.func @int8
// PMADDWD-DAG: %[[FF:.*]] = arith.constant dense<255> : vector<16xi16>
// PMADDWD-DAG: %[[EIGHT:.*]] = arith.constant dense<8> : vector<16xi16>
// PMADDWD: scf.for %[[K:[a-z0-9_]+]] = %c0 to %c8 step %c4 iter_args(%[[ACC:[a-z0-9_]+]] =
// PMADDWD: %[[ROW:.*]] = vector.load %{{.*}} : memref<2x2x64xi8>, vector<32xi8>
// PMADDWD: %[[SPLAT:.*]] = vector.broadcast %{{.*}} : vector<1xi32> to vector<8xi32>
// PMADDWD-DAG: %[[U:.*]] = vector.bitcast %[[SPLAT]] : vector<8xi32> to vector<16xi16>
// PMADDWD-DAG: %[[S:.*]] = vector.bitcast %[[ROW]] : vector<32xi8> to vector<16xi16>
// PMADDWD-DAG: %[[UE:.*]] = arith.andi %[[U]], %[[FF]] : vector<16xi16>
// PMADDWD-DAG: %[[UO:.*]] = arith.shrui %[[U]], %[[EIGHT]] : vector<16xi16>
// PMADDWD-DAG: %[[UP:.*]] = arith.shli %[[S]], %[[EIGHT]] : vector<16xi16>
// PMADDWD-DAG: %[[SE:.*]] = arith.shrsi %[[UP]], %[[EIGHT]] : vector<16xi16>
// PMADDWD-DAG: %[[SO:.*]] = arith.shrsi %[[S]], %[[EIGHT]] : vector<16xi16>
// PMADDWD: %[[E:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[UE]], %[[SE]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// PMADDWD: %[[A:.*]] = arith.addi %[[ACC]], %[[E]] : vector<8xi32>
// PMADDWD: %[[O:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[UO]], %[[SO]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// PMADDWD: arith.addi %[[A]], %[[O]] : vector<8xi32>
// PMADDWD-NOT: vpdpbusd
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

// -----

// A channels-last 3x3 convolution of u8 pixels by s8 weights (an
// NhwcConvInteger's), with the output init before it (the zero point's
// correction per channel) and the requantization after it (scale per
// channel read at [0, 0, 0, c], round, saturate to u8) that
// tcc-outline-kernels put beside it: the init starts the accumulators, the
// epilogue runs on them in the tiles and stores u8 vectors.
// CHECK-LABEL: func.func @conv_requantized
// CHECK: %[[START:.*]] = vector.load %arg3[%{{.*}}] : memref<16xi32>, vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-DAG: %[[S:.*]] = vector.load %arg4[%c0, %c0, %c0, %c0] : memref<1x1x1x16xf32>, vector<16xf32>
// CHECK-DAG: %[[F:.*]] = arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %[[F]], %[[S]] : vector<16xf32>
// CHECK: math.roundeven %{{.*}} : vector<16xf32>
// CHECK: %[[U8:.*]] = arith.fptoui %{{.*}} : vector<16xf32> to vector<16xi8>
// CHECK: vector.store %[[U8]], %arg2[{{.*}}] : memref<1x4x4x16xi8>, vector<16xi8>
// CHECK-NOT: linalg.generic
#x = affine_map<(n, h, w, m, i, j, c) -> (n, h + i, w + j, c)>
#f = affine_map<(n, h, w, m, i, j, c) -> (m, i, j, c)>
#y = affine_map<(n, h, w, m, i, j, c) -> (n, h, w, m)>
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
#ch4 = affine_map<(n, h, w, c) -> (0, 0, 0, c)>
memref.global "private" constant @f : memref<16x3x3x8xi8> = dense<5>
func.func @conv_requantized(%x: memref<1x6x6x8xi8>, %acc: memref<1x4x4x16xi32>, %y: memref<1x4x4x16xi8>, %start: memref<16xi32>, %scale: memref<1x1x1x16xf32>) {
  %f = memref.get_global @f : memref<16x3x3x8xi8>
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%start : memref<16xi32>) outs(%acc : memref<1x4x4x16xi32>) attrs = {tcc.epilogue_init} {
  ^bb0(%s: i32, %o: i32):
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#x, #f, #y], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %f : memref<1x6x6x8xi8>, memref<16x3x3x8xi8>) outs(%acc : memref<1x4x4x16xi32>) {
  ^bb0(%a: i8, %b: i8, %o: i32):
    %0 = arith.extsi %b : i8 to i32
    %1 = arith.extui %a : i8 to i32
    %2 = arith.muli %1, %0 : i32
    %3 = arith.addi %o, %2 : i32
    linalg.yield %3 : i32
  }
  linalg.generic {indexing_maps = [#id, #ch4, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %scale : memref<1x4x4x16xi32>, memref<1x1x1x16xf32>) outs(%y : memref<1x4x4x16xi8>) attrs = {tcc.epilogue} {
  ^bb0(%a: i32, %s: f32, %o: i8):
    %0 = arith.sitofp %a : i32 to f32
    %1 = arith.mulf %0, %s : f32
    %2 = math.roundeven %1 : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptoui %4 : f32 to i8
    linalg.yield %5 : i8
  }
  return
}
