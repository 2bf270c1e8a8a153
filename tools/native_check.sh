#!/usr/bin/env bash
# The native family's GPU tests alone, in one device call (a check between full suites):
#   tools/native_check.sh OUT_DIR
# Builds (sm_90) the typed scan, by-key, transform, value-size, iterator, alias, determinism, look-back,
# vector-exchange and plan tests and runs their native cases. The whole suite is `tools/gpu.sh suite`'s.
# ARCHSCAN_JOBS: build jobs [nproc]; ARCHSCAN_ARCH: CUDA architectures [90].
set -u
out=$(realpath -m "${1:?out dir}")
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out"
build=build/native-check
start=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${ARCHSCAN_ARCH:-90}" -DARCHSCAN_BUILD_PERF=OFF \
  > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 2; }
tests=(dispatch_route_plan_test dispatch_native_config_test tile_lookback_test thrust_determinism_test thrust_scan_test
       thrust_scan_by_key_test thrust_transform_scan_test thrust_value_size_test thrust_iterator_test thrust_alias_test block_vector_transpose_test)
cmake --build "$build" -j "${ARCHSCAN_JOBS:-$(nproc)}" --target "${tests[@]}" > "$out/build.log" 2>&1 || { grep -m5 -A5 error "$out/build.log"; exit 2; }
echo "build $(( $(date +%s) - start )) s"
rc=0
for t in "${tests[@]}"; do
  "$build/test/$t" --gtest_filter='*native*:*Native*:*SegmentLookback*:VectorTranspose*' --gtest_brief=1 > "$out/$t.log" 2>&1
  r=$?; [ $r -eq 0 ] || rc=1
  echo "$t rc=$r $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')"
done
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
echo "total $(( $(date +%s) - start )) s, rc=$rc"
exit $rc
