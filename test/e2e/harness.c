/* harness.c - generic end-to-end harness: runs one tcc-compiled model on raw input files. */
/*
 * Build:
 *   cc -I include -I DIR_OF_HEADER -DTCC_MODEL_HEADER='"resnet18.h"' \
 *      -DTCC_MODEL_PREFIX=resnet18 test/e2e/harness.c resnet18.o \
 *      build/lib/libtccrt.a -lm -lpthread -o harness
 * Usage: harness DIR
 *   Reads DIR/input_<i>.bin (raw bytes, exactly inputs[i].size_bytes), runs
 *   PREFIX_run_packed once and writes DIR/output_<i>.bin. Exit 0 on success.
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

int main(int argc, char **argv) {
  const tcc_model_info *info = MODEL_INFO();
  void **inputs, **outputs, *workspace = NULL;
  char path[4096];
  int i, rc = 1;
  tcc_status st;

  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR  (reads DIR/input_<i>.bin, writes DIR/output_<i>.bin)\n",
            argv[0]);
    return 2;
  }
  inputs = calloc((size_t)info->num_inputs + 1, sizeof *inputs);
  outputs = calloc((size_t)info->num_outputs + 1, sizeof *outputs);
  if (!inputs || !outputs) {
    fprintf(stderr, "harness: error: out of memory\n");
    goto done;
  }
  for (i = 0; i < info->num_inputs; ++i) {
    snprintf(path, sizeof path, "%s/input_%d.bin", argv[1], i);
    if (!(inputs[i] = read_exact(path, info->inputs[i].size_bytes)))
      goto done;
  }
  for (i = 0; i < info->num_outputs; ++i) {
    size_t n = info->outputs[i].size_bytes;
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
  st = MODEL_RUN_PACKED((const void *const *)inputs, (void *const *)outputs, workspace);
  if (st != TCC_OK) {
    fprintf(stderr, "harness: error: %s_run_packed failed: %s (status %d)\n", info->name,
            tcc_status_string(st), (int)st);
    goto done;
  }
  for (i = 0; i < info->num_outputs; ++i) {
    snprintf(path, sizeof path, "%s/output_%d.bin", argv[1], i);
    if (write_all(path, outputs[i], info->outputs[i].size_bytes))
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
  tcc_workspace_free(workspace);
  return rc;
}
