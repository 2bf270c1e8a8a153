#!/usr/bin/env bash
# Fails when archscan's own headers warn. Compiles test/compile/public_api.cu (every overload, every
# policy form; public_api_nccl.cu too, across ranks, where NCCL is found) with host and device warnings on, against the CCCL of CCCL_DIR (a CMake package folder,
# as tools/fetch_cccl.sh prints) or the toolkit's, and lists every warning located in include/archscan/.
#   tools/check_warnings.sh [CCCL_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
includes=(-I include)
if [ -n "${1:-}" ]; then
  # <prefix>/lib/cmake/cccl -> <prefix>/include/cccl (the wheel's layout, linked by tools/fetch_cccl.sh)
  includes+=(-I "$1/../../../include/cccl")
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
sources=(test/compile/public_api.cu)
# The scan across ranks where NCCL is found (tools/nccl_root.sh).
if nccl=$(tools/nccl_root.sh); then
  sources+=(test/compile/public_api_nccl.cu)
  includes+=(-I "$nccl/include")
fi
for src in "${sources[@]}"; do
  "$nvcc" -std=c++17 -arch=sm_75 "${includes[@]}" -c "$src" -o /dev/null \
    -Xcompiler=-Wall,-Wextra -Xcudafe=--display_error_number >>"$log" 2>&1 || { cat "$log"; echo "check_warnings: $src: compile failed"; exit 1; }
done
version=$(printf '#include <cuda/version>\nCCCL_VERSION\n' | "$nvcc" -E -x c++ "${includes[@]}" -I /usr/local/cuda/include - 2>/dev/null | tail -n 1)
# One grep, not a pipe into grep -q: under pipefail the first grep's SIGPIPE would hide a match.
if grep -qi "include/archscan/.*warning" "$log"; then
  grep -i -A2 "include/archscan/.*warning" "$log"
  echo "check_warnings: archscan's headers warn against CCCL $version"
  exit 1
fi
echo "check_warnings: no warning from include/archscan/ against CCCL $version ($(grep -ci warning "$log" || true) warnings elsewhere)"
