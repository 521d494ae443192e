#!/usr/bin/env bash
# setup.sh - installs tcc's dependencies on Debian 12 (apt packages, then the Python venv .venv); idempotent.
# Usage: utils/setup.sh [--no-python]   (--no-python: apt packages only, enough to build and run the demo)
set -euo pipefail
cd "$(dirname "$0")/.."

with_python=1
for arg in "$@"; do
  case "$arg" in
    --no-python) with_python=0 ;;
    -h|--help) sed -n '2,3p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libprotobuf-dev protobuf-compiler
          libonnx-dev libcli11-dev libonnx-testdata ninja-build ccache cmake pkg-config graphviz g++ python3-venv)
# The sanitizer build and the fuzzers (utils/sanitize.sh, utils/fuzz.sh) need Clang 22 and its
# runtimes; the tests of other targets (utils/cross_check.sh, docs/cross.md) cross compilers and
# qemu's user-mode emulators. check.sh runs them.
if ((with_python)); then
  packages+=(clang-22 libclang-rt-22-dev qemu-user-static gcc-aarch64-linux-gnu libc6-dev-arm64-cross
             gcc-riscv64-linux-gnu libc6-dev-riscv64-cross)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: apt packages: all ${#packages[@]} present"
else
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup.sh: run as root to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  echo "setup: apt packages: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

if ((with_python)); then
  # The versions in utils/requirements.txt, exactly (pip only checks when they are there).
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  if .venv/bin/python - utils/requirements.txt <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
pins = [l.split("==") for l in open(sys.argv[1]) if "==" in l and not l.startswith("#")]
sys.exit(any(version(name) != want.strip() for name, want in pins))
PY
  then
    echo "setup: python venv .venv: ready (utils/requirements.txt)"
  else
    echo "setup: python venv .venv: installing utils/requirements.txt"
    # torch and its CUDA wheels take about 6 GiB installed and 3 GiB more as downloaded wheels
    # while pip installs them: say so before pip fails half-way with "No space left on device".
    free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
    if ((free_kb < 9 * 1024 * 1024)); then
      echo "setup.sh: $((free_kb / 1024 / 1024)) GiB free on $(df -P . | awk 'NR == 2 { print $6 }');" \
           "the Python test packages need about 9 GiB while installing (6 GiB after)" >&2
      exit 1
    fi
    .venv/bin/pip install -q --no-cache-dir -r utils/requirements.txt
    echo "setup: python venv .venv: ready"
  fi
fi
