#!/usr/bin/env bash
# A first look at the native family on the GPU machine, in one device call (work in progress):
#   perf/native_probe.sh OUT_DIR
# Builds (sm_90) only what native touches: the typed scan/by-key/transform tests, the determinism and
# look-back tests, native's plan test and archscan-bench (exclusive scans); runs the native tests, then
# exclusive sums of int32/float/int64/double at 2^10..2^30 for CUB, turing_nosync and native_nosync.
set -u
out=$(realpath -m "${1:?out dir}")
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out"
build=build/native-probe
start=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DARCHSCAN_BENCH_SCANS=exclusive > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 2; }
targets=(thrust_scan_test thrust_scan_by_key_test thrust_transform_scan_test thrust_determinism_test
         tile_lookback_test dispatch_native_dispatch_test archscan-bench)
tests=1
if [ "${ARCHSCAN_PROBE_TESTS:-1}" = 0 ]; then tests=0; targets=(archscan-bench); fi  # benchmarks only
cmake --build "$build" -j 16 --target "${targets[@]}" > "$out/build.log" 2>&1 || { grep -m5 -A5 error "$out/build.log"; exit 2; }
echo "build $(( $(date +%s) - start )) s"
rc=0
[ $tests = 1 ] && for t in dispatch_native_dispatch_test tile_lookback_test thrust_determinism_test thrust_scan_test \
         thrust_scan_by_key_test thrust_transform_scan_test; do
  "$build/test/$t" --gtest_filter='*native*:*Native*:*SegmentLookback*' --gtest_brief=1 > "$out/$t.log" 2>&1
  r=$?; [ $r -eq 0 ] || rc=1
  echo "$t rc=$r $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')"
done
"$build/perf/archscan-bench" \
  --benchmark_filter="${ARCHSCAN_PROBE_FILTER:-^exclusive_scan/(int32|float|int64|double)/(1024|8192|65536|1048576|4194304|8388608|16777216|67108864|268435456|1073741824)/(cub|archscan::turing_nosync|archscan::native[a-z0-9_]*nosync)/}" \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json > "$out/bench.txt" 2>&1 || rc=1
grep -E "^exclusive" "$out/bench.txt" | awk '{print $1, $2, $3}'
echo "total $(( $(date +%s) - start )) s, rc=$rc"
exit $rc
