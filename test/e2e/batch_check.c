/* batch_check.c - the C API of a model compiled with a run-time batch dim
 * (test/Import/Inputs/batch_mlp.onnx, --name mlp): the one-sample entry
 * point, mlp_run_batch and mlp_run_tensors agree bit for bit on 3 samples,
 * on a context too; a batch of 0 runs nothing; wrong batches are refused
 * with a message and nothing written. Built with ASan and UBSan. */
#include "mlp.h"

#include <stdio.h>
#include <string.h>

enum { kBatch = 3, kX = 6, kY = 5, kZ = 1 };

#define CHECK_NAME "batch_check"
#include "expect.h"

/* Runs the checked call on `batch` rows of x, y, z with dims xd, yd, zd. */
static tcc_status checked(tcc_context *context, const int64_t *xd,
                          const int64_t *yd, const int64_t *zd, float *x,
                          float *y, float *z, void *ws) {
  tcc_tensor in = {TCC_DTYPE_F32, 3, xd, x};
  tcc_tensor out[2] = {{TCC_DTYPE_F32, 2, yd, y}, {TCC_DTYPE_F32, 1, zd, z}};
  tcc_error err;
  tcc_status st = mlp_run_tensors_ctx(context, &in, 1, out, 2, ws,
                                      mlp_workspace_size(), &err);
  if (st != TCC_OK)
    printf("checked: %s\n", err.message);
  return st;
}

int main(void) {
  const tcc_model_info *info = mlp_info();
  float x[kBatch * kX], y1[kBatch * kY], z1[kBatch], yb[kBatch * kY],
      zb[kBatch], yt[kBatch * kY], zt[kBatch], yc[kBatch * kY], zc[kBatch];
  void *ws = tcc_workspace_alloc(mlp_workspace_size());
  tcc_context *two = NULL;
  int i;

  EXPECT(strcmp(info->batch_dim, MLP_BATCH_DIM) == 0);
  EXPECT(info->inputs[0].batch_multiple == 1 && info->inputs[0].dims[0] == 1);
  EXPECT(info->outputs[1].batch_multiple == 1 && info->outputs[1].size_bytes == 4);
  for (i = 0; i < kBatch * kX; ++i)
    x[i] = (float)((i * 37) % 11) / 5.0f - 1.0f;

  /* One sample at a time through the entry point. */
  for (i = 0; i < kBatch; ++i)
    EXPECT(mlp_run(x + i * kX, y1 + i * kY, z1 + i * kZ, ws) == TCC_OK);
  EXPECT(mlp_run_batch(NULL, kBatch, x, yb, zb, ws) == TCC_OK);
  int64_t xd[3] = {kBatch, 2, 3}, yd[2] = {kBatch, kY}, zd[1] = {kBatch};
  EXPECT(checked(NULL, xd, yd, zd, x, yt, zt, ws) == TCC_OK);
  EXPECT(tcc_context_create(2, &two) == TCC_OK);
  EXPECT(checked(two, xd, yd, zd, x, yc, zc, ws) == TCC_OK);
  EXPECT(memcmp(y1, yb, sizeof y1) == 0 && memcmp(z1, zb, sizeof z1) == 0);
  EXPECT(memcmp(y1, yt, sizeof y1) == 0 && memcmp(z1, zt, sizeof z1) == 0);
  EXPECT(memcmp(y1, yc, sizeof y1) == 0 && memcmp(z1, zc, sizeof z1) == 0);
  /* The samples differ, so each call read its own. */
  EXPECT(memcmp(y1, y1 + kY, kY * sizeof(float)) != 0);

  /* A batch of 0 runs nothing. */
  memset(yt, 0x7f, sizeof yt);
  int64_t x0[3] = {0, 2, 3}, y0[2] = {0, kY}, z0[1] = {0};
  EXPECT(checked(NULL, x0, y0, z0, x, yt, zt, ws) == TCC_OK);
  EXPECT(mlp_run_batch(NULL, 0, x, yt, zt, ws) == TCC_OK);
  EXPECT(yt[0] == yt[1] && yt[0] != 0.0f);

  /* Wrong batches write nothing. */
  int64_t zbad[1] = {2}, xbad[3] = {kBatch, 3, 3};
  EXPECT(checked(NULL, xd, yd, zbad, x, yt, zt, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(checked(NULL, xbad, yd, zd, x, yt, zt, ws) == TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(mlp_run_batch(NULL, -1, x, yt, zt, ws) == TCC_ERROR_INVALID_ARGUMENT);
  /* A batch whose bytes would not fit an address (the run would step past
   * them with a pointer that wrapped). */
  int64_t xhuge[3] = {INT64_MAX / 2, 2, 3}, yhuge[2] = {INT64_MAX / 2, kY},
          zhuge[1] = {INT64_MAX / 2};
  EXPECT(checked(NULL, xhuge, yhuge, zhuge, x, yt, zt, ws) ==
         TCC_ERROR_INVALID_ARGUMENT);
  EXPECT(yt[0] == yt[1] && yt[0] != 0.0f);

  tcc_context_destroy(two);
  tcc_workspace_free(ws);
  if (failures)
    return 1;
  printf("batch_check: OK (3 samples: mlp_run per sample = mlp_run_batch = "
         "mlp_run_tensors = on 2 threads)\n");
  return 0;
}
