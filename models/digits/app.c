/* app.c - example program: classifies 100 bundled 8x8 digit images with the tcc-compiled digits model. */
/*
 * Build (after `tcc compile models/digits/digits.onnx -o build/demo/digits.o`):
 *   cc -std=c99 -I include -I build/demo -DDIGITS_DATA_DIR='"models/digits"' \
 *      models/digits/app.c build/demo/digits.o build/lib/libtccrt.a -lm -lpthread -o app
 * Usage: app [DATA_DIR]   (DATA_DIR holds samples.bin and labels.bin; default
 * DIGITS_DATA_DIR, or "." when that macro is not defined at compile time).
 */
#include "digits.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef DIGITS_DATA_DIR
#define DIGITS_DATA_DIR "."
#endif

#define NUM_SAMPLES 100
#define NUM_PIXELS 64 /* 1x1x8x8 */
#define NUM_CLASSES 10
#define NUM_SHOWN 10
#define SHOWN_PER_ROW 5

/* Reads exactly `size` bytes of DIR/NAME into `buf`; returns 0 on success. */
static int read_file(const char *dir, const char *name, void *buf, size_t size) {
  char path[4096];
  FILE *f;
  size_t got;
  int extra;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "error: cannot open %s\n", path);
    return 1;
  }
  got = fread(buf, 1, size, f);
  extra = fgetc(f);
  fclose(f);
  if (got != size || extra != EOF) {
    fprintf(stderr, "error: %s: expected exactly %zu bytes\n", path, size);
    return 1;
  }
  return 0;
}

/* Prints images [first, first+count) side by side as ASCII art with labels. */
static void show(const float *images, const int *pred, const unsigned char *labels,
                 int first, int count) {
  static const char shades[] = " .:-=+*#%@";
  int row, i, col;
  for (row = 0; row < 8; ++row) {
    for (i = first; i < first + count; ++i) {
      for (col = 0; col < 8; ++col) {
        float v = images[i * NUM_PIXELS + row * 8 + col];
        int s = (int)(v * 9.0f + 0.5f);
        s = s < 0 ? 0 : s > 9 ? 9 : s;
        putchar(shades[s]);
        putchar(shades[s]);
      }
      fputs(i + 1 < first + count ? "   " : "\n", stdout);
    }
  }
  for (i = first; i < first + count; ++i) {
    char caption[32];
    snprintf(caption, sizeof caption, "pred %d true %d%s", pred[i], labels[i],
             pred[i] == labels[i] ? "" : " X");
    printf("%-16s%s", caption, i + 1 < first + count ? "   " : "\n\n");
  }
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : DIGITS_DATA_DIR;
  const tcc_model_info *info = digits_info();
  static float images[NUM_SAMPLES * NUM_PIXELS];
  static unsigned char labels[NUM_SAMPLES];
  int pred[NUM_SAMPLES];
  float logits[NUM_CLASSES];
  void *workspace;
  int i, k, correct = 0;

  if (argc > 2) {
    fprintf(stderr, "usage: %s [DATA_DIR]\n", argv[0]);
    return 2;
  }
  if (info->num_inputs != 1 || info->num_outputs != 1 ||
      info->inputs[0].num_elements != NUM_PIXELS ||
      info->outputs[0].num_elements != NUM_CLASSES) {
    fprintf(stderr, "error: unexpected model signature\n");
    return 1;
  }
  if (read_file(dir, "samples.bin", images, sizeof images) ||
      read_file(dir, "labels.bin", labels, sizeof labels))
    return 1;

  workspace = tcc_workspace_alloc(digits_workspace_size());
  if (!workspace) {
    fprintf(stderr, "error: %s\n", tcc_status_string(TCC_ERROR_OUT_OF_MEMORY));
    return 1;
  }
  for (i = 0; i < NUM_SAMPLES; ++i) {
    tcc_status st = digits_run(&images[i * NUM_PIXELS], logits, workspace);
    if (st != TCC_OK) {
      fprintf(stderr, "error: digits_run (sample %d): %s\n", i, tcc_status_string(st));
      tcc_workspace_free(workspace);
      return 1;
    }
    pred[i] = 0;
    for (k = 1; k < NUM_CLASSES; ++k)
      if (logits[k] > logits[pred[i]])
        pred[i] = k;
    correct += pred[i] == labels[i];
  }
  tcc_workspace_free(workspace);

  for (i = 0; i < NUM_SHOWN; i += SHOWN_PER_ROW)
    show(images, pred, labels, i, SHOWN_PER_ROW);
  printf("accuracy: %d/%d (%.1f%%)\n", correct, NUM_SAMPLES, 100.0 * correct / NUM_SAMPLES);
  return 0;
}
