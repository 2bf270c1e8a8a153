#!/usr/bin/env python3
"""Reads archscan-timeline's JSON: per case, the phases of native's tiles and how they overlap.

    perf/timeline.py TIMELINE.json[.gz] [PLOT_DIR]

For each case (the run of median time among its calls), prints the kernel's span on the global
timer, the median and 90th percentile of each tile's phases (load and block scan: started ->
aggregated; look-back: aggregated -> prefixed; rescan and stores: prefixed -> stored), and how many
tiles run at once over the span. With PLOT_DIR, draws each case's tiles over time (one line a tile,
coloured by phase) into PLOT_DIR/timeline_<policy>_<type>_<log2 n>.png (when matplotlib is there).
"""
import gzip
import json
import math
import os
import statistics
import sys


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarize(case):
    runs = sorted(case["runs"], key=lambda r: r["ms"])
    run = runs[len(runs) // 2]
    tiles = run["tiles"]  # [started, aggregated, prefixed, stored, sm] in ns
    t0 = min(t[0] for t in tiles)
    rel = [[(x - t0) / 1000.0 for x in t[:4]] + [t[4]] for t in tiles]
    span = max(t[3] for t in rel)
    phases = {
        "load+scan": [t[1] - t[0] for t in rel],
        "look-back": [t[2] - t[1] for t in rel],
        "stores": [t[3] - t[2] for t in rel],
        "whole": [t[3] - t[0] for t in rel],
    }
    log_n = int(math.log2(case["n"]))
    calls = ", ".join("%.1f" % (r["ms"] * 1000) for r in case["runs"])
    print(f'{case.get("policy", "native")} {case["type"]} 2^{log_n}: {len(tiles)} tiles, call {run["ms"] * 1000:.1f} us '
          f'(calls {calls}), tiles span {span:.1f} us')
    for name, v in phases.items():
        print(f'  {name:10} median {statistics.median(v):6.2f} us  p90 {quantile(v, 0.9):6.2f} us  '
              f'max {max(v):6.2f} us')
    # Tiles running at once (in each phase) at 20 moments over the span, and when the first tiles
    # after the first set start.
    steps = [span * i / 20 for i in range(20)]
    running = [sum(1 for t in rel if t[0] <= x < t[3]) for x in steps]
    loading = [sum(1 for t in rel if t[0] <= x < t[1]) for x in steps]
    waiting = [sum(1 for t in rel if t[1] <= x < t[2]) for x in steps]
    print('  at t (us):  ' + ' '.join(f'{x:5.1f}' for x in steps))
    print('  running:    ' + ' '.join(f'{v:5d}' for v in running))
    print('  loading:    ' + ' '.join(f'{v:5d}' for v in loading))
    print('  look-back:  ' + ' '.join(f'{v:5d}' for v in waiting))
    segments = [rel[k:k + 32] for k in range(0, len(rel), 32)][:40]
    print('  segments\' first prefix (us): ' + ' '.join(f'{min(t[2] for t in seg):.1f}' for seg in segments))
    first_set = max(sum(1 for t in rel if t[0] <= x < t[3]) for x in (t[0] for t in rel))
    if len(rel) > first_set:
        later = sorted(t[0] for t in rel[first_set:])
        first_ends = sorted(t[3] for t in rel[:first_set])
        print(f'  first {first_set} tiles end between {first_ends[0]:.1f} and {first_ends[-1]:.1f} us '
              f'(median {statistics.median(first_ends):.1f}); the rest start between {later[0]:.1f} and '
              f'{later[-1]:.1f} us (median {statistics.median(later):.1f})')
    return rel, span, log_n


def plot(plt, case, rel, span, log_n, out_dir):
    fig, ax = plt.subplots(figsize=(10, 6))
    for i, t in enumerate(rel):
        ax.plot([t[0], t[1]], [i, i], color="tab:blue", linewidth=0.6)
        ax.plot([t[1], t[2]], [i, i], color="tab:red", linewidth=0.6)
        ax.plot([t[2], t[3]], [i, i], color="tab:green", linewidth=0.6)
    ax.set_xlabel("time on the global timer (us)")
    ax.set_ylabel("tile")
    ax.set_xlim(0, span)
    ax.set_title(f'{case.get("policy", "native")}, exclusive sum of {case["type"]}, 2^{log_n} items: '
                 'load + block scan (blue), look-back (red), rescan + stores (green)', fontsize=9)
    fig.tight_layout()
    fig.savefig(f'{out_dir}/timeline_{case.get("policy", "native")}_{case["type"]}_{log_n}.png', dpi=120)
    plt.close(fig)


def main():
    opener = gzip.open if sys.argv[1].endswith(".gz") else open
    with opener(sys.argv[1], "rt") as f:
        data = json.load(f)
    plt = None
    if len(sys.argv) > 2:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            os.makedirs(sys.argv[2], exist_ok=True)
        except ImportError:
            print("no matplotlib: no plots")
    print(f'{data["device"]}, {data["sms"]} SMs')
    for case in data["cases"]:
        rel, span, log_n = summarize(case)
        if plt is not None:
            plot(plt, case, rel, span, log_n, sys.argv[2])


if __name__ == "__main__":
    main()
