#!/usr/bin/env python3
"""The one-page summary.md of a committed baseline (perf/baselines/<gpu>/), computed from its medians.

    perf/baseline_summary.py BASELINE_DIR [IMPL]

BASELINE_DIR holds bench_medians.json or bench_medians.json.xz (archscan-compare --compact of
archscan-bench) and meta.txt (perf/run_full.sh's: gpu, nvidia-smi, nvcc, git lines; a `revision:`
line, which perf/update_baseline.sh adds, names the measured programs' build). Prints markdown:
what was measured (revision, date, device, driver, nvcc, CCCL) and, per scan and type, IMPL
(archscan::native_nosync unless given) against CUB of the same run: the geometric mean over every
size of CUB's time over IMPL's, the smallest such ratio and its size, and the fraction of a copy
(memcpy time of the same bytes over IMPL's time) at the largest size. Every number comes from the
JSON; nothing is typed in.
"""
import json
import lzma
import math
import os
import re
import subprocess
import sys


def medians_path(folder):
    """bench_medians.json, else bench_medians.json.xz (a baseline keeps one of the two)."""
    plain = os.path.join(folder, "bench_medians.json")
    return plain if os.path.exists(plain) else plain + ".xz"


def load_cases(path):
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        return json.load(f)


def read_meta(folder):
    meta = {}
    path = os.path.join(folder, "meta.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, _, value = line.partition(":")
                meta.setdefault(key.strip(), value.strip())
    return meta


def revision_of(meta):
    """The measured programs' revision: `revision:`, else `build:`, else the checkout's `git:` line."""
    for key in ("revision", "build", "git"):
        if meta.get(key):
            return meta[key]
    return "unknown"


def commit_date(rev):
    """The commit's date (YYYY-MM-DD) when this checkout knows the revision; else empty."""
    word = rev.split()[0] if rev.split() else ""
    if not re.fullmatch(r"[0-9a-f]{7,40}", word):
        return ""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs", word], capture_output=True, text=True,
                             cwd=os.path.dirname(os.path.abspath(__file__)), check=False)
    except OSError:
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def cub_version(context):
    """CUB_VERSION (MMmmmpp, e.g. 300001) as 3.0.1; the context's cccl line when that is missing."""
    v = context.get("CUB_VERSION", "")
    if v.isdigit():
        n = int(v)
        return f"{n // 100000}.{n // 100 % 1000}.{n % 100}"
    return context.get("cccl", "?")


def log2_label(n):
    return f"2^{int(math.log2(n))}" if n & (n - 1) == 0 else str(n)


def headline_rows(cases, impl):
    """(scan, type, geomean, min ratio, size of the min, copy fraction at the largest size) per row."""
    median = {k: c["median_us"] for k, c in cases.items()}
    pairs = sorted({tuple(k.split("/")[:2]) for k in cases})
    order = ("exclusive_scan", "inclusive_scan", "exclusive_scan_by_key", "inclusive_scan_by_key",
             "transform_inclusive_scan", "flag_offsets")
    types = ("int8", "int16", "int32", "int64", "float", "double")
    pairs.sort(key=lambda p: (order.index(p[0]) if p[0] in order else len(order), p[0],
                              types.index(p[1]) if p[1] in types else len(types), p[1]))
    rows, every = [], []
    for alg, typ in pairs:
        sizes = sorted({int(k.split("/")[2]) for k in cases if k.startswith(f"{alg}/{typ}/")})
        ratios = []
        for n in sizes:
            mine, cub = median.get(f"{alg}/{typ}/{n}/{impl}"), median.get(f"{alg}/{typ}/{n}/cub")
            if mine and cub:
                ratios.append((cub / mine, n))
        if not ratios:
            continue
        every += [r for r, _ in ratios]
        geo = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
        low, at = min(ratios)
        top = sizes[-1]
        mine, copy = median.get(f"{alg}/{typ}/{top}/{impl}"), median.get(f"{alg}/{typ}/{top}/memcpy")
        rows.append((alg, typ, geo, low, at, copy / mine if mine and copy else None, top, len(ratios)))
    return rows, every


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    folder = sys.argv[1]
    impl = sys.argv[2] if len(sys.argv) == 3 else "archscan::native_nosync"
    path = medians_path(folder)
    doc = load_cases(path)
    context, cases = doc.get("context", {}), doc["cases"]
    meta = read_meta(folder)
    rev = revision_of(meta)
    when = commit_date(rev)
    smi = [s.strip() for s in meta.get("nvidia-smi", "").split(",")]
    nvcc = re.search(r"release [0-9.]+, V[0-9.]+", meta.get("nvcc", ""))
    cub = cub_version(context)
    rows, every = headline_rows(cases, impl)

    out = [f"# Baseline: {context.get('device', '?')}", ""]
    out.append(f"- Revision: {rev}" + (f" (committed {when})" if when else ""))
    checkout = meta.get("git", "")
    if checkout and checkout.split()[0] != rev.split()[0]:
        out.append(f"- Checkout on the GPU machine: {checkout} (meta.txt's `git:`, the tree the run started from; "
                   "the revision above names the measured programs' build)")
    out.append(f"- Date of the run: {context.get('date', meta.get('date', '?'))}")
    out.append(f"- Device: {meta.get('gpu', context.get('device', '?'))}")
    out.append(f"- Driver: {smi[1] if len(smi) > 1 and smi[1] else '?'}; "
               f"{context.get('versions', '?')}; nvcc {nvcc.group(0) if nvcc else '?'}")
    out.append(f"- CCCL: {context.get('cccl', '?')} (CUB {cub}, the oracle and the baseline)")
    out.append(f"- Method: {context.get('method', '?')}; L2 {context.get('l2_cache', '?')}; "
               f"device-to-device copy {context.get('copy_GBps', '?')} GB/s")
    out.append("")
    out.append(f"{impl} against CUB {cub} of the same run: time of CUB / time of {impl} (> 1: faster), "
               "the geometric mean over every size and the smallest ratio; fraction of a copy = time of a "
               "device-to-device copy of the same bytes / time of the scan, at the largest size.")
    out.append("")
    out.append("| scan | type | sizes | geomean x CUB | min x CUB | at | fraction of a copy | at |")
    out.append("| --- | --- | ---: | ---: | ---: | --- | ---: | --- |")
    for alg, typ, geo, low, at, frac, top, count in rows:
        cell = f"{frac:.3f}" if frac is not None else "-"
        out.append(f"| {alg} | {typ} | {count} | {geo:.3f} | {low:.2f} | {log2_label(at)} | {cell} | "
                   f"{log2_label(top)} |")
    if every:
        geo = math.exp(sum(map(math.log, every)) / len(every))
        out.append("")
        out.append(f"Every point of the table: geomean {geo:.3f}, {sum(r >= 1.0 for r in every)} of {len(every)} "
                   "at >= 1.00x CUB.")
    plots = sorted(f for f in os.listdir(folder) if f.startswith("throughput_") and f.endswith(".png"))
    if plots:
        out.append("")
        out.append("Plots (GB/s against size, every implementation): " + ", ".join(f"[{p}]({p})" for p in plots) + ".")
    out.append("")
    out.append("Per-size ratios, the copy fraction at 2^28..2^30 and the launch floor: "
               f"`python3 perf/native_table.py {path}`. "
               "Regenerated by `perf/update_baseline.sh RESULTS_DIR GPU` from a run's output folder.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
