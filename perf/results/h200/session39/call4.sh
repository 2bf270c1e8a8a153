#!/usr/bin/env bash
# Session 39, fourth and fifth device calls: probe 44 once (the fourth: its second build, whose windowed-tree variant hung; the fifth: its third build, without it, each row also on stderr), line-buffered and under a 100 s limit
# (the third call's two rounds hung until its limit with nothing written: stdout was block-buffered).
set -u
o=${OUT:?}
timeout 100 stdbuf -oL -eL build/carry-p/archscan-roof-probe44 > "$o/roof_probe44_v3.md" 2>&1
echo "rc=$?" >> "$o/roof_probe44_v3.md"
tail -n 3 "$o/roof_probe44_v3.md"
