#!/usr/bin/env bash
# demo.sh - builds tcc, compiles the bundled digits model to an object file, links models/digits/app.c and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

bash utils/setup.sh --no-python
bash utils/build.sh
mkdir -p build/demo
run() { echo "+ $*"; "$@"; }
run build/bin/tcc compile models/digits/digits.onnx -o build/demo/digits.o
run "${CC:-cc}" -std=c99 -O2 -Wall -Wextra -I include -I build/demo \
  "-DDIGITS_DATA_DIR=\"$PWD/models/digits\"" models/digits/app.c build/demo/digits.o \
  build/lib/libtccrt.a -lm -lpthread -o build/demo/digits_app
run build/demo/digits_app
