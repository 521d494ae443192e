/* bench_main.c - times one tcc-compiled model (used by utils/bench.py; never part of CI). */
/*
 * Build:
 *   cc -O2 -I include -I DIR_OF_HEADER -DTCC_MODEL_HEADER='"net.h"'
 * -DTCC_MODEL_PREFIX=net \ utils/bench_main.c net.o build/lib/libtccrt.a -lm
 * -lpthread -o bench_net Usage: bench_net DIR|- WARMUP ITERATIONS [THREADS]
 *   THREADS: the context's thread count (default 1; 0: one per CPU).
 *   DIR: reads DIR/input_<i>.bin (raw bytes, as test/e2e/harness.c) and, at
 * exit, writes DIR/output_<i>.bin; "-" fills the inputs with deterministic data
 * instead. Runs NAME_run_packed_ctx WARMUP times untimed, then ITERATIONS
 * times, printing each run's latency in ms (CLOCK_MONOTONIC), one per line.
 *   ITERATIONS = 0: serve mode (bench.py interleaves engines this way): after
 * the warm-up, each line "N" on stdin runs N timed iterations and prints their
 * latencies; EOF ends. With TCC_BENCH_COLD set, also prints to stderr, once,
 * "first result: X ms": the time from main() to the end of the first run, the
 * context, the buffers and the inputs included; and at exit "peak resident: N
 * kB", the process's VmHWM (Linux; utils/cold_start.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TCC_MODEL_HEADER
#error "define TCC_MODEL_HEADER, e.g. -DTCC_MODEL_HEADER='\"resnet50.h\"'"
#endif
#ifndef TCC_MODEL_PREFIX
#error "define TCC_MODEL_PREFIX, e.g. -DTCC_MODEL_PREFIX=resnet50"
#endif
#include TCC_MODEL_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define MODEL_INFO CAT(TCC_MODEL_PREFIX, _info)
#define MODEL_RUN_PACKED_CTX CAT(TCC_MODEL_PREFIX, _run_packed_ctx)
#define MODEL_WORKSPACE_SIZE CAT(TCC_MODEL_PREFIX, _workspace_size)

static void die(const char *msg, const char *arg) {
  fprintf(stderr, "bench_main: error: %s%s\n", msg, arg ? arg : "");
  exit(1);
}

static void *alloc(size_t n) {
  void *p = tcc_workspace_alloc(n ? n : 1);
  if (!p)
    die("out of memory", NULL);
  return p;
}

static void read_file(const char *path, void *buf, size_t size) {
  FILE *f = fopen(path, "rb");
  long actual;
  if (!f)
    die("cannot open ", path);
  if (fseek(f, 0, SEEK_END) != 0 || (actual = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
      (size_t)actual != size || (size && fread(buf, 1, size, f) != size))
    die("wrong size or unreadable: ", path);
  fclose(f);
}

/* Deterministic data: small floats in [-1, 1); integers 0/1 (valid token ids and masks). */
static void fill(const tcc_tensor_info *t, void *buf) {
  size_t i, n = t->num_elements;
  uint32_t s = 12345u;
  switch (t->dtype) {
  case TCC_DTYPE_F32:
    for (i = 0; i < n; ++i) {
      s = s * 1664525u + 1013904223u;
      ((float *)buf)[i] = (float)(s >> 8) / 8388608.0f - 1.0f;
    }
    break;
  case TCC_DTYPE_I64:
    for (i = 0; i < n; ++i)
      ((int64_t *)buf)[i] = (int64_t)(i & 1);
    break;
  case TCC_DTYPE_I32:
    for (i = 0; i < n; ++i)
      ((int32_t *)buf)[i] = (int32_t)(i & 1);
    break;
  default:
    memset(buf, 0, t->size_bytes);
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static const tcc_model_info *info;
static void **inputs, **outputs, *workspace;
static tcc_context *context;

static double main_ms =
    -1.0; /* main()'s start, until the first run reports it */

static void run_once(void) {
  tcc_status st = MODEL_RUN_PACKED_CTX(context, (const void *const *)inputs,
                                       (void *const *)outputs, workspace);
  if (st != TCC_OK)
    die("run_packed failed: ", tcc_status_string(st));
  if (main_ms >= 0.0) {
    fprintf(stderr, "first result: %.6f ms\n", now_ms() - main_ms);
    main_ms = -1.0;
  }
}

static void timed(long n) {
  long i;
  for (i = 0; i < n; ++i) {
    double t0 = now_ms();
    run_once();
    printf("%.6f\n", now_ms() - t0);
  }
  fflush(stdout);
}

int main(int argc, char **argv) {
  char path[4096], line[64];
  long warmup, iterations, i;
  const char *dir;

  if (getenv("TCC_BENCH_COLD"))
    main_ms = now_ms();
  if (argc != 4 && argc != 5) {
    fprintf(stderr,
            "usage: %s DIR|- WARMUP ITERATIONS [THREADS]  (ITERATIONS 0: serve from stdin)\n",
            argv[0]);
    return 2;
  }
  if (tcc_context_create(argc == 5 ? atoi(argv[4]) : 1, &context) != TCC_OK)
    die("cannot create the context", NULL);
  dir = strcmp(argv[1], "-") ? argv[1] : NULL;
  warmup = atol(argv[2]);
  iterations = atol(argv[3]);
  info = MODEL_INFO();
  inputs = calloc((size_t)info->num_inputs + 1, sizeof *inputs);
  outputs = calloc((size_t)info->num_outputs + 1, sizeof *outputs);
  if (!inputs || !outputs)
    die("out of memory", NULL);
  for (i = 0; i < info->num_inputs; ++i) {
    inputs[i] = alloc(info->inputs[i].size_bytes);
    if (dir) {
      snprintf(path, sizeof path, "%s/input_%ld.bin", dir, i);
      read_file(path, inputs[i], info->inputs[i].size_bytes);
    } else {
      fill(&info->inputs[i], inputs[i]);
    }
  }
  for (i = 0; i < info->num_outputs; ++i)
    outputs[i] = alloc(info->outputs[i].size_bytes);
  workspace = alloc(MODEL_WORKSPACE_SIZE());

  for (i = 0; i < warmup; ++i)
    run_once();
  if (iterations > 0)
    timed(iterations);
  else
    while (fgets(line, sizeof line, stdin))
      timed(atol(line));

  for (i = 0; dir && i < info->num_outputs; ++i) {
    FILE *f;
    snprintf(path, sizeof path, "%s/output_%ld.bin", dir, i);
    if (!(f = fopen(path, "wb")) ||
        fwrite(outputs[i], 1, info->outputs[i].size_bytes, f) != info->outputs[i].size_bytes ||
        fclose(f) != 0)
      die("cannot write ", path);
  }
  tcc_context_destroy(context);
  if (getenv("TCC_BENCH_COLD")) {
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(path, sizeof path, f))
      if (!strncmp(path, "VmHWM:", 6))
        fprintf(stderr, "peak resident: %ld kB\n", atol(path + 6));
    if (f)
      fclose(f);
  }
  return 0;
}
