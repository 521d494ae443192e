//===- Passes.td - tcc's CPU passes ---------------------------*- tablegen -*-===//
//
// The passes of the CPU pipeline only: register tiling and vectorization,
// loops shaped for LLVM's vectorizer, and the thread-pool split.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_CPU_PASSES_TD
#define TCC_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def InterchangeReductions
    : Pass<"tcc-interchange-reductions", "::mlir::func::FuncOp"> {
  let summary = "Moves reductions out of the innermost loop of contractions";
  let description = [{
    A contraction lowered as written, `C[m,n] += A[m,k] * B[k,n]` with `k`
    innermost, walks B with a stride of N and keeps a loop-carried sum in
    the inner loop, which LLVM cannot vectorize without reassociating it.
    For a linalg op with reduction loops whose output's last index is a
    parallel loop `p` that also indexes the last dim of an input, this pass
    makes `p` the innermost loop, the reductions just outside it:
    `(m, n, k)` becomes `(m, k, n)`; a convolution's
    `(n, f, oh, ow, c, kh, kw)` becomes `(n, f, oh, c, kh, kw, ow)`. The
    inner loop is then unit-stride and vectorizable, and each output
    element still sums its products in the same order, so results are
    unchanged. Named ops (convolutions) are generalized first.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def LowerReductions : Pass<"tcc-lower-reductions", "::mlir::func::FuncOp"> {
  let summary = "Lowers reductions over the innermost loops with a register accumulator";
  let description = [{
    A linalg op on buffers whose innermost loops are reductions into one
    output element (a ReduceSum, the max and the sum of a softmax, a
    global average pool, the mean and variance of a norm) becomes loops
    whose innermost ones carry the partial result as a loop value: the
    output element is loaded before them and stored after, not each step.
    The combiner that takes the carried value (`arith.addf`,
    `arith.maximumf`, ...) gets `fastmath<reassoc>`, so LLVM vectorizes the
    loop with several partial results, summed at its end: not one add
    waiting for the last per element. The order of the additions is the
    same at every run and thread count.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    // becomes
    scf.for %i = %c0 to %c4 step %c1 {
      %init = memref.load %s[%i] : memref<4xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %in = memref.load %x[%i, %k] : memref<4x64xf32>
        %0 = arith.addf %in, %acc fastmath<reassoc> : f32
        scf.yield %0 : f32
      }
      memref.store %sum, %s[%i] : memref<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def SplitKernels : Pass<"tcc-split-kernels", "::mlir::func::FuncOp"> {
  let summary = "Gives a kernel without a parallel loop one over chunks of a parallel dim";
  let description = [{
    Runs on the kernels of tcc-outline-kernels that tcc-vectorize-contractions
    left without a `tcc.parallel` loop (elementwise ops, pooling, depthwise
    convolutions, softmax, normalizations). A linalg op on buffers with at
    least 2^16 iterations becomes a loop over chunks of one parallel dim,
    marked `tcc.parallel` for tcc-parallelize-loops, each iteration the op
    on subviews of its operands:

      linalg.generic ins(%x : memref<1x32x112x112xf32>) outs(%y : ...)

    becomes `scf.for %c = 0 to 16` over the same op on
    `memref<1x2x112x112xf32, strided<...>>` subviews at channel 2 * %c. An
    elementwise op on contiguous buffers is made one-dimensional first and
    split into 16 or more equal runs. The dim is the outermost parallel
    one of at least 8 iterations (else the longest) that each operand
    indexes directly or not at all. Only parallel dims are split, so every
    output element is computed as before, by one thread.

    A kernel whose ops are marked `tcc.rows` (a row group of
    tcc-outline-kernels) becomes one loop nest over the rows around all
    of its ops on subviews of a chunk of rows: the innermost row loop
    steps by as many rows as fit 16 KB, and the outermost row loop of 8
    trips or more (else the longest) is marked `tcc.parallel` when the
    work is 2^16 iterations or more.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ParallelizeLoops : Pass<"tcc-parallelize-loops", "::mlir::ModuleOp"> {
  let summary = "Splits the loops marked tcc.parallel over a context's threads";
  let description = [{
    @main gets a trailing `!llvm.ptr` argument, the `tcc_context *` of the
    call (null: the calling thread alone), and is marked
    `tcc.takes_context`. Each `scf.for` marked `tcc.parallel` in a kernel
    (its iterations independent: they write disjoint outputs) becomes a
    private function `@<kernel>_par<N>(<what the loop reads>..., %begin,
    %end, %context)` marked `tcc.parallel_chunk`, running iterations
    [begin, end), and the loop becomes a call of it over all of them. The
    kernel takes the context as a trailing argument too, and @main passes
    its own. Until tcc-emit-entry-points turns such a call into a
    `tcc_parallel_for` over the context's threads, it is the serial loop
    it replaced. A loop that reads something a function cannot take stays
    serial, and so does one inside another marked loop (it runs on the
    thread of the outer one's iteration).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def VectorizeContractions
    : Pass<"tcc-vectorize-contractions", "::mlir::ModuleOp"> {
  let summary = "Register-tiles multiply-accumulate linalg ops into vector code";
  let description = [{
    For a linalg op on static f32 buffers whose body is `out + a * b`
    (matmuls, convolutions, batched and broadcast forms) this pass emits
    the loops itself. One output loop `v` runs along the vector lanes:
    the one whose tiles waste the fewest lanes, a loop other than the
    output's last paying a gather and a scatter per accumulator (a
    convolution with a 7x7 output runs along its output channels, one
    with a 56x56 output along its rows). Another output loop `u` (the
    longest one the vector operand does not depend on: a matmul's rows,
    a convolution's output columns) is unrolled into rows, and a tile of
    rows x (1 or 2 vectors) stays in registers for the whole reduction:
    3/4 of the registers as accumulators, the rest for the loaded vectors
    and broadcasts (12 rows x 2 vectors with 32 registers, 6 x 2 with
    AVX2's 16; at most 16 where the rows share their loads through an
    unrolled reduction, as a depthwise convolution's). The rows are spread evenly over as many tiles as the longest
    take (a 7-wide map: 4 + 3 rows, not 6 + 1, whose 1-row tile would wait
    on FMA latency), except transposed tiles of 8 rows.
    Each reduction step loads each operand that runs along `v` once per
    vector (unit-stride, or strided and shuffled for a strided
    convolution) and broadcasts the scalars of the other, then issues one
    `vector.fma` per accumulator. Column tiles are the outer loop, so the
    panel of the vector operand a column reads is reused from cache by
    every row tile. Edge tiles are masked; nothing reads or writes out of
    bounds.

    Constant operands that run along `v` (weights) are repacked at
    compile time into panels `[ceil(N / width), other dims..., width]`,
    zero-padded, so a tile reads its panel as one contiguous stream: no
    strided rows, no TLB misses, no masks. The original global is erased
    when nothing else reads it.

    Each output element sums its products in the loop order of the op,
    one fused multiply-add at a time, in blocks of about 64 terms that
    each start from zero and are then added to the running total (as
    BLAS kernels block K; the rounding error grows with the block length
    and the number of blocks, not the whole reduction), so the result
    does not depend on the tiling. The outermost tile loop of two or more
    iterations of an op of at least 2^17 multiply-adds is marked
    `tcc.parallel` for tcc-parallelize-loops.

    With `bf16`, an op whose packed input is read along the vector and
    whose other input is broadcast, with an innermost reduction loop of
    even length that the packed input indexes by itself, takes that loop
    two terms a step: its panels hold bf16 pairs (rounded to nearest even
    at compile time), the broadcast input is rounded to bf16 once before
    the op, into a new argument of its kernel that the caller passes as a
    view past the end of its workspace (`tcc.workspace_size` grows by the
    largest; where the kernel has no single call from a function with a
    workspace, each step rounds its scalars instead), and each accumulator
    takes one `x86vector.avx512.dot` (vdpbf16ps: both products summed in
    f32). Other ops stay f32.

    With `int8-dot`, a contraction that sums
    the products of a u8 input and an s8 one into i32 (MatMulInteger's,
    with its zero point corrections outside it) is tiled the same way when
    its s8 input is constant: the panels hold quads of s8 along the
    innermost reduction loop (of a length 4 divides), each step broadcasts
    a quad of the u8 input as one 32-bit word, and each accumulator (i32)
    takes one vpdpbusd (`llvm.x86.avx512.vpdpbusd`, AVX512-VNNI). Its sums
    are exact: no blocks. With `vnni=0` (x86 CPUs without VNNI) each step
    widens the quads' even and odd bytes to 16 bits in place and sums them
    with two pmaddwd, exactly too (vpmaddubsw's 16-bit sums saturate).

    Ops that do not fit (other bodies, dynamic shapes, an
    operand walked along `v` outside its last dim that is not constant, an
    output that is also an input) are left as they are.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "512",
           "Bits of one vector register">,
    Option<"registers", "registers", "int64_t", "32",
           "Vector registers of the target">,
    Option<"l2Bytes", "l2-bytes", "int64_t", "524288",
           "Bytes of the target's L2 cache (one core's)">,
    Option<"bf16", "bf16", "bool", "false",
           "Products of bf16 pairs with f32 sums (x86vector.avx512.dot, "
           "vdpbf16ps) where one input is packed weights">,
    Option<"int8Dot", "int8-dot", "bool", "false",
           "u8 x s8 contractions into i32 against packed s8 weights on "
           "VNNI's vpdpbusd">,
    Option<"vnni", "vnni", "bool", "true",
           "int8-dot on vpdpbusd (AVX512-VNNI); off: on pmaddwd (SSE2, "
           "AVX2, AVX512BW)">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::x86vector::X86VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def VectorizePools : Pass<"tcc-vectorize-pools", "::mlir::func::FuncOp"> {
  let summary = "Vector code for 2-d max and sum pools";
  let description = [{
    A `linalg.pooling_nchw_max` or `linalg.pooling_nchw_sum` on static f32
    buffers with unit-stride rows and a column stride of 1 or 2 becomes
    loops over (n, c) and blocks of output rows that keep the block's rows
    of output columns in vector registers (masked at each row's end, 8
    vectors in all) through the loop over the window's rows, combining
    each tap's vector: one load at stride 1, two loads and a shuffle of the
    even lanes at stride 2. The rows of a block are independent chains of
    ops; one row at a time, the loop waited on its chain (a 3x3 max pool
    over 256x27x27 ran 176 us, 68 us in blocks). The max is `nsz` (-0 and
    +0 unordered, as in onnxruntime; NaNs still propagate), which drops
    x86's ordering of the operands by sign. The output is read once and
    written once per row. Lowered as written, the window loops are
    innermost and LLVM left them scalar (a 3x3 average pool over
    768x17x17 ran at 3 GFLOP/s).
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "512",
           "Bits of one vector register">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ApproximateMath : Pass<"tcc-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Polynomial approximations of f32 exp, erf, tanh and log";
  let description = [{
    MLIR's polynomial approximations (accurate to a few ulp, with the
    special values of the functions kept: exp overflows to inf and
    underflows to 0, log of 0 is -inf, of a negative number NaN) replace
    `math.exp`, `math.erf`, `math.tanh` and `math.log` on f32. They are
    plain arithmetic, so LLVM vectorizes the loops of softmax, sigmoid,
    SiLU and GELU, which otherwise call libm once per element. Other
    types and functions still call libm. `math.powf` with a constant
    exponent is strength-reduced by MLIR's algebraic simplification
    (x^2 = x * x, x^3, x^0.5 = sqrt(x), x^-1 = 1 / x, ...). Conversions between f32 and
    bf16 become integer arithmetic (round to nearest even), which LLVM
    would otherwise lower to calls of compiler-rt's __truncsfbf2 that
    neither the JIT nor a program linked with GCC 12 can resolve.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def FlattenElementwise
    : Pass<"tcc-flatten-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Makes elementwise linalg ops on contiguous buffers one loop";
  let description = [{
    A `linalg.generic` on buffers whose loops are all parallel, whose
    indexing maps are all the identity, and whose operands are static
    identity-layout memrefs (contiguous) becomes the same generic over
    one loop, on `memref.collapse_shape` views of the operands. Its
    elements are the same in the same order. LLVM then vectorizes one
    long loop: nested, the innermost loop of a SiLU on a 1x672x14x14
    tensor ran 14 iterations and stayed scalar. A `linalg.fill` writes a
    view of its buffer whose longest collapsible run of trailing dims is
    one dim (nested, LLVM vectorized a 1x8x27x27 chunk of a pool's output
    across rows, with scatters). An elementwise op with
    broadcast operands runs its trailing loops as one instead, when every
    operand reads all of them in order (over dims it can collapse) or none
    of them: a per-channel scale of a 1x672x14x14 map loops over its 196
    positions.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TileTransposes : Pass<"tcc-tile-transposes", "::mlir::func::FuncOp"> {
  let summary = "Copies a transposed buffer in blocks that stay in cache";
  let description = [{
    A `linalg` copy on buffers whose input is read in another order than
    its output is written (a transpose: the two buffers' innermost loops
    differ) runs in blocks of those two loops, one at a time along the
    others. Untiled, the loop over the output's last dim strides through
    the input, and the lines of a 1x56x56x256 -> 1x256x56x56 transpose
    came from L2 for every element.

    With 32-bit elements and both buffers contiguous along their last
    index, a block is 8x8: 8 vector loads along the input's last index,
    24 shuffles, 8 vector stores along the output's (masked at the ends
    of the two loops). Scalar copies of 16x16 blocks took about 2 cycles
    per element; the registers' transpose is bound by memory. Other
    element types are tiled into 16x16 blocks of scalar copies on views.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertMemRefInFunctions
    : Pass<"tcc-convert-memref-in-functions", "::mlir::func::FuncOp"> {
  let summary = "Converts a function's memref ops to the LLVM dialect";
  let description = [{
    finalize-memref-to-llvm's patterns, run on each function (on the
    context's threads) rather than once on the module: loads, stores,
    views and get_global of the unrolled tiles are most of the IR. The ops
    whose lowering declares a function in the module (alloc, dealloc,
    realloc, copy: malloc, free, memrefCopy) are left, and so are math ops
    LLVM has no intrinsic for; a function holding any of them gets the
    attribute `tcc.llvm_leftovers` for tcc-convert-module-leftovers.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertModuleLeftovers
    : Pass<"tcc-convert-module-leftovers", "::mlir::ModuleOp"> {
  let summary = "Converts what tcc-convert-memref-in-functions left";
  let description = [{
    Runs finalize-memref-to-llvm's and convert-math-to-libm's patterns on
    the module's memref.global ops and on the functions marked
    `tcc.llvm_leftovers` only (their declarations go into the module),
    then drops the mark.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TCC_TARGET_CPU_PASSES_TD
