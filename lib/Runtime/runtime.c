/* runtime.c - libtccrt: status strings, dtype helpers, workspace memory, checked calls and the
 * thread pool of contexts (see tcc/runtime.h). */
#define _GNU_SOURCE /* sched_setaffinity and the CPU_* macros */
#include "tcc/runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
  case TCC_ERROR_IO:
    return "a file cannot be opened, read or mapped";
  case TCC_ERROR_NO_DEVICE:
    return "no CUDA driver or device (tcc_cuda_error_message says which)";
  case TCC_ERROR_DEVICE:
    return "a CUDA call failed (tcc_cuda_error_message says which)";
  case TCC_ERROR_BRANCH:
    return "the run selected a branch tcc did not compile "
           "(tcc_run_error_message says which)";
  case TCC_ERROR_CPU:
    return "the model was compiled for another CPU "
           "(tcc_run_error_message says what differs)";
  }
  return "unknown status";
}

/* The first failed branch check of the run going on on this thread, and the
 * message of the last run that failed: thread-specific data rather than
 * __thread, so that any number of model libraries may be dlopened. An
 * initial-exec TLS variable takes glibc's small static reserve, which a
 * process that has loaded PyTorch has nearly used up (the third model then
 * fails to load); the other TLS models need ld.so's __tls_get_addr. Should
 * the keys be unavailable (PTHREAD_KEYS_MAX), process-wide variables stand
 * in for them. */
static pthread_key_t failed_check_key, last_error_key;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;
static int have_keys;
static const char *failed_check_shared, *last_error_shared;

static void make_keys(void) {
  have_keys = pthread_key_create(&failed_check_key, NULL) == 0;
  if (have_keys && pthread_key_create(&last_error_key, NULL) != 0) {
    pthread_key_delete(failed_check_key);
    have_keys = 0;
  }
}

static const char *get_message(pthread_key_t key, const char *shared) {
  return have_keys ? (const char *)pthread_getspecific(key) : shared;
}

static void set_message(pthread_key_t key, const char **shared,
                        const char *message) {
  if (have_keys)
    pthread_setspecific(key, message);
  else
    *shared = message;
}

void tcc_branch_check(int32_t ok, const char *message) {
  if (ok)
    return;
  pthread_once(&keys_once, make_keys);
  if (!get_message(failed_check_key, failed_check_shared))
    set_message(failed_check_key, &failed_check_shared, message);
}

tcc_status tcc_run_status(void) {
  pthread_once(&keys_once, make_keys);
  const char *failed = get_message(failed_check_key, failed_check_shared);
  if (!failed)
    return TCC_OK;
  set_message(last_error_key, &last_error_shared, failed);
  set_message(failed_check_key, &failed_check_shared, NULL);
  return TCC_ERROR_BRANCH;
}

/* This CPU's SVE vector length in bits, 0 without SVE. */
static int64_t sve_bits(void) {
#if defined(__aarch64__) && defined(__linux__)
  /* PR_SVE_GET_VL (<linux/prctl.h>): the length in bytes in the low 16
   * bits, or -1 (EINVAL) without SVE. */
  int vl = prctl(51, 0, 0, 0, 0);
  return vl < 0 ? 0 : (int64_t)(vl & 0xffff) * 8;
#else
  return 0;
#endif
}

static char sve_message[160];
static int64_t sve_message_bits = -1;
static pthread_mutex_t sve_message_lock = PTHREAD_MUTEX_INITIALIZER;

tcc_status tcc_check_sve_bits(int64_t bits) {
  int64_t have = sve_bits();
  if (have == bits)
    return TCC_OK;
  pthread_mutex_lock(&sve_message_lock);
  if (sve_message_bits != bits) {
    if (have)
      snprintf(sve_message, sizeof sve_message,
               "the model's code is for %lld-bit SVE vectors; this CPU's "
               "are %lld-bit (compile it with this CPU's --mcpu)",
               (long long)bits, (long long)have);
    else
      snprintf(sve_message, sizeof sve_message,
               "the model's code is for %lld-bit SVE vectors; this CPU has "
               "no SVE (compile it with this CPU's --mcpu)",
               (long long)bits);
    sve_message_bits = bits;
  }
  pthread_mutex_unlock(&sve_message_lock);
  pthread_once(&keys_once, make_keys);
  set_message(last_error_key, &last_error_shared, sve_message);
  return TCC_ERROR_CPU;
}

const char *tcc_run_error_message(void) {
  pthread_once(&keys_once, make_keys);
  const char *message = get_message(last_error_key, last_error_shared);
  return message ? message : "";
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

enum { kHugePageBytes = 2 << 20 };

void *tcc_workspace_alloc(size_t size) {
  void *p = NULL;
  /* Round up to a whole number of alignment units; never ask for 0 bytes. */
  size_t rounded = (size + TCC_WORKSPACE_ALIGNMENT - 1) &
                   ~(size_t)(TCC_WORKSPACE_ALIGNMENT - 1);
  if (rounded < size) /* overflow */
    return NULL;
  if (rounded == 0)
    rounded = TCC_WORKSPACE_ALIGNMENT;
  /* A workspace of a huge page or more is aligned to one and, on Linux,
   * advised to be backed by huge pages where transparent huge pages are
   * enabled only on request (the default of many distributions): with 4 KB
   * pages, a run after other work takes a TLB miss and a page walk from
   * memory every 4 KB of its activations. */
  size_t alignment = rounded >= kHugePageBytes ? kHugePageBytes
                                               : TCC_WORKSPACE_ALIGNMENT;
  if (posix_memalign(&p, alignment, rounded) != 0)
    return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (alignment == kHugePageBytes)
    madvise(p, rounded & ~(kHugePageBytes - 1), MADV_HUGEPAGE);
#endif
  return p;
}

void tcc_workspace_free(void *workspace) { free(workspace); }

/*===----------------------------------------------------------------------===
 * Weights files (tcc compile --weights file): a 64-byte header, then the
 * weights, each at a 64-byte aligned offset. The header holds the magic
 * "TCCWGHT1", the header's size (64, u32) and a zero u32, the weights'
 * bytes (u64) and their FNV-1a fingerprint (u64), little-endian as tcc
 * writes them (read here in the host's order: little-endian hosts only);
 * the generated code knows both numbers and refuses other files.
 *===----------------------------------------------------------------------===*/

enum { kWeightsHeaderBytes = 64 };
static const char kWeightsMagic[8] = {'T', 'C', 'C', 'W', 'G', 'H', 'T', '1'};

struct tcc_weights {
  void *map; /* the file mapped, or null for the caller's bytes */
  size_t map_bytes;
  const void *data;
  uint64_t bytes, fingerprint;
};

/* Writes the message of a failed call into `error` (when not null);
 * returns `status`. */
static tcc_status vfail(tcc_status status, tcc_error *error,
                        const char *format, va_list args) {
  if (error)
    vsnprintf(error->message, sizeof(error->message), format, args);
  return status;
}

static tcc_status fail_with(tcc_status status, tcc_error *error,
                            const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfail(status, error, format, args);
  va_end(args);
  return status;
}

/* The message of a failed check; returns TCC_ERROR_INVALID_ARGUMENT. */
static tcc_status invalid(tcc_error *error, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfail(TCC_ERROR_INVALID_ARGUMENT, error, format, args);
  va_end(args);
  return TCC_ERROR_INVALID_ARGUMENT;
}

tcc_status tcc_weights_open(const char *path, uint64_t bytes,
                            uint64_t fingerprint, tcc_weights **weights,
                            tcc_error *error) {
  if (!weights)
    return invalid(error, "tcc_weights_open: `weights` is null");
  *weights = NULL;
  if (!path)
    return invalid(error, "tcc_weights_open: `path` is null");
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail_with(TCC_ERROR_IO, error, "cannot open the weights file '%s': %s",
                     path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return fail_with(TCC_ERROR_IO, error, "cannot read '%s': %s", path,
                     strerror(e));
  }
  uint64_t want = kWeightsHeaderBytes + bytes;
  if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != want) {
    close(fd);
    return invalid(error,
                   "'%s' is %s%lld bytes; the model's weights file is %llu "
                   "bytes (the file of another model, or cut short?)",
                   path, S_ISREG(st.st_mode) ? "" : "not a file, ",
                   (long long)st.st_size, (unsigned long long)want);
  }
  if ((uint64_t)(size_t)want != want) {
    close(fd);
    return fail_with(TCC_ERROR_IO, error, "'%s' is too large to map", path);
  }
  void *map = mmap(NULL, (size_t)want, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  close(fd);
  if (map == MAP_FAILED)
    return fail_with(TCC_ERROR_IO, error, "cannot map '%s': %s", path,
                     strerror(e));
  const unsigned char *h = map;
  uint32_t header_bytes;
  uint64_t got_bytes, got_fingerprint;
  memcpy(&header_bytes, h + 8, sizeof(header_bytes));
  memcpy(&got_bytes, h + 16, sizeof(got_bytes));
  memcpy(&got_fingerprint, h + 24, sizeof(got_fingerprint));
  tcc_status status = TCC_OK;
  if (memcmp(h, kWeightsMagic, sizeof(kWeightsMagic)) != 0 ||
      header_bytes != kWeightsHeaderBytes)
    status = invalid(error, "'%s' is not a tcc weights file", path);
  else if (got_bytes != bytes || got_fingerprint != fingerprint)
    status = invalid(error,
                     "'%s' holds the weights of another model (fingerprint "
                     "%016llx, the model takes %016llx)",
                     path, (unsigned long long)got_fingerprint,
                     (unsigned long long)fingerprint);
  tcc_weights *w = status == TCC_OK ? malloc(sizeof(*w)) : NULL;
  if (status == TCC_OK && !w)
    status = fail_with(TCC_ERROR_OUT_OF_MEMORY, error, "out of memory");
  if (status != TCC_OK) {
    munmap(map, (size_t)want);
    return status;
  }
  w->map = map;
  w->map_bytes = (size_t)want;
  w->data = (const char *)map + kWeightsHeaderBytes;
  w->bytes = bytes;
  w->fingerprint = fingerprint;
  *weights = w;
  return TCC_OK;
}

tcc_status tcc_weights_wrap(const void *data, uint64_t bytes,
                            uint64_t fingerprint, tcc_weights **weights) {
  if (!weights)
    return TCC_ERROR_INVALID_ARGUMENT;
  *weights = NULL;
  if (!data || (uintptr_t)data % 64 != 0)
    return TCC_ERROR_INVALID_ARGUMENT;
  tcc_weights *w = calloc(1, sizeof(*w));
  if (!w)
    return TCC_ERROR_OUT_OF_MEMORY;
  w->data = data;
  w->bytes = bytes;
  w->fingerprint = fingerprint;
  *weights = w;
  return TCC_OK;
}

void tcc_weights_close(tcc_weights *weights) {
  if (!weights)
    return;
  if (weights->map)
    munmap(weights->map, weights->map_bytes);
  free(weights);
}

const void *tcc_weights_bind(const tcc_weights *weights, uint64_t bytes,
                             uint64_t fingerprint) {
  if (!weights || weights->bytes != bytes ||
      weights->fingerprint != fingerprint)
    return NULL;
  return weights->data;
}

/* The batch of a call to a model with a run-time batch dim: dim 0 of its
 * first batched tensor over the tensor's batch_multiple (1 for a model
 * without one). check_tensor checks the other tensors against it. */
static tcc_status find_batch(const tcc_model_info *info,
                             const tcc_tensor *inputs, const tcc_tensor *outputs,
                             int64_t *batch, tcc_error *error) {
  *batch = 1;
  if (!info->batch_dim)
    return TCC_OK;
  for (int32_t i = 0; i < info->num_inputs + info->num_outputs; ++i) {
    int is_input = i < info->num_inputs;
    const tcc_tensor_info *want =
        is_input ? &info->inputs[i] : &info->outputs[i - info->num_inputs];
    const tcc_tensor *got = is_input ? &inputs[i] : &outputs[i - info->num_inputs];
    if (!want->batch_multiple || got->rank != want->rank || got->rank < 1 ||
        !got->dims)
      continue; /* check_tensor says what is wrong */
    int64_t k = want->batch_multiple, rows = got->dims[0];
    if (rows < 0 || rows % k)
      return invalid(error,
                     "%s '%s': dim 0 ('%s') is %lld, not a multiple of %lld "
                     "(the rows of one sample)",
                     is_input ? "input" : "output", want->name, info->batch_dim,
                     (long long)rows, (long long)k);
    *batch = rows / k;
    return TCC_OK;
  }
  return TCC_OK;
}

static size_t sample_bytes(const tcc_tensor_info *t, const int64_t *dims);

/* Checks one tensor against its signature (dim 0 of a batched tensor
 * against `batch` samples). */
static tcc_status check_tensor(const char *what, const tcc_model_info *info,
                               const tcc_tensor_info *want,
                               const tcc_tensor *got, int64_t batch,
                               tcc_error *error) {
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
    if (d == 0 && want->batch_multiple) {
      int64_t rows = batch * want->batch_multiple;
      if (got->dims[0] == rows)
        continue;
      return invalid(error,
                     "%s '%s': dim 0 ('%s') is %lld; the tensors before it "
                     "give %s=%lld, so %lld rows",
                     what, want->name, info->batch_dim,
                     (long long)got->dims[0], info->batch_dim,
                     (long long)batch, (long long)rows);
    }
    if (got->dims[d] == want->dims[d])
      continue;
    if ((want->run_time_dims >> d & 1) && strcmp(what, "input") == 0)
      continue; /* bounded_input_dims checks it */
    if (want->run_time_dims >> d & 1)
      return invalid(error,
                     "%s '%s': dim %d is %lld; it is known only after the "
                     "run, so pass its bound, %lld, and a buffer for it",
                     what, want->name, (int)d, (long long)got->dims[d],
                     (long long)want->dims[d]);
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
  /* The batch's bytes, which the run steps through, must fit an address. */
  if (want->batch_multiple && batch > 0 &&
      sample_bytes(want, got->dims) > (size_t)PTRDIFF_MAX / (size_t)batch)
    return invalid(error,
                   "%s '%s': dim 0 ('%s') is %lld; %lld samples of it would "
                   "be more bytes than an address can span",
                   what, want->name, info->batch_dim, (long long)got->dims[0],
                   (long long)batch);
  return TCC_OK;
}

/* The input dims that vary up to a bound, input by input, into `values`
 * (`*count` of them): each from 1 to its bound, all one value. */
static tcc_status bounded_input_dims(const tcc_model_info *info,
                                     const tcc_tensor *inputs, int64_t *values,
                                     int32_t capacity, int32_t *count,
                                     tcc_error *error) {
  *count = 0;
  for (int32_t i = 0; i < info->num_inputs; ++i) {
    const tcc_tensor_info *want = &info->inputs[i];
    for (int32_t d = 0; want->run_time_dims && d < want->rank; ++d) {
      if (!(want->run_time_dims >> d & 1))
        continue;
      int64_t v = inputs[i].dims[d];
      const char *name = info->bounded_dim ? info->bounded_dim : "?";
      if (v < 1 || v > want->dims[d])
        return invalid(error,
                       "input '%s': dim %d ('%s') is %lld; the model takes 1 "
                       "to %lld (tcc compile --max-dim %s=%lld)",
                       want->name, (int)d, name, (long long)v,
                       (long long)want->dims[d], name, (long long)want->dims[d]);
      if (*count > 0 && v != values[0])
        return invalid(error,
                       "input '%s': dim %d ('%s') is %lld; the inputs before "
                       "it give %s=%lld",
                       want->name, (int)d, name, (long long)v, name,
                       (long long)values[0]);
      if (*count == capacity)
        return invalid(error, "%s: too many run-time input dims", info->name);
      values[(*count)++] = v;
    }
  }
  return TCC_OK;
}

/* Bytes of one sample of a tensor with dims `dims` whose dim 0 is
 * t->batch_multiple x the batch (0 for a tensor that holds all samples'
 * one value). */
static size_t sample_bytes(const tcc_tensor_info *t, const int64_t *dims) {
  size_t n = (size_t)t->batch_multiple * tcc_dtype_size(t->dtype);
  for (int32_t d = 1; n && d < t->rank; ++d)
    n *= (size_t)dims[d];
  return n;
}

/* tcc_run_tensors*: `run`, `run_ctx` or `run_weights` is called. */
static tcc_status run_tensors(const tcc_model_info *info, tcc_run_packed_fn run,
                              tcc_run_packed_ctx_fn run_ctx,
                              tcc_run_packed_weights_fn run_weights,
                              tcc_context *context, const tcc_weights *weights,
                              const tcc_tensor *inputs,
                              int32_t num_inputs, tcc_tensor *outputs,
                              int32_t num_outputs, void *workspace,
                              size_t workspace_bytes, tcc_error *error) {
  if (!info || (!run && !run_ctx && !run_weights))
    return invalid(error, "no model (info or entry point is null)");
  if (run_weights && !weights)
    return invalid(error, "%s: the weights are null (open them with %s_weights_open)",
                   info->name, info->name);
  if (run_weights && !tcc_weights_bind(weights, info->weights_bytes,
                                       info->weights_fingerprint))
    return invalid(error, "%s: these weights belong to another model "
                   "(%llu bytes, fingerprint %016llx; %s takes %llu bytes, %016llx)",
                   info->name, (unsigned long long)weights->bytes,
                   (unsigned long long)weights->fingerprint, info->name,
                   (unsigned long long)info->weights_bytes,
                   (unsigned long long)info->weights_fingerprint);
  if (num_inputs != info->num_inputs || (num_inputs > 0 && !inputs))
    return invalid(error, "%s takes %d inputs, got %d%s", info->name,
                   (int)info->num_inputs, (int)num_inputs,
                   num_inputs > 0 && !inputs ? " (a null array)" : "");
  if (num_outputs != info->num_outputs || (num_outputs > 0 && !outputs))
    return invalid(error, "%s gives %d outputs, got %d%s", info->name,
                   (int)info->num_outputs, (int)num_outputs,
                   num_outputs > 0 && !outputs ? " (a null array)" : "");
  int64_t batch;
  tcc_status found = find_batch(info, inputs, outputs, &batch, error);
  if (found != TCC_OK)
    return found;
  for (int32_t i = 0; i < num_inputs; ++i) {
    tcc_status st = check_tensor("input", info, &info->inputs[i], &inputs[i],
                                 batch, error);
    if (st != TCC_OK)
      return st;
  }
  for (int32_t i = 0; i < num_outputs; ++i) {
    tcc_status st = check_tensor("output", info, &info->outputs[i],
                                 &outputs[i], batch, error);
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
  /* Output dims known only after the run come back in one more output. */
  int32_t num_run_time_dims = 0;
  for (int32_t i = 0; i < num_outputs; ++i) {
    uint32_t mask = info->outputs[i].run_time_dims;
    if (!mask)
      continue;
    if (!outputs[i].result_dims)
      return invalid(error,
                     "output '%s': some dims are known only after the run; "
                     "result_dims is null",
                     info->outputs[i].name);
    for (; mask; mask &= mask - 1)
      ++num_run_time_dims;
  }
  if (num_run_time_dims > 0 && info->batch_dim && !info->bounded_dim)
    return invalid(error, "%s: a run-time batch and run-time output dims",
                   info->name); /* a NonZero's count differs between samples */
  if (num_run_time_dims > 0 && batch == 0)
    return invalid(error,
                   "%s: a batch of 0: the dims of the outputs that follow '%s' "
                   "come from a sample's run; pass one sample or more",
                   info->name, info->bounded_dim);
  /* The packed call takes arrays of data pointers. */
  enum { kMaxOnStack = 64 };
  /* Input dims that vary up to a bound come in one more input. */
  int64_t input_dims[kMaxOnStack];
  int32_t num_input_dims = 0;
  tcc_status checked = bounded_input_dims(info, inputs, input_dims, kMaxOnStack,
                                          &num_input_dims, error);
  if (checked != TCC_OK)
    return checked;
  const void *in_stack[kMaxOnStack + 1];
  void *out_stack[kMaxOnStack + 1];
  int64_t dims_stack[kMaxOnStack];
  const void **in = num_inputs <= kMaxOnStack
                        ? in_stack
                        : malloc(sizeof(void *) * ((size_t)num_inputs + 1));
  void **out = num_outputs <= kMaxOnStack
                   ? out_stack
                   : malloc(sizeof(void *) * ((size_t)num_outputs + 1));
  int64_t *run_time_dims =
      num_run_time_dims <= kMaxOnStack
          ? dims_stack
          : malloc(sizeof(int64_t) * (size_t)num_run_time_dims);
  tcc_status st =
      in && out && run_time_dims ? TCC_OK : TCC_ERROR_OUT_OF_MEMORY;
  if (out)
    out[num_outputs] = run_time_dims;
  if (in)
    in[num_inputs] = input_dims;
  /* One call per sample, at the sample's data: the samples of an output
   * with run-time dims (which are the same in every sample: they follow
   * the bounded dim) are packed in their actual dims, the first sample's. */
  for (int64_t b = 0; st == TCC_OK && b < batch; ++b) {
    for (int32_t i = 0; i < num_inputs; ++i)
      in[i] = (const char *)inputs[i].data +
              b * sample_bytes(&info->inputs[i], inputs[i].dims);
    for (int32_t i = 0; i < num_outputs; ++i)
      out[i] = (char *)outputs[i].data +
               (b ? b * sample_bytes(&info->outputs[i],
                                     info->outputs[i].run_time_dims
                                         ? outputs[i].result_dims
                                         : outputs[i].dims)
                  : 0);
    st = run       ? run(in, out, workspace)
         : run_ctx ? run_ctx(context, in, out, workspace)
                   : run_weights(context, weights, in, out, workspace);
    /* The actual dims of the outputs with run-time dims. */
    for (int32_t i = 0, next = 0; b == 0 && st == TCC_OK && i < num_outputs;
         ++i) {
      const tcc_tensor_info *want = &info->outputs[i];
      for (int32_t d = 0; want->run_time_dims && d < want->rank; ++d)
        outputs[i].result_dims[d] = want->run_time_dims >> d & 1
                                        ? run_time_dims[next++]
                                        : outputs[i].dims[d];
    }
  }
  if (in != in_stack)
    free((void *)in);
  if (out != out_stack)
    free(out);
  if (run_time_dims != dims_stack)
    free(run_time_dims);
  if (st == TCC_ERROR_OUT_OF_MEMORY)
    invalid(error, "out of memory");
  else if (st == TCC_ERROR_BRANCH)
    invalid(error, "%s", tcc_run_error_message());
  else if (st != TCC_OK)
    invalid(error, "%s", tcc_status_string(st));
  return st;
}

tcc_status tcc_run_tensors(const tcc_model_info *info, tcc_run_packed_fn run,
                           const tcc_tensor *inputs, int32_t num_inputs,
                           tcc_tensor *outputs, int32_t num_outputs,
                           void *workspace, size_t workspace_bytes,
                           tcc_error *error) {
  return run_tensors(info, run, NULL, NULL, NULL, NULL, inputs, num_inputs,
                     outputs, num_outputs, workspace, workspace_bytes, error);
}

tcc_status tcc_run_tensors_ctx(tcc_context *context, const tcc_model_info *info,
                               tcc_run_packed_ctx_fn run,
                               const tcc_tensor *inputs, int32_t num_inputs,
                               tcc_tensor *outputs, int32_t num_outputs,
                               void *workspace, size_t workspace_bytes,
                               tcc_error *error) {
  return run_tensors(info, NULL, run, NULL, context, NULL, inputs, num_inputs,
                     outputs, num_outputs, workspace, workspace_bytes, error);
}

tcc_status tcc_run_tensors_weights(tcc_context *context,
                                   const tcc_weights *weights,
                                   const tcc_model_info *info,
                                   tcc_run_packed_weights_fn run,
                                   const tcc_tensor *inputs, int32_t num_inputs,
                                   tcc_tensor *outputs, int32_t num_outputs,
                                   void *workspace, size_t workspace_bytes,
                                   tcc_error *error) {
  if (!run)
    return invalid(error, "no model (info or entry point is null)");
  return run_tensors(info, NULL, NULL, run, context, weights, inputs,
                     num_inputs, outputs, num_outputs, workspace,
                     workspace_bytes, error);
}

/*===----------------------------------------------------------------------===
 * Contexts: a pool of worker threads that generated code splits its
 * parallel loops over (tcc_parallel_for).
 *
 * A call hands out a job by bumping `generation`. Its iterations are split
 * statically: thread t owns the t-th of num_threads equal contiguous ranges
 * and runs it front to back, so consecutive kernels that split the same
 * loop alike find what the one before wrote in their own core's cache
 * (ResNet-50 at 2 threads: 33.4 -> 30.9 ms against chunks handed out as
 * threads came free). A thread done with its range takes the others' last
 * iterations, one at a time from the back, so a worker that wakes late
 * leaves its part to the others. Each iteration is computed the same
 * whichever thread takes it, so results do not depend on the thread count.
 * Threads spin a while before sleeping, since a model run dispatches one
 * job per kernel, microseconds apart. One context serves one parallel loop
 * at a time (`dispatch` serializes callers that share it).
 *
 * Where the creating thread may run on at least as many CPUs as the context
 * has threads (and TCC_BIND_THREADS is not "0"), each worker is bound to a
 * CPU of its own and the caller, for the length of a run (tcc_run_begin /
 * tcc_run_end), to the one left. Unbound, a thread woken after an idle
 * spell can land on the CPU of the one that woke it, and the two then share
 * one CPU until the scheduler moves one of them: in a VM that took a 2-thread
 * MobileNetV2 run from 5 to 8-9 ms.
 *===----------------------------------------------------------------------===*/

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* How long a thread waiting for work (or for its helpers) spins before it
 * sleeps: a model run dispatches its kernels microseconds apart, and a
 * sleeping thread takes tens of microseconds to wake (more in a VM, whose
 * idle vCPU the host deschedules). A count of pause instructions is no
 * clock: one takes 8 cycles on some CPUs and 140 on others. */
#ifndef TCC_SPIN_NANOSECONDS
#define TCC_SPIN_NANOSECONDS 2000000
#endif

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Whether a waiter that began spinning at *start (0: not yet) should go on
 * spinning; pauses between looks at the clock. */
static int keep_spinning(int64_t *start, int *spins) {
  cpu_relax();
  if (++*spins % 64)
    return 1;
  int64_t t = now_ns();
  if (!*start)
    *start = t;
  return t - *start < TCC_SPIN_NANOSECONDS;
}

/* A thread's range of blocks still to take, in one word: kJobBits of the
 * job's generation, then the next block and the end (kBlockBits each). The
 * owner takes the next block, the others the last one, each with a
 * compare-and-swap, so a thread knows from the word alone that the job is
 * still the one it woke for and which block is its. One cache line each:
 * the owner's takes do not contend with the other owners'. */
typedef struct range_slot {
  _Alignas(64) atomic_uint_fast64_t word;
} range_slot;

struct tcc_context {
  int32_t num_threads; /* the caller included */
  pthread_t *workers;  /* num_threads - 1 */
  /* The CPU of each thread (the caller's first), or null: threads unbound. */
  int32_t *cpus;
  int32_t started;     /* workers created */
  pthread_mutex_t dispatch;
  pthread_mutex_t mutex; /* guards the sleeps on `wake` and `done` */
  pthread_cond_t wake, done;
  /* The current job: fn over [0, n) in blocks of `block` iterations. */
  tcc_parallel_fn fn;
  void *args;
  int64_t n, block;
  /* Bumped for each job (and the stop): what sleeping workers wait for. */
  atomic_uint_fast64_t generation;
  /* Each thread's range of the job's blocks still to take (num_threads). */
  range_slot *ranges;
  /* Threads between announcing themselves and finishing their block: the
   * caller returns once the blocks are all taken and this is 0. */
  atomic_int active;
  atomic_int stop;
  /* The GPU models compiled with --target cuda run on (0 by default). */
  int32_t cuda_device;
};

/* For lib/Runtime/cuda.c, which sees the context as opaque. */
int32_t tcc__context_cuda_device(const tcc_context *context) {
  return context ? context->cuda_device : 0;
}
void tcc__context_set_cuda_device(tcc_context *context, int32_t device) {
  context->cuda_device = device;
}

typedef struct worker_start {
  tcc_context *context;
  int32_t index;
} worker_start;


enum { kJobBits = 16, kBlockBits = 24 };
#define TCC_JOB_MASK ((UINT64_C(1) << kJobBits) - 1)
#define TCC_BLOCK_MASK ((UINT64_C(1) << kBlockBits) - 1)

static uint64_t make_range(uint64_t job, uint64_t next, uint64_t end) {
  return (job & TCC_JOB_MASK) << (2 * kBlockBits) | next << kBlockBits | end;
}

/* Takes a block of job `job` from `slot`: the next one when `owner`, else
 * the last one. Returns it, or -1 when the range is empty or the job is
 * another one. */
static int64_t take_block(range_slot *slot, uint64_t job, int owner) {
  uint_fast64_t w = atomic_load_explicit(&slot->word, memory_order_acquire);
  for (;;) {
    uint64_t next = w >> kBlockBits & TCC_BLOCK_MASK, end = w & TCC_BLOCK_MASK;
    if (w >> (2 * kBlockBits) != (job & TCC_JOB_MASK) || next >= end)
      return -1;
    uint64_t taken = owner ? next : end - 1;
    uint64_t after = owner ? make_range(job, next + 1, end)
                           : make_range(job, next, end - 1);
    if (atomic_compare_exchange_weak_explicit(&slot->word, &w, after,
                                              memory_order_acq_rel,
                                              memory_order_acquire))
      return (int64_t)taken;
  }
}

/* Runs blocks of job `job` (a generation) as thread `self`: its own range
 * front to back, then the others' from the back, until none is left or the
 * job is another one. Which thread runs a block does not change what it
 * computes: each iteration is the same code on the same data. */
static void run_blocks(tcc_context *c, uint64_t job, int32_t self) {
  int32_t threads = c->num_threads;
  for (int32_t i = 0; i < threads; ++i) {
    int32_t t = (self + i) % threads;
    for (;;) {
      atomic_fetch_add(&c->active, 1);
      int64_t block = take_block(&c->ranges[t], job, t == self);
      if (block >= 0) {
        /* The job cannot end before `active` drops: fn, args, n are its. */
        int64_t begin = block * c->block;
        int64_t end = begin + c->block < c->n ? begin + c->block : c->n;
        c->fn(c->args, begin, end);
      }
      if (atomic_fetch_sub(&c->active, 1) == 1) {
        pthread_mutex_lock(&c->mutex);
        pthread_cond_signal(&c->done);
        pthread_mutex_unlock(&c->mutex);
      }
      if (block < 0)
        break;
    }
  }
}


/* The first `n` CPUs that the calling thread may run on, when it may run on
 * as many and binding is not turned off; null otherwise. */
static int32_t *choose_cpus(int32_t n) {
#ifdef __linux__
  const char *env = getenv("TCC_BIND_THREADS");
  if (n <= 1 || (env && strcmp(env, "0") == 0))
    return NULL;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0 ||
      CPU_COUNT(&allowed) < n)
    return NULL;
  int32_t *cpus = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t cpu = 0, i = 0; cpus && i < n; ++cpu)
    if (CPU_ISSET(cpu, &allowed))
      cpus[i++] = cpu;
  return cpus;
#else
  (void)n;
  return NULL;
#endif
}

static void *worker_main(void *arg) {
  worker_start start = *(worker_start *)arg;
  free(arg);
  tcc_context *c = start.context;
  uint_fast64_t seen = 0;
  for (;;) {
    uint_fast64_t g;
    int spins = 0;
    int64_t since = 0;
    while ((g = atomic_load_explicit(&c->generation, memory_order_acquire)) ==
           seen) {
      if (keep_spinning(&since, &spins))
        continue;
      pthread_mutex_lock(&c->mutex);
      while ((g = atomic_load(&c->generation)) == seen)
        pthread_cond_wait(&c->wake, &c->mutex);
      pthread_mutex_unlock(&c->mutex);
      break;
    }
    seen = g;
    if (atomic_load(&c->stop))
      return NULL;
    run_blocks(c, g, start.index);
  }
}

/* Wakes every worker for the job (or the stop) just published. */
static void publish(tcc_context *c) {
  pthread_mutex_lock(&c->mutex);
  atomic_fetch_add_explicit(&c->generation, 1, memory_order_release);
  pthread_cond_broadcast(&c->wake);
  pthread_mutex_unlock(&c->mutex);
}

static int32_t online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 1024 ? 1024 : (int32_t)n;
}

/* Starts a worker, bound to `cpu` from its first instruction when `cpu` is
 * not negative (bound by the creator, the binding does not wait on the new
 * thread being scheduled); unbound where the binding is refused. */
static int start_worker(pthread_t *thread, worker_start *start, int32_t cpu) {
#ifdef __linux__
  if (cpu >= 0) {
    pthread_attr_t attr;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_attr_init(&attr) == 0) {
      int bound = pthread_attr_setaffinity_np(&attr, sizeof(set), &set) == 0 &&
                  pthread_create(thread, &attr, worker_main, start) == 0;
      pthread_attr_destroy(&attr);
      if (bound)
        return 0;
    }
  }
#else
  (void)cpu;
#endif
  return pthread_create(thread, NULL, worker_main, start);
}

tcc_status tcc_context_create(int32_t num_threads, tcc_context **context) {
  if (!context)
    return TCC_ERROR_INVALID_ARGUMENT;
  *context = NULL;
  if (num_threads < 0)
    return TCC_ERROR_INVALID_ARGUMENT;
  tcc_context *c = calloc(1, sizeof(*c));
  if (!c)
    return TCC_ERROR_OUT_OF_MEMORY;
  c->num_threads = num_threads ? num_threads : online_cpus();
  atomic_init(&c->generation, 0);
  atomic_init(&c->active, 0);
  atomic_init(&c->stop, 0);
  pthread_mutex_init(&c->dispatch, NULL);
  pthread_mutex_init(&c->mutex, NULL);
  pthread_cond_init(&c->wake, NULL);
  pthread_cond_init(&c->done, NULL);
  c->cpus = choose_cpus(c->num_threads);
  c->ranges = aligned_alloc(_Alignof(range_slot),
                            sizeof(range_slot) * (size_t)c->num_threads);
  if (!c->ranges) {
    tcc_context_destroy(c);
    return TCC_ERROR_OUT_OF_MEMORY;
  }
  for (int32_t i = 0; i < c->num_threads; ++i)
    atomic_init(&c->ranges[i].word, 0);
  if (c->num_threads > 1) {
    c->workers = calloc((size_t)c->num_threads - 1, sizeof(pthread_t));
    if (!c->workers) {
      tcc_context_destroy(c);
      return TCC_ERROR_OUT_OF_MEMORY;
    }
    for (int32_t i = 1; i < c->num_threads; ++i) {
      worker_start *start = malloc(sizeof(*start));
      if (start) {
        start->context = c;
        start->index = i;
      }
      if (!start ||
          start_worker(&c->workers[i - 1], start,
                       c->cpus ? c->cpus[i] : -1) != 0) {
        free(start);
        tcc_context_destroy(c);
        return TCC_ERROR_OUT_OF_MEMORY;
      }
      c->started = i;
    }
  }
  *context = c;
  return TCC_OK;
}

void tcc_context_destroy(tcc_context *context) {
  if (!context)
    return;
  if (context->started > 0) {
    atomic_store(&context->stop, 1);
    publish(context);
    for (int32_t i = 0; i < context->started; ++i)
      pthread_join(context->workers[i], NULL);
  }
  free(context->workers);
  free(context->cpus);
  free(context->ranges);
  pthread_cond_destroy(&context->done);
  pthread_cond_destroy(&context->wake);
  pthread_mutex_destroy(&context->mutex);
  pthread_mutex_destroy(&context->dispatch);
  free(context);
}

int32_t tcc_context_num_threads(const tcc_context *context) {
  return context ? context->num_threads : 1;
}

/* What tcc_run_begin leaves in a tcc_run_scope for tcc_run_end. */
typedef struct run_state {
  int32_t bound; /* whether the caller was bound */
#ifdef __linux__
  cpu_set_t saved; /* its affinity before */
#endif
} run_state;
_Static_assert(sizeof(run_state) <= sizeof(tcc_run_scope),
               "tcc_run_scope holds a run_state");
_Static_assert(_Alignof(run_state) <= _Alignof(tcc_run_scope),
               "tcc_run_scope is aligned for a run_state");

void tcc_run_begin(tcc_context *context, tcc_run_scope *scope) {
  run_state *state = (run_state *)scope;
  state->bound = 0;
#ifdef __linux__
  if (!context || !context->cpus)
    return;
  /* Only onto a CPU the thread may run on now: a caller confined elsewhere
   * stays where it is. */
  int32_t cpu = context->cpus[0];
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  state->bound =
      sched_getaffinity(0, sizeof(state->saved), &state->saved) == 0 &&
      CPU_ISSET(cpu, &state->saved) && CPU_COUNT(&state->saved) > 1 &&
      sched_setaffinity(0, sizeof(set), &set) == 0;
#else
  (void)context;
#endif
}

void tcc_run_end(tcc_context *context, tcc_run_scope *scope) {
  (void)context;
  run_state *state = (run_state *)scope;
#ifdef __linux__
  if (state->bound)
    sched_setaffinity(0, sizeof(state->saved), &state->saved);
#endif
  state->bound = 0;
}

void tcc_parallel_for(tcc_context *context, int64_t n, tcc_parallel_fn fn,
                      void *args) {
  if (n <= 0)
    return;
  if (!context || context->num_threads <= 1 || n == 1) {
    fn(args, 0, n);
    return;
  }
  tcc_context *c = context;
  pthread_mutex_lock(&c->dispatch);
  /* Blocks of one iteration, unless there are more than a range holds. */
  int64_t block = 1 + (n - 1) / (int64_t)TCC_BLOCK_MASK;
  int64_t blocks = (n + block - 1) / block;
  c->fn = fn;
  c->args = args;
  c->n = n;
  c->block = block;
  uint64_t job = atomic_load_explicit(&c->generation, memory_order_relaxed) + 1;
  for (int32_t t = 0; t < c->num_threads; ++t)
    atomic_store_explicit(
        &c->ranges[t].word,
        make_range(job, (uint64_t)(blocks * t / c->num_threads),
                   (uint64_t)(blocks * (t + 1) / c->num_threads)),
        memory_order_release);
  publish(c);
  run_blocks(c, job, 0);
  int spins = 0;
  int64_t since = 0;
  while (atomic_load_explicit(&c->active, memory_order_acquire) != 0) {
    if (keep_spinning(&since, &spins))
      continue;
    pthread_mutex_lock(&c->mutex);
    while (atomic_load(&c->active) != 0)
      pthread_cond_wait(&c->done, &c->mutex);
    pthread_mutex_unlock(&c->mutex);
  }
  pthread_mutex_unlock(&c->dispatch);
}

/*===----------------------------------------------------------------------===
 * compiler-rt's float -> bfloat16 conversion, which LLVM calls for bf16
 * arithmetic on CPUs without bf16 instructions and which GCC 12's libgcc
 * lacks. Weak: a toolchain's own copy wins. Rounds to nearest even; NaNs
 * stay quiet NaNs. The bf16 result is returned in the low 16 bits of the
 * float return register (xmm0 on x86-64, s0 on AArch64), where the bf16
 * calling convention expects it.
 *===----------------------------------------------------------------------===*/
__attribute__((weak)) float __truncsfbf2(float x) {
  uint32_t u, bits;
  memcpy(&u, &x, sizeof(u));
  if ((u & 0x7fffffffu) > 0x7f800000u)
    bits = (u >> 16) | 0x40u;
  else
    bits = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  float out;
  memcpy(&out, &bits, sizeof(out));
  return out;
}

/*===----------------------------------------------------------------------===
 * compiler-rt's float16 <-> float conversions, which LLVM calls for float16
 * values on CPUs without half-precision conversion instructions (RISC-V
 * without Zfh) and which GCC 12's libgcc lacks for RISC-V. Weak, as above.
 * The float16 travels in the low 16 bits of a float register (NaN-boxed on
 * RISC-V; those bits are all that either side reads).
 *===----------------------------------------------------------------------===*/
__attribute__((weak)) float __extendhfsf2(float boxed) {
  uint32_t u, out;
  memcpy(&u, &boxed, sizeof(u));
  uint32_t sign = (u & 0x8000u) << 16, exponent = (u >> 10) & 0x1fu,
           mantissa = u & 0x3ffu;
  if (exponent == 0x1fu) { /* inf, or NaN (made quiet) */
    out = sign | 0x7f800000u | (mantissa << 13) | (mantissa ? 0x400000u : 0);
  } else if (exponent == 0) { /* zero or subnormal: mantissa x 2^-24, exact */
    float magnitude = (float)mantissa * 0x1p-24f;
    memcpy(&out, &magnitude, sizeof(out));
    out |= sign;
  } else {
    out = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  }
  float result;
  memcpy(&result, &out, sizeof(result));
  return result;
}

/* Rounds to nearest even (overflow to infinity, subnormals included); NaNs
 * stay quiet NaNs. */
__attribute__((weak)) float __truncsfhf2(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof(u));
  uint32_t sign = (u >> 16) & 0x8000u, magnitude = u & 0x7fffffffu, bits;
  if (magnitude > 0x7f800000u) {
    bits = 0x7e00u | ((magnitude >> 13) & 0x3ffu);
  } else if (magnitude >= 0x477ff000u) { /* 65520 and up round to infinity */
    bits = 0x7c00u;
  } else if (magnitude < 0x38800000u) { /* below 2^-14: subnormal or zero */
    /* Adding 0.5 aligns the value's 2^-24 units to the float's last
     * mantissa bit, where the addition rounds to nearest even. */
    float value, aligned;
    memcpy(&value, &magnitude, sizeof(value));
    aligned = value + 0.5f;
    memcpy(&bits, &aligned, sizeof(bits));
    bits -= 0x3f000000u;
  } else {
    uint32_t odd = (magnitude >> 13) & 1u;
    bits = (magnitude - 0x38000000u + 0xfffu + odd) >> 13;
  }
  bits |= sign;
  float out;
  memcpy(&out, &bits, sizeof(out));
  return out;
}
