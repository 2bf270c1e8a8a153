#!/usr/bin/env bash
# Fetches the newest CUDA compiler on PyPI into .cuda/<version>/ (git-ignored) and prints its nvcc:
# the wheels nvidia-cuda-nvcc (nvcc, cudafe++, ptxas, nvlink, fatbinary), nvidia-nvvm (cicc,
# libdevice), nvidia-cuda-crt (crt/ headers) and nvidia-cuda-runtime (the runtime's headers,
# libcudart_static.a), unpacked into one toolkit prefix, <dest>/nvidia/cu13. The newest CCCL wheel's
# headers (tools/fetch_cccl.sh) are copied into its include/cccl, where nvcc.profile puts them on the
# -isystem path, as a full toolkit has them. A finished fetch (marked by <dest>/.complete) is reused.
#   tools/fetch_cuda.sh [NVCC_VERSION]           e.g. 13.5.37; without it: the newest on PyPI
#   CUDACXX="$(tools/fetch_cuda.sh)" tools/check_warnings.sh "$(tools/fetch_cccl.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions of a package on PyPI, newest first.
versions() { python3 -m pip index versions "$1" 2>/dev/null | sed -n 's/^Available versions: //p' | tr -d ' ' | tr ',' '\n'; }

version=${1:-}
if [ -z "$version" ]; then
  version=$(versions nvidia-cuda-nvcc | head -n 1)
  [ -n "$version" ] || { echo "fetch_cuda: cannot list nvidia-cuda-nvcc versions" >&2; exit 1; }
fi
dest=.cuda/$version
prefix=$dest/nvidia/cu13
if [ ! -f "$dest/.complete" ]; then
  # The other three wheels: the newest release of the same major.minor (their patch numbers differ:
  # nvidia-cuda-runtime 13.4.49 beside nvidia-cuda-nvcc 13.4.59).
  minor=${version%.*}
  packages=("nvidia-cuda-nvcc==$version")
  for package in nvidia-nvvm nvidia-cuda-crt nvidia-cuda-runtime; do
    v=$(versions "$package" | grep -m 1 "^${minor//./\\.}\." || true)
    [ -n "$v" ] || { echo "fetch_cuda: no $package $minor.* on PyPI" >&2; exit 1; }
    packages+=("$package==$v")
  done
  cccl_dir=$(tools/fetch_cccl.sh)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "fetch_cuda: ${packages[*]}" >&2
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "${packages[@]}" >&2
  rm -rf "$dest"
  mkdir -p "$dest"
  for wheel in "$tmp"/*.whl; do
    python3 -m zipfile -e "$wheel" "$dest"
  done
  # zipfile drops the executable bits.
  chmod +x "$prefix"/bin/* "$prefix"/nvvm/bin/*
  chmod -x "$prefix"/bin/nvcc.profile
  # The CCCL package's folder is <wheel>/nvidia/cu13/cccl/lib/cmake/cccl; its headers sit beside it.
  cccl_include=$(cd "$cccl_dir/../../.." && pwd -P)/include/cccl
  [ -f "$cccl_include/thrust/version.h" ] || { echo "fetch_cuda: no CCCL headers beside $cccl_dir" >&2; exit 1; }
  mkdir -p "$prefix/include/cccl"
  cp -R "$cccl_include"/. "$prefix/include/cccl/"
  "$prefix/bin/nvcc" --version >/dev/null || { echo "fetch_cuda: $prefix/bin/nvcc does not run" >&2; exit 1; }
  touch "$dest/.complete"
fi
echo "$PWD/$prefix/bin/nvcc"
