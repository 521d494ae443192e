/* expect.h - the EXPECT macro of the C API checks (test/e2e/*_check.c):
 * prints CHECK_NAME, the line and the condition of each failed expectation
 * and counts it in `failures`, which main() turns into the exit status. */
#ifndef TCC_TEST_EXPECT_H
#define TCC_TEST_EXPECT_H

#include <stdio.h>

#ifndef CHECK_NAME
#error "define CHECK_NAME (the check's name in its messages) before including expect.h"
#endif

static int failures;
#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf(CHECK_NAME ": FAIL line %d: %s\n", __LINE__, #cond);             \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

#endif /* TCC_TEST_EXPECT_H */
