// RUN: tcc-opt %s --pass-pipeline='builtin.module(func.func(tcc-fuse-attention{block-bytes=4096 min-bytes=8192},cse,canonicalize))' --split-input-file | FileCheck %s

// Attention on 2 heads of 64 rows (32 KB of scores): PV is tiled along
// (heads, query rows), in blocks of 16 rows (16 x 64 floats = 4 KB), and
// QK^T, the scale and the softmax (max, exp, sum, normalize) are fused into
// the blocks; K^T's transpose stays outside. The fill that zeroes PV's
// output runs in the blocks, on each block's slice. The head loop is
// parallel.
// CHECK-LABEL: func.func @attention(
// CHECK: linalg.transpose
// CHECK: scf.for %[[H:[a-z0-9]+]] =
// CHECK: scf.for %[[R:[a-z0-9]+]] = %{{.*}} to %{{.*}} step %c16
// CHECK: tensor.extract_slice %arg0[0, %[[H]], %[[R]], 0] [1, 1, 16, 16]
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x1x16x64xf32>
// CHECK: %[[QK:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x16x64xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[QK]] : tensor<1x1x16x64xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[SCALED]] : tensor<1x1x16x64xf32>) outs(%{{.*}} : tensor<1x1x16xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SCALED]], %[[MAX]] :
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<1x1x16x64xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x16x16xf32>)
// CHECK: %[[PV:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<1x1x16x64xf32>, tensor<1x1x64x16xf32>) outs(%[[ZERO]] : tensor<1x1x16x16xf32>)
// CHECK: tensor.insert_slice %[[PV]] into %{{.*}}[0, %[[H]], %[[R]], 0] [1, 1, 16, 16]
// CHECK: } {tcc.parallel}
// CHECK-NOT: tensor<1x2x64x64xf32>
// CHECK-NOT: linalg.fill
#qk = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#kt = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @attention(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %scale = arith.constant 2.500000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %kt0 = tensor.empty() : tensor<1x2x16x64xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x64x16xf32>) outs(%kt0 : tensor<1x2x16x64xf32>) permutation = [0, 1, 3, 2]
  %s0 = tensor.empty() : tensor<1x2x64x64xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kt, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<1x2x64x16xf32>, tensor<1x2x16x64xf32>) outs(%sz : tensor<1x2x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x64x64xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qk : tensor<1x2x64x64xf32>) outs(%s0 : tensor<1x2x64x64xf32>) {
  ^bb0(%a: f32, %c: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<1x2x64x64xf32>
  %r0 = tensor.empty() : tensor<1x2x64xf32>
  %rmin = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<1x2x64xf32>) -> tensor<1x2x64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%scaled : tensor<1x2x64x64xf32>) outs(%rmin : tensor<1x2x64xf32>) {
  ^bb0(%a: f32, %c: f32):
    %m = arith.maxnumf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %max : tensor<1x2x64x64xf32>, tensor<1x2x64xf32>) outs(%s0 : tensor<1x2x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x2x64x64xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r0 : tensor<1x2x64xf32>) -> tensor<1x2x64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<1x2x64x64xf32>) outs(%rz : tensor<1x2x64xf32>) {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x2x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<1x2x64x64xf32>, tensor<1x2x64xf32>) outs(%s0 : tensor<1x2x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.divf %one, %b : f32
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  } -> tensor<1x2x64x64xf32>
  %o0 = tensor.empty() : tensor<1x2x64x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32>
  %o = linalg.generic {indexing_maps = [#qk, #kt, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x16xf32>) outs(%oz : tensor<1x2x64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// Scores the function also returns are computed whole: the chain is left
// as it is.
// CHECK-LABEL: func.func @scores_used_elsewhere(
// CHECK-NOT: scf.for
#qk = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#kt = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
func.func @scores_used_elsewhere(%q: tensor<1x2x64x16xf32>, %kt: tensor<1x2x16x64xf32>, %v: tensor<1x2x64x16xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64x64xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %s0 = tensor.empty() : tensor<1x2x64x64xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kt, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<1x2x64x16xf32>, tensor<1x2x16x64xf32>) outs(%sz : tensor<1x2x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x64x64xf32>
  %o0 = tensor.empty() : tensor<1x2x64x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32>
  %o = linalg.generic {indexing_maps = [#qk, #kt, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%qk, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x16xf32>) outs(%oz : tensor<1x2x64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x64x16xf32>
  return %o, %qk : tensor<1x2x64x16xf32>, tensor<1x2x64x64xf32>
}

// -----

// Scores below min-bytes (32 x 32 floats, 4 KB) stay whole.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: scf.for
#qk = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#kt = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
func.func @small(%q: tensor<1x1x32x16xf32>, %kt: tensor<1x1x16x32xf32>, %v: tensor<1x1x32x16xf32>) -> tensor<1x1x32x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %s0 = tensor.empty() : tensor<1x1x32x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kt, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<1x1x32x16xf32>, tensor<1x1x16x32xf32>) outs(%sz : tensor<1x1x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x32xf32>
  %o0 = tensor.empty() : tensor<1x1x32x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<1x1x32x16xf32>) -> tensor<1x1x32x16xf32>
  %o = linalg.generic {indexing_maps = [#qk, #kt, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%qk, %v : tensor<1x1x32x32xf32>, tensor<1x1x32x16xf32>) outs(%oz : tensor<1x1x32x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x32x16xf32>
  return %o : tensor<1x1x32x16xf32>
}
