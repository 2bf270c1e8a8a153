#!/usr/bin/env bash
# The compile-cost benchmark: compiles test/compile/compile_cost.cu (an ordinary Thrust program with
# eleven scan-family calls) once per execution policy a round, nvcc -O3 -arch=sm_90 -c, and reports for
# each the median CPU time of the compile over the rounds (user + sys of nvcc and everything it runs,
# from /usr/bin/time) and its range, the object's size, both as ratios to thrust::cuda::par, and the
# number of kernels (.entry directives of the compute_90 PTX, which --keep leaves;
# test/compile/kernel_count.py counts them). thrust::cuda::par is compiled first in every round, as the
# baseline; its build does not include archscan's headers.
#   tools/compile_cost.sh [POLICY...]      POLICY: blelloch kepler turing native (default: all four)
# Environment: CUDACXX (nvcc), NICE (default 10: the niceness of each compile), ROUNDS (default 3).
# One compile at a time, the policies interleaved round by round, so that the drift of a shared
# machine (one compile of the same object measured 59 and 76 s minutes apart) falls on every policy
# alike; about half a minute to a minute of CPU per policy and round.
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

rounds=${ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "compile_cost: ROUNDS must be a positive number, not '$rounds'" >&2; exit 2; }
echo "compile_cost: $("$nvcc" --version | tail -n 1); nvcc -O3 -arch=sm_90 -c test/compile/compile_cost.cu; $rounds rounds"
# Each line of $work/results: NAME SECONDS BYTES KERNELS, one per compile.
for ((round = 1; round <= rounds; ++round)); do
  measured=$(compile par thrust::cuda::par)  # an assignment, so that a failed compile stops the script
  echo "par $measured" >>"$work/results"
  for p in "${policies[@]}"; do
    measured=$(compile "$p" "archscan::$p" -DWITH_ARCHSCAN)
    echo "$p $measured" >>"$work/results"
  done
done
python3 - "$work/results" par "${policies[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
names = sys.argv[2:]
runs = {n: [float(r[1]) for r in rows if r[0] == n] for n in names}
last = {r[0]: (int(r[2]), int(r[3])) for r in rows}
base_s, (base_b, _) = statistics.median(runs["par"]), last["par"]
print(f"{'policy':20} {'cpu_s':>7} {'range':>11} {'x_par':>6} {'object_KiB':>11} {'x_par':>6} {'kernels':>8}")
for n in names:
    s, (b, k) = statistics.median(runs[n]), last[n]
    label = "thrust::cuda::par" if n == "par" else "archscan::" + n
    span = f"{min(runs[n]):.1f}-{max(runs[n]):.1f}"
    print(f"{label:20} {s:7.1f} {span:>11} {s / base_s:6.2f} {b // 1024:11d} {b / base_b:6.2f} {k:8d}")
PY
echo "(cpu_s: the median over the rounds, and its range; kernels: .entry directives of the PTX, CUB's EmptyKernel left out)"
