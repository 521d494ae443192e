/* peak_int8.c - single-thread 8-bit dot-product throughput (AVX512-VNNI vpdpbusd; never part of
 * CI). Build: cc -O3 -march=native utils/peak_int8.c -o peak_int8
 * Prints "GOPS <value> CHAINS <n>": the best of several trials of CHAINS independent vpdpbusd
 * chains on 512-bit vectors, counting each of an instruction's 64 multiply-adds as 2 ops. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHAINS 12

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#if defined(__AVX512VNNI__)
__attribute__((noinline)) static int kernel(long iters, int seed) {
  __m512i acc[CHAINS];
  __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-1);
  for (int c = 0; c < CHAINS; ++c)
    acc[c] = _mm512_set1_epi32(seed + c);
  for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < CHAINS; ++c)
      acc[c] = _mm512_dpbusd_epi32(acc[c], a, b);
  }
  int s = 0;
  for (int c = 0; c < CHAINS; ++c)
    s += _mm512_reduce_add_epi32(acc[c]);
  return s;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 20000000L;
  double best = 0;
  int sink = kernel(iters / 10, 1);
  for (int t = 0; t < 5; ++t) {
    double t0 = now_s();
    sink += kernel(iters, t);
    double dt = now_s() - t0;
    double gops = 2.0 * 64 * CHAINS * (double)iters / dt * 1e-9;
    if (gops > best)
      best = gops;
  }
  printf("GOPS %.3f CHAINS %d\n", best, CHAINS);
  fprintf(stderr, "(checksum %d)\n", sink);
  return 0;
}
#else
int main(void) {
  fprintf(stderr, "peak_int8: this CPU (or -march) has no AVX512-VNNI\n");
  return 1;
}
#endif
