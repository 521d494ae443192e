/* abi_check.c - the generated C ABI under sanitizers: two models linked
 * into one program, both run from two threads at once (each call with its
 * own workspace), and wrong calls rejected without touching memory.
 *
 * Contexts: the outputs of runs on contexts of 1, 2, 3 and all-CPU threads
 * are bit-identical to the run without one; two threads run both models on
 * a context each, then on one context they share, all at once.
 *
 * Binding (Linux): a context's workers are each bound to one CPU when the
 * caller may run on enough of them, not with TCC_BIND_THREADS=0; a run on a
 * context gives the caller back the affinity it had, also when it was
 * confined to one CPU.
 *
 * Build with the headers of two models compiled with --name a and --name b:
 *   cc -I DIR -I include abi_check.c a.o b.o libtccrt.a -lpthread -lm
 *       -fsanitize=thread        (or -fsanitize=address,undefined)
 * Model a must be parallel.onnx (inputs x, w, y, a, b; outputs c, m1, m2).
 * Model b must have one float32 input of shape [2, 3, 4] whose dim 0 is the
 * symbolic dim 'batch' pinned to 2, and one output of the same shape.
 * The checked entry point's messages are printed ("checked: ...") for the
 * test to compare. Exits 0 when every check passes; prints what failed
 * otherwise. */
#define _GNU_SOURCE /* sched_getaffinity and the CPU_* macros */
#include "a.h"
#include "b.h"

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BUFFERS 16
#define RUNS_PER_THREAD 25

typedef tcc_status (*packed_fn)(const void *const *, void *const *, void *);

/* One model: its entry points, signature and buffers. */
typedef struct model {
  const tcc_model_info *info;
  packed_fn run_packed;
  tcc_run_packed_ctx_fn run_packed_ctx;
  void *inputs[MAX_BUFFERS];
  void *expected[MAX_BUFFERS]; /* outputs of a single-threaded run */
} model;

static int failures;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "abi_check: FAIL: %s\n", what);
    ++failures;
  }
}

/* Deterministic, dtype-agnostic input bytes (small values for floats). */
static void fill(void *data, const tcc_tensor_info *t, unsigned seed) {
  if (t->dtype == TCC_DTYPE_F32) {
    float *f = data;
    for (size_t i = 0; i < t->num_elements; ++i)
      f[i] = (float)((i * 7 + seed * 13) % 17) / 8.0f - 1.0f;
  } else {
    memset(data, (int)seed & 1, t->size_bytes);
  }
}

static void **alloc_outputs(const model *m) {
  void **outs = calloc(MAX_BUFFERS, sizeof(void *));
  for (int i = 0; i < m->info->num_outputs; ++i)
    outs[i] = calloc(1, m->info->outputs[i].size_bytes + 1);
  return outs;
}

static void free_outputs(const model *m, void **outs) {
  for (int i = 0; i < m->info->num_outputs; ++i)
    free(outs[i]);
  free(outs);
}

static void setup(model *m, const tcc_model_info *info, packed_fn run,
                  tcc_run_packed_ctx_fn run_ctx) {
  m->info = info;
  m->run_packed = run;
  m->run_packed_ctx = run_ctx;
  for (int i = 0; i < info->num_inputs; ++i) {
    m->inputs[i] = malloc(info->inputs[i].size_bytes + 1);
    fill(m->inputs[i], &info->inputs[i], (unsigned)i + 1);
  }
  void **outs = alloc_outputs(m);
  void *ws = tcc_workspace_alloc(info->workspace_size);
  check(m->run_packed((const void *const *)m->inputs, outs, ws) == TCC_OK,
        "single-threaded run");
  tcc_workspace_free(ws);
  for (int i = 0; i < info->num_outputs; ++i)
    m->expected[i] = outs[i];
  free(outs);
}

static int same_outputs(const model *m, void **outs) {
  for (int i = 0; i < m->info->num_outputs; ++i)
    if (memcmp(outs[i], m->expected[i], m->info->outputs[i].size_bytes))
      return 0;
  return 1;
}

/* What a worker thread runs: both models, without a context or on one. */
typedef struct work {
  model *models;
  tcc_context *context; /* null: no context */
} work;

/* Runs both models RUNS_PER_THREAD times with this thread's workspaces. */
static void *worker(void *arg) {
  work *w = arg;
  intptr_t mismatches = 0;
  for (int k = 0; k < 2; ++k) {
    model *m = &w->models[k];
    void **outs = alloc_outputs(m);
    void *ws = tcc_workspace_alloc(m->info->workspace_size);
    for (int r = 0; r < RUNS_PER_THREAD; ++r) {
      tcc_status st =
          w->context
              ? m->run_packed_ctx(w->context, (const void *const *)m->inputs,
                                  outs, ws)
              : m->run_packed((const void *const *)m->inputs, outs, ws);
      if (st != TCC_OK || !same_outputs(m, outs))
        ++mismatches;
    }
    tcc_workspace_free(ws);
    free_outputs(m, outs);
  }
  return (void *)mismatches;
}

/* Two threads run `worker` at once on contexts[0] and contexts[1]. */
static void run_two(model *models, tcc_context *c0, tcc_context *c1,
                    const char *what) {
  pthread_t threads[2];
  work works[2] = {{models, c0}, {models, c1}};
  for (int t = 0; t < 2; ++t)
    pthread_create(&threads[t], NULL, worker, &works[t]);
  for (int t = 0; t < 2; ++t) {
    void *mismatches;
    pthread_join(threads[t], &mismatches);
    check(mismatches == NULL, what);
  }
}

/* Runs `m` on `c` `runs` times and checks each run's outputs against the
 * run without a context, bit for bit. */
static void run_on_context(const model *m, tcc_context *c, int runs) {
  void **outs = alloc_outputs(m);
  void *ws = tcc_workspace_alloc(m->info->workspace_size);
  for (int run = 0; run < runs; ++run)
    check(m->run_packed_ctx(c, (const void *const *)m->inputs, outs, ws) ==
                  TCC_OK &&
              same_outputs(m, outs),
          "a run on a context is bit-identical to one without");
  tcc_workspace_free(ws);
  free_outputs(m, outs);
}

/* Every model on contexts of 1, 2, 3 and all-CPU threads gives the
 * outputs of the run without a context, bit for bit; wrong context calls
 * are refused. */
static void contexts(model *models) {
  for (int threads = 0; threads <= 3; ++threads) {
    tcc_context *c = NULL;
    check(tcc_context_create(threads, &c) == TCC_OK && c, "a context is made");
    check(threads == 0 || tcc_context_num_threads(c) == threads,
          "a context has the threads asked for");
    for (int k = 0; k < 2; ++k)
      run_on_context(&models[k], c, 1);
    tcc_context_destroy(c);
  }
  /* The unpacked and checked calls with a context. */
  model *a = &models[0];
  void **outs = alloc_outputs(a);
  void *ws = tcc_workspace_alloc(a->info->workspace_size);
  tcc_context *c = NULL;
  check(tcc_context_create(2, &c) == TCC_OK, "a context of 2 threads");
  check(a_run_ctx(c, a->inputs[0], a->inputs[1], a->inputs[2], a->inputs[3],
                  a->inputs[4], outs[0], outs[1], outs[2], ws) == TCC_OK &&
            same_outputs(a, outs),
        "a_run_ctx gives the expected outputs");
  tcc_workspace_free(ws);
  free_outputs(a, outs);
  model *b = &models[1];
  outs = alloc_outputs(b);
  int64_t dims[3] = {2, 3, 4};
  tcc_tensor in = {TCC_DTYPE_F32, 3, dims, b->inputs[0]};
  tcc_tensor out = {TCC_DTYPE_F32, 3, dims, outs[0]};
  ws = tcc_workspace_alloc(b_workspace_size());
  check(b_run_tensors_ctx(c, &in, 1, &out, 1, ws, b_workspace_size(), NULL) ==
                TCC_OK &&
            same_outputs(b, outs),
        "b_run_tensors_ctx gives the expected outputs");
  tcc_workspace_free(ws);
  free_outputs(b, outs);
  tcc_context_destroy(c);

  c = (tcc_context *)&failures;
  check(tcc_context_create(-1, &c) == TCC_ERROR_INVALID_ARGUMENT && !c,
        "a negative thread count is refused");
  check(tcc_context_create(2, NULL) == TCC_ERROR_INVALID_ARGUMENT,
        "a null context pointer is refused");
  check(tcc_context_num_threads(NULL) == 1, "no context is one thread");
  tcc_context_destroy(NULL);
}

#ifdef __linux__
/* How many threads of this process other than the caller may run on one CPU
 * only. */
static int threads_on_one_cpu(void) {
  DIR *dir = opendir("/proc/self/task");
  if (!dir)
    return -1;
  int n = 0;
  pid_t self = (pid_t)gettid();
  for (struct dirent *e; (e = readdir(dir));) {
    pid_t tid = (pid_t)atoi(e->d_name);
    cpu_set_t set;
    if (tid > 0 && tid != self &&
        sched_getaffinity(tid, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1)
      ++n;
  }
  closedir(dir);
  return n;
}

/* Runs model a on `c` and checks its outputs and that the caller's affinity
 * is what it was before. */
static void run_keeps_affinity(const model *a, tcc_context *c,
                               const char *what) {
  cpu_set_t before, after;
  sched_getaffinity(0, sizeof(before), &before);
  run_on_context(a, c, 3);
  sched_getaffinity(0, sizeof(after), &after);
  check(CPU_EQUAL(&before, &after), what);
}

/* A 2-thread context binds its worker when the caller may run on 2 CPUs
 * (and TCC_BIND_THREADS is not 0); runs restore the caller's affinity. */
static void affinity(const model *a) {
  cpu_set_t all;
  check(sched_getaffinity(0, sizeof(all), &all) == 0, "sched_getaffinity");
  int bindable = CPU_COUNT(&all) >= 2;
  int unbound = threads_on_one_cpu();

  tcc_context *c = NULL;
  check(tcc_context_create(2, &c) == TCC_OK, "a context of 2 threads");
  run_keeps_affinity(a, c, "a run gives the caller back its affinity");
  check(threads_on_one_cpu() == unbound + bindable,
        "the worker of a 2-thread context is bound to one CPU");
  /* A caller confined to one CPU (the last it may use) stays there. */
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &all)) {
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
    }
  check(sched_setaffinity(0, sizeof(one), &one) == 0, "sched_setaffinity");
  run_keeps_affinity(a, c, "a run leaves a caller confined to one CPU there");
  check(sched_setaffinity(0, sizeof(all), &all) == 0, "sched_setaffinity");
  tcc_context_destroy(c);

  setenv("TCC_BIND_THREADS", "0", 1);
  check(tcc_context_create(2, &c) == TCC_OK, "a context of 2 threads");
  run_keeps_affinity(a, c, "an unbound context leaves the caller's affinity");
  check(threads_on_one_cpu() == unbound,
        "TCC_BIND_THREADS=0: the worker is not bound");
  tcc_context_destroy(c);
  unsetenv("TCC_BIND_THREADS");
}
#endif

/* Wrong calls return TCC_ERROR_INVALID_ARGUMENT and write nothing. */
static void wrong_calls(const model *m) {
  const tcc_model_info *info = m->info;
  void **outs = alloc_outputs(m);
  unsigned char *raw = tcc_workspace_alloc(info->workspace_size + 64);
  for (int i = 0; i < info->num_outputs; ++i)
    memset(outs[i], 0xAB, info->outputs[i].size_bytes);
  const void *inputs[MAX_BUFFERS];
  memcpy(inputs, m->inputs, sizeof(inputs));

  check(m->run_packed(NULL, outs, raw) == TCC_ERROR_INVALID_ARGUMENT,
        "null input array is rejected");
  check(m->run_packed(inputs, NULL, raw) == TCC_ERROR_INVALID_ARGUMENT,
        "null output array is rejected");
  inputs[0] = NULL;
  check(m->run_packed(inputs, outs, raw) == TCC_ERROR_INVALID_ARGUMENT,
        "null input buffer is rejected");
  inputs[0] = m->inputs[0];
  void *out0 = outs[0];
  outs[0] = NULL;
  check(m->run_packed(inputs, outs, raw) == TCC_ERROR_INVALID_ARGUMENT,
        "null output buffer is rejected");
  outs[0] = out0;
  if (info->workspace_size > 0) {
    check(m->run_packed(inputs, outs, NULL) == TCC_ERROR_INVALID_ARGUMENT,
          "null workspace is rejected");
    check(m->run_packed(inputs, outs, raw + 1) == TCC_ERROR_INVALID_ARGUMENT,
          "misaligned workspace is rejected");
  }
  for (int i = 0; i < info->num_outputs; ++i)
    for (size_t j = 0; j < info->outputs[i].size_bytes; ++j)
      if (((unsigned char *)outs[i])[j] != 0xAB) {
        check(0, "a rejected call left the outputs untouched");
        i = info->num_outputs;
        break;
      }
  check(m->run_packed(inputs, outs, raw) == TCC_OK, "the right call works");
  check(same_outputs(m, outs), "the right call gives the expected outputs");
  tcc_workspace_free(raw);
  free_outputs(m, outs);
}

/* The checked call (b_run_tensors) on wrong tensors: each is refused with a
 * message, printed; the right one runs. */
static void checked_calls(const model *m) {
  int64_t dims[3] = {2, 3, 4};
  tcc_tensor in = {TCC_DTYPE_F32, 3, dims, m->inputs[0]};
  void **outs = alloc_outputs(m);
  tcc_tensor out = {TCC_DTYPE_F32, 3, dims, outs[0]};
  size_t ws_size = b_workspace_size();
  void *ws = tcc_workspace_alloc(ws_size);
  tcc_error error;

  check(b_run_tensors(&in, 1, &out, 1, ws, ws_size, &error) == TCC_OK,
        "the checked call works");
  check(same_outputs(m, outs), "the checked call gives the expected outputs");

  int64_t batch3[3] = {3, 3, 4}, rank2[2] = {6, 4}, wide[3] = {2, 3, 5};
  tcc_tensor bad_batch = {TCC_DTYPE_F32, 3, batch3, m->inputs[0]};
  tcc_tensor bad_rank = {TCC_DTYPE_F32, 2, rank2, m->inputs[0]};
  tcc_tensor bad_dtype = {TCC_DTYPE_I64, 3, dims, m->inputs[0]};
  tcc_tensor null_data = {TCC_DTYPE_F32, 3, dims, NULL};
  tcc_tensor bad_out = {TCC_DTYPE_F32, 3, wide, outs[0]};
  tcc_tensor two[2] = {in, in};
  struct {
    const tcc_tensor *inputs;
    int32_t num_inputs;
    tcc_tensor *outputs;
    void *ws;
    size_t ws_bytes;
  } cases[] = {
      {&bad_batch, 1, &out, ws, ws_size}, {&bad_rank, 1, &out, ws, ws_size},
      {&bad_dtype, 1, &out, ws, ws_size}, {&null_data, 1, &out, ws, ws_size},
      {&in, 1, &bad_out, ws, ws_size},    {two, 2, &out, ws, ws_size},
      {NULL, 1, &out, ws, ws_size},       {&in, 1, &out, NULL, ws_size},
      {&in, 1, &out, ws, ws_size - 1},
  };
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k) {
    memset(outs[0], 0xAB, m->info->outputs[0].size_bytes);
    tcc_status st = b_run_tensors(cases[k].inputs, cases[k].num_inputs,
                                  cases[k].outputs, 1, cases[k].ws,
                                  cases[k].ws_bytes, &error);
    check(st == TCC_ERROR_INVALID_ARGUMENT, "a wrong checked call is refused");
    check(((unsigned char *)outs[0])[0] == 0xAB,
          "a refused checked call writes nothing");
    printf("checked: %s\n", error.message);
  }
  check(b_run_tensors(&bad_batch, 1, &out, 1, ws, ws_size, NULL) ==
            TCC_ERROR_INVALID_ARGUMENT,
        "a null error pointer is allowed");
  tcc_workspace_free(ws);
  free_outputs(m, outs);
}

int main(void) {
  model models[2];
  setup(&models[0], a_info(), a_run_packed, a_run_packed_ctx);
  setup(&models[1], b_info(), b_run_packed, b_run_packed_ctx);
  check(a_workspace_size() == a_info()->workspace_size, "a_workspace_size");
  check(b_workspace_size() == b_info()->workspace_size, "b_workspace_size");
  for (int s = 0; s <= 3; ++s)
    check(tcc_status_string((tcc_status)s) != NULL, "tcc_status_string");

  run_two(models, NULL, NULL,
          "concurrent runs (two threads, two models) match the single-threaded run");
  contexts(models);
#ifdef __linux__
  affinity(&models[0]);
#endif
  tcc_context *c0 = NULL, *c1 = NULL;
  check(tcc_context_create(2, &c0) == TCC_OK &&
            tcc_context_create(2, &c1) == TCC_OK,
        "two contexts of 2 threads");
  run_two(models, c0, c1,
          "concurrent runs on two contexts match the single-threaded run");
  run_two(models, c0, c0,
          "concurrent runs sharing a context match the single-threaded run");
  tcc_context_destroy(c0);
  tcc_context_destroy(c1);
  wrong_calls(&models[0]);
  wrong_calls(&models[1]);
  checked_calls(&models[1]);
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < models[k].info->num_inputs; ++i)
      free(models[k].inputs[i]);
    for (int i = 0; i < models[k].info->num_outputs; ++i)
      free(models[k].expected[i]);
  }
  if (failures)
    return 1;
  printf("abi_check: OK (models %s and %s, 2 threads x %d runs each, "
         "without a context, on a context each, on a shared one)\n",
         a_info()->name, b_info()->name, RUNS_PER_THREAD);
  return 0;
}
