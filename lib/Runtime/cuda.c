/* cuda.c - libtccrt: runs models compiled with --target cuda through the
 * CUDA driver API, loaded with dlopen at the first call (see tcc/runtime.h).
 *
 * A compiled model holds a tcc_cuda_image (built by tcc-gpu-lower-launches):
 * its kernels' binary (a fatbin, or PTX), their names, its weights, and the
 * bytes of its buffers and device workspace. Its host code calls
 *   tcc_cuda_begin   the model's state on the context's GPU (made at the
 *                    first call: kernels loaded, weights copied, device
 *                    memory allocated), the inputs copied to it (buffers
 *                    that are already GPU memory are used in place);
 *   tcc_cuda_launch  once per kernel launch, in order, on one stream;
 *   tcc_cuda_read    a value the host needs (an If's condition), copied
 *                    back once the kernels before it have run;
 *   tcc_cuda_end     the outputs copied back, the stream synchronized (the
 *                    kernels timed by events, tcc_cuda_last_run_kernels_ms).
 * The GPU is taken from begin to end: runs on one GPU take turns. The first
 * failing call of a run is kept (the launches after it do nothing) and end
 * returns it. Objects that never call these never load the driver. */
#define _GNU_SOURCE
#include "tcc/runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout generated code gives its image (tcc-gpu-lower-launches). */
#define TCC_CUDA_IMAGE_VERSION 1
struct tcc_cuda_image {
  int32_t version;
  int32_t num_kernels;
  const char *binary; /* a fatbin, or PTX ending in '\0' */
  int64_t binary_bytes;
  const char *kernel_names; /* num_kernels names, each ending in '\0' */
  const void *weights;      /* in the object; null with --weights file */
  int64_t weights_bytes;
  int64_t workspace_bytes; /* device scratch memory of a run */
  int32_t num_inputs;
  int32_t num_buffers; /* the inputs, then the outputs */
  const int64_t *buffer_bytes;
};

int32_t tcc__context_cuda_device(const tcc_context *context);
void tcc__context_set_cuda_device(tcc_context *context, int32_t device);

/* The driver API, as cuda.h declares it (the ABI is stable). */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
#define CUDA_SUCCESS 0
#define CU_STREAM_NON_BLOCKING 1

#define CUDA_FUNCTIONS(X)                                                      \
  X(cuInit, (unsigned))                                                        \
  X(cuDeviceGetCount, (int *))                                                 \
  X(cuDeviceGet, (CUdevice *, int))                                            \
  X(cuDevicePrimaryCtxRetain, (CUcontext *, CUdevice))                         \
  X(cuCtxPushCurrent_v2, (CUcontext))                                          \
  X(cuCtxPopCurrent_v2, (CUcontext *))                                         \
  X(cuStreamCreate, (CUstream *, unsigned))                                    \
  X(cuStreamSynchronize, (CUstream))                                           \
  X(cuModuleLoadData, (CUmodule *, const void *))                              \
  X(cuModuleGetFunction, (CUfunction *, CUmodule, const char *))               \
  X(cuMemAlloc_v2, (CUdeviceptr *, size_t))                                    \
  X(cuMemcpyHtoDAsync_v2, (CUdeviceptr, const void *, size_t, CUstream))       \
  X(cuMemcpyDtoHAsync_v2, (void *, CUdeviceptr, size_t, CUstream))            \
  X(cuLaunchKernel, (CUfunction, unsigned, unsigned, unsigned, unsigned,       \
                     unsigned, unsigned, unsigned, CUstream, void **,          \
                     void **))                                                 \
  X(cuEventCreate, (CUevent *, unsigned))                                      \
  X(cuEventRecord, (CUevent, CUstream))                                        \
  X(cuEventElapsedTime, (float *, CUevent, CUevent))                           \
  X(cuPointerGetAttribute, (void *, int, CUdeviceptr))                         \
  X(cuGetErrorName, (CUresult, const char **))                                 \
  X(cuGetErrorString, (CUresult, const char **))

static struct {
#define FIELD(name, params) CUresult (*name) params;
  CUDA_FUNCTIONS(FIELD)
#undef FIELD
} cu;

/* The per-thread message of tcc_cuda_error_message. */
static __thread char error_message[512];

const char *tcc_cuda_error_message(void) { return error_message; }

static tcc_status fail(tcc_status status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(error_message, sizeof(error_message), format, args);
  va_end(args);
  return status;
}

/* What a driver call's result means: "CUDA_ERROR_X: text" (the driver's
 * own words), or its number when the driver has no name for it. */
static void describe(CUresult result, char *out, size_t size) {
  const char *name = NULL, *text = NULL;
  if (cu.cuGetErrorName && cu.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = NULL;
  if (cu.cuGetErrorString &&
      cu.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = NULL;
  if (name)
    snprintf(out, size, "%s: %s", name, text ? text : "");
  else
    snprintf(out, size, "CUDA error %d", result);
}

/* TCC_ERROR_DEVICE for a failed driver call (of `kernel`, when not null). */
static tcc_status fail_call(CUresult result, const char *call,
                            const char *kernel) {
  char what[256];
  describe(result, what, sizeof(what));
  if (kernel)
    return fail(TCC_ERROR_DEVICE, "%s (kernel %s): %s", call, kernel, what);
  return fail(TCC_ERROR_DEVICE, "%s: %s", call, what);
}

/* The driver: loaded once; `driver_status` says how that went. */
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static tcc_status driver_status;
static char driver_error[512];
static int device_count;

static void load_driver(void) {
  const char *path = getenv("TCC_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    driver_status = fail(TCC_ERROR_NO_DEVICE, "no CUDA driver: %s", dlerror());
    goto done;
  }
#define LOAD(name, params)                                                     \
  if (!(*(void **)&cu.name = dlsym(lib, #name))) {                             \
    driver_status = fail(TCC_ERROR_NO_DEVICE,                                  \
                         "no CUDA driver: %s has no %s", path, #name);         \
    goto done;                                                                 \
  }
  CUDA_FUNCTIONS(LOAD)
#undef LOAD
  CUresult r = cu.cuInit(0);
  if (r != CUDA_SUCCESS) {
    /* No GPU (CUDA_ERROR_NO_DEVICE), the toolkit's stub library, a driver
     * older than the kernels need: no device either way. */
    char what[256];
    describe(r, what, sizeof(what));
    driver_status = fail(TCC_ERROR_NO_DEVICE,
                         "no CUDA device: cuInit (%s): %s%s", path, what,
                         r == 34 ? " (the CUDA toolkit's stub library, not "
                                   "a driver)"
                                 : "");
    goto done;
  }
  if ((r = cu.cuDeviceGetCount(&device_count)) != CUDA_SUCCESS) {
    driver_status = fail_call(r, "cuDeviceGetCount", NULL);
    goto done;
  }
  driver_status = TCC_OK;
done:
  if (driver_status != TCC_OK)
    memcpy(driver_error, error_message, sizeof(driver_error));
}

/* A model's state on one GPU. */
typedef struct model_state {
  struct model_state *next;
  const tcc_cuda_image *image;
  const void *weights_host;
  CUfunction *functions;
  const char **names;
  CUdeviceptr weights;
  CUdeviceptr memory; /* the workspace, then each buffer */
  size_t *offsets;    /* of the buffers in `memory` */
  char *on_device;    /* the run's buffers that are the caller's GPU memory */
} model_state;

/* One GPU. */
typedef struct device_state {
  pthread_mutex_t mutex; /* held from tcc_cuda_begin to tcc_cuda_end */
  int mutex_ready, ready;
  CUcontext context;
  CUstream stream;
  CUevent start, stop; /* around a run's kernels */
  model_state *models;
} device_state;

#define MAX_DEVICES 64
static device_state devices[MAX_DEVICES];
static pthread_mutex_t devices_mutex = PTHREAD_MUTEX_INITIALIZER;

struct tcc_cuda_run {
  device_state *device;
  model_state *model;
  tcc_status status; /* the first failure of the run */
};
static __thread struct tcc_cuda_run current_run;
static __thread float last_kernels_ms = -1.0f;

float tcc_cuda_last_run_kernels_ms(void) { return last_kernels_ms; }

/* The driver loaded and `index` a device; a message otherwise. */
static tcc_status check_device(int32_t index) {
  pthread_once(&driver_once, load_driver);
  if (driver_status != TCC_OK)
    return fail(driver_status, "%s", driver_error);
  if (index < 0 || index >= device_count || index >= MAX_DEVICES)
    return fail(TCC_ERROR_NO_DEVICE, "no CUDA device %d (%d found)", index,
                device_count);
  return TCC_OK;
}

tcc_status tcc_context_create_cuda(int32_t device, tcc_context **context) {
  if (!context)
    return TCC_ERROR_INVALID_ARGUMENT;
  *context = NULL;
  tcc_status st = check_device(device);
  if (st != TCC_OK)
    return st;
  if ((st = tcc_context_create(1, context)) != TCC_OK)
    return st;
  tcc__context_set_cuda_device(*context, device);
  return TCC_OK;
}

static size_t align_up(size_t n) { return (n + 255) & ~(size_t)255; }

/* Makes `d` usable (retains its primary context, creates its stream). */
static tcc_status open_device(device_state *d, int32_t index) {
  if (d->ready)
    return TCC_OK;
  CUdevice dev;
  CUresult r = cu.cuDeviceGet(&dev, index);
  if (r != CUDA_SUCCESS)
    return fail_call(r, "cuDeviceGet", NULL);
  if ((r = cu.cuDevicePrimaryCtxRetain(&d->context, dev)) != CUDA_SUCCESS)
    return fail_call(r, "cuDevicePrimaryCtxRetain", NULL);
  if ((r = cu.cuCtxPushCurrent_v2(d->context)) != CUDA_SUCCESS)
    return fail_call(r, "cuCtxPushCurrent", NULL);
  const char *call = "cuStreamCreate";
  r = cu.cuStreamCreate(&d->stream, CU_STREAM_NON_BLOCKING);
  if (r == CUDA_SUCCESS && (call = "cuEventCreate",
                            r = cu.cuEventCreate(&d->start, 0)) == CUDA_SUCCESS)
    r = cu.cuEventCreate(&d->stop, 0);
  CUcontext popped;
  cu.cuCtxPopCurrent_v2(&popped);
  if (r != CUDA_SUCCESS)
    return fail_call(r, call, NULL);
  d->ready = 1;
  return TCC_OK;
}

/* The state of `image` with `weights` on `d` (current), made at the first
 * call. A failure frees nothing the driver gave (the process keeps it). */
static tcc_status open_model(device_state *d, const tcc_cuda_image *image,
                             const void *weights, model_state **out) {
  for (model_state *m = d->models; m; m = m->next)
    if (m->image == image && m->weights_host == weights) {
      *out = m;
      return TCC_OK;
    }
  if (image->version != TCC_CUDA_IMAGE_VERSION)
    return fail(TCC_ERROR_INVALID_ARGUMENT,
                "a CUDA model of image version %d; this runtime reads %d",
                image->version, TCC_CUDA_IMAGE_VERSION);
  model_state *m = calloc(1, sizeof(*m));
  size_t kernels = (size_t)(image->num_kernels > 0 ? image->num_kernels : 1);
  size_t buffers = (size_t)(image->num_buffers > 0 ? image->num_buffers : 1);
  if (!m || !(m->functions = calloc(kernels, sizeof(CUfunction))) ||
      !(m->names = calloc(kernels, sizeof(char *))) ||
      !(m->offsets = calloc(buffers, sizeof(size_t))) ||
      !(m->on_device = calloc(buffers, 1))) {
    if (m) {
      free(m->functions);
      free(m->names);
      free(m->offsets);
    }
    free(m);
    return fail(TCC_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  m->image = image;
  m->weights_host = weights;
  tcc_status st = TCC_OK;
  CUresult r;
  if (image->num_kernels > 0) {
    CUmodule module;
    if ((r = cu.cuModuleLoadData(&module, image->binary)) != CUDA_SUCCESS) {
      st = fail_call(r, "cuModuleLoadData", NULL);
      goto failed;
    }
    const char *name = image->kernel_names;
    for (int32_t k = 0; k < image->num_kernels; ++k) {
      m->names[k] = name;
      if ((r = cu.cuModuleGetFunction(&m->functions[k], module, name)) !=
          CUDA_SUCCESS) {
        st = fail_call(r, "cuModuleGetFunction", name);
        goto failed;
      }
      name += strlen(name) + 1;
    }
  }
  size_t bytes = align_up((size_t)image->workspace_bytes);
  for (int32_t i = 0; i < image->num_buffers; ++i) {
    m->offsets[i] = bytes;
    bytes += align_up((size_t)image->buffer_bytes[i]);
  }
  if ((r = cu.cuMemAlloc_v2(&m->memory, bytes ? bytes : 256)) !=
      CUDA_SUCCESS) {
    st = fail_call(r, "cuMemAlloc", NULL);
    goto failed;
  }
  if (image->weights_bytes > 0) {
    if ((r = cu.cuMemAlloc_v2(&m->weights, (size_t)image->weights_bytes)) !=
        CUDA_SUCCESS) {
      st = fail_call(r, "cuMemAlloc", NULL);
      goto failed;
    }
    if ((r = cu.cuMemcpyHtoDAsync_v2(m->weights, weights,
                                     (size_t)image->weights_bytes,
                                     d->stream)) != CUDA_SUCCESS ||
        (r = cu.cuStreamSynchronize(d->stream)) != CUDA_SUCCESS) {
      st = fail_call(r, "copying the weights to the GPU", NULL);
      goto failed;
    }
  }
  m->next = d->models;
  d->models = m;
  *out = m;
  return TCC_OK;
failed:
  free(m->functions);
  free(m->names);
  free(m->offsets);
  free(m->on_device);
  free(m);
  return st;
}

/* Whether `p` is GPU memory (cuMemAlloc, cudaMalloc, managed memory): 1 on
 * GPU `index`, -1 on another GPU, 0 for host memory. */
static int device_memory(const void *p, int32_t index) {
  enum { kMemoryType = 2, kDeviceOrdinal = 9, kMemoryTypeDevice = 2 };
  unsigned type = 0;
  int ordinal = -1;
  if (!p ||
      cu.cuPointerGetAttribute(&type, kMemoryType, (CUdeviceptr)(uintptr_t)p) !=
          CUDA_SUCCESS ||
      type != kMemoryTypeDevice)
    return 0;
  if (cu.cuPointerGetAttribute(&ordinal, kDeviceOrdinal,
                               (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS)
    return 1; /* unknown: take it as the model's GPU's */
  return ordinal == index ? 1 : -1;
}

tcc_status tcc_cuda_begin(tcc_context *context, const tcc_cuda_image *image,
                          const void *weights, void *const *host_buffers,
                          void **device_buffers, tcc_cuda_run **run) {
  error_message[0] = '\0';
  int32_t index = tcc__context_cuda_device(context);
  tcc_status st = check_device(index);
  if (st != TCC_OK)
    return st;
  if (!weights)
    weights = image->weights;
  if (image->weights_bytes > 0 && !weights)
    return fail(TCC_ERROR_INVALID_ARGUMENT, "no weights");
  device_state *d = &devices[index];
  pthread_mutex_lock(&devices_mutex);
  if (!d->mutex_ready) {
    pthread_mutex_init(&d->mutex, NULL);
    d->mutex_ready = 1;
  }
  st = open_device(d, index);
  pthread_mutex_unlock(&devices_mutex);
  if (st != TCC_OK)
    return st;

  pthread_mutex_lock(&d->mutex);
  CUresult r = cu.cuCtxPushCurrent_v2(d->context);
  if (r != CUDA_SUCCESS) {
    pthread_mutex_unlock(&d->mutex);
    return fail_call(r, "cuCtxPushCurrent", NULL);
  }
  model_state *m = NULL;
  st = open_model(d, image, weights, &m);
  /* The caller's GPU memory is used in place, host memory copied. */
  for (int32_t i = 0; st == TCC_OK && i < image->num_buffers; ++i) {
    int where = device_memory(host_buffers[i], index);
    if (where < 0)
      st = fail(TCC_ERROR_INVALID_ARGUMENT,
                "buffer %d is the memory of another GPU than %d, where the "
                "model runs",
                i, index);
    m->on_device[i] = where > 0;
  }
  for (int32_t i = 0; st == TCC_OK && i < image->num_inputs; ++i) {
    CUdeviceptr dst = m->memory + m->offsets[i];
    if (image->buffer_bytes[i] > 0 && !m->on_device[i] &&
        (r = cu.cuMemcpyHtoDAsync_v2(dst, host_buffers[i],
                                     (size_t)image->buffer_bytes[i],
                                     d->stream)) != CUDA_SUCCESS)
      st = fail_call(r, "copying an input to the GPU", NULL);
  }
  if (st == TCC_OK && (r = cu.cuEventRecord(d->start, d->stream)) != CUDA_SUCCESS)
    st = fail_call(r, "cuEventRecord", NULL);
  if (st != TCC_OK) {
    CUcontext popped;
    cu.cuCtxPopCurrent_v2(&popped);
    pthread_mutex_unlock(&d->mutex);
    return st;
  }
  device_buffers[0] = (void *)(uintptr_t)m->weights;
  for (int32_t i = 0; i < image->num_buffers; ++i)
    device_buffers[1 + i] = m->on_device[i]
                                ? host_buffers[i]
                                : (void *)(uintptr_t)(m->memory + m->offsets[i]);
  device_buffers[1 + image->num_buffers] = (void *)(uintptr_t)m->memory;
  /* One run per thread at a time: the host code runs on the caller. */
  current_run.device = d;
  current_run.model = m;
  current_run.status = TCC_OK;
  *run = &current_run;
  return TCC_OK;
}

void tcc_cuda_launch(tcc_cuda_run *run, int32_t kernel, int64_t grid_x,
                     int64_t grid_y, int64_t grid_z, int64_t block_x,
                     int64_t block_y, int64_t block_z, int32_t shared_bytes,
                     void **params) {
  if (run->status != TCC_OK)
    return;
  const tcc_cuda_image *image = run->model->image;
  if (kernel < 0 || kernel >= image->num_kernels) {
    run->status = fail(TCC_ERROR_INTERNAL, "no kernel %d", kernel);
    return;
  }
  const char *name = run->model->names[kernel];
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0 || block_x <= 0 ||
      block_y <= 0 || block_z <= 0)
    return; /* no work */
  if (grid_x > 0x7fffffff || grid_y > 65535 || grid_z > 65535 ||
      block_x * block_y * block_z > 1024) {
    run->status = fail(TCC_ERROR_DEVICE,
                       "kernel %s: a grid of %lld x %lld x %lld blocks of "
                       "%lld x %lld x %lld threads is beyond CUDA's limits",
                       name, (long long)grid_x, (long long)grid_y,
                       (long long)grid_z, (long long)block_x,
                       (long long)block_y, (long long)block_z);
    return;
  }
  CUresult r = cu.cuLaunchKernel(
      run->model->functions[kernel], (unsigned)grid_x, (unsigned)grid_y,
      (unsigned)grid_z, (unsigned)block_x, (unsigned)block_y,
      (unsigned)block_z, (unsigned)shared_bytes, run->device->stream, params,
      NULL);
  if (r != CUDA_SUCCESS)
    run->status = fail_call(r, "cuLaunchKernel", name);
}

void tcc_cuda_read(tcc_cuda_run *run, void *dst, const void *device,
                   int64_t bytes) {
  memset(dst, 0, (size_t)bytes);
  if (run->status != TCC_OK || bytes <= 0)
    return;
  CUresult r = cu.cuMemcpyDtoHAsync_v2(dst, (CUdeviceptr)(uintptr_t)device,
                                       (size_t)bytes, run->device->stream);
  if (r == CUDA_SUCCESS)
    r = cu.cuStreamSynchronize(run->device->stream);
  if (r != CUDA_SUCCESS) {
    memset(dst, 0, (size_t)bytes);
    run->status = fail_call(r, "reading an If's condition from the GPU", NULL);
  }
}

tcc_status tcc_cuda_end(tcc_cuda_run *run, void *const *host_buffers) {
  device_state *d = run->device;
  model_state *m = run->model;
  const tcc_cuda_image *image = m->image;
  tcc_status st = run->status;
  CUresult r;
  int timed = st == TCC_OK &&
              cu.cuEventRecord(d->stop, d->stream) == CUDA_SUCCESS;
  for (int32_t i = image->num_inputs; st == TCC_OK && i < image->num_buffers;
       ++i)
    if (image->buffer_bytes[i] > 0 && !m->on_device[i] &&
        (r = cu.cuMemcpyDtoHAsync_v2(host_buffers[i], m->memory + m->offsets[i],
                                     (size_t)image->buffer_bytes[i],
                                     d->stream)) != CUDA_SUCCESS)
      st = fail_call(r, "copying an output from the GPU", NULL);
  /* Always wait: nothing may still use the buffers once this returns. */
  if ((r = cu.cuStreamSynchronize(d->stream)) != CUDA_SUCCESS && st == TCC_OK)
    st = fail_call(r, "cuStreamSynchronize (the kernels' run)", NULL);
  float ms = -1.0f;
  if (st != TCC_OK || !timed ||
      cu.cuEventElapsedTime(&ms, d->start, d->stop) != CUDA_SUCCESS)
    ms = -1.0f;
  last_kernels_ms = ms;
  CUcontext popped;
  cu.cuCtxPopCurrent_v2(&popped);
  run->device = NULL;
  run->model = NULL;
  pthread_mutex_unlock(&d->mutex);
  return st;
}
