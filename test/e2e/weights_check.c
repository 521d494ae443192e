/* weights_check.c - models compiled with --weights file: the weights file
 * mapped with NAME_weights_open, or read by the program and handed over with
 * NAME_weights_wrap, gives the same results, bit for bit, as the same
 * model with its weights in the object; wrong weights (none, the
 * file of another model, a changed, cut short or missing file) are refused
 * with a status and a message, before anything runs.
 *
 * Build with the headers of three models: `e` (weights embedded) and `f`
 * (--weights file) compiled from the same model, and `g` (--weights file)
 * from another:
 *   cc -I DIR -I include weights_check.c e.o f.o g.o runtime.c -lpthread -lm
 * Usage: weights_check F.weights G.weights BAD_HEADER BAD_MAGIC SHORT MISSING
 * Prints one line per refused call ("refused: ...") and, when every check
 * passes, "weights_check: OK"; exits 1 otherwise. */
#include "e.h"
#include "f.h"
#include "g.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BUFFERS 8

static int failures;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "weights_check: FAIL: %s\n", what);
    ++failures;
  }
}

/* Buffers for one call of a model, inputs filled deterministically. */
typedef struct buffers {
  const void *in[MAX_BUFFERS];
  void *out[MAX_BUFFERS];
  tcc_tensor in_t[MAX_BUFFERS], out_t[MAX_BUFFERS];
  void *workspace;
} buffers;

static void make_buffers(const tcc_model_info *info, buffers *b) {
  for (int32_t i = 0; i < info->num_inputs; ++i) {
    const tcc_tensor_info *t = &info->inputs[i];
    float *data = calloc(t->num_elements + 1, sizeof(float));
    for (size_t k = 0; k < t->num_elements && t->dtype == TCC_DTYPE_F32; ++k)
      data[k] = (float)((k * 7) % 17) / 8.0f;
    b->in[i] = data;
    b->in_t[i] = (tcc_tensor){t->dtype, t->rank, t->dims, data};
  }
  for (int32_t i = 0; i < info->num_outputs; ++i) {
    const tcc_tensor_info *t = &info->outputs[i];
    b->out[i] = calloc(t->size_bytes + 1, 1);
    b->out_t[i] = (tcc_tensor){t->dtype, t->rank, t->dims, b->out[i]};
  }
  b->workspace = tcc_workspace_alloc(info->workspace_size);
}

static void free_buffers(const tcc_model_info *info, buffers *b) {
  for (int32_t i = 0; i < info->num_inputs; ++i)
    free((void *)b->in[i]);
  for (int32_t i = 0; i < info->num_outputs; ++i)
    free(b->out[i]);
  tcc_workspace_free(b->workspace);
}

/* Whether the outputs of `b` are still all zero (nothing was written). */
static int untouched(const tcc_model_info *info, const buffers *b) {
  for (int32_t i = 0; i < info->num_outputs; ++i)
    for (size_t k = 0; k < info->outputs[i].size_bytes; ++k)
      if (((const unsigned char *)b->out[i])[k])
        return 0;
  return 1;
}

/* Opens `path` for model f and expects `want`; prints the message. */
static void open_refused(const char *path, tcc_status want) {
  tcc_weights *w = (tcc_weights *)1;
  tcc_error error = {{0}};
  tcc_status st = f_weights_open(path, &w, &error);
  check(st == want, "f_weights_open: unexpected status");
  check(w == NULL, "f_weights_open: a handle despite the error");
  printf("refused: %s\n", error.message);
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s F.weights G.weights BAD_HEADER BAD_MAGIC "
                    "SHORT MISSING\n", argv[0]);
    return 2;
  }
  const tcc_model_info *info = f_info();
  check(e_info()->num_inputs == info->num_inputs &&
            e_info()->num_outputs == info->num_outputs,
        "e and f are not the same model");
  check(info->weights_bytes == F_WEIGHTS_BYTES &&
            info->weights_fingerprint == F_WEIGHTS_FINGERPRINT &&
            e_info()->weights_bytes == 0,
        "the infos' weights fields");

  tcc_weights *fw = NULL, *gw = NULL;
  tcc_error error = {{0}};
  if (f_weights_open(argv[1], &fw, &error) != TCC_OK ||
      g_weights_open(argv[2], &gw, &error) != TCC_OK) {
    fprintf(stderr, "weights_check: FAIL: cannot open: %s\n", error.message);
    return 1;
  }

  /* The same results as the weights in the object, on one thread and on
   * a context of two. */
  buffers want, got;
  make_buffers(info, &want);
  make_buffers(info, &got);
  check(e_run_packed(want.in, want.out, want.workspace) == TCC_OK,
        "e_run_packed");
  check(f_run_packed(fw, got.in, got.out, got.workspace) == TCC_OK,
        "f_run_packed");
  for (int32_t i = 0; i < info->num_outputs; ++i)
    check(memcmp(want.out[i], got.out[i], info->outputs[i].size_bytes) == 0,
          "f's output differs from e's");
  tcc_context *ctx = NULL;
  check(tcc_context_create(2, &ctx) == TCC_OK, "tcc_context_create");
  for (int32_t i = 0; i < info->num_outputs; ++i)
    memset(got.out[i], 0, info->outputs[i].size_bytes);
  check(f_run_tensors_ctx(ctx, fw, got.in_t, info->num_inputs, got.out_t,
                          info->num_outputs, got.workspace,
                          info->workspace_size, &error) == TCC_OK,
        "f_run_tensors_ctx");
  for (int32_t i = 0; i < info->num_outputs; ++i)
    check(memcmp(want.out[i], got.out[i], info->outputs[i].size_bytes) == 0,
          "f's output on a context differs from e's");
  tcc_context_destroy(ctx);

  /* The weights given as bytes the caller holds (f_weights_wrap): the
   * file's weights copied after its 64-byte header, the same results. */
  {
    FILE *file = fopen(argv[1], "rb");
    void *bytes = tcc_workspace_alloc(F_WEIGHTS_BYTES);
    check(file && bytes && fseek(file, 64, SEEK_SET) == 0 &&
              fread(bytes, 1, F_WEIGHTS_BYTES, file) == F_WEIGHTS_BYTES,
          "reading the weights file");
    if (file)
      fclose(file);
    tcc_weights *wrapped = NULL;
    check(f_weights_wrap(bytes, &wrapped) == TCC_OK && wrapped,
          "f_weights_wrap");
    for (int32_t i = 0; i < info->num_outputs; ++i)
      memset(got.out[i], 0, info->outputs[i].size_bytes);
    check(f_run_packed(wrapped, got.in, got.out, got.workspace) == TCC_OK,
          "f_run_packed with wrapped weights");
    for (int32_t i = 0; i < info->num_outputs; ++i)
      check(memcmp(want.out[i], got.out[i], info->outputs[i].size_bytes) == 0,
            "f's output with wrapped weights differs from e's");
    tcc_weights_close(wrapped);
    tcc_weights *w = (tcc_weights *)1;
    check(f_weights_wrap((const char *)bytes + 8, &w) ==
                  TCC_ERROR_INVALID_ARGUMENT &&
              w == NULL,
          "f_weights_wrap of misaligned bytes");
    check(f_weights_wrap(NULL, &w) == TCC_ERROR_INVALID_ARGUMENT && w == NULL,
          "f_weights_wrap of null");
    tcc_workspace_free(bytes);
  }

  /* Wrong weights: nothing runs. */
  buffers fresh;
  make_buffers(info, &fresh);
  check(f_run_packed(NULL, fresh.in, fresh.out, fresh.workspace) ==
            TCC_ERROR_INVALID_ARGUMENT,
        "f_run_packed with null weights");
  check(f_run_packed(gw, fresh.in, fresh.out, fresh.workspace) ==
            TCC_ERROR_INVALID_ARGUMENT,
        "f_run_packed with g's weights");
  check(f_run_packed_ctx(NULL, gw, fresh.in, fresh.out, fresh.workspace) ==
            TCC_ERROR_INVALID_ARGUMENT,
        "f_run_packed_ctx with g's weights");
  check(f_run_tensors(NULL, fresh.in_t, info->num_inputs, fresh.out_t,
                      info->num_outputs, fresh.workspace, info->workspace_size,
                      &error) == TCC_ERROR_INVALID_ARGUMENT,
        "f_run_tensors with null weights");
  printf("refused: %s\n", error.message);
  check(f_run_tensors(gw, fresh.in_t, info->num_inputs, fresh.out_t,
                      info->num_outputs, fresh.workspace, info->workspace_size,
                      &error) == TCC_ERROR_INVALID_ARGUMENT,
        "f_run_tensors with g's weights");
  printf("refused: %s\n", error.message);
  check(untouched(info, &fresh), "a refused call wrote an output");

  /* Wrong files. */
  open_refused(argv[2], TCC_ERROR_INVALID_ARGUMENT);
  open_refused(argv[3], TCC_ERROR_INVALID_ARGUMENT);
  open_refused(argv[4], TCC_ERROR_INVALID_ARGUMENT);
  open_refused(argv[5], TCC_ERROR_INVALID_ARGUMENT);
  open_refused(argv[6], TCC_ERROR_IO);
  check(tcc_weights_open(argv[1], F_WEIGHTS_BYTES, F_WEIGHTS_FINGERPRINT,
                         NULL, NULL) == TCC_ERROR_INVALID_ARGUMENT,
        "tcc_weights_open with a null handle pointer");

  free_buffers(info, &want);
  free_buffers(info, &got);
  free_buffers(info, &fresh);
  tcc_weights_close(fw);
  tcc_weights_close(gw);
  tcc_weights_close(NULL);
  if (failures)
    return 1;
  printf("weights_check: OK\n");
  return 0;
}
