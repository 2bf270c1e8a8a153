#!/usr/bin/env bash
# A quick look at the native family's speed on the GPU machine, in one device call:
#   perf/native_probe.sh OUT_DIR [SRC_DIR...]
# SRC_DIR: other revisions as plain trees (tools/export_rev.sh REV; carry .rev), each probed after
# this tree by its own perf/native_probe.sh into OUT_DIR/rev-<name>/, one after the other (never two
# at once on the GPU), so that a change and what it replaces are measured in the same call.
# Builds (sm_90) archscan-bench with the probe's cases only (ARCHSCAN_BENCH_SCANS=probe: native beside
# the variants of perf/policies.cuh's probe lists, CUB and a copy; perf/bench_probe_*.cu say which types)
# and measures them at 2^16..2^30 (ARCHSCAN_PROBE_FILTER: another Google Benchmark filter). native's tests are tools/native_check.sh's;
# ARCHSCAN_PROBE_REPS / ARCHSCAN_PROBE_SIZES: timed calls a case / item counts (archscan-bench --reps / --sizes). ARCHSCAN_PROBE_TESTS=1 runs that first, in the same call. ARCHSCAN_PROBE_BENCH: a probe build of
# archscan-bench made beforehand (on this machine, carried to the GPU machine), instead of building one.
# ARCHSCAN_JOBS: build jobs [nproc]; ARCHSCAN_ARCH: CUDA architectures [90].
set -u
out=$(realpath -m "${1:?out dir}")
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out"
start=$(date +%s)
rc=0
if [ "${ARCHSCAN_PROBE_TESTS:-0}" = 1 ]; then tools/native_check.sh "$out/tests" || rc=1; fi
bench=${ARCHSCAN_PROBE_BENCH:-}
if [ -z "$bench" ]; then
  build=build/native-probe
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${ARCHSCAN_ARCH:-90}" -DARCHSCAN_BUILD_TESTS=OFF \
    -DARCHSCAN_BENCH_SCANS=probe > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 2; }
  cmake --build "$build" -j "${ARCHSCAN_JOBS:-$(nproc)}" --target archscan-bench > "$out/build.log" 2>&1 || { grep -m5 -A5 error "$out/build.log"; exit 2; }
  bench=$build/perf/archscan-bench
  echo "build $(( $(date +%s) - start )) s"
fi
"$bench" ${ARCHSCAN_PROBE_REPS:+--reps "$ARCHSCAN_PROBE_REPS"} ${ARCHSCAN_PROBE_SIZES:+--sizes "$ARCHSCAN_PROBE_SIZES"} \
  --benchmark_filter="${ARCHSCAN_PROBE_FILTER:-^[a-z_]*/[a-z0-9]*/(65536|1048576|4194304|8388608|16777216|67108864|268435456|1073741824)/(cub|memcpy|archscan::[a-z0-9_]*)/}" \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json > "$out/bench.txt" 2>&1 || rc=1
# One line per case: median, speed against CUB in the same run, fraction of the copy's bandwidth.
python3 - "$out/bench.json" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if "median_us" not in b: continue
    alg, typ, n, impl = b["name"].split("/")[:4]
    print(f'{alg:15} {typ:6} {n:>11} {impl:40} {b["median_us"]:10.2f} us  x{b.get("ratio_to_cub", 0):.3f} CUB  {b.get("copy_fraction", 0):.3f} copy')
PY
for src in "${@:2}"; do
  name=$(basename "$src")
  echo "== revision $name ($(head -c 60 "$src/REVISION" 2>/dev/null))"
  ARCHSCAN_PROBE_TESTS=0 "$src/perf/native_probe.sh" "$out/rev-$name" > "$out/rev-$name.txt" 2>&1 || rc=1
  cat "$out/rev-$name.txt"
done
echo "total $(( $(date +%s) - start )) s, rc=$rc"
exit $rc
