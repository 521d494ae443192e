/* gpu_bench.c - times one model compiled with --target cuda (utils/gpu_check.sh; never CI).
 *
 * Build (utils/gpu_prepare.py does):
 *   cc -O2 -I include -I DIR -DTCC_MODEL_HEADER='"net.h"' -DTCC_MODEL_PREFIX=net \
 *      [-DTCC_MODEL_WEIGHTS_BYTES=NET_WEIGHTS_BYTES] utils/gpu_bench.c net.o \
 *      build/lib/libtccrt.a -lm -lpthread -ldl -o gpu_bench_net
 * Usage: gpu_bench_net WARMUP ITERATIONS
 *   Inputs are deterministic (floats in [-1, 1), integer inputs 0/1). A model compiled with
 *   --weights file gets weights made here (small deterministic floats, as bytes: the file is
 *   too big to carry), handed over with NAME_weights_wrap: timing only, not results.
 *   Prints one line per timed run: its latency in ms (CLOCK_MONOTONIC; the call copies the
 *   inputs to the GPU, runs the kernels, copies the outputs back and waits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include TCC_MODEL_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define MODEL_INFO CAT(TCC_MODEL_PREFIX, _info)
#define MODEL_RUN_PACKED CAT(TCC_MODEL_PREFIX, _run_packed)
#define MODEL_WEIGHTS_WRAP CAT(TCC_MODEL_PREFIX, _weights_wrap)

static void die(const char *what, tcc_status st) {
  fprintf(stderr, "gpu_bench: %s: %s %s\n", what, tcc_status_string(st),
          tcc_cuda_error_message());
  exit(1);
}

static uint32_t seed = 12345u;
static float next_float(void) {
  seed = seed * 1664525u + 1013904223u;
  return (float)(seed >> 8) / 8388608.0f - 1.0f;
}

static void fill(const tcc_tensor_info *t, void *buf) {
  for (size_t i = 0; i < t->num_elements; ++i) {
    switch (t->dtype) {
    case TCC_DTYPE_F32: ((float *)buf)[i] = next_float(); break;
    case TCC_DTYPE_I64: ((int64_t *)buf)[i] = (int64_t)(i & 1); break;
    case TCC_DTYPE_I32: ((int32_t *)buf)[i] = (int32_t)(i & 1); break;
    default: memset(buf, 0, t->size_bytes); return;
    }
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WARMUP ITERATIONS\n", argv[0]);
    return 2;
  }
  long warmup = atol(argv[1]), iterations = atol(argv[2]);
  const tcc_model_info *info = MODEL_INFO();
  const void *inputs[16];
  void *outputs[16];
  if (info->num_inputs > 16 || info->num_outputs > 16) {
    fprintf(stderr, "gpu_bench: more than 16 inputs or outputs\n");
    return 1;
  }
  for (int32_t i = 0; i < info->num_inputs; ++i) {
    void *buf = tcc_workspace_alloc(info->inputs[i].size_bytes);
    fill(&info->inputs[i], buf);
    inputs[i] = buf;
  }
  for (int32_t i = 0; i < info->num_outputs; ++i)
    outputs[i] = tcc_workspace_alloc(info->outputs[i].size_bytes);
#ifdef TCC_MODEL_WEIGHTS_BYTES
  float *bytes = tcc_workspace_alloc(TCC_MODEL_WEIGHTS_BYTES);
  for (size_t i = 0; i < TCC_MODEL_WEIGHTS_BYTES / sizeof(float); ++i)
    bytes[i] = 0.02f * next_float();
  tcc_weights *weights = NULL;
  tcc_status st = MODEL_WEIGHTS_WRAP(bytes, &weights);
  if (st != TCC_OK)
    die("weights", st);
#define WEIGHTS weights,
#else
#define WEIGHTS
#endif
  for (long i = 0; i < warmup + iterations; ++i) {
    double t0 = now_ms();
    tcc_status run = MODEL_RUN_PACKED(WEIGHTS inputs, outputs, NULL);
    double ms = now_ms() - t0;
    if (run != TCC_OK)
      die("run", run);
    if (i >= warmup)
      printf("%.4f\n", ms);
  }
  return 0;
}
