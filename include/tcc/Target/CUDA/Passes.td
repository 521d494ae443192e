//===- Passes.td - tcc's CUDA passes --------------------------*- tablegen -*-===//
//
// The passes of the NVIDIA GPU pipeline: what upstream MLIR's gpu, nvvm and
// gpu-to-llvm passes leave to tcc (kernel names, one module of kernels, the
// launches through tcc's runtime, and the CPU emulation of the kernels).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_CUDA_PASSES_TD
#define TCC_TARGET_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUPrepareKernels
    : Pass<"tcc-gpu-prepare-kernels", "::mlir::func::FuncOp"> {
  let summary = "Makes every buffer operation of a function a named linalg op";
  let description = [{
    Before the linalg ops become parallel loops and GPU launches: each
    `memref.copy` (bufferization's copies) becomes a `linalg.copy`, so that
    it runs as a kernel too, and each linalg op's location gets the name its
    kernel will have, as on the CPU: `k<i>_<op>_<static loop ranges>`
    (e.g. `k3_matmul_1x10x64`), kept through tiling, mapping and outlining
    in a `NameLoc`. An op without parallel loops (a 0-d fill or copy, a full
    reduction) goes into an `scf.parallel` of one iteration: a kernel of one
    thread; so does host code outside linalg ops that reads or writes
    memory (the loops a lowering wrote out: scatters, recurrent cells),
    named `k<i>_<op>`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUTileContractions
    : Pass<"tcc-gpu-tile-contractions", "::mlir::func::FuncOp"> {
  let summary = "Makes matmuls and convolutions kernels on shared-memory tiles";
  let description = [{
    Before `convert-linalg-to-parallel-loops`: a linalg op on buffers with
    two inputs, one output and reduction loops, where each parallel loop
    indexes the first input (the M dims), the second (the N dims) or both
    (batch dims), with M and N at least 16 (a matmul, a batched matmul, a
    convolution as an implicit GEMM, integer and mixed-type forms: any
    body that folds `a`, `b` into the output's value), becomes a
    `gpu.launch` of its own. Each block of 16 x 16 threads computes a
    TM x TN tile of the output (TM, TN each 64, 32 or 16 as M, N allow;
    each thread TM/16 x TN/16 elements, strided by 16 so that a warp's
    loads and stores of a row are consecutive): the output tile starts
    from the output's values (in registers: the iteration arguments of
    the loops), then for each step of
    16 along the flattened reduction dims, the block loads the two input
    tiles into shared memory (coalesced along each input's innermost dim;
    rows padded by one element against bank conflicts), waits
    (`gpu.barrier`), folds the step into each thread's elements with the
    op's own body, and waits again; last, the tile is stored. Every load
    and store outside the iteration space is guarded. The grid is one-
    dimensional over the batch, the M tiles and the N tiles (N fastest).
    A `linalg.fill` of the whole output just before the op (a matmul's
    zeros) is absorbed: the tile starts from its value, the output is not
    read, and the fill is no kernel.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUFlattenLoops : Pass<"tcc-gpu-flatten-loops", "::mlir::func::FuncOp"> {
  let summary = "Makes each outermost parallel loop nest one loop";
  let description = [{
    After `convert-linalg-to-parallel-loops`: the parallel dims of each
    outermost `scf.parallel` become one, row-major (the innermost dim
    varies fastest), so that tiling it by the block size puts neighbouring
    elements of the innermost dim on neighbouring threads of a block (a
    warp's loads and stores coalesce) and every thread of a block has work
    except at the end of the whole iteration space. Each thread recovers
    its indices with divisions by the dims' sizes.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUSinkLoads : Pass<"tcc-gpu-sink-loads", "::mlir::func::FuncOp"> {
  let summary = "Moves host loads of device memory into the kernels using them";
  let description = [{
    After `convert-parallel-loops-to-gpu`: a `memref.load` in host code
    whose value only launches use (a Pad's padding value, read from a
    tensor) is cloned into each of them, when they are the launches that
    follow it and none writes the buffer it reads, so that each kernel
    reads what the host would have. Host code never touches device memory.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUMergeKernels : Pass<"tcc-gpu-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Puts every outlined kernel in one gpu.module, named";
  let description = [{
    After `gpu-kernel-outlining`, which makes one `gpu.module` per launch:
    the kernels move into one `gpu.module @<model-name>_kernels` (one PTX
    file, one ptxas run, one `cuModuleLoadData` at run time), each named
    `<model-name>_<kernel name>` from its location (tcc-gpu-prepare-kernels),
    and the launches follow. A kernel whose body repeats one already kept
    (the same op on the same shapes: ResNet's repeated blocks) is not kept:
    its launches call that one. Checks that what stays on the host only views
    buffers and launches kernels: any other op that touches memory there
    (it would read device memory on the CPU) is an error naming it.
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", "\"model\"",
           "Prefix of the kernels' names">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GPUEmulateLaunches
    : Pass<"tcc-gpu-emulate-launches", "::mlir::func::FuncOp"> {
  let summary = "Runs each gpu.launch as loops on the CPU";
  let description = [{
    The CPU emulation of the GPU kernels (`tcc compile --target cuda
    --gpu-emulate`), as Triton's interpreter runs its kernels: each
    `gpu.launch` becomes a nest of `scf.for` loops over its blocks and
    threads (z, y, x; blocks outside threads), the body inlined with the
    block and thread ids and dims replaced by the loops' values. The same
    tiling, mapping and bounds checks then run on the CPU, so an indexing
    bug fails a CPU test.

    Barriers are respected: in a launch with barriers or memory
    attributions, the body is cut at each `gpu.barrier` and around each
    `scf.for` holding one (run once per block, its bounds the same for all
    threads), and each piece between runs as its own loop over the threads,
    so that every thread finishes a piece before any starts the next.
    Shared memory is one buffer per block, private memory one per thread;
    ops that do not depend on the thread (constants, index arithmetic on
    block ids) run once, before the thread loops. A value computed by a
    thread and used past a barrier, a barrier under a condition or in a
    loop with results, are errors.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPULowerLaunches : Pass<"tcc-gpu-lower-launches", "::mlir::ModuleOp"> {
  let summary = "Launches the kernels through tcc's runtime";
  let description = [{
    Runs on the LLVM dialect, after `gpu-module-to-binary` and
    `gpu-to-llvm`. The one `gpu.binary` becomes a constant byte array, and
    with the kernels' names, the weights and the buffers' sizes, a
    `tcc_cuda_image` the runtime loads (lib/Runtime/cuda.c). Each
    `gpu.launch_func` becomes a call of `tcc_cuda_launch(run, kernel index,
    grid, block, shared bytes, params)`, params pointing at the kernel's
    arguments in stack slots. The model function, which takes device
    pointers, becomes `@main_device`; a new `@main` takes the host's
    buffers and context, as on the CPU, and returns a status: it calls
    `tcc_cuda_begin` (device memory, inputs copied in), `@main_device`, and
    `tcc_cuda_end` (outputs copied out, the stream synchronized). The
    loads that the condition of an If's check (`tcc_branch_check`) comes
    from become `tcc_cuda_read(run, slot, address, bytes)`, a copy to a
    stack slot once the kernels before it have run; any other load in the
    model function is an error.
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", "\"model\"",
           "Symbol prefix of the image">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TCC_TARGET_CUDA_PASSES_TD
