#!/usr/bin/env python3
"""Throughput against size from archscan-bench's results: the compact form that perf/baselines/ commits
(bench_medians.json, written by `archscan-compare --compact`) or Google Benchmark's own JSON.

    python3 perf/plot.py RESULTS.json OUT.png [--algorithm exclusive_scan]

One panel per value type; one line per implementation (GB/s = bytes that must move / median time);
the device-to-device copy bandwidth measured in the same run drawn as a horizontal roof.
"""

import argparse
import json
import math
import sys
from collections import defaultdict


COMPACT_FORMAT = "archscan-bench medians 1"  # perf/report.hpp: compact_format


def load(path):
    """Returns (rows, copy_GBps, device): rows are dicts with algorithm, type, n, impl, gbps."""
    with open(path) as f:
        # Google Benchmark writes non-finite counters as bare NaN/Infinity, which Python's json reads.
        doc = json.load(f)
    ctx = doc.get("context", {})
    rows, copy = [], float(ctx.get("copy_GBps", 0) or 0)
    if doc.get("format") == COMPACT_FORMAT:
        cases = ((name, c, c.get("median_us", 0), c.get("bytes", 0)) for name, c in doc.get("cases", {}).items())
    else:
        cases = ((b.get("run_name", b["name"]), b, b.get("median_us"), b.get("bytes", 0))
                 for b in doc.get("benchmarks", [])
                 if b.get("run_type", "iteration") == "iteration" and not b.get("error_occurred"))
    for name, c, us, nbytes in cases:
        parts = name.split("/")
        if len(parts) < 4 or us is None:
            continue
        us = float(us)
        rows.append(dict(algorithm=parts[0], type=parts[1], n=int(parts[2]), impl=parts[3],
                         gbps=float(nbytes) / (us * 1e-6) / 1e9 if us > 0 else 0.0))
        copy = copy or float(c.get("copy_GBps", 0))
    return rows, copy, ctx.get("device", "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("png")
    ap.add_argument("--algorithm", default="exclusive_scan", help="which algorithm's rows to plot")
    args = ap.parse_args(argv)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, copy, device = load(args.results)
    rows = [r for r in rows if r["algorithm"] == args.algorithm]
    if not rows:
        print(f"plot.py: no {args.algorithm} results in {args.results}", file=sys.stderr)
        return 1
    order = ["int8", "int16", "int32", "int64", "float", "double", "mat2x2"]
    types = sorted({r["type"] for r in rows}, key=lambda t: order.index(t) if t in order else len(order))
    cols = min(3, len(types))
    nrows = math.ceil(len(types) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5.5 * cols, 4 * nrows), squeeze=False, sharey=True)
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    for ax, t in zip(axes.flat, types):
        series = defaultdict(list)
        for r in rows:
            if r["type"] == t:
                series[r["impl"]].append((r["n"], r["gbps"]))
        for impl in impls:
            if impl in series:
                pts = sorted(series[impl])
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=impl,
                        linestyle="--" if impl.startswith("thrust") else "-")
        if copy > 0:
            ax.axhline(copy, color="black", linewidth=1, linestyle=":", label=f"D2D copy {copy:.0f} GB/s")
        ax.set_xscale("log", base=2)
        ax.set_title(t)
        ax.set_xlabel("items")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("GB/s (bytes that must move / median time)")
    for ax in list(axes.flat)[len(types):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(5, len(labels)), fontsize="small")
    fig.suptitle(f"{args.algorithm}: throughput against size" + (f" ({device})" if device else ""))
    fig.tight_layout(rect=(0, 0.08, 1, 0.96))
    fig.savefig(args.png, dpi=120)
    print(f"plot.py: wrote {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
