#!/usr/bin/env bash
# build.sh - configures (when needed) and builds tcc into build/ with CMake + Ninja; extra args go to ninja.
# build.sh --target TRIPLE [ninja args]: only the runtime (libtccrt) for another target, with
# Debian's cross compiler (utils/toolchains/TRIPLE.cmake), into build-TRIPLE/lib (docs/cross.md).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ${1:-} == --target ]]; then
  triple=${2:?"build.sh: --target needs a triple, e.g. aarch64-linux-gnu"}
  shift 2
  toolchain=utils/toolchains/$triple.cmake
  if [[ ! -f $toolchain ]]; then
    echo "build.sh: no toolchain file $toolchain (targets: $(cd utils/toolchains && ls | sed 's/\.cmake$//' | tr '\n' ' '))" >&2
    exit 2
  fi
  if ! command -v "$triple-gcc" >/dev/null; then
    echo "build.sh: $triple-gcc not found (apt-get install gcc-$triple)" >&2
    exit 1
  fi
  if [[ ! -f build-$triple/build.ninja ]]; then
    cmake -G Ninja -S . -B "build-$triple" -DCMAKE_BUILD_TYPE=Release -DTCC_RUNTIME_ONLY=ON \
      "-DCMAKE_TOOLCHAIN_FILE=$PWD/$toolchain"
  fi
  echo "build: ninja -C build-$triple $*"
  exec ninja -C "build-$triple" "$@"
fi

cmake_args=(-G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release)
if command -v ccache >/dev/null; then
  # Paths under the checkout hashed as relative ones: another clone (CI's) hits the same cache.
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  cmake_args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
python="$PWD/.venv/bin/python"
if [[ -x "$python" ]]; then
  cmake_args+=("-DPython3_EXECUTABLE=$python")
fi

# Configure when there is no build yet, or when the venv appeared after a configure without it.
if [[ ! -f build/build.ninja ]] ||
   { [[ -x "$python" ]] && ! grep -q "^Python3_EXECUTABLE:[A-Z]*=$python\$" build/CMakeCache.txt 2>/dev/null; }; then
  echo "build: configuring: cmake ${cmake_args[*]}"
  cmake "${cmake_args[@]}"
fi
echo "build: ninja -C build $*"
ninja -C build "$@"
