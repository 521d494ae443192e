/* mock_cuda.c - a stand-in for libcuda.so.1 (loaded through
 * TCC_CUDA_DRIVER) that checks what libtccrt asks of the driver on a
 * machine without a GPU: device memory is host memory, each call is logged
 * to stderr, kernels are looked up by name in the PTX and not run.
 *   MOCK_CUDA_FAIL=name  that call fails (CUDA_ERROR_INVALID_VALUE), once
 *   MOCK_CUDA_DEVICES=n  the device count (default 1)
 *   MOCK_CUDA_FILL=b     cuMemAlloc's memory starts as bytes b (default 0)
 * Checks that fail abort: a launch of a kernel the module does not have, a
 * copy outside memory the mock allocated, a launch whose pointer params
 * are not device memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_FOUND 500

static int failed_once;
static CUresult maybe_fail(const char *call) {
  const char *f = getenv("MOCK_CUDA_FAIL");
  if (f && !failed_once && strcmp(f, call) == 0) {
    failed_once = 1;
    fprintf(stderr, "mock: %s fails\n", call);
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
#define MOCK_CALL(name)                                                        \
  do {                                                                         \
    CUresult r = maybe_fail(#name);                                            \
    if (r != CUDA_SUCCESS)                                                     \
      return r;                                                                \
  } while (0)

/* Device memory: the blocks allocated, to check copies and pointers. */
typedef struct block {
  char *data;
  size_t bytes;
  int ordinal; /* the GPU it is on */
} block;
static block blocks[64];
static int num_blocks;

static int in_device_memory(uintptr_t p, size_t bytes) {
  for (int i = 0; i < num_blocks; ++i)
    if (p >= (uintptr_t)blocks[i].data &&
        p + bytes <= (uintptr_t)blocks[i].data + blocks[i].bytes)
      return 1;
  return 0;
}

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "mock: FAILED: %s\n", what);
    abort();
  }
}

CUresult cuInit(unsigned flags) {
  MOCK_CALL(cuInit);
  fprintf(stderr, "mock: cuInit(%u)\n", flags);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *n) {
  MOCK_CALL(cuDeviceGetCount);
  const char *env = getenv("MOCK_CUDA_DEVICES");
  *n = env ? atoi(env) : 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(int *device, int index) {
  MOCK_CALL(cuDeviceGet);
  *device = index;
  fprintf(stderr, "mock: cuDeviceGet(%d)\n", index);
  return CUDA_SUCCESS;
}
static int context_object, stream_object, module_object;
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  MOCK_CALL(cuDevicePrimaryCtxRetain);
  (void)device;
  *context = &context_object;
  return CUDA_SUCCESS;
}
static int current_depth;
CUresult cuCtxPushCurrent_v2(void *context) {
  MOCK_CALL(cuCtxPushCurrent_v2);
  check(context == &context_object, "push of the primary context");
  ++current_depth;
  return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent_v2(void **context) {
  check(current_depth > 0, "a pop matches a push");
  --current_depth;
  *context = &context_object;
  return CUDA_SUCCESS;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  MOCK_CALL(cuStreamCreate);
  check(current_depth > 0, "a context is current");
  fprintf(stderr, "mock: cuStreamCreate(flags %u)\n", flags);
  *stream = &stream_object;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(void *stream) {
  MOCK_CALL(cuStreamSynchronize);
  check(stream == &stream_object, "the runtime's stream");
  fprintf(stderr, "mock: cuStreamSynchronize\n");
  return CUDA_SUCCESS;
}

static const char *ptx;
CUresult cuModuleLoadData(void **module, const void *image) {
  MOCK_CALL(cuModuleLoadData);
  check(current_depth > 0, "a context is current");
  ptx = image;
  const char *target = strstr(ptx, ".target ");
  fprintf(stderr, "mock: cuModuleLoadData(%s, %.*s)\n",
          strncmp(ptx, "//", 2) == 0 ? "PTX" : "not PTX",
          target ? (int)strcspn(target, "\n") : 10,
          target ? target : "no .target");
  *module = &module_object;
  return CUDA_SUCCESS;
}

/* Functions: the names asked for, as handles. */
static char names[256][128];
static int num_functions;
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  MOCK_CALL(cuModuleGetFunction);
  check(module == &module_object, "the loaded module");
  char entry[160];
  snprintf(entry, sizeof(entry), ".entry %s(", name);
  if (!strstr(ptx, entry))
    return CUDA_ERROR_NOT_FOUND;
  check(num_functions < 256 && strlen(name) < 128, "mock limits");
  strcpy(names[num_functions], name);
  *function = names[num_functions++];
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc_v2(uintptr_t *p, size_t bytes) {
  MOCK_CALL(cuMemAlloc_v2);
  check(num_blocks < 64, "mock limits");
  void *data = calloc(1, bytes);
  const char *fill = getenv("MOCK_CUDA_FILL");
  if (data && fill)
    memset(data, atoi(fill), bytes);
  blocks[num_blocks++] = (block){data, bytes, 0};
  fprintf(stderr, "mock: cuMemAlloc(%zu)\n", bytes);
  *p = (uintptr_t)data;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(uintptr_t dst, const void *src, size_t bytes,
                              void *stream) {
  MOCK_CALL(cuMemcpyHtoDAsync_v2);
  check(stream == &stream_object, "the runtime's stream");
  check(in_device_memory(dst, bytes), "a copy to device memory");
  memcpy((void *)dst, src, bytes);
  fprintf(stderr, "mock: cuMemcpyHtoDAsync(%zu bytes)\n", bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, uintptr_t src, size_t bytes,
                              void *stream) {
  MOCK_CALL(cuMemcpyDtoHAsync_v2);
  check(stream == &stream_object, "the runtime's stream");
  check(in_device_memory(src, bytes), "a copy from device memory");
  memcpy(dst, (void *)src, bytes);
  fprintf(stderr, "mock: cuMemcpyDtoHAsync(%zu bytes)\n", bytes);
  return CUDA_SUCCESS;
}

/* For test programs: device memory of GPU `ordinal` (host memory here, so
 * the program can fill and read it). */
void *mock_device_alloc(size_t bytes, int ordinal) {
  check(num_blocks < 64, "mock limits");
  void *data = calloc(1, bytes);
  blocks[num_blocks++] = (block){data, bytes, ordinal};
  fprintf(stderr, "mock: device memory of %zu bytes on GPU %d\n", bytes, ordinal);
  return data;
}

/* MEMORY_TYPE (2): DEVICE (2) for device memory, else the call fails, as
 * for unregistered host memory; DEVICE_ORDINAL (9). */
CUresult cuPointerGetAttribute(void *data, int attribute, uintptr_t p) {
  MOCK_CALL(cuPointerGetAttribute);
  for (int i = 0; i < num_blocks; ++i)
    if (p >= (uintptr_t)blocks[i].data &&
        p < (uintptr_t)blocks[i].data + blocks[i].bytes) {
      if (attribute == 2)
        *(unsigned *)data = 2;
      else if (attribute == 9)
        *(int *)data = blocks[i].ordinal;
      else
        return CUDA_ERROR_INVALID_VALUE;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

/* The kernel's parameters in the PTX: .param .u64 / .f32 / ... */
static int entry_params(const char *name, char types[][8], int max) {
  char entry[160];
  snprintf(entry, sizeof(entry), ".entry %s(", name);
  const char *p = strstr(ptx, entry);
  const char *end = p ? strchr(p, ')') : NULL;
  int n = 0;
  while (p && (p = strstr(p, ".param .")) && p < end && n < max) {
    sscanf(p, ".param .%7s", types[n]);
    ++n;
    p += 8;
  }
  return n;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  MOCK_CALL(cuLaunchKernel);
  const char *name = function;
  check(stream == &stream_object, "the runtime's stream");
  check(extra == NULL, "no extra");
  char types[64][8];
  int n = entry_params(name, types, 64);
  /* A memref is (allocated, aligned, offset, sizes..., strides...): the
   * u64 params that hold device addresses must point into device memory;
   * the PTX does not say which u64s are pointers, so every u64 whose value
   * is not a small integer is checked. */
  int pointers = 0;
  for (int i = 0; i < n; ++i) {
    if (strcmp(types[i], "u64") != 0)
      continue;
    uint64_t v = *(const uint64_t *)params[i];
    if (v > (1u << 24)) {
      check(in_device_memory((uintptr_t)v, 1), "a pointer param in memory");
      ++pointers;
    }
  }
  fprintf(stderr,
          "mock: cuLaunchKernel(%s, grid %ux%ux%u, block %ux%ux%u, shared %u, "
          "%d params, %d pointers)\n",
          name, gx, gy, gz, bx, by, bz, shared, n, pointers);
  return CUDA_SUCCESS;
}

/* Events: a start and a stop per device. */
static int event_objects[8], num_events, recorded[8];
CUresult cuEventCreate(void **event, unsigned flags) {
  MOCK_CALL(cuEventCreate);
  (void)flags;
  check(num_events < 8, "mock limits");
  *event = &event_objects[num_events++];
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(void *event, void *stream) {
  MOCK_CALL(cuEventRecord);
  check(stream == &stream_object, "the runtime's stream");
  check((int *)event >= event_objects && (int *)event < event_objects + num_events,
        "an event the mock made");
  recorded[(int *)event - event_objects] = 1;
  return CUDA_SUCCESS;
}
/* Each run's kernels took 1.5 ms. */
CUresult cuEventElapsedTime(float *ms, void *start, void *stop) {
  MOCK_CALL(cuEventElapsedTime);
  check(start != stop && recorded[(int *)start - event_objects] &&
            recorded[(int *)stop - event_objects],
        "two recorded events");
  *ms = 1.5f;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
          : r == CUDA_ERROR_NOT_FOUND   ? "CUDA_ERROR_NOT_FOUND"
                                        : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult r, const char **text) {
  *text = r == CUDA_ERROR_INVALID_VALUE ? "invalid argument"
          : r == CUDA_ERROR_NOT_FOUND   ? "named symbol not found"
                                        : "unknown error";
  return CUDA_SUCCESS;
}
