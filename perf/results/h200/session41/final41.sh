#!/usr/bin/env bash
# Session 41's final run, one step a call to one warm H200, the build's parts carried one a call
# (tools/pack_build.sh into build/carry-a, -b1, -b2, -b3; build/gpu-ptx75's programs into build/carry-x):
#   a: unpack, then old-ptx (sm_75 PTX on this GPU, its digest against sm_90) and the copy row;
#   unpack: unpack what this call carries; odd / even: the sanitizers over native's tests beside half
#   the suite, then the other half and archscan-ab (tools/final_run.sh), once every part is here.
set -u
step=$1
tools/final_run.sh unpack /tmp/u > "$OUT/unpack_$step.txt" 2>&1
grep -h unpacked "$OUT/unpack_$step.txt"
absent=""
for program in test/thrust_scan_test test/thrust_scan_by_key_test test/thrust_transform_scan_test \
               test/thrust_determinism_test test/dispatch_native_staged_test perf/archscan-bench; do
  [ -x "build/gpu/$program" ] || absent="$absent $program"
done
[ -z "$absent" ] || echo "not here yet:$absent"
parts() {  # tools/final_run.sh $1 into /tmp/$2 (at most 570 s), its archive copied into $OUT
  timeout 570 stdbuf -oL -eL tools/final_run.sh "$1" "/tmp/$2"
  echo "final_run $1 rc=$?"
  cp "/tmp/$2.tar.gz" "$OUT/" 2>/dev/null
}
case $step in
  a) parts old-ptx,row a; cat /tmp/a/old-ptx/summary.txt /tmp/a/row/summary.md ;;
  unpack) ;;
  odd) [ -z "$absent" ] && parts sanitize-native+suite-odd odd ;;
  even) [ -z "$absent" ] && parts suite-even even ;;
esac
