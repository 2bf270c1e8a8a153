#!/usr/bin/env bash
# Session 38: the two-GPU tests (Rank|across) of build/carry-b2 on two H200s.
set -u
tools/final_run.sh unpack-only /tmp/u > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; cat $OUT/gpu.txt
(cd build/gpu && timeout 400 ctest -R 'Rank|across' --timeout 240 > $OUT/ctest_2gpu.log 2>&1); echo "ctest rc=$?"
tail -4 $OUT/ctest_2gpu.log
