/* run_time_dims_check.c - the C API of a model whose output has a dim known
 * only after the run (test/Import/Inputs/nonzero_transposed.onnx, --name nz:
 * idx = transpose(NonZero(relu(x))), x 3x4): nz_run writes the count to
 * run_time_dims and packs idx at the start of its buffer; nz_run_tensors
 * reports the dims in result_dims and refuses a null result_dims or a
 * buffer not sized for the bound. Built with ASan and UBSan. */
#include "nz.h"

#include <stdio.h>
#include <string.h>

#define CHECK_NAME "run_time_dims_check"
#include "expect.h"

int main(void) {
  const tcc_model_info *info = nz_info();
  /* Non-zero after relu at (0,1), (0,3), (1,0), (2,2): four rows. */
  float x[12] = {0, 1.5f, -1, 2, 3, 0, -2, 0, 0, 0, 0.25f, -4};
  const int64_t want[8] = {0, 1, 0, 3, 1, 0, 2, 2};
  int64_t idx[12 * 2], count = -1;
  void *ws = tcc_workspace_alloc(nz_workspace_size());

  EXPECT(info->outputs[0].run_time_dims == 1u);
  EXPECT(info->outputs[0].dims[0] == 12 && info->outputs[0].dims[1] == 2);
  EXPECT(info->outputs[0].size_bytes == sizeof idx);

  /* The plain call: the count, and the rows packed at the start. */
  memset(idx, 0xff, sizeof idx);
  EXPECT(nz_run(x, idx, &count, ws) == TCC_OK);
  EXPECT(count == 4);
  EXPECT(memcmp(idx, want, sizeof want) == 0);
  EXPECT(nz_run(x, idx, NULL, ws) == TCC_ERROR_INVALID_ARGUMENT);

  /* The checked call: dims are the bounds, result_dims the actual dims. */
  int64_t xd[2] = {3, 4}, bound[2] = {12, 2}, got[2] = {-1, -1};
  tcc_tensor in = {TCC_DTYPE_F32, 2, xd, x, NULL};
  tcc_tensor out = {TCC_DTYPE_I64, 2, bound, idx, got};
  tcc_error err;
  memset(idx, 0xff, sizeof idx);
  EXPECT(nz_run_tensors(&in, 1, &out, 1, ws, nz_workspace_size(), &err) ==
         TCC_OK);
  EXPECT(got[0] == 4 && got[1] == 2);
  EXPECT(memcmp(idx, want, sizeof want) == 0);

  /* All zero: no rows. */
  float zeros[12] = {0};
  EXPECT(nz_run_tensors(&in, 1, &out, 1, ws, nz_workspace_size(), &err) ==
         TCC_OK);
  in.data = zeros;
  EXPECT(nz_run_tensors(&in, 1, &out, 1, ws, nz_workspace_size(), &err) ==
         TCC_OK);
  EXPECT(got[0] == 0 && got[1] == 2);

  /* Refusals. */
  out.result_dims = NULL;
  if (nz_run_tensors(&in, 1, &out, 1, ws, nz_workspace_size(), &err) !=
      TCC_OK)
    printf("checked: %s\n", err.message);
  out.result_dims = got;
  int64_t small[2] = {4, 2};
  out.dims = small;
  if (nz_run_tensors(&in, 1, &out, 1, ws, nz_workspace_size(), &err) !=
      TCC_OK)
    printf("checked: %s\n", err.message);

  tcc_workspace_free(ws);
  if (failures)
    return 1;
  printf("run_time_dims_check: OK\n");
  return 0;
}
