/* weights-section.test: runs the model of a 768x768 weight of ones (compiled
 * with --name big) on a row of ones; every output is the sum of 768 ones. */
#include "big.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static float x[768], y[768];
  for (int i = 0; i < 768; ++i)
    x[i] = 1.0f;
  void *workspace = tcc_workspace_alloc(big_workspace_size());
  if (!workspace || big_run(x, y, workspace) != TCC_OK) {
    fprintf(stderr, "run failed\n");
    return 1;
  }
  tcc_workspace_free(workspace);
  for (int i = 0; i < 768; ++i)
    if (y[i] != 768.0f) {
      fprintf(stderr, "y[%d] = %g, expected 768\n", i, y[i]);
      return 1;
    }
  printf("ok\n");
  return 0;
}
