#!/usr/bin/env bash
# Session 40's final run (the staged look-back's commit), one step a call to one warm H200, the build's
# parts carried one a call (tools/pack_build.sh into build/carry-a, -b1a, -b1b, -b2):
#   unpack: unpack what this call carries; odd / even: the sanitizers over native's tests beside half
#   the suite, then the other half and archscan-ab (tools/final_run.sh), once every part is here.
set -u
step=$1
tools/final_run.sh unpack-only /tmp/u > $OUT/unpack_$step.txt 2>&1
grep -h unpacked $OUT/unpack_$step.txt
missing=0
for f in build/gpu/test/thrust_scan_test build/gpu/test/thrust_scan_by_key_test build/gpu/test/thrust_transform_scan_test \
         build/gpu/test/thrust_determinism_test build/gpu/test/dispatch_native_staged_test build/gpu/perf/archscan-bench; do
  [ -x "$f" ] || { echo "missing: $f"; missing=1; }
done
run() {  # tools/final_run.sh PARTS into /tmp/NAME, its archive into $OUT
  tools/final_run.sh "$1" "/tmp/$2"
  echo "final_run rc=$?"
  cp "/tmp/$2.tar.gz" "$OUT/" 2>/dev/null
}
case $step in
  unpack) exit 0 ;;
  odd) [ $missing = 0 ] && run sanitize-native+suite-odd odd ;;
  even) [ $missing = 0 ] && run suite-even even ;;
esac
