#!/usr/bin/env bash
# The full performance run on the GPU machine, after a build (archscan-bench, -table2, -ablation and
# archscan-compare built):
#
#   perf/run_full.sh BUILD_DIR [OUT_DIR = build/results/full-<UTC time>]
#
# OUT_DIR is a run's output, never committed as is: outside the tree (on the device machine, e.g.
# "$OUT/bench") or under the git-ignored build/; a folder in the tree that git does not ignore is
# refused. Writes into OUT_DIR: bench_medians.json (the compact form: per case median, spread, GB/s,
# ratio to CUB, and the run's context), bench.md (every case), summary.md (largest size of each
# algorithm and type), throughput_<algorithm>.png (plotted from bench_medians.json), table2.md,
# ablations.md, meta.txt (GPU, driver, CUDA and CCCL versions, date, the checkout's revision and,
# where BUILD_DIR/.carried names the revision a build made elsewhere came from, that as `build:`), bench.log and
# bench_full.json, Google Benchmark's own JSON (~4 MB). Prints the summary table last. Exits non-zero
# when a program fails (a mismatch with CUB, a CUDA error, no GPU), after running the others.
# perf/update_baseline.sh OUT_DIR then makes the run its GPU's committed baseline (perf/baselines/<gpu>/:
# the medians, meta.txt, the plots and a one-page summary.md).
set -uo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 BUILD_DIR [OUT_DIR]" >&2
  exit 2
fi
build=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${2:-$root/build/results/full-$(date -u +%Y%m%dT%H%M%SZ)}
bin=$build/perf
out_abs=$(realpath -m "$out")
if [[ $out_abs == "$root"/* ]] && git -C "$root" rev-parse --git-dir > /dev/null 2>&1 \
  && ! git -C "$root" check-ignore -q "$out_abs/bench.md"; then
  echo "run_full.sh: $out is in the tree and not ignored; write under build/results/ or outside the tree" >&2
  exit 2
fi
mkdir -p "$out"
status=0

for p in archscan-bench archscan-table2 archscan-ablation archscan-compare; do
  [[ -x $bin/$p ]] || { echo "run_full.sh: $bin/$p is missing; build it first" >&2; exit 2; }
done

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  "$bin/archscan-bench" --meta
  if command -v nvidia-smi > /dev/null; then
    echo "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader)"
  fi
  if command -v nvcc > /dev/null; then echo "nvcc: $(nvcc --version | tail -n 2 | tr '\n' ' ')"; fi
  echo "git: $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null) $(git -C "$here/.." status --porcelain 2>/dev/null | grep -q . && echo '(dirty)')"
  if [[ -f $build/.carried ]]; then echo "build: $(cat "$build/.carried")"; fi
  echo "host: $(uname -sr); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
} > "$out/meta.txt" || status=1
cat "$out/meta.txt"

start=$(date +%s)
"$bin/archscan-bench" --benchmark_out="$out/bench_full.json" --benchmark_out_format=json \
  --markdown "$out/bench.md" --summary "$out/summary.md" > "$out/bench.log" 2>&1 || status=1
echo "archscan-bench: $(( $(date +%s) - start )) s (log: $out/bench.log)"

if [[ -s $out/bench_full.json ]]; then
  "$bin/archscan-compare" --compact "$out/bench_full.json" "$out/bench_medians.json" || status=1
fi
if [[ -s $out/bench_medians.json ]]; then
  for alg in exclusive_scan inclusive_scan exclusive_scan_by_key transform_inclusive_scan; do
    python3 "$here/plot.py" "$out/bench_medians.json" "$out/throughput_$alg.png" --algorithm "$alg" || status=1
  done
fi

"$bin/archscan-table2" > "$out/table2.md" || status=1
"$bin/archscan-ablation" > "$out/ablations.md" || status=1
cat "$out/table2.md"
echo

echo "## Summary (largest size of each algorithm and type)"
cat "$out/summary.md" 2>/dev/null || { echo "no summary: archscan-bench failed (see $out/bench.log)"; status=1; }
echo
echo "run_full.sh: output in $out; to make it the baseline: perf/update_baseline.sh $out"
exit $status
