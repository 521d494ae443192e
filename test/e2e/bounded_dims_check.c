/* bounded_dims_check.c - the C API of a model whose sequence varies at run
 * time up to a bound (test/Import/Inputs/bounded_attention.onnx compiled with
 * --max-dim seq=16 --name ba: x [1, seq, 8] and mask [1, seq] in, y [1, seq, 8]
 * and z [1, 8] out). The inputs are allocated at their actual size, so
 * AddressSanitizer catches any read of the padding the bound layout has;
 * ba_run takes input_dims and writes y's actual dims to run_time_dims;
 * ba_run_tensors reads the dims from the tensors. Built with ASan and UBSan. */
#include "ba.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_NAME "bounded_dims_check"
#include "expect.h"

enum { kBound = 16, kWidth = 8 };

/* Runs the model at `seq` through every entry point; all must agree. */
static void check_seq(int64_t seq, void *ws, tcc_context *two) {
  float *x = malloc(sizeof(float) * (size_t)(seq * kWidth));
  float *mask = malloc(sizeof(float) * (size_t)seq);
  float y[3][kBound * kWidth], z[3][kWidth];
  int64_t dims[2] = {seq, seq}, got[3] = {-1, -1, -1};
  for (int64_t i = 0; i < seq * kWidth; ++i)
    x[i] = (float)((i * 7) % 11) / 11.0f - 0.5f;
  for (int64_t i = 0; i < seq; ++i)
    mask[i] = i % 3 == 2 ? -1e4f : 0.0f;
  memset(y, 0, sizeof y);

  EXPECT(ba_run(x, mask, dims, y[0], z[0], &got[0], ws) == TCC_OK);
  EXPECT(got[0] == seq);
  EXPECT(ba_run_ctx(two, x, mask, dims, y[1], z[1], &got[1], ws) == TCC_OK);
  EXPECT(got[1] == seq);

  int64_t xd[3] = {1, seq, kWidth}, md[2] = {1, seq};
  int64_t yd[3] = {1, kBound, kWidth}, zd[2] = {1, kWidth};
  int64_t yr[3] = {-1, -1, -1}, zr[2];
  tcc_tensor in[2] = {{TCC_DTYPE_F32, 3, xd, x, NULL},
                      {TCC_DTYPE_F32, 2, md, mask, NULL}};
  tcc_tensor out[2] = {{TCC_DTYPE_F32, 3, yd, y[2], yr},
                       {TCC_DTYPE_F32, 2, zd, z[2], zr}};
  tcc_error err;
  EXPECT(ba_run_tensors(in, 2, out, 2, ws, ba_workspace_size(), &err) ==
         TCC_OK);
  EXPECT(yr[0] == 1 && yr[1] == seq && yr[2] == kWidth);
  /* Bit-identical on one thread, on two, and through the checked call. */
  size_t bytes = sizeof(float) * (size_t)(seq * kWidth);
  EXPECT(memcmp(y[0], y[1], bytes) == 0 && memcmp(y[0], y[2], bytes) == 0);
  EXPECT(memcmp(z[0], z[1], sizeof z[0]) == 0 &&
         memcmp(z[0], z[2], sizeof z[0]) == 0);
  free(x);
  free(mask);
}

int main(void) {
  const tcc_model_info *info = ba_info();
  void *ws = tcc_workspace_alloc(ba_workspace_size());
  tcc_context *two = NULL;
  EXPECT(tcc_context_create(2, &two) == TCC_OK);

  EXPECT(strcmp(info->bounded_dim, "seq") == 0);
  EXPECT(strcmp(BA_BOUNDED_DIM, "seq") == 0 && BA_BOUNDED_DIM_MAX == kBound);
  EXPECT(info->inputs[0].run_time_dims == 2u && info->inputs[1].run_time_dims == 2u);
  EXPECT(info->inputs[0].dims[1] == kBound);
  EXPECT(info->outputs[0].run_time_dims == 2u && info->outputs[1].run_time_dims == 0u);

  check_seq(1, ws, two);
  check_seq(7, ws, two);
  check_seq(kBound, ws, two);

  /* The plain call refuses input dims out of 1..16 or that disagree. */
  float x[kBound * kWidth] = {0}, mask[kBound] = {0}, y[kBound * kWidth], z[kWidth];
  int64_t rtd;
  int64_t zero[2] = {0, 0}, over[2] = {17, 17}, differ[2] = {5, 4};
  EXPECT(ba_run(x, mask, zero, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(ba_run(x, mask, over, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(ba_run(x, mask, differ, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(ba_run(x, mask, NULL, y, z, &rtd, ws) == TCC_ERROR_INVALID_ARGUMENT);

  /* The checked call says what is wrong. */
  int64_t xd[3] = {1, 5, kWidth}, md[2] = {1, 4}, yd[3] = {1, kBound, kWidth};
  int64_t zd[2] = {1, kWidth}, yr[3], zr[2];
  tcc_tensor in[2] = {{TCC_DTYPE_F32, 3, xd, x, NULL},
                      {TCC_DTYPE_F32, 2, md, mask, NULL}};
  tcc_tensor out[2] = {{TCC_DTYPE_F32, 3, yd, y, yr},
                       {TCC_DTYPE_F32, 2, zd, z, zr}};
  tcc_error err;
  EXPECT(ba_run_tensors(in, 2, out, 2, ws, ba_workspace_size(), &err) ==
         TCC_ERROR_INVALID_ARGUMENT);
  printf("checked: %s\n", err.message);
  xd[1] = 17, md[1] = 17;
  EXPECT(ba_run_tensors(in, 2, out, 2, ws, ba_workspace_size(), &err) ==
         TCC_ERROR_INVALID_ARGUMENT);
  printf("checked: %s\n", err.message);
  xd[1] = 5, md[1] = 5, yd[1] = 5;
  EXPECT(ba_run_tensors(in, 2, out, 2, ws, ba_workspace_size(), &err) ==
         TCC_ERROR_INVALID_ARGUMENT);
  printf("checked: %s\n", err.message);

  tcc_context_destroy(two);
  tcc_workspace_free(ws);
  if (failures)
    return 1;
  printf("bounded_dims_check: OK\n");
  return 0;
}
