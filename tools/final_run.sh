#!/usr/bin/env bash
# One device call of the lead's closing runs: the GPU suite (build, ctest, archscan-ab), the sanitizer
# checks of the turing family, then the full benchmark (perf/run_full.sh). Everything lands in OUT_DIR,
# packed into OUT_DIR.tar.gz as well (the device tool returns at most 8 files).
#   tools/final_run.sh suite|bench OUT_DIR
set -u
cd "$(dirname "$0")/.."
what=$1
out=$2
mkdir -p "$out"
case $what in
  suite)
    ARCHSCAN_CTEST_TIMEOUT=240 tools/gpu_suite.sh "$out" > "$out/suite.txt" 2>&1
    echo "suite rc=$?" >> "$out/suite.txt"
    tools/sanitize.sh build/gpu "$out/sanitize" > "$out/sanitize.txt" 2>&1
    echo "sanitize rc=$?" >> "$out/sanitize.txt"
    ;;
  bench)
    perf/run_full.sh build/gpu "$out" > "$out/run_full.txt" 2>&1
    echo "run_full rc=$?" >> "$out/run_full.txt"
    ;;
esac
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
