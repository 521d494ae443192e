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
    Option<"winogradAnyWidth", "winograd-any-width", "bool", "false",
           "Winograd tiles that make one graph whatever the width (one "
           "more tile column when it is even; for tcc compile --max-dim, "
           "which compares the graph at several widths)">,
    Option<"vectorBits", "vector-bits", "int64_t", "256",
           "Bits of the target's vector registers (which convolutions "
           "Winograd takes)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::LLVM::LLVMDialect"];
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
    buffers other than the caller's inputs, runs instead in blocks of
    static size along its outermost such loop, in a `tcc.parallel` loop,
    and at the bound along the others, so that the register tiling sees
    static shapes: blocks of 8 rows, ceil(extent / 8) of them where 8
    divides the bound's extent, computing some padding rows (garbage in,
    garbage out, inside buffers sized for the bound); else floor(extent /
    8) blocks and then a piece of 4, 2 and 1 rows each where the extent has
    that bit, exactly the extent.
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
    null or misaligned workspace when the model needs one, and 0 on success
    or, when @main returns an i32 (a CUDA model's, tcc-gpu-lower-launches),
    that status.
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

def ProfileKernels : Pass<"tcc-profile-kernels", "::mlir::ModuleOp"> {
  let summary = "Times each kernel call of @main (tcc bench --profile)";
  let description = [{
    Each call of a kernel (a `tcc.kernel` function) from @main, in the
    order @main makes them, gets an id; the call is bracketed by calls of
    the external `tcc_profile_enter(i32 id)` and `tcc_profile_exit(i32 id)`,
    which the program that runs the model defines (tcc bench's JIT, which
    knows the call sites in the same order). Without this pass (the
    default) a model holds no instrumentation.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
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
    Option<"allConstants", "all-constants", "bool", "false",
           "Splat and sub-byte constants too (a GPU reads no host global)">,
    Option<"embed", "embed", "bool", "false",
           "Keep the array in the object, as the global __tcc_weights, "
           "instead of a file (the CUDA runtime uploads it)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TCC_PASSES_TD
