#!/usr/bin/env bash
# The GPU workflow, in one command, on a machine with a CUDA GPU (no network needed):
#   tools/gpu_suite.sh [OUT_DIR]
# Configures and builds for sm_90 with ninja, runs the whole ctest suite, the sanitizer checks of the
# single-pass families (ARCHSCAN_SANITIZE=1), and archscan-ab; writes logs to OUT_DIR (default BUILD/logs)
# and prints a short summary last. Exit status: non-zero if the build, a test or archscan-ab failed.
# Environment:
#   ARCHSCAN_BUILD_DIR  build folder (default build/gpu)
#   ARCHSCAN_CCCL_DIR   a CCCL CMake package (tools/fetch_cccl.sh prints one); default: the toolkit's
#   ARCHSCAN_STEPS      which of build,test,ab to run (default all three)
#   ARCHSCAN_CMAKE_ARGS more configure arguments (e.g. -DARCHSCAN_BUILD_PERF=OFF)
#   ARCHSCAN_CTEST_ARGS more ctest arguments (e.g. -I 1,,2: every other test, from the first)
set -u
cd "$(dirname "$0")/.."
build=${ARCHSCAN_BUILD_DIR:-build/gpu}
out=${1:-$build/logs}
steps=${ARCHSCAN_STEPS:-build,test,ab}
mkdir -p "$out"
status=0
# The scan across ranks builds and runs (on a communicator of every visible GPU) where NCCL is found.
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on shared machines
if NCCL_ROOT=$(tools/nccl_root.sh); then
  export NCCL_ROOT
  export LD_LIBRARY_PATH=$NCCL_ROOT/lib:${LD_LIBRARY_PATH:-}
fi
has_step() { [[ ",$steps," == *",$1,"* ]]; }
t0=$(date +%s)

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1 || true
nvcc --version | tail -n 2 > "$out/nvcc.txt" 2>&1 || true

if has_step build; then
  cccl=()
  [ -z "${ARCHSCAN_CCCL_DIR:-}" ] || cccl=("-DCCCL_DIR=$ARCHSCAN_CCCL_DIR")
  # shellcheck disable=SC2086 # word splitting of ARCHSCAN_CMAKE_ARGS is wanted
  if ! { cmake --preset gpu -B "$build" "${cccl[@]}" ${ARCHSCAN_CMAKE_ARGS:-} && cmake --build "$build"; } > "$out/build.log" 2>&1; then
    echo "BUILD FAILED (tail of $out/build.log):"; tail -n 40 "$out/build.log"; exit 1
  fi
fi
t_build=$(date +%s)

if has_step test; then
  # shellcheck disable=SC2086 # word splitting of ARCHSCAN_CTEST_ARGS is wanted
  ctest --test-dir "$build" -j 8 --output-on-failure --timeout "${ARCHSCAN_CTEST_TIMEOUT:-600}" ${ARCHSCAN_CTEST_ARGS:-} \
    --output-junit "$(pwd)/$out/ctest.xml" > "$out/ctest.log" 2>&1 || status=1
fi
t_test=$(date +%s)

if [ "${ARCHSCAN_SANITIZE:-0}" = 1 ] && [ -x tools/sanitize.sh ]; then
  tools/sanitize.sh "$build" "$out" > "$out/sanitize.log" 2>&1 || status=1
fi

if has_step ab; then
  "$build"/perf/archscan-ab > "$out/ab.md" 2>&1 || status=1
fi
t_ab=$(date +%s)

echo "================ archscan GPU suite summary ($build) ================"
echo "GPU: $(cat "$out/gpu.txt")"
echo "nvcc: $(tail -n 1 "$out/nvcc.txt")"
echo "CCCL: $(grep -m1 -o 'CCCL_DIR:[A-Z]*=.*' "$build/CMakeCache.txt" 2>/dev/null || echo toolkit)"
echo "build $((t_build - t0)) s, ctest $((t_test - t_build)) s, archscan-ab $((t_ab - t_test)) s"
if [ -f "$out/ctest.log" ]; then
  grep -E "tests passed|tests failed" "$out/ctest.log" | tail -n 1
  # Each skipped test has one progress line ("***Skipped"); the closing list names it again.
  echo "ctest skipped: $(grep -c '\*\*\*Skipped' "$out/ctest.log" || true)"
  grep -E "\*\*\*Failed|\(Failed\)|Exception|Timeout|Not Run" "$out/ctest.log" | head -n 30
fi
[ -f "$out/sanitize.log" ] && { echo "--- sanitizer ---"; tail -n 12 "$out/sanitize.log"; }
[ -f "$out/ab.md" ] && { echo "--- archscan-ab ---"; cat "$out/ab.md"; }
exit $status
