#!/usr/bin/env bash
# Session 38's final run, one step a call to one warm H200 (the parts carried one or two a call):
#   unpack: unpack what this call carries; odd / even / bench: the fcall.sh part, once every part is here.
set -u
step=$1
tools/final_run.sh unpack-only /tmp/u > $OUT/unpack_$step.txt 2>&1
grep -h unpacked $OUT/unpack_$step.txt
missing=0
for f in build/gpu/test/thrust_scan_test build/gpu/test/thrust_scan_by_key_test build/gpu/test/thrust_transform_scan_test \
         build/gpu/test/thrust_determinism_test build/gpu/test/tile_wave_test build/gpu/perf/archscan-bench; do
  [ -x "$f" ] || { echo "missing: $f"; missing=1; }
done
case $step in
  unpack) exit 0 ;;
  odd) [ $missing = 0 ] && bash build/fcall.sh sanitize-native+suite-odd odd ;;
  even) [ $missing = 0 ] && bash build/fcall.sh suite-even even ;;
  bench) [ $missing = 0 ] && bash build/fcall.sh bench bench ;;
esac
