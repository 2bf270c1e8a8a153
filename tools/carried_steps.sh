#!/usr/bin/env bash
# A final run of a build made here and carried in parts (tools/pack_build.sh into build/carry-*), one
# step a call to one warm device machine, each call carrying one or more parts:
#   tools/carried_steps.sh first [PARTS]  unpack, then tools/final_run.sh PARTS (default old-ptx,row:
#                                         parts that need only the perf programs and build/gpu-ptx75's)
#   tools/carried_steps.sh unpack         unpack what this call carries, nothing else
#   tools/carried_steps.sh odd            the sanitizers over native's tests beside half the suite
#   tools/carried_steps.sh even           the other half of the suite and archscan-ab
# odd and even run only once every part is unpacked here (they say which programs are not). Logs and
# each part's archive go to $OUT (the device tool's output folder). A machine idle for ~30 s goes back
# with what was unpacked on it: make the calls back to back.
set -u
cd "$(dirname "$0")/.." || exit 2
step=${1:?step: first, unpack, odd or even}
: "${OUT:?OUT: the folder whose files come back}"
tools/final_run.sh unpack /tmp/unpack > "$OUT/unpack_$step.txt" 2>&1
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
  first)
    parts "${2:-old-ptx,row}" first
    for summary in /tmp/first/old-ptx/summary.txt /tmp/first/row/summary.md; do
      [ -f "$summary" ] && cat "$summary"
    done
    [ -f /tmp/first/run_full.txt ] && tail -n 5 /tmp/first/run_full.txt
    ;;
  unpack) ;;
  odd) [ -z "$absent" ] && parts sanitize-native+suite-odd odd ;;
  even) [ -z "$absent" ] && parts suite-even even ;;
  *) echo "unknown step $step" >&2; exit 2 ;;
esac
