#!/usr/bin/env python3
"""The copy row: native_nosync's fraction of a copy and its ratio to CUB at each (algorithm, type, n)
that archscan-bench JSON files hold with memcpy and cub beside it, the median over the files (rounds).

    python3 perf/copy_row.py ROUND.json[.xz] ...

Prints one line a point (tools/final_run.sh row writes them to OUT_DIR/row/summary.txt).
"""
import json
import lzma
import statistics
import sys


def load(path):
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        return json.load(f)["benchmarks"]


def main(paths):
    times = {}
    for path in paths:
        for b in load(path):
            if "median_us" in b:
                times.setdefault(tuple(b["name"].split("/")[:4]), []).append(b["median_us"])
    med = {k: statistics.median(v) for k, v in times.items()}
    for (alg, typ, n, impl), us in sorted(med.items(), key=lambda kv: (kv[0][0], kv[0][1], int(kv[0][2]))):
        copy, cub = med.get((alg, typ, n, "memcpy")), med.get((alg, typ, n, "cub"))
        if impl != "archscan::native_nosync" or copy is None or cub is None:
            continue
        print(f"{alg:15} {typ:7} 2^{int(n).bit_length() - 1}  native {us:9.1f} us  "
              f"copy fraction {copy / us:.3f}  x CUB {cub / us:.3f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
