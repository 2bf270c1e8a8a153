#!/usr/bin/env bash
# Session 36: which kernel, grid and occupancy the declared product's 2^20 scan takes as a tree and in order (ncu, launch metrics only).
set -u
tools/final_run.sh unpack-only /tmp/u > /dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/probe-new/carried-lib
for v in tree ordered; do
  timeout 100 ncu --kernel-name regex:native --launch-count 8 \
    --metrics launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_per_block_dynamic,gpu__time_duration.sum \
    build/probe-new/perf/archscan-bench --reps 1 --sizes 1048576,917504 \
    --benchmark_filter="^exclusive_scan/mat2x2d/(1048576|917504)/archscan::native_exact_${v}_nosync/" > $OUT/ncu_$v.txt 2>&1
  echo "$v rc=$?"
  grep -E "native_scan|launch__|gpu__time" $OUT/ncu_$v.txt | sed 's/  */ /g' | cut -c1-150 | head -40
done
