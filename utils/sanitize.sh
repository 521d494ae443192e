#!/usr/bin/env bash
# sanitize.sh - builds tcc with AddressSanitizer + UndefinedBehaviorSanitizer (Clang 22, tcc's own
# code; the MLIR and LLVM libraries stay as Debian built them) into build-san/, with the libFuzzer
# harnesses of tools/fuzz, and runs the lit suite on that build (the importer, driver, e2e and ABI
# tests, the malformed-model corpus).
# Usage: utils/sanitize.sh [--build-only] [LIT_ARGS...]   (LIT_ARGS, e.g. --filter REGEX, go to lit)
# Last line: "sanitizers: N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=0
lit_args=()
for arg in "$@"; do
  case "$arg" in
    --build-only) build_only=1 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) lit_args+=("$arg") ;;
  esac
done

for tool in clang-22 clang++-22; do
  command -v "$tool" >/dev/null || { echo "sanitize.sh: $tool not found (utils/setup.sh installs it)" >&2; exit 1; }
done
cmake_args=(-G Ninja -S . -B build-san -DCMAKE_BUILD_TYPE=Release
            -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
            -DTCC_SANITIZE=address,undefined -DTCC_FUZZ=ON)
if command -v ccache >/dev/null; then
  # Paths under the checkout hashed as relative ones: another clone (CI's) hits the same cache.
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  cmake_args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
[[ -x .venv/bin/python ]] && cmake_args+=("-DPython3_EXECUTABLE=$PWD/.venv/bin/python")
if [[ ! -f build-san/build.ninja ]]; then
  echo "sanitize: configuring: cmake ${cmake_args[*]}"
  cmake "${cmake_args[@]}" >/dev/null
fi
echo "sanitize: ninja -C build-san"
ninja -C build-san
((build_only)) && exit 0

# A sanitizer report ends the process with an error; lit then fails the test.
# Leaks are not findings here: a compiler exits right after its one job.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1
lit=.venv/bin/lit
[[ -x "$lit" ]] || lit=/usr/lib/llvm-22/bin/lit
log=build-san/check-lit.log
rc=0
# Four tests check the order in which ops print, which follows the order in which the compiler
# that built tcc evaluates call arguments (GCC right to left, Clang left to right): the GCC build
# runs them (utils/check.sh); here they are left out, not counted.
order_dependent='ONNXToLinalg/(normalization|recurrent)\.mlir|Target/CPU/vectorize-contractions'
"$lit" -sv build-san/test --filter-out "$order_dependent" "${lit_args[@]}" 2>&1 | tee "$log" || rc=$?
read -r passed failed skipped < <(bash utils/lit_summary.sh "$log")
if ((rc != 0 && failed == 0)); then
  echo "sanitize: lit exited with status $rc without a failing test" >&2
  failed=1
fi
echo "sanitizers: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
