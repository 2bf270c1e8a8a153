#!/usr/bin/env bash
# The closing runs on the GPU machine, in parts that each fit one device call (10 minutes):
#   tools/final_run.sh PART[,PART...] OUT_DIR
#   suite     sm_90 build, the whole ctest suite and archscan-ab (tools/gpu_suite.sh)   ~7 min
#   sanitize  the four compute-sanitizer tools over the turing tests (tools/sanitize.sh) ~3 min
#   bench     archscan-bench over every axis, Table 2, ablations (perf/run_full.sh)     ~3 min
# sanitize and bench build first where the build is missing (a fresh machine). Everything lands in
# OUT_DIR, packed into OUT_DIR.tar.gz as well (the device tool returns at most 8 files).
set -u
cd "$(dirname "$0")/.."
parts=${1:?parts: suite,sanitize,bench}
out=${2:?out dir}
mkdir -p "$out"
ensure_build() {
  { cmake --preset gpu && cmake --build --preset gpu; } > "$out/build.log" 2>&1 || { echo "build failed"; tail -n 30 "$out/build.log"; }
}
for part in ${parts//,/ }; do
  case $part in
    suite)
      ARCHSCAN_CTEST_TIMEOUT=240 tools/gpu_suite.sh "$out/suite" > "$out/suite.txt" 2>&1
      echo "suite rc=$?" >> "$out/suite.txt"
      ;;
    sanitize)
      ensure_build
      tools/sanitize.sh build/gpu "$out/sanitize" > "$out/sanitize.txt" 2>&1
      echo "sanitize rc=$?" >> "$out/sanitize.txt"
      ;;
    bench)
      ensure_build
      perf/run_full.sh build/gpu "$out/bench" > "$out/run_full.txt" 2>&1
      echo "run_full rc=$?" >> "$out/run_full.txt"
      ;;
    *) echo "unknown part: $part" >&2; exit 2 ;;
  esac
done
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
