//===- Passes.td - tcc conversion and transform passes -------*- tablegen -*-===//
#ifndef TCC_PASSES_TD
#define TCC_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def ConvertONNXToLinalg
    : Pass<"tcc-convert-onnx-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Lowers onnx ops to linalg, tensor, arith and math on tensors";
  let description = [{
    One pattern per op, grouped by family (Elementwise, ConvPool, Linear,
    Normalization, Tensor). For example

      %y = onnx.Relu %x : (tensor<4xf32>) -> tensor<4xf32>

    becomes a `linalg.generic` computing `arith.maximumf %in, 0`. Ops or
    attribute values without a lowering are reported with the op's
    location (the ONNX node name) and fail the pass.
  }];
  let options = [
    Option<"winograd", "winograd", "bool", "true",
           "3x3 stride-1 convolutions with constant weights as Winograd "
           "F(2x2, 3x3): 16 products per 2x2 outputs and channel pair "
           "instead of 36">,
    Option<"vectorBits", "vector-bits", "int64_t", "256",
           "Bits of the target's vector registers (which convolutions "
           "Winograd takes)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// Transforms
//===----------------------------------------------------------------------===//

def BoundDynamicResults
    : Pass<"tcc-bound-dynamic-results", "::mlir::func::FuncOp"> {
  let summary = "Gives model outputs with run-time dims a static bound";
  let description = [{
    Runs on @main in linalg on tensors. An output with dims known only at
    run time (NonZero's count) must be the leading block of a static
    tensor (a `tensor.extract_slice` at offset 0, stride 1: its bound). It
    becomes that tensor's shape, with the block written row-major at its
    start and zeros after it, and one more result, `tensor<Kxi64>`, holds
    the K run-time dims, output by output:

      %s = tensor.extract_slice %buf[0, 0] [2, %n] [1, 1]
          : tensor<2x6xi64> to tensor<2x?xi64>
      return %s : tensor<2x?xi64>

    becomes `return %packed, %dims : tensor<2x6xi64>, tensor<1xi64>` and
    @main gets `tcc.run_time_dims = array<i64: output, dim, bound, ...>`.
    Any other dynamic output is an error naming the output.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CutRunTimeLoops : Pass<"tcc-cut-run-time-loops", "::mlir::func::FuncOp"> {
  let summary = "Runs the loops over a bounded dim to its actual extent";
  let description = [{
    Runs on the bufferized @main of a model whose symbolic dim varies at run
    time up to a bound (tcc compile --max-dim; see tcc/BoundedDims.h). Its
    buffers are sized for the bound; each linalg op marked
    `tcc.loop_extents = array<i64: a0, b0, a1, b1, ...>` (loop i runs
    ai x S + bi times, S = @main's input_dims[0]; ai = 0 for a fixed loop)
    gets views of its operands cut to those extents along every dim that
    such a loop indexes directly:

      linalg.generic ... outs(%buf : memref<1x64x128xf32>)
          {tcc.loop_extents = array<i64: 0, 1, 1, 0, 0, 128>}

    runs on `memref.subview %buf[0, 0, 0] [1, %s, 128] [1, 1, 1]`.

    An op whose loops that follow S are all parallel and whose body reads
    only its operands' elements (a contraction, an elementwise op), on
    buffers other than the caller's inputs, runs instead in blocks of R
    rows (the largest power of two up to 32 that divides the bound's
    extent) along its outermost such loop, in a `tcc.parallel` loop over
    ceil(extent / R) blocks, and at the bound along the others: it computes
    some padding rows (garbage in, garbage out, inside buffers sized for
    the bound) so that the register tiling sees static shapes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def EmitEntryPoints : Pass<"tcc-emit-entry-points", "::mlir::ModuleOp"> {
  let summary = "Wraps the lowered model function in the tcc C ABI";
  let description = [{
    Runs on the LLVM dialect. The model function `@main(ptr in..., ptr
    out..., ptr workspace)` (bare-pointer calling convention) becomes
    internal `@<name>_main`, and the public ABI is added around it:

      i32  @<name>_run(ptr in..., ptr out..., ptr workspace)
      i32  @<name>_run_packed(ptr inputs, ptr outputs, ptr workspace)
      i64  @<name>_workspace_size()

    `_run` returns TCC_ERROR_INVALID_ARGUMENT (1) for a null buffer, or a
    null or misaligned workspace when the model needs one, and 0 on success.
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", "\"model\"",
           "Symbol prefix of the generated functions">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def WriteIntoDeadInputs
    : Pass<"tcc-write-into-dead-inputs", "::mlir::func::FuncOp"> {
  let summary = "Makes elementwise ops write over an input dead after them";
  let description = [{
    A linalg.generic on tensors whose loops are all parallel and whose init
    is a tensor.empty it does not read takes as its init one of its inputs
    that is read like the output, has the result's type, is computed in
    the same block (not a constant, not a slice) and whose buffer nothing
    reads after the op (no later use of it, of a view of it, or of a value
    written into it). One-shot bufferization then writes the result over
    that input's buffer as it reads it. The result of the op just before
    is not taken: that is a contraction whose epilogue the op may become,
    kept in registers by tcc-vectorize-contractions. So a residual add
    fused into a convolution stores over the residual it has just loaded
    instead of into another buffer, and the residual's buffer is not live
    beside the result's.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CloneInits : Pass<"tcc-clone-inits", "::mlir::func::FuncOp"> {
  let summary = "Recomputes a constant init for each op that writes it";
  let description = [{
    A linalg op on tensors that reads nothing but constants (a fill, a
    bias broadcast over an empty tensor) and whose result is the init of
    several linalg ops (CSE merged equal ones: SqueezeNet's zero biases
    are one fill for every conv of a shape) is cloned before each of them
    but the first. Each writer then gets an init of its own, which
    one-shot bufferization writes in place, instead of a copy of the
    shared one: the clone writes the same bytes and reads none.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PadInPlace : Pass<"tcc-pad-in-place", "::mlir::func::FuncOp"> {
  let summary = "Computes a tensor that is padded straight into the padded buffer";
  let description = [{
    A `tensor.pad` with a constant value whose source is computed by linalg
    ops into a `tensor.empty` (a bias, the convolution that adds to it and
    the activation after it, as the ops before a padded convolution are)
    becomes a `linalg.fill` of the padded tensor, those ops computing into
    its interior `tensor.extract_slice`, and a `tensor.insert_slice` of the
    result back, which one-shot bufferization does in place: the interior
    is written once, by the ops themselves, not copied in a pass of its own.

    ```mlir
    %e = tensor.empty() : tensor<1x8x4x4xf32>
    %r = linalg.generic ... outs(%e : tensor<1x8x4x4xf32>)
    %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] { ... yield %zero }
    // becomes
    %pe = tensor.empty() : tensor<1x8x6x6xf32>
    %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x6x6xf32>)
    %i = tensor.extract_slice %f[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1]
    %r = linalg.generic ... outs(%i : tensor<1x8x4x4xf32>)
    %p = tensor.insert_slice %r into %f[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def PlanWorkspace : Pass<"tcc-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Places every intermediate buffer of @main in one workspace";
  let description = [{
    After bufferization, each static `memref.alloc` in `@main` becomes a
    `memref.view` into a new trailing `memref<Nxi8>` argument at an offset
    aligned to 64 bytes. Buffers whose live ranges (from the alloc to the
    last use of it or of a view of it, in the function's top-level order)
    do not overlap share memory. The workspace size is recorded in the
    `tcc.workspace_size` attribute of @main; `tcc.workspace_buffers` and
    `tcc.workspace_buffers_bytes` count the buffers and their total size,
    `tcc.workspace_lower_bound` is the largest total of buffers live at one
    point (no plan can be smaller). Dynamic allocs are rejected.

    A static alloc inside a loop (a block's scores, from
    tcc-fuse-attention) is moved before it, one buffer for every iteration,
    unless a loop yields it; inside a loop marked `tcc.parallel`, whose
    iterations may run at once, it is made that loop's trip count times as
    big, and each iteration takes its own part through a `memref.view`.

    First, an output is computed in place: a buffer whose last use copies it
    whole into an output argument (after `tcc.num_inputs` inputs) is
    replaced by that argument, and the copy is dropped:

    ```mlir
    %a = memref.alloc() : memref<16xf32>
    linalg.generic ... outs(%a : memref<16xf32>)
    memref.copy %a, %out : memref<16xf32> to memref<16xf32>
    // becomes
    linalg.generic ... outs(%out : memref<16xf32>)
    ```

    Then a concat's inputs are computed in place: a buffer whose last use
    copies it whole into a contiguous static slice of another buffer
    (`memref.copy %a, subview(%d)`) is placed inside that slice, the copy
    dropped and %d made live from %a's alloc on, unless something else
    accesses that part of %d while %a is live.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect"];
}

def OutlineKernels : Pass<"tcc-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Moves each compute op of the bufferized @main into a function";
  let description = [{
    Each top-level op of @main that computes (a linalg op, or an op with
    regions such as scf.for) becomes a call of a private function of its
    own, `@<model>_k<N>_<op>_<loop ranges>` (for example
    `@net_k12_matmul_32x768x768`), marked `tcc.kernel`. The views,
    globals and constants it reads are recreated inside; the buffers they
    start from are passed. LLVM then optimizes many small functions instead
    of one with thousands of loop nests (whose analyses grow
    quadratically), and profiles name the kernel that runs.

    A multiply-accumulate op (matmul, convolution) shares its kernel with
    the op just before it that overwrites its whole output without reading
    it (a fill, a bias broadcast), marked `tcc.epilogue_init`, and with the
    all-parallel elementwise op just after it that reads the output at the
    identity map (ReLU, a residual add), marked `tcc.epilogue`, when that
    op writes no memory the contraction reads (workspace byte ranges) and
    nothing after it reads the contraction's output but for a full
    overwrite. tcc-vectorize-contractions fuses the marked ops into its
    tiles; unfused they still run in order.

    Consecutive fills and non-contraction generics that share leading row
    dims (each buffer indexed by them as its leading indices, or not at
    all and then only read) share a kernel when one of them reduces rows
    into a buffer a later one reads: a softmax's max, exponentials, sum
    and quotient; a layer norm's mean, variance and normalization; a
    global average pool's sum and division. Each op is marked `tcc.rows`
    with its number of row dims, and tcc-split-kernels runs them row by
    row, so a row stays in cache from one op to the next instead of each
    op passing over the whole tensor. Buffers that differ (up to leading
    unit dims) must share no workspace bytes, as the plan's reuse of
    bytes holds only op after op. The kernel is named for its first
    reduction, `k5_rows_4x4x256x256`.
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", "\"model\"",
           "Symbol prefix of the kernels">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def FuseAttention : Pass<"tcc-fuse-attention", "::mlir::func::FuncOp"> {
  let summary = "Computes score chains (QK^T, softmax, PV) in blocks of rows";
  let description = [{
    A contraction that reads a tensor of scores (attention's PV, reading
    softmax(QK^T)) computed by a chain of linalg ops from another
    contraction is tiled along the loops it shares with the scores (batch,
    heads, query rows), and the chain is fused into the tiles with linalg's
    TilingInterface: each block of rows computes its scores, their softmax
    and its rows of the output before the next starts, so the scores stay in
    cache instead of making several trips to memory. A block holds at most
    `block-bytes` of scores and a whole number of rows (static shapes for
    the register tiling); chains with fewer bytes of scores are left alone.
    The outermost loop of two or more blocks (the heads) is marked
    `tcc.parallel`: its iterations run on the context's threads, each with
    scratch of its own (tcc-plan-workspace), and what runs inside them is
    not split again (tcc-parallelize-loops). The pipeline runs it before
    bufferization, after the linalg stage (whose IR the run-time batch
    analysis compares op by op), and not on ops whose loops are cut at run
    time.
  }];
  let options = [
    Option<"blockBytes", "block-bytes", "int64_t", /*default=*/"512 * 1024",
           "The most bytes of scores one block computes">,
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024 * 1024",
           "Chains with fewer bytes of scores are left as they are">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def FuseElementwise : Pass<"tcc-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuses elementwise linalg producers into consumers, never recomputing";
  let description = [{
    linalg's elementwise fusion (with its reshape and constant folding),
    restricted to producers whose every element the consumer reads once:
    the consumer's indexing map of the fused operand must be a permutation
    of its loops. Upstream's default also fuses into consumers that read
    the producer's result many times, a matmul reading its input once per
    output column, and recomputes the producer each time (a GELU's erf
    before a matmul, evaluated N times per element).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

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

def DedupKernels : Pass<"tcc-dedup-kernels", "::mlir::ModuleOp"> {
  let summary = "Makes kernels that differ only in the globals they read one";
  let description = [{
    Kernels (`tcc.kernel` functions, each called from @main) whose text is
    the same but for their names and the constant globals they read, as
    the convolutions of a network's repeated blocks with their own weights
    or its transposes and elementwise ops, become the first of them: it
    takes the globals that differ as trailing `noalias` read-only
    arguments, each call passes its own, and the others are erased.

      func.func private @k3_conv(%x, %y) { %w = memref.get_global @w3 ... }
      func.func private @k7_conv(%x, %y) { %w = memref.get_global @w7 ... }

    becomes one `@k3_conv(%x, %y, %w)` called with @w3 and with @w7. Each
    distinct kernel is compiled once (as IREE deduplicates dispatches):
    ResNet-50's 16 bottleneck blocks have 4 shapes, BERT's 12 layers one.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
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
    `tcc.parallel` for tcc-parallelize-loops. Ops that do not fit (other bodies, dynamic shapes, an
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
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
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

def FlattenGlobals : Pass<"tcc-flatten-globals", "::mlir::ModuleOp"> {
  let summary = "Makes constant memref globals one-dimensional";
  let description = [{
    A `memref.global` of shape `AxBxC` becomes one of shape `A*B*C`, its
    data unchanged, and each `memref.get_global` of it a `get_global` of
    the flat global followed by a `memref.expand_shape` to the old shape.
    LLVM then holds each weight as one flat constant array instead of
    nested aggregates of millions of small uniqued arrays, which took most
    of the compile time of large models.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ExternalizeWeights : Pass<"tcc-externalize-weights", "::mlir::ModuleOp"> {
  let summary = "Moves the constant globals into a weights file";
  let description = [{
    For `tcc compile --weights file`. Every constant `memref.global` with
    dense int or float data (the weights, as packed by earlier passes) is
    laid out at a 64-byte aligned offset of one byte array and written to
    `weights-file` behind a 64-byte header (see lib/Runtime/runtime.c).
    @main, and every function that reads a weight or calls one that does,
    takes that array as a new first argument `memref<Nxi8>`; each
    `memref.get_global` of a weight becomes a `memref.view` of it, and the
    globals are erased. @main is marked `tcc.weights_bytes` and
    `tcc.weights_fingerprint` (the FNV-1a hash of the array), which the
    entry points check the caller's weights against. Splat and sub-byte
    constants stay in the object.
  }];
  let options = [
    Option<"weightsFile", "weights-file", "std::string", "\"\"",
           "Where to write the weights (nothing is written when empty)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TCC_PASSES_TD
