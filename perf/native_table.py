#!/usr/bin/env python3
"""native's table from a bench_medians.json (archscan-compare --compact of archscan-bench):
native_nosync against CUB at every size and type, the geometric mean, the fraction of copy at
2^28..2^30, the launch floor at n <= 2^16 (time over a cudaMemcpyAsync of the same bytes), the
by-key and transform scans at 2^16..2^30, and what determinism costs (against native_tree_nosync).

    perf/native_table.py perf/baselines/h200/bench_medians.json [IMPL]    (a .json.xz reads as well)
"""
import json
import lzma
import math
import sys

path = sys.argv[1]
impl = sys.argv[2] if len(sys.argv) > 2 else "archscan::native_nosync"
cases = json.load(lzma.open(path, "rt") if path.endswith(".xz") else open(path))["cases"]


def get(alg, typ, n, who):
    c = cases.get(f"{alg}/{typ}/{n}/{who}")
    return c["median_us"] if c else None


rows = [("exclusive_scan", t) for t in ("int8", "int16", "int32", "int64", "float", "double")]
rows += [("flag_offsets", t) for t in sorted({k.split("/")[1] for k in cases if k.startswith("flag_offsets/")})]
rows += [(a, "mat2x2") for a in sorted({k.split("/")[0] for k in cases if "/mat2x2/" in k})]
sizes = sorted({int(k.split("/")[2]) for k in cases})

print(f"{impl}: time of CUB / time of {impl} (> 1: faster than CUB)\n")
print("| scan | type | " + " | ".join(f"2^{int(math.log2(n))}" for n in sizes) + " | geomean | min |")
print("| --- | --- |" + " ---: |" * (len(sizes) + 2))
all_ratios = []
for alg, typ in rows:
    r = []
    for n in sizes:
        a, c = get(alg, typ, n, impl), get(alg, typ, n, "cub")
        r.append(c / a if a and c else None)
    got = [x for x in r if x]
    if not got:
        continue
    all_ratios += got
    g = math.exp(sum(map(math.log, got)) / len(got))
    cells = " | ".join(f"{x:.2f}" if x else "-" for x in r)
    print(f"| {alg} | {typ} | {cells} | {g:.3f} | {min(got):.2f} |")
g = math.exp(sum(map(math.log, all_ratios)) / len(all_ratios))
print(f"\nEvery point above: geomean {g:.3f}, {sum(x >= 1.0 for x in all_ratios)} of {len(all_ratios)} at >= 1.00x CUB.\n")

print("Fraction of copy (memcpy time / scan time) at 2^28..2^30:\n")
print("| scan | type | 2^28 | 2^29 | 2^30 |\n| --- | --- | ---: | ---: | ---: |")
for alg, typ in rows:
    fr = []
    for n in (1 << 28, 1 << 29, 1 << 30):
        a, m = get(alg, typ, n, impl), get(alg, typ, n, "memcpy")
        fr.append(f"{m / a:.3f}" if a and m else "-")
    print(f"| {alg} | {typ} | " + " | ".join(fr) + " |")

print("\nLaunch floor: time / cudaMemcpyAsync time at n <= 2^16 (worst over 2^10..2^16):\n")
print("| scan | type | worst | at |\n| --- | --- | ---: | --- |")
for alg, typ in rows:
    worst = None
    for n in sizes:
        if n > 1 << 16:
            continue
        a, m = get(alg, typ, n, impl), get(alg, typ, n, "memcpy")
        if a and m and (worst is None or a / m > worst[0]):
            worst = (a / m, n)
    if worst:
        print(f"| {alg} | {typ} | {worst[0]:.2f} | 2^{int(math.log2(worst[1]))} |")

print("\nBy-key and transform scans at 2^16..2^30 (time of CUB / time of " + impl + "):\n")
print("| scan | type | min | geomean |\n| --- | --- | ---: | ---: |")
for alg in ("exclusive_scan_by_key", "inclusive_scan_by_key", "transform_inclusive_scan"):
    for typ in sorted({k.split("/")[1] for k in cases if k.startswith(alg + "/")}):
        r = []
        for n in sizes:
            a, c = get(alg, typ, n, impl), get(alg, typ, n, "cub")
            if n >= 1 << 16 and a and c:
                r.append(c / a)
        if r:
            print(f"| {alg} | {typ} | {min(r):.2f} | {math.exp(sum(map(math.log, r)) / len(r)):.3f} |")

# What determinism costs: the same kernels with the look-back's and the wave's fold as a tree
# (native_tree_nosync, not deterministic). The target: at most 3% at every point.
tree = "archscan::native_tree_nosync"
print(f"\nCost of determinism: time of {impl} / time of {tree} (target <= 1.03):\n")
print("| scan | points | median | max | above 1.03 | above 1.05 |\n| --- | ---: | ---: | ---: | ---: | ---: |")
costs = {}
for key, c in cases.items():
    alg, typ, n, who = key.split("/")[:4]
    t = get(alg, typ, n, tree)
    if who == impl and t:
        costs.setdefault(alg, []).append(c["median_us"] / t)
every = []
for alg in sorted(costs):
    r = sorted(costs[alg])
    every += r
    print(f"| {alg} | {len(r)} | {r[len(r) // 2]:.3f} | {r[-1]:.3f} | {sum(x > 1.03 for x in r)} | {sum(x > 1.05 for x in r)} |")
if every:
    every.sort()
    print(f"| every scan | {len(every)} | {every[len(every) // 2]:.3f} | {every[-1]:.3f} | "
          f"{sum(x > 1.03 for x in every)} | {sum(x > 1.05 for x in every)} |")

# Points whose own timing or CUB's was unsteady: a ratio there says less than the others.
spread_limit = 0.25
noisy = []
for key, c in sorted(cases.items()):
    alg, typ, n, who = key.split("/")[:4]
    if who in (impl, "cub") and c.get("spread", 0) > spread_limit:
        noisy.append(f"| {alg} | {typ} | 2^{int(math.log2(int(n)))} | {who} | {c['median_us']:.2f} | {c['spread']:.2f} |")
print(f"\nUnsteady points (spread over {spread_limit} for {impl} or CUB):\n")
if noisy:
    print("| scan | type | n | who | median (us) | spread |\n| --- | --- | --- | --- | ---: | ---: |")
    print("\n".join(noisy))
else:
    print("none")
