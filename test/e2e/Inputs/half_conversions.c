/* half_conversions.c - libtccrt's float16 conversions (__extendhfsf2, __truncsfhf2, which LLVM
 * calls on CPUs without half-precision instructions, e.g. RISC-V; docs/cross.md) against the
 * x86 F16C instructions (vcvtps2ph, round to nearest even; vcvtph2ps): every float16, and every
 * STEP-th float32 bit pattern plus the boundaries. Exit 0 when all agree (NaNs: any quiet NaN of
 * the same sign). Build with -mf16c, which makes the casts below F16C instructions. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tcc/runtime.h"

float __extendhfsf2(float boxed);
float __truncsfhf2(float value);

static unsigned long bad;

static void check_trunc(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  uint16_t want = (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
  float boxed = __truncsfhf2(f);
  uint32_t bits;
  memcpy(&bits, &boxed, sizeof(bits));
  uint16_t got = (uint16_t)bits;
  int nan = (u & 0x7fffffffu) > 0x7f800000u;
  int ok = nan ? (got & 0x7e00u) == 0x7e00u && (got & 0x8000u) == (want & 0x8000u) : got == want;
  if (!ok && bad++ < 10)
    printf("__truncsfhf2(0x%08x): 0x%04x, F16C gives 0x%04x\n", u, got, want);
}

int main(void) {
  const uint32_t step = 257, edges[] = {0x00000000u, 0x33000000u, 0x33000001u, 0x337fffffu,
                                        0x38800000u, 0x387fffffu, 0x477fe000u, 0x477fefffu,
                                        0x477ff000u, 0x7f800000u, 0x7f800001u, 0x7fc00000u};
  unsigned long checked = 0;
  for (uint64_t u = 0; u <= 0xffffffffu; u += step, ++checked)
    check_trunc((uint32_t)u);
  for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); ++i, checked += 2) {
    check_trunc(edges[i]);
    check_trunc(edges[i] | 0x80000000u);
  }
  for (uint32_t h = 0; h < 0x10000u; ++h, ++checked) {
    float want = _cvtsh_ss((unsigned short)h);
    uint32_t box = 0xffff0000u | h, w, g;
    float boxed, got;
    memcpy(&boxed, &box, sizeof(boxed));
    got = __extendhfsf2(boxed);
    memcpy(&w, &want, sizeof(w));
    memcpy(&g, &got, sizeof(g));
    if (w != g && !(want != want && got != got) && bad++ < 10)
      printf("__extendhfsf2(0x%04x): 0x%08x, F16C gives 0x%08x\n", h, g, w);
  }
  printf("half conversions: %lu checked, %lu differ (runtime: %zu-byte float16)\n", checked, bad,
         tcc_dtype_size(TCC_DTYPE_F16));
  return bad != 0;
}
