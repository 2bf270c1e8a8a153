#!/usr/bin/env bash
# Session 39, second device call: probe 43 (archscan-roof-probe43: the scratch tree of probe43.patch,
# which holds probe 42's variants too), twice. Results under $OUT in one archive.
set -u
o=${OUT:?}
for round in 1 2; do
  timeout 300 build/carry-p/archscan-roof-probe43 > "$o/roof_probe43_$round.md" 2>&1
  echo "rc=$?" >> "$o/roof_probe43_$round.md"
  tail -n 1 "$o/roof_probe43_$round.md"
done
tar -C "$o" -czf /tmp/call2.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/call2.tar.gz "$o/"
