/* peak_flops.c - single-thread fp32 FMA throughput (used by utils/bench.py; never part of CI).
 * Build: cc -O3 -march=native utils/peak_flops.c -o peak_flops
 * Prints "GFLOPS <value> WIDTH <floats per vector> CHAINS <n>": the best of several trials of
 * CHAINS independent vector FMA chains (enough to cover FMA latency x ports on current x86). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__AVX512F__)
#define WIDTH 16
#elif defined(__AVX__) || defined(__AVX2__)
#define WIDTH 8
#else
#define WIDTH 4
#endif
#define CHAINS 12

typedef float vf __attribute__((vector_size(WIDTH * sizeof(float))));

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static float kernel(long iters, float seed) {
  vf acc[CHAINS], a, b;
  long i;
  int c;
  for (c = 0; c < CHAINS; ++c)
    acc[c] = (vf){0} + seed * (float)(c + 1);
  a = (vf){0} + 0.999999f;
  b = (vf){0} + 1e-7f;
  for (i = 0; i < iters; ++i) {
#pragma GCC unroll 12
    for (c = 0; c < CHAINS; ++c)
      acc[c] = acc[c] * a + b; /* contracted to one FMA (-O3 -march=native, GNU C) */
  }
  float s = 0;
  for (c = 0; c < CHAINS; ++c)
    for (int j = 0; j < WIDTH; ++j)
      s += acc[c][j];
  return s;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 50000000L;
  double best = 0;
  float sink = 0;
  int t;
  sink += kernel(iters / 10, 1.0f); /* warm up (frequency ramp) */
  for (t = 0; t < 5; ++t) {
    double t0 = now_s();
    sink += kernel(iters, (float)t);
    double dt = now_s() - t0;
    double gflops = 2.0 * CHAINS * WIDTH * (double)iters / dt * 1e-9;
    if (gflops > best)
      best = gflops;
  }
  printf("GFLOPS %.3f WIDTH %d CHAINS %d\n", best, WIDTH, CHAINS);
  fprintf(stderr, "(checksum %g)\n", sink);
  return 0;
}
