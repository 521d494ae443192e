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
} tcc_tensor_info;

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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_H */
