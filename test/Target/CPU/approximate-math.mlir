// RUN: tcc-opt %s --tcc-approximate-math | FileCheck %s

// f32 exp, erf, tanh and log become arithmetic (no libm call is left to
// stop LLVM's vectorizer); f64 and other functions are left to libm.
// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK-NOT: math.log
// CHECK: math.fma
// CHECK: return
func.func @approximated(%x: f32) -> (f32, f32, f32, f32) {
  %e = math.exp %x : f32
  %r = math.erf %x : f32
  %t = math.tanh %x : f32
  %l = math.log %x : f32
  return %e, %r, %t, %l : f32, f32, f32, f32
}

// CHECK-LABEL: func.func @kept
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f32
func.func @kept(%x: f64, %y: f32) -> (f64, f32) {
  %e = math.exp %x : f64
  %s = math.sin %y : f32
  return %e, %s : f64, f32
}

// f32 <-> bf16 conversions become integer arithmetic (rounding to nearest
// even on the way down), not calls of compiler-rt's __truncsfbf2.
// CHECK-LABEL: func.func @bf16
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shrui
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: arith.bitcast %{{.*}} : bf16 to i16
// CHECK: arith.shli
func.func @bf16(%x: f32, %y: bf16) -> (bf16, f32) {
  %t = arith.truncf %x : f32 to bf16
  %e = arith.extf %y : bf16 to f32
  return %t, %e : bf16, f32
}

// A power with a constant exponent becomes multiplications (GELU's x^3) or
// a square root; one with a run-time exponent stays.
// CHECK-LABEL: func.func @powers
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: arith.mulf %[[X]], %[[SQ]]
// CHECK: math.sqrt %[[X]]
// CHECK: math.powf %[[X]], %[[Y]]
func.func @powers(%x: f32, %y: f32) -> (f32, f32, f32) {
  %c3 = arith.constant 3.0 : f32
  %half = arith.constant 0.5 : f32
  %cube = math.powf %x, %c3 : f32
  %root = math.powf %x, %half : f32
  %p = math.powf %x, %y : f32
  return %cube, %root, %p : f32, f32, f32
}

// erf is x * P(x^2) / Q(x^2) on x clamped to [-4, 4]: Horner steps of
// degree 6 and 5 (11 FMAs) and one division, no selects between intervals;
// on vectors with splat constants.
// CHECK-LABEL: func.func @erf_rational
// CHECK-DAG: %[[LO:.*]] = arith.constant dense<-4.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[HI:.*]] = arith.constant dense<4.000000e+00> : vector<16xf32>
// CHECK: %[[M:.*]] = arith.maximumf %arg0, %[[LO]] : vector<16xf32>
// CHECK: %[[X:.*]] = arith.minimumf %[[M]], %[[HI]] : vector<16xf32>
// CHECK: %[[Z:.*]] = arith.mulf %[[X]], %[[X]] : vector<16xf32>
// CHECK-COUNT-6: math.fma
// CHECK: %[[N:.*]] = arith.mulf %[[X]], %{{.*}} : vector<16xf32>
// CHECK-COUNT-5: math.fma
// CHECK: %[[R:.*]] = arith.divf %[[N]], %{{.*}} : vector<16xf32>
// CHECK-NOT: arith.select
// CHECK: return %[[R]]
func.func @erf_rational(%x: vector<16xf32>) -> vector<16xf32> {
  %r = math.erf %x : vector<16xf32>
  return %r : vector<16xf32>
}
