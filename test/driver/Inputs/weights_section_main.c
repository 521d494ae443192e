/* weights-section.test: runs the model of a 768x768 weight of ones (compiled
 * with --name big) on a row of ones; every output is the sum of 768 ones.
 * Then checks that tcc_workspace_alloc aligns 2 MB or more to 2 MB and less
 * to TCC_WORKSPACE_ALIGNMENT. */
#include "big.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Allocates `size` bytes, writes them all, and checks their alignment. */
static int check_alignment(size_t size, uintptr_t alignment) {
  char *p = tcc_workspace_alloc(size);
  if (!p || (uintptr_t)p % alignment != 0) {
    fprintf(stderr, "tcc_workspace_alloc(%zu) = %p, not aligned to %zu\n",
            size, (void *)p, (size_t)alignment);
    return 0;
  }
  memset(p, 1, size);
  tcc_workspace_free(p);
  return 1;
}

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
  if (!check_alignment(5u << 20, 2u << 20) ||
      !check_alignment(2u << 20, 2u << 20) ||
      !check_alignment(1000, TCC_WORKSPACE_ALIGNMENT))
    return 1;
  printf("ok\n");
  return 0;
}
