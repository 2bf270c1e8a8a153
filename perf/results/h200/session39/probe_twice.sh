#!/usr/bin/env bash
# Session 39, calls 3-6: one probe binary carried in build/carry-p, run twice, under a 300 s limit each:
#   bash perf/results/h200/session39/probe_twice.sh archscan-roof-probe43   (probe 43: calls 3, 4)
#   bash perf/results/h200/session39/probe_twice.sh archscan-roof-probe44   (probe 44: calls 5, 6)
# Results under $OUT in one archive (a call returns at most 8 files).
set -u
o=${OUT:?}
bin=${1:?probe binary}
name=${bin#archscan-}
name=${name//-/_}  # roof_probe43: the files the calls wrote
for round in 1 2; do
  timeout 300 "build/carry-p/$bin" > "$o/${name}_$round.md" 2>&1
  echo "rc=$?" >> "$o/${name}_$round.md"
  tail -n 1 "$o/${name}_$round.md"
done
tar -C "$o" -czf /tmp/probe_twice.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/probe_twice.tar.gz "$o/"
