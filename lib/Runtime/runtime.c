/* runtime.c - libtccrt: status strings, dtype helpers and workspace memory (see tcc/runtime.h). */
#define _POSIX_C_SOURCE 200112L
#include "tcc/runtime.h"

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
