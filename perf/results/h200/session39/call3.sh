#!/usr/bin/env bash
# Session 39, third device call: probe 44 (archscan-roof-probe44: the scratch tree of probe44.patch,
# native's int32 row on the pipelined schedule beside native and probe 43's prototypes), twice.
set -u
o=${OUT:?}
for round in 1 2; do
  timeout 300 build/carry-p/archscan-roof-probe44 > "$o/roof_probe44_$round.md" 2>&1
  echo "rc=$?" >> "$o/roof_probe44_$round.md"
  tail -n 1 "$o/roof_probe44_$round.md"
done
tar -C "$o" -czf /tmp/call3.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/call3.tar.gz "$o/"
