#!/usr/bin/env bash
# The GPU workflow, in one command, on a machine with a CUDA GPU (no network needed):
#   tools/gpu_suite.sh [OUT_DIR]
# Configures and builds for sm_90 with ninja, runs the whole ctest suite, the sanitizer checks of the
# turing family (ARCHSCAN_SANITIZE=1), and archscan-ab; writes logs to OUT_DIR (default build/gpu/logs)
# and prints a short summary last. Exit status: non-zero if the build, a test or archscan-ab failed.
set -u
cd "$(dirname "$0")/.."
out=${1:-build/gpu/logs}
mkdir -p "$out"
status=0
t0=$(date +%s)

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1 || true
nvcc --version | tail -n 2 > "$out/nvcc.txt" 2>&1 || true

if ! { cmake --preset gpu && cmake --build --preset gpu; } > "$out/build.log" 2>&1; then
  echo "BUILD FAILED (tail of $out/build.log):"; tail -n 40 "$out/build.log"; exit 1
fi
t_build=$(date +%s)

ctest --preset gpu --timeout "${ARCHSCAN_CTEST_TIMEOUT:-600}" --output-junit "$(pwd)/$out/ctest.xml" > "$out/ctest.log" 2>&1 || status=1
t_test=$(date +%s)

if [ "${ARCHSCAN_SANITIZE:-0}" = 1 ] && [ -x tools/sanitize.sh ]; then
  tools/sanitize.sh build/gpu "$out" > "$out/sanitize.log" 2>&1 || status=1
fi

build/gpu/perf/archscan-ab > "$out/ab.md" 2>&1 || status=1
t_ab=$(date +%s)

echo "================ archscan GPU suite summary ================"
echo "GPU: $(cat "$out/gpu.txt")"
echo "nvcc: $(tail -n 1 "$out/nvcc.txt")"
echo "build $((t_build - t0)) s, ctest $((t_test - t_build)) s, archscan-ab $((t_ab - t_test)) s"
grep -E "tests passed|tests failed" "$out/ctest.log" | tail -n 1
skipped=$(grep -c "Skipped" "$out/ctest.log" || true)
echo "ctest skipped: $skipped"
grep -E "\*\*\*Failed|\(Failed\)|Exception|Timeout" "$out/ctest.log" | head -n 30
[ -f "$out/sanitize.log" ] && { echo "--- sanitizer ---"; tail -n 12 "$out/sanitize.log"; }
echo "--- archscan-ab ---"
cat "$out/ab.md"
exit $status
