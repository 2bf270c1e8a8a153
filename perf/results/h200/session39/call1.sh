#!/usr/bin/env bash
# Session 39, calls 1-2 and 9 (after cub_call's one-byte floor, without the probe): every perf program that bd500dd changed (cub_call, native_int32_shaped),
# built here (sm_90) and carried stripped in build/carry-p, run once each; and probe 42
# (archscan-roof-probe42: perf/roof.cu with the chain's segment-end variants, built from a scratch tree
# with the lookback.cuh patch in probe42.patch). Results under $OUT.
set -u
b=build/carry-p
o=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$o/gpu.txt" 2>&1
run() {  # name, then the command
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$o/$name" 2>&1
  echo "rc=$? seconds=$((SECONDS - t0))" >> "$o/$name"
  echo "$name: $(tail -n 1 "$o/$name")"
}
[ -x "$b/archscan-roof-probe42" ] && run roof_probe42.md "$b/archscan-roof-probe42"  # calls 1-2 only
run roof.md "$b/archscan-roof"
run floor.md "$b/archscan-floor"
run ab.md "$b/archscan-ab"
run digest.txt "$b/archscan-digest" "$o/digest.json"
run ablations.md "$b/archscan-ablation"
run sweep_small.md "$b/archscan-sweep" small
run profile_24.txt "$b/archscan-profile" 24
run timeline.txt "$b/archscan-timeline" /tmp/timeline.json int32:24
python3 perf/timeline.py /tmp/timeline.json "$o/timeline" > "$o/timeline_summary.txt" 2>&1 || true
# At most 8 files come back from a call: everything in one archive.
tar -C "$o" -czf /tmp/call1.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/call1.tar.gz "$o/"
