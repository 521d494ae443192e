/* if_branch_check.c - the C API of a model with an If compiled one branch
 * of (test/Import/Inputs/if_branch_runtime.onnx, --dim n=6, --name dec:
 * y = x @ w1 when sr == 16000; else_branch's x @ w2 cannot be shaped):
 * a run with sr 16000 returns TCC_OK, one with another sr TCC_ERROR_BRANCH
 * with tcc_run_error_message naming the If; the next good run is TCC_OK
 * again, and dec_run_tensors puts the message in its error. Built with
 * ASan and UBSan. */
#include "dec.h"

#include <stdio.h>
#include <string.h>

#define CHECK_NAME "if_branch_check"
#include "expect.h"

int main(void) {
  float x[4 * 6], y[4 * 3];
  for (int i = 0; i < 4 * 6; ++i)
    x[i] = (float)(i % 5) - 2.0f;
  int64_t sr16 = 16000, sr8 = 8000;
  void *ws = tcc_workspace_alloc(dec_workspace_size());

  EXPECT(strcmp(tcc_run_error_message(), "") == 0);
  EXPECT(dec_run(x, &sr16, y, ws) == TCC_OK);
  EXPECT(dec_run(x, &sr8, y, ws) == TCC_ERROR_BRANCH);
  printf("%s: %s\n", tcc_status_string(TCC_ERROR_BRANCH),
         tcc_run_error_message());
  EXPECT(dec_run(x, &sr16, y, ws) == TCC_OK);

  int64_t xd[2] = {4, 6}, yd[2] = {4, 3};
  tcc_tensor in[2] = {{TCC_DTYPE_F32, 2, xd, x, NULL},
                      {TCC_DTYPE_I64, 0, NULL, &sr8, NULL}};
  tcc_tensor out = {TCC_DTYPE_F32, 2, yd, y, NULL};
  tcc_error err;
  EXPECT(dec_run_tensors(in, 2, &out, 1, ws, dec_workspace_size(), &err) ==
         TCC_ERROR_BRANCH);
  printf("run_tensors: %s\n", err.message);
  in[1].data = &sr16;
  EXPECT(dec_run_tensors(in, 2, &out, 1, ws, dec_workspace_size(), &err) ==
         TCC_OK);

  tcc_workspace_free(ws);
  if (failures == 0)
    printf(CHECK_NAME ": OK\n");
  return failures != 0;
}
