/* runtime.c - libtccrt: status strings, dtype helpers and workspace memory (see tcc/runtime.h). */
#define _POSIX_C_SOURCE 200112L
#include "tcc/runtime.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

const char *tcc_status_string(tcc_status status) {
  switch (status) {
  case TCC_OK:
    return "ok";
  case TCC_ERROR_INVALID_ARGUMENT:
    return "invalid argument (null pointer, bad size or alignment)";
  case TCC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case TCC_ERROR_INTERNAL:
    return "internal error";
  }
  return "unknown status";
}

size_t tcc_dtype_size(tcc_dtype dtype) {
  switch (dtype) {
  case TCC_DTYPE_U8:
  case TCC_DTYPE_I8:
  case TCC_DTYPE_BOOL:
    return 1;
  case TCC_DTYPE_U16:
  case TCC_DTYPE_I16:
  case TCC_DTYPE_F16:
  case TCC_DTYPE_BF16:
    return 2;
  case TCC_DTYPE_F32:
  case TCC_DTYPE_I32:
  case TCC_DTYPE_U32:
    return 4;
  case TCC_DTYPE_I64:
  case TCC_DTYPE_U64:
  case TCC_DTYPE_F64:
    return 8;
  }
  return 0;
}

const char *tcc_dtype_name(tcc_dtype dtype) {
  switch (dtype) {
  case TCC_DTYPE_F32: return "float32";
  case TCC_DTYPE_U8: return "uint8";
  case TCC_DTYPE_I8: return "int8";
  case TCC_DTYPE_U16: return "uint16";
  case TCC_DTYPE_I16: return "int16";
  case TCC_DTYPE_I32: return "int32";
  case TCC_DTYPE_I64: return "int64";
  case TCC_DTYPE_BOOL: return "bool";
  case TCC_DTYPE_F16: return "float16";
  case TCC_DTYPE_F64: return "float64";
  case TCC_DTYPE_U32: return "uint32";
  case TCC_DTYPE_U64: return "uint64";
  case TCC_DTYPE_BF16: return "bfloat16";
  }
  return "unknown";
}

void *tcc_workspace_alloc(size_t size) {
  void *p = NULL;
  /* Round up to a whole number of alignment units; never ask for 0 bytes. */
  size_t rounded = (size + TCC_WORKSPACE_ALIGNMENT - 1) &
                   ~(size_t)(TCC_WORKSPACE_ALIGNMENT - 1);
  if (rounded < size) /* overflow */
    return NULL;
  if (rounded == 0)
    rounded = TCC_WORKSPACE_ALIGNMENT;
  if (posix_memalign(&p, TCC_WORKSPACE_ALIGNMENT, rounded) != 0)
    return NULL;
  return p;
}

void tcc_workspace_free(void *workspace) { free(workspace); }

/* Writes the message of a failed check; returns TCC_ERROR_INVALID_ARGUMENT. */
static tcc_status invalid(tcc_error *error, const char *format, ...) {
  if (error) {
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof(error->message), format, args);
    va_end(args);
  }
  return TCC_ERROR_INVALID_ARGUMENT;
}

/* Checks one tensor against its signature. */
static tcc_status check_tensor(const char *what, const tcc_tensor_info *want,
                               const tcc_tensor *got, tcc_error *error) {
  if (!got->data)
    return invalid(error, "%s '%s': data is null", what, want->name);
  if (got->dtype != want->dtype)
    return invalid(error, "%s '%s': dtype %s, the model takes %s", what,
                   want->name, tcc_dtype_name(got->dtype),
                   tcc_dtype_name(want->dtype));
  if (got->rank != want->rank)
    return invalid(error, "%s '%s': rank %d, the model takes rank %d", what,
                   want->name, (int)got->rank, (int)want->rank);
  if (got->rank > 0 && !got->dims)
    return invalid(error, "%s '%s': dims is null", what, want->name);
  for (int32_t d = 0; d < got->rank; ++d) {
    if (got->dims[d] == want->dims[d])
      continue;
    const char *dim_name = want->dim_names ? want->dim_names[d] : "";
    if (dim_name && dim_name[0])
      return invalid(error,
                     "%s '%s': dim %d ('%s') is %lld; the model was compiled "
                     "for %s=%lld (tcc compile --dim %s=%lld)",
                     what, want->name, (int)d, dim_name,
                     (long long)got->dims[d], dim_name,
                     (long long)want->dims[d], dim_name,
                     (long long)got->dims[d]);
    return invalid(error, "%s '%s': dim %d is %lld, the model takes %lld", what,
                   want->name, (int)d, (long long)got->dims[d],
                   (long long)want->dims[d]);
  }
  return TCC_OK;
}

tcc_status tcc_run_tensors(const tcc_model_info *info, tcc_run_packed_fn run,
                           const tcc_tensor *inputs, int32_t num_inputs,
                           tcc_tensor *outputs, int32_t num_outputs,
                           void *workspace, size_t workspace_bytes,
                           tcc_error *error) {
  if (!info || !run)
    return invalid(error, "no model (info or entry point is null)");
  if (num_inputs != info->num_inputs || (num_inputs > 0 && !inputs))
    return invalid(error, "%s takes %d inputs, got %d%s", info->name,
                   (int)info->num_inputs, (int)num_inputs,
                   num_inputs > 0 && !inputs ? " (a null array)" : "");
  if (num_outputs != info->num_outputs || (num_outputs > 0 && !outputs))
    return invalid(error, "%s gives %d outputs, got %d%s", info->name,
                   (int)info->num_outputs, (int)num_outputs,
                   num_outputs > 0 && !outputs ? " (a null array)" : "");
  for (int32_t i = 0; i < num_inputs; ++i) {
    tcc_status st = check_tensor("input", &info->inputs[i], &inputs[i], error);
    if (st != TCC_OK)
      return st;
  }
  for (int32_t i = 0; i < num_outputs; ++i) {
    tcc_status st =
        check_tensor("output", &info->outputs[i], &outputs[i], error);
    if (st != TCC_OK)
      return st;
  }
  if (info->workspace_size > 0) {
    if (!workspace)
      return invalid(error, "%s needs a workspace of %zu bytes, got null",
                     info->name, info->workspace_size);
    if ((uintptr_t)workspace % TCC_WORKSPACE_ALIGNMENT)
      return invalid(error, "the workspace must be aligned to %d bytes",
                     TCC_WORKSPACE_ALIGNMENT);
    if (workspace_bytes < info->workspace_size)
      return invalid(error, "%s needs a workspace of %zu bytes, got %zu",
                     info->name, info->workspace_size, workspace_bytes);
  }
  /* The packed call takes arrays of data pointers. */
  enum { kMaxOnStack = 64 };
  const void *in_stack[kMaxOnStack];
  void *out_stack[kMaxOnStack];
  const void **in = num_inputs <= kMaxOnStack
                        ? in_stack
                        : malloc(sizeof(void *) * (size_t)num_inputs);
  void **out = num_outputs <= kMaxOnStack
                   ? out_stack
                   : malloc(sizeof(void *) * (size_t)num_outputs);
  tcc_status st = TCC_ERROR_OUT_OF_MEMORY;
  if (in && out) {
    for (int32_t i = 0; i < num_inputs; ++i)
      in[i] = inputs[i].data;
    for (int32_t i = 0; i < num_outputs; ++i)
      out[i] = outputs[i].data;
    st = run(in, out, workspace);
  }
  if (in != in_stack)
    free((void *)in);
  if (out != out_stack)
    free(out);
  if (st == TCC_ERROR_OUT_OF_MEMORY)
    invalid(error, "out of memory");
  else if (st != TCC_OK)
    invalid(error, "%s", tcc_status_string(st));
  return st;
}
