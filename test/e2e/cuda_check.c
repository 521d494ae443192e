/* cuda_check.c - runs the digits CNN compiled with --target cuda twice and
 * says how each call went (the status and tcc_cuda_error_message), then
 * asks for a context on GPU 1: the runtime's side of a CUDA model, checked
 * against the mock driver (mock_cuda.c) or none. With a real GPU the
 * outputs of the second run are printed too. Compiled with --weights file,
 * it maps the weights file named by argv[1] first. */
#include "digits.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef DIGITS_WEIGHTS_BYTES
#define WEIGHTS weights,
#else
#define WEIGHTS
#endif

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
#ifdef DIGITS_WEIGHTS_BYTES
  tcc_weights *weights = NULL;
  tcc_error error;
  if (digits_weights_open(argv[1], &weights, &error) != TCC_OK) {
    printf("weights: %s\n", error.message);
    return 1;
  }
#endif
  float image[64], logits[10];
  for (int i = 0; i < 64; ++i)
    image[i] = (float)(i % 16);
  for (int run = 0; run < 2; ++run) {
    tcc_status st = digits_run(WEIGHTS image, logits, NULL);
    printf("run %d: %s%s%s (kernels %.1f ms)\n", run,
           st == TCC_OK ? "ok" : tcc_status_string(st), st == TCC_OK ? "" : ": ",
           tcc_cuda_error_message(), tcc_cuda_last_run_kernels_ms());
  }
  /* With the mock driver: buffers in GPU memory (the mock's, which this
   * program can fill and read) are used in place; memory of another GPU is
   * refused. */
  void *mock = getenv("CHECK_DEVICE_BUFFERS")
                   ? dlopen(getenv("TCC_CUDA_DRIVER"), RTLD_NOW)
                   : NULL;
  void *(*device_alloc)(size_t, int) =
      mock ? (void *(*)(size_t, int))dlsym(mock, "mock_device_alloc") : NULL;
  if (device_alloc) {
    float *d_image = device_alloc(sizeof(image), 0);
    float *d_logits = device_alloc(sizeof(logits), 0);
    float *other = device_alloc(sizeof(logits), 1);
    for (int i = 0; i < 64; ++i)
      d_image[i] = image[i];
    tcc_status st = digits_run(WEIGHTS d_image, d_logits, NULL);
    printf("device buffers: %s%s\n", st == TCC_OK ? "ok" : "",
           tcc_cuda_error_message());
    st = digits_run(WEIGHTS image, other, NULL);
    printf("another GPU's buffer: %s: %s\n", tcc_status_string(st),
           tcc_cuda_error_message());
  }
  tcc_context *context = NULL;
  tcc_status st = tcc_context_create_cuda(1, &context);
  printf("device 1: %s%s%s\n", st == TCC_OK ? "ok" : tcc_status_string(st),
         st == TCC_OK ? "" : ": ", tcc_cuda_error_message());
  if (st == TCC_OK) {
    st = digits_run_ctx(context, WEIGHTS image, logits, NULL);
    printf("run on device 1: %s\n", st == TCC_OK ? "ok" : tcc_cuda_error_message());
    tcc_context_destroy(context);
  }
  return 0;
}
