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
          libonnx-dev libcli11-dev libonnx-testdata ninja-build ccache cmake g++ python3-venv)
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
  venv_check=(.venv/bin/python -c 'import torch, onnx, onnxruntime, torchvision, timm, transformers, onnxscript, sklearn, numpy, lit, matplotlib')
  if [[ -x .venv/bin/python ]] && "${venv_check[@]}" 2>/dev/null; then
    echo "setup: python venv .venv: ready"
  else
    echo "setup: python venv .venv: creating/installing (numpy onnx onnxruntime torch torchvision timm transformers onnxscript scikit-learn lit matplotlib)"
    [[ -x .venv/bin/python ]] || python3 -m venv .venv
    .venv/bin/pip install -q numpy onnx onnxruntime torch torchvision timm transformers onnxscript \
      scikit-learn lit matplotlib
    "${venv_check[@]}"
    echo "setup: python venv .venv: ready"
  fi
fi
