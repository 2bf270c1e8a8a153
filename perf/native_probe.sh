#!/usr/bin/env bash
# A quick look at the native family's speed on the GPU machine, in one device call:
#   perf/native_probe.sh OUT_DIR
# Builds (sm_90) archscan-bench with the exclusive scans only and measures exclusive sums of
# int32/float/int64/double at 2^10..2^30 for CUB, turing_nosync and native's variants
# (ARCHSCAN_PROBE_FILTER: another Google Benchmark filter). native's tests are tools/native_check.sh's;
# ARCHSCAN_PROBE_TESTS=1 runs that first, in the same call.
set -u
out=$(realpath -m "${1:?out dir}")
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out"
start=$(date +%s)
rc=0
if [ "${ARCHSCAN_PROBE_TESTS:-0}" = 1 ]; then tools/native_check.sh "$out/tests" || rc=1; fi
build=build/native-probe
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DARCHSCAN_BUILD_TESTS=OFF \
  -DARCHSCAN_BENCH_SCANS=exclusive > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 2; }
cmake --build "$build" -j 16 --target archscan-bench > "$out/build.log" 2>&1 || { grep -m5 -A5 error "$out/build.log"; exit 2; }
echo "build $(( $(date +%s) - start )) s"
"$build/perf/archscan-bench" \
  --benchmark_filter="${ARCHSCAN_PROBE_FILTER:-^exclusive_scan/(int32|float|int64|double)/(1024|8192|65536|1048576|4194304|8388608|16777216|67108864|268435456|1073741824)/(cub|memcpy|archscan::turing_nosync|archscan::native[a-z0-9_]*nosync)/}" \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json > "$out/bench.txt" 2>&1 || rc=1
grep -E "^exclusive" "$out/bench.txt" | awk '{print $1, $2, $3}'
echo "total $(( $(date +%s) - start )) s, rc=$rc"
exit $rc
