/* batch_bounded_check.c - the C API of a model with a run-time batch and a
 * sequence that varies up to a bound (test/Import/Inputs/
 * batch_bounded_attention.onnx compiled with --max-dim seq=16 --name bb:
 * x [batch, seq, 8] and mask [batch, seq] in, y [batch, seq, 8] and
 * z [batch, 8] out). The inputs are allocated at their actual size and y at
 * batch x its bound, so AddressSanitizer catches a sample read or written
 * at the bound's stride. bb_run_batch and bb_run_tensors must give, sample
 * by sample, what bb_run gives on that sample alone, with y packed in its
 * actual dims [batch, seq, 8]. Built with ASan and UBSan. */
#include "bb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_NAME "batch_bounded_check"
#include "expect.h"

enum { kBound = 16, kWidth = 8 };

static float *floats(int64_t n) { return malloc(sizeof(float) * (size_t)n); }

/* Runs `batch` samples at `seq` through every batched entry point and
 * compares them with one bb_run per sample. */
static void check(int64_t batch, int64_t seq, void *ws, tcc_context *two) {
  int64_t rows = batch * seq;
  float *x = floats(rows * kWidth), *mask = floats(rows);
  float *y[2] = {floats(batch * kBound * kWidth), floats(batch * kBound * kWidth)};
  float *z[2] = {floats(batch * kWidth), floats(batch * kWidth)};
  float one_y[kBound * kWidth], one_z[kWidth];
  int64_t dims[2] = {seq, seq}, rtd = -1;
  for (int64_t i = 0; i < rows * kWidth; ++i)
    x[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int64_t i = 0; i < rows; ++i)
    mask[i] = i % 4 == 3 ? -1e4f : 0.0f;

  EXPECT(bb_run_batch(two, batch, x, mask, dims, y[0], z[0], &rtd, ws) == TCC_OK);
  EXPECT(rtd == seq);

  int64_t xd[3] = {batch, seq, kWidth}, md[2] = {batch, seq};
  int64_t yd[3] = {batch, kBound, kWidth}, zd[2] = {batch, kWidth};
  int64_t yr[3] = {-1, -1, -1}, zr[2];
  tcc_tensor in[2] = {{TCC_DTYPE_F32, 3, xd, x, NULL},
                      {TCC_DTYPE_F32, 2, md, mask, NULL}};
  tcc_tensor out[2] = {{TCC_DTYPE_F32, 3, yd, y[1], yr},
                       {TCC_DTYPE_F32, 2, zd, z[1], zr}};
  tcc_error err;
  EXPECT(bb_run_tensors(in, 2, out, 2, ws, bb_workspace_size(), &err) == TCC_OK);
  EXPECT(yr[0] == batch && yr[1] == seq && yr[2] == kWidth);

  for (int64_t b = 0; b < batch; ++b) {
    EXPECT(bb_run(x + b * seq * kWidth, mask + b * seq, dims, one_y, one_z, &rtd, ws) ==
           TCC_OK);
    size_t bytes = sizeof(float) * (size_t)(seq * kWidth);
    for (int k = 0; k < 2; ++k) {
      EXPECT(memcmp(y[k] + b * seq * kWidth, one_y, bytes) == 0);
      EXPECT(memcmp(z[k] + b * kWidth, one_z, sizeof one_z) == 0);
    }
  }
  free(x), free(mask);
  for (int k = 0; k < 2; ++k)
    free(y[k]), free(z[k]);
}

int main(void) {
  const tcc_model_info *info = bb_info();
  void *ws = tcc_workspace_alloc(bb_workspace_size());
  tcc_context *two = NULL;
  EXPECT(tcc_context_create(2, &two) == TCC_OK);

  EXPECT(strcmp(info->batch_dim, "batch") == 0 && strcmp(info->bounded_dim, "seq") == 0);
  EXPECT(info->inputs[0].batch_multiple == 1 && info->inputs[0].run_time_dims == 2u);
  EXPECT(info->outputs[0].batch_multiple == 1 && info->outputs[0].run_time_dims == 2u);
  EXPECT(info->outputs[1].run_time_dims == 0u);

  check(3, 7, ws, two);
  check(2, kBound, ws, two);
  check(4, 1, ws, two);

  /* The checked call says what is wrong: a batch of 0 (the outputs' dims
   * come from a run), inputs that disagree on the batch or the sequence. */
  float x[2 * 5 * kWidth] = {0}, mask[2 * 5] = {0};
  float y[2 * kBound * kWidth], z[2 * kWidth];
  int64_t xd[3] = {0, 5, kWidth}, md[2] = {0, 5}, yd[3] = {0, kBound, kWidth};
  int64_t zd[2] = {0, kWidth}, yr[3], zr[2];
  tcc_tensor in[2] = {{TCC_DTYPE_F32, 3, xd, x, NULL},
                      {TCC_DTYPE_F32, 2, md, mask, NULL}};
  tcc_tensor out[2] = {{TCC_DTYPE_F32, 3, yd, y, yr},
                       {TCC_DTYPE_F32, 2, zd, z, zr}};
  tcc_error err;
  EXPECT(bb_run_tensors(in, 2, out, 2, ws, bb_workspace_size(), &err) ==
         TCC_ERROR_INVALID_ARGUMENT);
  printf("checked: %s\n", err.message);
  xd[0] = 2, md[0] = 3, yd[0] = 2, zd[0] = 2;
  EXPECT(bb_run_tensors(in, 2, out, 2, ws, bb_workspace_size(), &err) ==
         TCC_ERROR_INVALID_ARGUMENT);
  printf("checked: %s\n", err.message);
  md[0] = 2, md[1] = 4;
  EXPECT(bb_run_tensors(in, 2, out, 2, ws, bb_workspace_size(), &err) ==
         TCC_ERROR_INVALID_ARGUMENT);
  printf("checked: %s\n", err.message);
  /* The plain batched call: a negative batch, input dims out of range. */
  int64_t over[2] = {17, 17}, rtd;
  EXPECT(bb_run_batch(two, -1, x, mask, over, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(bb_run_batch(two, 2, x, mask, over, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(bb_run_batch(two, 2, x, mask, NULL, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);

  tcc_context_destroy(two);
  tcc_workspace_free(ws);
  if (failures)
    return 1;
  printf("batch_bounded_check: OK\n");
  return 0;
}
