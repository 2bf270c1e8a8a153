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
# The CMake package's folder: nvidia/cu13/lib/cmake/cccl up to 13.2, nvidia/cu13/cccl/lib/cmake/cccl later.
find_package_dir() { find "$dest" -name cccl-config.cmake -path '*/lib/cmake/cccl/*' -printf '%h\n' 2>/dev/null | head -n 1 || true; }
cmake_dir=$(find_package_dir)
if [ -z "$cmake_dir" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "nvidia-cuda-cccl==$version" >&2
  mkdir -p "$dest"
  python3 -m zipfile -e "$tmp"/nvidia_cuda_cccl-*.whl "$dest"
  cmake_dir=$(find_package_dir)
  [ -n "$cmake_dir" ] || { echo "fetch_cccl: no CMake package in the wheel" >&2; exit 1; }
  # The package looks for its headers at <prefix>/include[/cccl], prefix = three folders above it. Newer
  # wheels put the package under nvidia/cu13/cccl but the headers at nvidia/cu13/include/cccl: a
  # relative link makes the package work as it is.
  prefix=$cmake_dir/../../..
  if [ ! -f "$prefix/include/thrust/version.h" ] && [ ! -f "$prefix/include/cccl/thrust/version.h" ]; then
    [ -f "$prefix/../include/cccl/thrust/version.h" ] || { echo "fetch_cccl: headers not found" >&2; exit 1; }
    ln -s ../include "$prefix/include"
  fi
fi
echo "$PWD/$cmake_dir"
