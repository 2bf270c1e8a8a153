#!/usr/bin/env bash
# CUDA minor-version compatibility: does a program built by a newer CUDA 13 compiler than the GPU
# machine's driver run there? tools/cuda_compat/compat.cu scans with archscan::native and checks the
# host's answer.
#   tools/cuda_compat.sh build   builds it with the newest nvcc on PyPI (tools/fetch_cuda.sh) for sm_90
#                                into .cuda/compat/ (git-ignored), the runtime linked statically
#   tools/cuda_compat.sh run     runs that binary (no compiler needed: carry .cuda/compat to the GPU
#                                machine); prints PASS or FAIL and exits 0 only on PASS
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.cuda/compat/archscan_cuda_compat_sm90
case "${1:-}" in
  build)
    nvcc=$(tools/fetch_cuda.sh)
    mkdir -p .cuda/compat
    "$nvcc" -std=c++17 -O2 -arch=sm_90 -cudart=static -I include tools/cuda_compat/compat.cu src/*.cpp -o "$binary"
    "$nvcc" --version | tail -n 2 >"$binary.nvcc"
    echo "$PWD/$binary"
    ;;
  run)
    [ -x "$binary" ] || { echo "cuda_compat: no $binary (tools/cuda_compat.sh build, then carry .cuda/compat)" >&2; exit 1; }
    echo "cuda_compat: built by $(tail -n 1 "$binary.nvcc" 2>/dev/null || echo 'an unknown nvcc')"
    "$binary"
    ;;
  *)
    echo "usage: tools/cuda_compat.sh build|run" >&2
    exit 2
    ;;
esac
