#!/usr/bin/env bash
# The compile-cost benchmark: compiles test/compile/compile_cost.cu (an ordinary Thrust program with
# eleven scan-family calls) once per execution policy, nvcc -O3 -arch=sm_90 -c, and reports for each
# the CPU time of the compile (user + sys of nvcc and everything it runs, from /usr/bin/time), the
# object's size, both as ratios to thrust::cuda::par, and the number of kernels (.entry directives
# of the compute_90 PTX, which --keep leaves; test/compile/kernel_count.py counts them). thrust::cuda::par
# is always compiled first, as the baseline; its build does not include archscan's headers.
#   tools/compile_cost.sh [POLICY...]      POLICY: blelloch kepler turing native (default: all four)
# Environment: CUDACXX (nvcc), NICE (default 10: the niceness of each compile). One compile at a time,
# so the times are comparable; about half a minute to a minute of CPU per policy.
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
policies=("$@")
[ ${#policies[@]} -gt 0 ] || policies=(blelloch kepler turing native)
for p in "${policies[@]}"; do
  case $p in
    blelloch | kepler | turing | native) ;;
    *) echo "compile_cost: unknown policy '$p' (blelloch kepler turing native)" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# compile NAME POLICY [FLAGS...]: prints "seconds bytes kernels".
compile() {
  local name=$1 policy=$2
  shift 2
  mkdir -p "$work/$name"
  /usr/bin/time -f "%U %S" -o "$work/$name.time" nice -n "${NICE:-10}" "$nvcc" -std=c++17 -O3 -arch=sm_90 \
    -I include "-DPOLICY=$policy" "$@" --keep --keep-dir "$work/$name" -c test/compile/compile_cost.cu \
    -o "$work/$name.o" >"$work/$name.log" 2>&1 || {
    cat "$work/$name.log" >&2
    echo "compile_cost: $name: compile failed" >&2
    exit 1
  }
  local seconds bytes kernels
  seconds=$(awk 'END { printf "%.1f", $1 + $2 }' "$work/$name.time")
  bytes=$(stat -c %s "$work/$name.o")
  kernels=0
  for ptx in "$work/$name"/*.ptx; do
    [ -e "$ptx" ] || continue
    kernels=$((kernels + $(python3 test/compile/kernel_count.py "$ptx" | sed -n 's/^[^:]*: \([0-9]*\) kernels.*/\1/p')))
  done
  echo "$seconds $bytes $kernels"
}

echo "compile_cost: $("$nvcc" --version | tail -n 1); nvcc -O3 -arch=sm_90 -c test/compile/compile_cost.cu"
read -r base_s base_b base_k < <(compile par thrust::cuda::par)
printf '%-20s %9s %7s %11s %7s %8s\n' policy "cpu_s" "x_par" "object_KiB" "x_par" kernels
printf '%-20s %9s %7s %11s %7s %8s\n' thrust::cuda::par "$base_s" 1.00 "$((base_b / 1024))" 1.00 "$base_k"
for p in "${policies[@]}"; do
  read -r s b k < <(compile "$p" "archscan::$p" -DWITH_ARCHSCAN)
  awk -v p="archscan::$p" -v s="$s" -v b="$b" -v k="$k" -v bs="$base_s" -v bb="$base_b" \
    'BEGIN { printf "%-20s %9.1f %7.2f %11d %7.2f %8d\n", p, s, s / bs, b / 1024, b / bb, k }'
done
echo "(kernels: .entry directives of the PTX, CUB's EmptyKernel left out)"
