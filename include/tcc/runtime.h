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
 *
 * The workspace must be at least NAME_workspace_size() bytes and aligned to
 * TCC_WORKSPACE_ALIGNMENT bytes; tcc_workspace_alloc() returns such memory.
 * Generated code has no mutable global state: two threads may run the same
 * model at once as long as each passes its own workspace.
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
} tcc_tensor_info;

/* A tensor passed to the checked entry point NAME_run_tensors. */
typedef struct tcc_tensor {
  tcc_dtype dtype;
  int32_t rank;
  const int64_t *dims; /* rank entries */
  void *data;          /* contiguous, row-major */
} tcc_tensor;

/* Why a checked call failed (filled by NAME_run_tensors when not null). */
typedef struct tcc_error {
  char message[256];
} tcc_error;

/* The packed entry point of a model (NAME_run_packed). */
typedef tcc_status (*tcc_run_packed_fn)(const void *const *inputs,
                                        void *const *outputs, void *workspace);

/* A compiled model's signature. */
typedef struct tcc_model_info {
  const char *name; /* the --name prefix */
  int32_t num_inputs;
  int32_t num_outputs;
  const tcc_tensor_info *inputs;
  const tcc_tensor_info *outputs;
  size_t workspace_size;
} tcc_model_info;

/* A short English description of a status code (never null). */
const char *tcc_status_string(tcc_status status);

/* Size in bytes of one element of `dtype` (0 for an unknown dtype). */
size_t tcc_dtype_size(tcc_dtype dtype);

/* Name of a dtype as numpy spells it ("float32", "int64", ...). */
const char *tcc_dtype_name(tcc_dtype dtype);

/* Allocates `size` bytes aligned to TCC_WORKSPACE_ALIGNMENT (a non-null
 * pointer even for size 0); returns null when out of memory. */
void *tcc_workspace_alloc(size_t size);

/* Frees memory from tcc_workspace_alloc (null is allowed). */
void tcc_workspace_free(void *workspace);

/* Checks `inputs` and `outputs` (count, dtype, rank, every dim, non-null
 * data) and the workspace (non-null when needed, aligned, at least
 * info->workspace_size bytes) against `info`, then calls `run`. On a
 * mismatch nothing runs: returns TCC_ERROR_INVALID_ARGUMENT and, when
 * `error` is not null, writes a message naming the tensor and dim. What
 * NAME_run_tensors calls. */
tcc_status tcc_run_tensors(const tcc_model_info *info, tcc_run_packed_fn run,
                           const tcc_tensor *inputs, int32_t num_inputs,
                           tcc_tensor *outputs, int32_t num_outputs,
                           void *workspace, size_t workspace_bytes,
                           tcc_error *error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_H */
