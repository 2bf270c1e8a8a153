#!/usr/bin/env bash
# Fetches CCCL from PyPI's nvidia-cuda-cccl wheel (headers + CMake package) into .cccl/<version>/
# (git-ignored) and prints the folder to pass as -DCCCL_DIR. Without a version: the newest on PyPI.
#   tools/fetch_cccl.sh [WHEEL_VERSION]          e.g. 13.3.5.0.6 (= CCCL 3.5.0)
#   cmake --preset default -B build/cccl-new -DCCCL_DIR="$(tools/fetch_cccl.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-}
if [ -z "$version" ]; then
  version=$(python3 -m pip index versions nvidia-cuda-cccl 2>/dev/null | sed -n 's/^nvidia-cuda-cccl (\(.*\))$/\1/p')
  [ -n "$version" ] || { echo "fetch_cccl: cannot list nvidia-cuda-cccl versions" >&2; exit 1; }
fi
dest=.cccl/$version
cmake_dir=$PWD/$dest/nvidia/cu13/cccl/lib/cmake/cccl
if [ ! -f "$cmake_dir/cccl-config.cmake" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "nvidia-cuda-cccl==$version" >&2
  mkdir -p "$dest"
  python3 -m zipfile -e "$tmp"/nvidia_cuda_cccl-*.whl "$dest"
  # The wheel's CMake package looks for its headers at <prefix>/include (prefix = nvidia/cu13/cccl),
  # but the wheel puts them at nvidia/cu13/include/cccl: a relative link makes the package work as is.
  [ -e "$dest/nvidia/cu13/cccl/include" ] || ln -s ../include "$dest/nvidia/cu13/cccl/include"
  [ -f "$cmake_dir/cccl-config.cmake" ] || { echo "fetch_cccl: no CMake package in the wheel" >&2; exit 1; }
fi
echo "$cmake_dir"
