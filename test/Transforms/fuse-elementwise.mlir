// RUN: tcc-opt %s --tcc-fuse-elementwise | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#v = affine_map<(d0) -> (d0)>

// An elementwise op feeding another over the same domain fuses; one feeding
// a matmul, which reads each of its elements once per output column, does
// not (it would be recomputed N times).
// CHECK-LABEL: func.func @gelu_matmul
// CHECK: %[[E:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: math.erf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic {{.*}}["parallel", "parallel"]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[E]], %{{.*}} :
// CHECK-NOT: math.erf
func.func @gelu_matmul(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %erf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.erf %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %gelu = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %erf : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %r: f32, %o: f32):
    %m = arith.mulf %v, %r : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %mm = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%gelu, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}


// A chain of elementwise ops fuses until the fused op would have more than
// 64 operands (a chain of 10,000 Adds was one op, each fusion copying all the
// ones before it: quadratic): 70 Adds of 70 arguments are two ops.
// CHECK-LABEL: func.func @long_chain
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
func.func @long_chain(%x: tensor<8xf32>, %a0: tensor<8xf32>, %a1: tensor<8xf32>, %a2: tensor<8xf32>, %a3: tensor<8xf32>, %a4: tensor<8xf32>, %a5: tensor<8xf32>, %a6: tensor<8xf32>, %a7: tensor<8xf32>, %a8: tensor<8xf32>, %a9: tensor<8xf32>, %a10: tensor<8xf32>, %a11: tensor<8xf32>, %a12: tensor<8xf32>, %a13: tensor<8xf32>, %a14: tensor<8xf32>, %a15: tensor<8xf32>, %a16: tensor<8xf32>, %a17: tensor<8xf32>, %a18: tensor<8xf32>, %a19: tensor<8xf32>, %a20: tensor<8xf32>, %a21: tensor<8xf32>, %a22: tensor<8xf32>, %a23: tensor<8xf32>, %a24: tensor<8xf32>, %a25: tensor<8xf32>, %a26: tensor<8xf32>, %a27: tensor<8xf32>, %a28: tensor<8xf32>, %a29: tensor<8xf32>, %a30: tensor<8xf32>, %a31: tensor<8xf32>, %a32: tensor<8xf32>, %a33: tensor<8xf32>, %a34: tensor<8xf32>, %a35: tensor<8xf32>, %a36: tensor<8xf32>, %a37: tensor<8xf32>, %a38: tensor<8xf32>, %a39: tensor<8xf32>, %a40: tensor<8xf32>, %a41: tensor<8xf32>, %a42: tensor<8xf32>, %a43: tensor<8xf32>, %a44: tensor<8xf32>, %a45: tensor<8xf32>, %a46: tensor<8xf32>, %a47: tensor<8xf32>, %a48: tensor<8xf32>, %a49: tensor<8xf32>, %a50: tensor<8xf32>, %a51: tensor<8xf32>, %a52: tensor<8xf32>, %a53: tensor<8xf32>, %a54: tensor<8xf32>, %a55: tensor<8xf32>, %a56: tensor<8xf32>, %a57: tensor<8xf32>, %a58: tensor<8xf32>, %a59: tensor<8xf32>, %a60: tensor<8xf32>, %a61: tensor<8xf32>, %a62: tensor<8xf32>, %a63: tensor<8xf32>, %a64: tensor<8xf32>, %a65: tensor<8xf32>, %a66: tensor<8xf32>, %a67: tensor<8xf32>, %a68: tensor<8xf32>, %a69: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %s0 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%x, %a0 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s1 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s0, %a1 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s2 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s1, %a2 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s3 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s2, %a3 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s4 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s3, %a4 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s5 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s4, %a5 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s6 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s5, %a6 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s7 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s6, %a7 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s8 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s7, %a8 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s9 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s8, %a9 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s10 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s9, %a10 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s11 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s10, %a11 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s12 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s11, %a12 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s13 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s12, %a13 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s14 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s13, %a14 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s15 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s14, %a15 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s16 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s15, %a16 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s17 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s16, %a17 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s18 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s17, %a18 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s19 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s18, %a19 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s20 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s19, %a20 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s21 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s20, %a21 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s22 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s21, %a22 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s23 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s22, %a23 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s24 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s23, %a24 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s25 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s24, %a25 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s26 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s25, %a26 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s27 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s26, %a27 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s28 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s27, %a28 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s29 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s28, %a29 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s30 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s29, %a30 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s31 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s30, %a31 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s32 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s31, %a32 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s33 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s32, %a33 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s34 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s33, %a34 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s35 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s34, %a35 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s36 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s35, %a36 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s37 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s36, %a37 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s38 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s37, %a38 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s39 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s38, %a39 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s40 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s39, %a40 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s41 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s40, %a41 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s42 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s41, %a42 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s43 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s42, %a43 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s44 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s43, %a44 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s45 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s44, %a45 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s46 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s45, %a46 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s47 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s46, %a47 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s48 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s47, %a48 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s49 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s48, %a49 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s50 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s49, %a50 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s51 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s50, %a51 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s52 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s51, %a52 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s53 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s52, %a53 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s54 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s53, %a54 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s55 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s54, %a55 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s56 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s55, %a56 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s57 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s56, %a57 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s58 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s57, %a58 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s59 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s58, %a59 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s60 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s59, %a60 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s61 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s60, %a61 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s62 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s61, %a62 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s63 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s62, %a63 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s64 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s63, %a64 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s65 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s64, %a65 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s66 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s65, %a66 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s67 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s66, %a67 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s68 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s67, %a68 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s69 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%s68, %a69 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s69 : tensor<8xf32>
}
