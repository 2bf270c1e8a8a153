#!/usr/bin/env bash
# Session 40: one probe binary carried in build/carry-p, run twice, each under its own limit,
# line-buffered so a hang still leaves the rows it printed:
#   bash perf/results/h200/session40/probe_twice.sh archscan-roof-probe45
set -u
o=${OUT:?}
bin=${1:?probe binary}
name=${bin#archscan-}
name=${name//-/_}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$o/gpu.txt" 2>&1
for round in 1 2; do
  timeout 150 stdbuf -oL -eL "build/carry-p/$bin" > "$o/${name}_$round.md" 2>&1
  echo "rc=$?" >> "$o/${name}_$round.md"
  grep -E "check|MISMATCH" "$o/${name}_$round.md" | head -12
  grep -E "^\| (native|staged2|pipe|memcpy|tile_256x32_b4 )" "$o/${name}_$round.md" | grep -E "2\^(28|30)"
  tail -n 1 "$o/${name}_$round.md"
done
tar -C "$o" -czf /tmp/probe_twice.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/probe_twice.tar.gz "$o/"
