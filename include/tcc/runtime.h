/*===- tcc/runtime.h - tcc runtime C API ------------------------*- C -*-===//
 *
 * The C API shared by every object that `tcc compile` writes and by the
 * runtime library libtccrt. A generated header (`NAME.h`) includes this file
 * and declares, for a model compiled with `--name NAME`:
 *
 *   size_t NAME_workspace_size(void);
 *       Bytes of scratch memory one call needs (0 is possible).
 *   tcc_status NAME_run(const T *in0, ..., T *out0, ..., void *workspace);
 *       Static fast path: plain pointers to contiguous row-major buffers.
 *       Outputs are written while the inputs are read: an output buffer
 *       must not overlap an input's, another output's or the workspace.
 *   tcc_status NAME_run_packed(const void *const *inputs,
 *                              void *const *outputs, void *workspace);
 *       The same call with the buffers passed as arrays, in model order.
 *   const tcc_model_info *NAME_info(void);   (static inline, in the header)
 *       Names, dtypes and shapes of the inputs and outputs.
 *   tcc_status NAME_run_tensors(const tcc_tensor *inputs, int32_t num_inputs,
 *                               tcc_tensor *outputs, int32_t num_outputs,
 *                               void *workspace, size_t workspace_bytes,
 *                               tcc_error *error);   (static inline)
 *       The checked call: tensor descriptors (dtype, rank, dims, data)
 *       compared with the model's signature before anything runs; a
 *       mismatch returns TCC_ERROR_INVALID_ARGUMENT and, when `error` is
 *       not null, a message naming the tensor and dim.
 *   tcc_status NAME_run_ctx(tcc_context *context, <NAME_run's arguments>);
 *   tcc_status NAME_run_packed_ctx(tcc_context *context, <...>);
 *   tcc_status NAME_run_tensors_ctx(tcc_context *context, <...>);
 *       The same calls on the threads of `context` (see tcc_context_create).
 *       The calls without a context run on the calling thread alone. The
 *       results are bit-identical whatever the number of threads: each
 *       output element is computed by one thread, in the same order.
 *
 * A model compiled with `--weights file` keeps its weights in NAME.weights
 * beside the object instead of in its read-only data. Every call above
 * then takes the weights, opened once with NAME_weights_open (a static
 * inline that calls tcc_weights_open), as the parameter after the context
 * (the first parameter of the calls without one):
 *   tcc_status NAME_run(const tcc_weights *weights, <buffers>, workspace);
 *   tcc_status NAME_run_ctx(tcc_context *context, const tcc_weights *weights,
 *                           <buffers>, workspace);
 * A null handle or the weights of another model returns
 * TCC_ERROR_INVALID_ARGUMENT. One handle serves any number of threads.
 *
 * A model whose inputs have a symbolic batch dim left unpinned (no --dim)
 * compiles for one sample, when no op mixes samples. The calls above then
 * run one sample: the dims in NAME_info() are one sample's, with dim 0 of
 * each batched tensor `batch_multiple` (usually 1). NAME_run_tensors runs
 * any batch, read from dim 0 of the tensors; so does the static inline
 *   tcc_status NAME_run_batch(tcc_context *context, int64_t batch,
 *                             <NAME_run's buffers>, void *workspace);
 * on buffers of `batch` samples (with --weights file, the weights come
 * between the context and the batch). The samples run one after the other with
 * the one workspace. NAME_BATCH_DIM names the dim.
 *
 * An output whose size depends on the data (NonZero) has a bound: its
 * buffer is sized for the bound (tcc_tensor_info.run_time_dims marks the
 * dims). NAME_run then takes `int64_t *run_time_dims` after the outputs (the
 * last output of NAME_run_packed), where it writes the actual value of
 * each such dim, output by output; the output's data is packed row-major
 * in its actual dims at the start of its buffer. NAME_run_tensors writes
 * them to the output's `result_dims`.
 *
 * A symbolic dim compiled with a bound (tcc compile --max-dim NAME=MAX; its
 * name in tcc_model_info.bounded_dim) varies from 1 to MAX at run time. The
 * inputs that hold it (tcc_tensor_info.run_time_dims) hold their actual
 * elements; NAME_run takes `const int64_t *input_dims` after the inputs (the
 * last input of NAME_run_packed): its value in each such input dim, input
 * by input, one value in all (else TCC_ERROR_INVALID_ARGUMENT). Outputs that
 * hold it are reported as run-time dims, as above. NAME_run_tensors takes
 * the inputs' actual dims. With a run-time batch too, NAME_run_batch and
 * NAME_run_tensors run the samples at one value of the dim: the inputs
 * hold each sample in its actual dims, and an output that holds the dim,
 * in a buffer for batch x its bounds, holds the samples packed in their
 * actual dims (the same in every sample). A batch of 0 is refused then:
 * those dims come from a sample's run.
 *
 * The workspace must be at least NAME_workspace_size() bytes and aligned to
 * TCC_WORKSPACE_ALIGNMENT bytes; tcc_workspace_alloc() returns such memory.
 * Generated code has no mutable global state: two threads may run the same
 * model at once as long as each passes its own workspace (and its own
 * context: calls sharing a context take turns in its parallel loops).
 *===----------------------------------------------------------------------===*/
#ifndef TCC_RUNTIME_H
#define TCC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCC_WORKSPACE_ALIGNMENT 64

/* Status codes returned by every entry point. */
typedef enum tcc_status {
  TCC_OK = 0,
  TCC_ERROR_INVALID_ARGUMENT = 1, /* null pointer, bad size or alignment */
  TCC_ERROR_OUT_OF_MEMORY = 2,
  TCC_ERROR_INTERNAL = 3,
  TCC_ERROR_IO = 4, /* a file cannot be opened, read or mapped */
  /* --target cuda: no CUDA driver (libcuda.so.1) or no such device. */
  TCC_ERROR_NO_DEVICE = 5,
  /* --target cuda: a CUDA driver call failed (tcc_cuda_error_message). */
  TCC_ERROR_DEVICE = 6,
  /* The run's data selected a branch of an If that tcc could not compile
   * for the model's sizes (tcc compile warned; tcc_run_error_message names
   * the If node). The outputs are not valid. */
  TCC_ERROR_BRANCH = 7,
  /* The object's code is for a CPU this one is not (an SVE vector length:
   * tcc compile --mcpu neoverse-v1 makes code for 256-bit SVE only;
   * tcc_run_error_message says what differs). Nothing ran. */
  TCC_ERROR_CPU = 8,
} tcc_status;

/* Element types of model inputs and outputs (values fixed by the ABI). */
typedef enum tcc_dtype {
  TCC_DTYPE_F32 = 1,
  TCC_DTYPE_U8 = 2,
  TCC_DTYPE_I8 = 3,
  TCC_DTYPE_U16 = 4,
  TCC_DTYPE_I16 = 5,
  TCC_DTYPE_I32 = 6,
  TCC_DTYPE_I64 = 7,
  TCC_DTYPE_BOOL = 9,
  TCC_DTYPE_F16 = 10,
  TCC_DTYPE_F64 = 11,
  TCC_DTYPE_U32 = 12,
  TCC_DTYPE_U64 = 13,
  TCC_DTYPE_BF16 = 16,
} tcc_dtype; /* Same numbering as ONNX's TensorProto.DataType. */

/* One input or output of a compiled model. */
typedef struct tcc_tensor_info {
  const char *name;    /* ONNX value name */
  tcc_dtype dtype;
  int32_t rank;
  const int64_t *dims; /* rank entries, row-major */
  size_t num_elements;
  size_t size_bytes;
  /* The ONNX model's name of each dim ("batch", "sequence"; "" for a fixed
   * dim), or null when no dim has one. A named dim was pinned at compile
   * time (--dim NAME=V) to the value in `dims`. */
  const char *const *dim_names;
  /* 0, or k when dim 0 is k x the run-time batch (tcc_model_info's
   * batch_dim): `dims`, `num_elements` and `size_bytes` are one sample's
   * then, with dims[0] == k. */
  int64_t batch_multiple;
  /* Bit d set: dim d of this output is known only after the run (the count
   * of a NonZero, or a dim that follows a bounded input dim); dims[d] is
   * its bound, and `num_elements` and `size_bytes` are for the bounds. The
   * run packs the output row-major in its actual dims at the start of the
   * buffer and reports them: in tcc_tensor's result_dims, or (NAME_run) in
   * its run_time_dims array.
   * For an input: dim d is tcc_model_info's bounded_dim, from 1 to dims[d]
   * at run time; the buffer holds the actual dims' elements, and NAME_run
   * takes the actual values in `const int64_t *input_dims` after the inputs
   * (the last input of NAME_run_packed), one per marked dim, input by
   * input. NAME_run_tensors reads them from the tensors' dims. */
  uint32_t run_time_dims;
} tcc_tensor_info;

/* A tensor passed to the checked entry point NAME_run_tensors. */
typedef struct tcc_tensor {
  tcc_dtype dtype;
  int32_t rank;
  const int64_t *dims; /* rank entries */
  void *data;          /* contiguous, row-major */
  /* Outputs with dims known only after the run (tcc_tensor_info's
   * run_time_dims): `dims` are the bounds, and the call writes the actual
   * dims here (rank entries). Not read for other tensors. */
  int64_t *result_dims;
} tcc_tensor;

/* Why a checked call failed (filled by NAME_run_tensors when not null). */
typedef struct tcc_error {
  char message[256];
} tcc_error;

/* The packed entry point of a model (NAME_run_packed). */
typedef tcc_status (*tcc_run_packed_fn)(const void *const *inputs,
                                        void *const *outputs, void *workspace);

/* A pool of threads a model runs its parallel loops on. */
typedef struct tcc_context tcc_context;

/* The packed entry point with a context (NAME_run_packed_ctx). */
typedef tcc_status (*tcc_run_packed_ctx_fn)(tcc_context *context,
                                            const void *const *inputs,
                                            void *const *outputs,
                                            void *workspace);

/* A compiled model's signature. */
typedef struct tcc_model_info {
  const char *name; /* the --name prefix */
  int32_t num_inputs;
  int32_t num_outputs;
  const tcc_tensor_info *inputs;
  const tcc_tensor_info *outputs;
  size_t workspace_size;
  /* For a model compiled with --weights file: the bytes and fingerprint of
   * its weights file (NAME_WEIGHTS_BYTES, NAME_WEIGHTS_FINGERPRINT); 0 when
   * the weights are in the object. */
  uint64_t weights_bytes;
  uint64_t weights_fingerprint;
  /* The symbolic dim that varies at run time ("batch"), or null when every
   * dim is fixed. The entry points run one sample; tcc_run_tensors* any
   * number. */
  const char *batch_dim;
  /* The symbolic dim that varies at run time up to a bound within a run
   * (tcc compile --max-dim NAME=MAX), or null. The inputs' run_time_dims
   * mark where it is; their dims hold the bound. */
  const char *bounded_dim;
} tcc_model_info;

/* A short English description of a status code (never null). */
const char *tcc_status_string(tcc_status status);

/* Why the last run on this thread failed at run time (TCC_ERROR_BRANCH:
 * which If node and branch), or "" (never null). */
const char *tcc_run_error_message(void);

/* For compiled models: a run calls tcc_branch_check where an If's
 * condition must select the branch compiled (ok 0: it does not), and
 * returns tcc_run_status() (TCC_OK, or TCC_ERROR_BRANCH once a check
 * failed, which it then clears). */
void tcc_branch_check(int32_t ok, const char *message);
tcc_status tcc_run_status(void);

/* For compiled models: an object whose code is for SVE vectors of `bits`
 * bits alone calls this before each run; TCC_OK where this CPU's are that
 * long, else TCC_ERROR_CPU (tcc_run_error_message says what differs). */
tcc_status tcc_check_sve_bits(int64_t bits);

/* Size in bytes of one element of `dtype` (0 for an unknown dtype). */
size_t tcc_dtype_size(tcc_dtype dtype);

/* Name of a dtype as numpy spells it ("float32", "int64", ...). */
const char *tcc_dtype_name(tcc_dtype dtype);

/* Allocates `size` bytes aligned to TCC_WORKSPACE_ALIGNMENT (a non-null
 * pointer even for size 0); returns null when out of memory. 2 MB or more
 * are aligned to 2 MB and, on Linux, advised to be backed by huge pages. */
void *tcc_workspace_alloc(size_t size);

/* Frees memory from tcc_workspace_alloc (null is allowed). */
void tcc_workspace_free(void *workspace);

/* Checks `inputs` and `outputs` (count, dtype, rank, every dim, non-null
 * data, result_dims where the output has run-time dims) and the workspace
 * (non-null when needed, aligned, at least info->workspace_size bytes)
 * against `info`, then calls `run`: once per
 * sample, at each sample's data, when info->batch_dim is set (the batch is
 * dim 0 of the first batched tensor over its batch_multiple; every other
 * batched tensor must agree; a batch of 0 runs nothing). On a
 * mismatch nothing runs: returns TCC_ERROR_INVALID_ARGUMENT and, when
 * `error` is not null, writes a message naming the tensor and dim. What
 * NAME_run_tensors calls. */
tcc_status tcc_run_tensors(const tcc_model_info *info, tcc_run_packed_fn run,
                           const tcc_tensor *inputs, int32_t num_inputs,
                           tcc_tensor *outputs, int32_t num_outputs,
                           void *workspace, size_t workspace_bytes,
                           tcc_error *error);

/* tcc_run_tensors for NAME_run_packed_ctx: runs on `context`'s threads. */
tcc_status tcc_run_tensors_ctx(tcc_context *context, const tcc_model_info *info,
                               tcc_run_packed_ctx_fn run,
                               const tcc_tensor *inputs, int32_t num_inputs,
                               tcc_tensor *outputs, int32_t num_outputs,
                               void *workspace, size_t workspace_bytes,
                               tcc_error *error);

/* Weights kept in a file (tcc compile --weights file), mapped read-only. */
typedef struct tcc_weights tcc_weights;

/* Maps the weights file at `path` and checks that it is the one of the
 * model: `bytes` and `fingerprint` are the model's NAME_WEIGHTS_BYTES and
 * NAME_WEIGHTS_FINGERPRINT (NAME_weights_open passes them). Returns
 * TCC_ERROR_IO when the file cannot be opened or mapped,
 * TCC_ERROR_INVALID_ARGUMENT when it is not a tcc weights file or belongs
 * to another model (or another compile of it), with a message in *error
 * when `error` is not null; `*weights` is null then. */
tcc_status tcc_weights_open(const char *path, uint64_t bytes,
                            uint64_t fingerprint, tcc_weights **weights,
                            tcc_error *error);

/* A weights handle on `bytes` bytes of weights at `data` that the caller
 * holds (aligned to 64 bytes; kept, unchanged, until the handle is closed):
 * weights it read or made itself (random ones to time a model, say). Their
 * content is not checked; `bytes` and `fingerprint` are the model's
 * (NAME_weights_wrap passes them). Returns TCC_ERROR_INVALID_ARGUMENT for a
 * null or misaligned `data` or null `weights`. */
tcc_status tcc_weights_wrap(const void *data, uint64_t bytes,
                            uint64_t fingerprint, tcc_weights **weights);

/* Unmaps weights from tcc_weights_open, or frees the handle of
 * tcc_weights_wrap (null is allowed). No call may be running with them. */
void tcc_weights_close(tcc_weights *weights);

/* For generated code: the data of `weights` when they are not null and
 * hold `bytes` bytes with `fingerprint`; null otherwise. */
const void *tcc_weights_bind(const tcc_weights *weights, uint64_t bytes,
                             uint64_t fingerprint);

/* The packed entry point of a model compiled with --weights file
 * (NAME_run_packed_ctx). */
typedef tcc_status (*tcc_run_packed_weights_fn)(tcc_context *context,
                                                const tcc_weights *weights,
                                                const void *const *inputs,
                                                void *const *outputs,
                                                void *workspace);

/* tcc_run_tensors_ctx for a model compiled with --weights file: also
 * checks `weights` against info->weights_bytes and weights_fingerprint. */
tcc_status tcc_run_tensors_weights(tcc_context *context,
                                   const tcc_weights *weights,
                                   const tcc_model_info *info,
                                   tcc_run_packed_weights_fn run,
                                   const tcc_tensor *inputs, int32_t num_inputs,
                                   tcc_tensor *outputs, int32_t num_outputs,
                                   void *workspace, size_t workspace_bytes,
                                   tcc_error *error);

/* Creates a context of `num_threads` threads, the calling thread included
 * (0: one per online CPU; 1: no extra thread). Models run on it through
 * their *_ctx entry points. Returns TCC_ERROR_INVALID_ARGUMENT for a null
 * `context` or a negative count, TCC_ERROR_OUT_OF_MEMORY when the threads
 * cannot be made; `*context` is null then.
 * On Linux, when the calling thread may run on at least `num_threads` CPUs,
 * each of the context's threads is bound to one of the first `num_threads`
 * of them: the workers for good, the thread that runs a model on the
 * context for the length of the run (its affinity is restored after). Two
 * contexts made on one thread share those CPUs. Setting the environment
 * variable TCC_BIND_THREADS=0 before creating a context leaves its threads
 * unbound. */
tcc_status tcc_context_create(int32_t num_threads, tcc_context **context);

/* Stops the threads of a context and frees it (null is allowed). No call
 * may be running on it. */
void tcc_context_destroy(tcc_context *context);

/* The number of threads of a context (1 for null). */
int32_t tcc_context_num_threads(const tcc_context *context);

/* NVIDIA GPUs (models compiled with --target cuda).
 *
 * A model compiled for CUDA has the same entry points and header as a CPU
 * one, on host buffers: each call copies the inputs to the GPU, runs the
 * kernels there and copies the outputs back before it returns. A buffer
 * that is already memory of that GPU (cuMemAlloc, cudaMalloc, managed
 * memory: the driver says which) is read or written in place, without a
 * copy: models chain on the GPU that way. Memory of another GPU is
 * TCC_ERROR_INVALID_ARGUMENT. It needs no
 * workspace (NAME_workspace_size() is 0; the device memory is the
 * runtime's). The runtime loads the CUDA driver (libcuda.so.1, or the
 * file named by the environment variable TCC_CUDA_DRIVER) with dlopen at
 * the first such call: programs built without CUDA link and run anywhere,
 * and a CUDA model's call returns TCC_ERROR_NO_DEVICE where there is no
 * driver or GPU. On the first call with a given model (and weights), the
 * runtime loads its kernels, copies its weights to the GPU and allocates
 * the device memory of its buffers, kept until the process exits; calls on
 * one GPU take turns. The device is the context's (see
 * tcc_context_create_cuda), device 0 for a null or CPU context. */

/* Creates a context whose CUDA models run on GPU `device` (0 is the first;
 * CPU models run on it with one thread). Returns TCC_ERROR_NO_DEVICE when
 * there is no CUDA driver or no such device, TCC_ERROR_INVALID_ARGUMENT for
 * a null `context`; `*context` is null then. */
tcc_status tcc_context_create_cuda(int32_t device, tcc_context **context);

/* What the last CUDA failure on the calling thread was ("no CUDA driver:
 * libcuda.so.1: cannot open shared object file", "cuLaunchKernel
 * (kernel m_k3_conv_...): CUDA_ERROR_INVALID_VALUE: invalid argument"),
 * or "" when there was none. */
const char *tcc_cuda_error_message(void);

/* The GPU time of the kernels of the calling thread's last successful CUDA
 * run, in ms (CUDA events around them, after the inputs' copy and before
 * the outputs'); -1 when there is none. */
float tcc_cuda_last_run_kernels_ms(void);

/* For generated code (--target cuda; see lib/Runtime/cuda.c). A run: */
typedef struct tcc_cuda_image tcc_cuda_image;
typedef struct tcc_cuda_run tcc_cuda_run;
tcc_status tcc_cuda_begin(tcc_context *context, const tcc_cuda_image *image,
                          const void *weights, void *const *host_buffers,
                          void **device_buffers, tcc_cuda_run **run);
void tcc_cuda_launch(tcc_cuda_run *run, int32_t kernel, int64_t grid_x,
                     int64_t grid_y, int64_t grid_z, int64_t block_x,
                     int64_t block_y, int64_t block_z, int32_t shared_bytes,
                     void **params);
/* Copies `bytes` at device address `device` to `dst` once the kernels
 * launched so far have run (an If's condition, for tcc_branch_check);
 * zeros if the run has failed. */
void tcc_cuda_read(tcc_cuda_run *run, void *dst, const void *device,
                   int64_t bytes);
tcc_status tcc_cuda_end(tcc_cuda_run *run, void *const *host_buffers);

/* For generated code: bracket a model run on `context` (null is allowed).
 * Where the context's threads are bound to CPUs (see tcc_context_create),
 * tcc_run_begin binds the calling thread to the CPU its workers leave free
 * and tcc_run_end gives it back the affinity it had, kept in `scope` (the
 * generated code's stack; tcc's entry points allocate TCC_RUN_SCOPE_BYTES). */
#define TCC_RUN_SCOPE_BYTES 256
typedef struct tcc_run_scope {
  uint64_t opaque[TCC_RUN_SCOPE_BYTES / 8];
} tcc_run_scope;
void tcc_run_begin(tcc_context *context, tcc_run_scope *scope);
void tcc_run_end(tcc_context *context, tcc_run_scope *scope);

/* For generated code: runs fn(args, begin, end) over the iterations
 * [0, n), split into one contiguous range per thread of `context` (all on
 * the caller when `context` is null; a thread done early takes the others'
 * last iterations), and returns when all are done. fn must compute each
 * iteration the same whatever range it is in. */
typedef void (*tcc_parallel_fn)(void *args, int64_t begin, int64_t end);
void tcc_parallel_for(tcc_context *context, int64_t n, tcc_parallel_fn fn,
                      void *args);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_H */
