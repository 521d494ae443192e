#!/usr/bin/env bash
# build.sh - configures (when needed) and builds tcc into build/ with CMake + Ninja; extra args go to ninja.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake_args=(-G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release)
if command -v ccache >/dev/null; then
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
