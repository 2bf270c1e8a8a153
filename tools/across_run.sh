#!/usr/bin/env bash
# The scan across GPUs on a machine with several GPUs (device kind nvidia-h200-x2):
#   tools/across_run.sh OUT_DIR
# Builds (sm_90) the NCCL tests and the multi-GPU benchmark only, runs the tests in both modes (threads:
# one per GPU; processes: thrust_across_processes, 2 ranks), docs/across-gpus.md's two-process example,
# then archscan-across in threads mode and in processes mode (2 processes). NCCL from tools/nccl_root.sh.
# Logs, across.json and across_processes.json land in OUT_DIR. ARCHSCAN_ACROSS_TESTS=0 skips the
# tests, ARCHSCAN_ACROSS_BENCH=0 the benchmark. ARCHSCAN_TEST_TIMEOUT: seconds a test without a TIMEOUT
# property may take [900].
set -u
cd "$(dirname "$0")/.." || exit 2
out=${1:?out dir}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on shared machines (KINDS.md)
NCCL_ROOT=$(tools/nccl_root.sh) || { echo "no NCCL found" | tee "$out/build.log"; exit 1; }
export NCCL_ROOT
# The Python package ships libnccl.so.2 only; the programs find it at run time through this path.
export LD_LIBRARY_PATH=$NCCL_ROOT/lib:${LD_LIBRARY_PATH:-}
build=${ARCHSCAN_BUILD_DIR:-build/gpu}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
echo "NCCL_ROOT=$NCCL_ROOT" >> "$out/gpu.txt"
t0=$(date +%s)
targets=(dispatch_rank_dispatch_test thrust_across_ranks_test scan_across_processes)
[ "${ARCHSCAN_ACROSS_BENCH:-1}" = 0 ] || targets+=(archscan-across)
if ! { cmake --preset gpu -B "$build" -DNCCL_ROOT="$NCCL_ROOT" && \
       cmake --build "$build" --target "${targets[@]}"; } > "$out/build.log" 2>&1; then
  echo "BUILD FAILED"; tail -n 40 "$out/build.log"; exit 1
fi
t1=$(date +%s)
[ "${ARCHSCAN_ACROSS_TESTS:-1}" = 0 ] ||
  ctest --test-dir "$build" -R "Rank|Across|across|CommPolicy" --output-on-failure --timeout "${ARCHSCAN_TEST_TIMEOUT:-900}" > "$out/ctest.log" 2>&1
# docs/across-gpus.md's two-process example, with that page's commands.
id=$(mktemp -u); "$build"/scan_across_processes 0 2 "$id" > "$out/example0.txt" 2>&1 & "$build"/scan_across_processes 1 2 "$id" > "$out/example1.txt" 2>&1; r1=$?; wait $!; r0=$?
{ cat "$out/example0.txt" "$out/example1.txt"; echo "example rc: rank 0 $r0, rank 1 $r1"; } > "$out/example.txt"; rm -f "$out"/example[01].txt
t2=$(date +%s)
if [ "${ARCHSCAN_ACROSS_BENCH:-1}" != 0 ]; then
  "$build"/perf/archscan-across --json "$out/across.json" > "$out/across.md" 2> "$out/across.err"
  echo "across rc=$?" >> "$out/across.err"
  # Processes mode (one process per GPU): the small sizes, where the host's share decides.
  id=$(mktemp -u)
  "$build"/perf/archscan-across --procs 2 --rank 1 --id "$id" > "$out/across_procs1.txt" 2>&1 &
  "$build"/perf/archscan-across --procs 2 --rank 0 --id "$id" --json "$out/across_processes.json" \
    > "$out/across_processes.md" 2> "$out/across_processes.err"
  echo "across processes rc=$? (rank 0)" >> "$out/across_processes.err"
  wait $!; echo "rank 1 rc=$?" >> "$out/across_processes.err"; cat "$out/across_procs1.txt" >> "$out/across_processes.err"
  rm -f "$out/across_procs1.txt"
fi
t3=$(date +%s)
echo "build $((t1 - t0)) s, ctest $((t2 - t1)) s, bench $((t3 - t2)) s"
cat "$out/gpu.txt"
grep -E "tests passed|tests failed" "$out/ctest.log" | tail -n 1
echo "skipped: $(grep -c Skipped "$out/ctest.log")"
grep -E "\*\*\*Failed|\(Failed\)|Exception|Timeout|Not Run" "$out/ctest.log" | head -n 20
cat "$out/example.txt" "$out"/across.md "$out"/across.err "$out"/across_processes.md "$out"/across_processes.err 2>/dev/null
