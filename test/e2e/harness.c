/* harness.c - generic end-to-end harness: runs one tcc-compiled model on raw input files. */
/*
 * Build:
 *   cc -I include -I DIR_OF_HEADER -DTCC_MODEL_HEADER='"resnet18.h"' \
 *      -DTCC_MODEL_PREFIX=resnet18 test/e2e/harness.c resnet18.o \
 *      build/lib/libtccrt.a -lm -lpthread -o harness
 * Usage: harness DIR [BATCH | VALUE | BATCH VALUE]
 *   Reads DIR/input_<i>.bin (raw bytes, exactly inputs[i].size_bytes), runs
 *   PREFIX_run_packed once and writes DIR/output_<i>.bin. Exit 0 on success.
 *   With BATCH, for a model compiled with a run-time batch dim: the batched
 *   tensors hold BATCH samples, and the model runs through the checked
 *   call, tcc_run_tensors. So does a model with outputs whose dims are
 *   known only after the run; the harness writes their actual dims to
 *   DIR/output_<i>.dims (text) and only that many elements to the .bin.
 *   With VALUE, for a model compiled with a bounded dim (--max-dim): the
 *   inputs hold that dim at VALUE, and the model runs through the checked
 *   call too. With both, for a model with both: BATCH samples, each with
 *   the bounded dim at VALUE.
 *   With -DTCC_MODEL_GPU_ARCH (a --target cuda model), a failed run prints the CUDA error too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TCC_MODEL_HEADER
#error "define TCC_MODEL_HEADER, e.g. -DTCC_MODEL_HEADER='\"resnet18.h\"'"
#endif
#ifndef TCC_MODEL_PREFIX
#error "define TCC_MODEL_PREFIX, e.g. -DTCC_MODEL_PREFIX=resnet18"
#endif
#include TCC_MODEL_HEADER

#define TCC_CAT2(a, b) a##b
#define TCC_CAT(a, b) TCC_CAT2(a, b)
#define MODEL_INFO TCC_CAT(TCC_MODEL_PREFIX, _info)
#define MODEL_RUN_PACKED TCC_CAT(TCC_MODEL_PREFIX, _run_packed)
#define MODEL_WORKSPACE_SIZE TCC_CAT(TCC_MODEL_PREFIX, _workspace_size)

/* Reads exactly `size` bytes of `path` into a new buffer (never null on success). */
static void *read_exact(const char *path, size_t size) {
  FILE *f = fopen(path, "rb");
  void *buf;
  long actual;
  if (!f) {
    fprintf(stderr, "harness: error: cannot open %s\n", path);
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (actual = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "harness: error: cannot seek in %s\n", path);
    fclose(f);
    return NULL;
  }
  if ((size_t)actual != size) {
    fprintf(stderr, "harness: error: %s has %ld bytes, the model expects %zu\n", path, actual,
            size);
    fclose(f);
    return NULL;
  }
  buf = tcc_workspace_alloc(size);
  if (!buf) {
    fprintf(stderr, "harness: error: out of memory (%zu bytes for %s)\n", size, path);
    fclose(f);
    return NULL;
  }
  if (size && fread(buf, 1, size, f) != size) {
    fprintf(stderr, "harness: error: short read on %s\n", path);
    tcc_workspace_free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static int write_all(const char *path, const void *buf, size_t size) {
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f) {
    fprintf(stderr, "harness: error: cannot create %s\n", path);
    return 1;
  }
  ok = (size == 0 || fwrite(buf, 1, size, f) == size);
  ok = (fclose(f) == 0) && ok;
  if (!ok) {
    fprintf(stderr, "harness: error: cannot write %s\n", path);
    return 1;
  }
  return 0;
}

/* An input's dims that vary up to a bound take this value (0: the bounds). */
static long long bounded_value = 0;

/* A descriptor of `t` for `batch` samples at `data`; `dims` has room for its rank. */
static tcc_tensor describe(const tcc_tensor_info *t, long long batch, int64_t *dims, void *data,
                           int is_input) {
  tcc_tensor d;
  int j;
  for (j = 0; j < t->rank; ++j)
    dims[j] = is_input && bounded_value && (t->run_time_dims >> j & 1) ? bounded_value
                                                                       : t->dims[j];
  if (t->batch_multiple)
    dims[0] = t->batch_multiple * batch;
  d.dtype = t->dtype;
  d.rank = t->rank;
  d.dims = dims;
  d.data = data;
  return d;
}

/* Bytes of tensor `t` for `batch` samples (an input at bounded_value). */
static size_t batch_bytes(const tcc_tensor_info *t, long long batch, int is_input) {
  int64_t dims[64];
  size_t n = tcc_dtype_size(t->dtype);
  int j;
  if (t->rank > 64)
    return 0;
  describe(t, batch, dims, NULL, is_input);
  for (j = 0; j < t->rank; ++j)
    n *= (size_t)dims[j];
  return n;
}

int main(int argc, char **argv) {
  const tcc_model_info *info = MODEL_INFO();
  void **inputs, **outputs, *workspace = NULL;
  char path[4096];
  int i, rc = 1;
  long long batch = 1;
  int checked = argc >= 3;
  size_t *out_bytes = NULL; /* outputs with run-time dims: their actual bytes */
  tcc_status st;

  if (argc < 2 || argc > 4) {
    fprintf(stderr,
            "usage: %s DIR [BATCH | VALUE | BATCH VALUE]  (reads DIR/input_<i>.bin, writes "
            "DIR/output_<i>.bin)\n",
            argv[0]);
    return 2;
  }
  for (i = 2; i < argc; ++i) {
    /* One count: the batch, or the bounded dim's value; two: both. */
    int is_batch = argc == 4 ? i == 2 : !info->bounded_dim;
    const char *what = is_batch ? "BATCH" : "VALUE";
    const char *dim = is_batch ? info->batch_dim : info->bounded_dim;
    char *end;
    long long v = strtoll(argv[i], &end, 10);
    if (*end || v < 0 || !dim) {
      fprintf(stderr, "harness: error: %s '%s': %s\n", what, argv[i],
              dim ? "not a count"
                  : is_batch ? "the model has no run-time batch dim"
                             : "the model has no bounded dim");
      return 2;
    }
    if (is_batch)
      batch = v;
    else
      bounded_value = v;
  }
  inputs = calloc((size_t)info->num_inputs + 1, sizeof *inputs);
  outputs = calloc((size_t)info->num_outputs + 1, sizeof *outputs);
  out_bytes = calloc((size_t)info->num_outputs + 1, sizeof *out_bytes);
  if (!inputs || !outputs || !out_bytes) {
    fprintf(stderr, "harness: error: out of memory\n");
    goto done;
  }
  for (i = 0; i < info->num_inputs; ++i) {
    snprintf(path, sizeof path, "%s/input_%d.bin", argv[1], i);
    if (!(inputs[i] = read_exact(path, batch_bytes(&info->inputs[i], batch, 1))))
      goto done;
  }
  for (i = 0; i < info->num_outputs; ++i) {
    size_t n = batch_bytes(&info->outputs[i], batch, 0);
    if (!(outputs[i] = tcc_workspace_alloc(n))) {
      fprintf(stderr, "harness: error: out of memory (output %d, %zu bytes)\n", i, n);
      goto done;
    }
    memset(outputs[i], 0xff, n); /* NaN pattern: catches outputs left unwritten */
  }
  if (MODEL_WORKSPACE_SIZE() != info->workspace_size)
    fprintf(stderr, "harness: warning: workspace_size() = %zu but info says %zu\n",
            MODEL_WORKSPACE_SIZE(), info->workspace_size);
  if (!(workspace = tcc_workspace_alloc(MODEL_WORKSPACE_SIZE()))) {
    fprintf(stderr, "harness: error: out of memory (workspace, %zu bytes)\n",
            MODEL_WORKSPACE_SIZE());
    goto done;
  }
  for (i = 0; i < info->num_outputs; ++i)
    checked |= info->outputs[i].run_time_dims != 0;
  if (checked) {
    /* The checked call, with the dims of `batch` samples. */
    tcc_tensor *in_t = calloc((size_t)info->num_inputs + 1, sizeof *in_t);
    tcc_tensor *out_t = calloc((size_t)info->num_outputs + 1, sizeof *out_t);
    size_t ranks = 0, at = 0;
    int64_t *dims, *result_dims;
    tcc_error err;
    for (i = 0; i < info->num_inputs; ++i)
      ranks += (size_t)info->inputs[i].rank;
    for (i = 0; i < info->num_outputs; ++i)
      ranks += (size_t)info->outputs[i].rank;
    dims = calloc(ranks + 1, sizeof *dims);
    result_dims = calloc(ranks + 1, sizeof *result_dims);
    if (!in_t || !out_t || !dims || !result_dims) {
      fprintf(stderr, "harness: error: out of memory\n");
      free(in_t), free(out_t), free(dims);
      goto done;
    }
    for (i = 0; i < info->num_inputs; at += (size_t)info->inputs[i++].rank)
      in_t[i] = describe(&info->inputs[i], batch, dims + at, inputs[i], 1);
    for (i = 0; i < info->num_outputs; at += (size_t)info->outputs[i++].rank) {
      out_t[i] = describe(&info->outputs[i], batch, dims + at, outputs[i], 0);
      out_t[i].result_dims = result_dims + at;
    }
    st = tcc_run_tensors(info, MODEL_RUN_PACKED, in_t, info->num_inputs, out_t,
                         info->num_outputs, workspace, MODEL_WORKSPACE_SIZE(), &err);
    if (st != TCC_OK)
      fprintf(stderr, "harness: error: %s\n", err.message);
    /* The actual sizes of the outputs with run-time dims, and their dims. */
    for (i = 0; st == TCC_OK && i < info->num_outputs; ++i) {
      const tcc_tensor_info *t = &info->outputs[i];
      size_t n = tcc_dtype_size(t->dtype);
      FILE *f;
      int d;
      if (!t->run_time_dims)
        continue;
      snprintf(path, sizeof path, "%s/output_%d.dims", argv[1], i);
      if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "harness: error: cannot write %s\n", path);
        st = TCC_ERROR_IO;
        break;
      }
      for (d = 0; d < t->rank; ++d) {
        n *= (size_t)out_t[i].result_dims[d];
        fprintf(f, "%s%lld", d ? " " : "", (long long)out_t[i].result_dims[d]);
      }
      fprintf(f, "\n");
      fclose(f);
      out_bytes[i] = n;
    }
    free(in_t), free(out_t), free(dims), free(result_dims);
  } else {
    st = MODEL_RUN_PACKED((const void *const *)inputs, (void *const *)outputs, workspace);
  }
  if (st != TCC_OK) {
    fprintf(stderr, "harness: error: %s_run_packed failed: %s (status %d)\n", info->name,
            tcc_status_string(st), (int)st);
    if (st == TCC_ERROR_BRANCH || st == TCC_ERROR_CPU)
      fprintf(stderr, "harness: %s\n", tcc_run_error_message());
#ifdef TCC_MODEL_GPU_ARCH
    fprintf(stderr, "harness: CUDA: %s\n", tcc_cuda_error_message());
#endif
    goto done;
  }
  for (i = 0; i < info->num_outputs; ++i) {
    snprintf(path, sizeof path, "%s/output_%d.bin", argv[1], i);
    if (write_all(path, outputs[i],
                  info->outputs[i].run_time_dims ? out_bytes[i]
                                                 : batch_bytes(&info->outputs[i], batch, 0)))
      goto done;
  }
  rc = 0;
done:
  if (inputs)
    for (i = 0; i < info->num_inputs; ++i)
      tcc_workspace_free(inputs[i]);
  if (outputs)
    for (i = 0; i < info->num_outputs; ++i)
      tcc_workspace_free(outputs[i]);
  free(inputs);
  free(outputs);
  free(out_bytes);
  tcc_workspace_free(workspace);
  return rc;
}
