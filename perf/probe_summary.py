"""The medians of several probe rounds, as one markdown table on stdout.

    python3 perf/probe_summary.py ROUND.txt...

ROUND.txt: perf/native_probe.sh's output (one line a case: median, x CUB, x copy). For each scan, type
and size: native_nosync's fraction of a copy and its speed over CUB, then each variant's time over
native_nosync's (the median over the rounds of each), so that > 1 means slower than native.
"""
import re, sys, statistics as st
rows = {}
for f in sys.argv[1:]:
    for line in open(f):
        m = re.match(r'(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s+([\d.]+) us\s+x([\d.]+) CUB\s+([\d.]+) copy', line)
        if m:
            alg, typ, n, impl, us = m.groups()[:5]
            rows.setdefault((alg, typ, int(n)), {}).setdefault(impl, []).append(float(us))
impls = sorted({i for v in rows.values() for i in v if i.startswith('archscan::') and i != 'archscan::native_nosync'})
short = [i.replace('archscan::native_', '').replace('_nosync', '') for i in impls]
print(f'Medians of {len(sys.argv) - 1} rounds. Columns after the first three: time over native_nosync\'s.\n')
print('| scan | type | n | native x copy | native x CUB | ' + ' | '.join(short) + ' |')
print('| --- | --- | --- | ---: | ---: | ' + ' | '.join('---:' for _ in short) + ' |')
for (alg, typ, n), v in sorted(rows.items()):
    med = {i: st.median(t) for i, t in v.items()}
    nat = med.get('archscan::native_nosync')
    if not nat: continue
    cells = [f"{med[i] / nat:.3f}" if i in med else '' for i in impls]
    print(f"| {alg} | {typ} | {f'2^{n.bit_length() - 1}' if n & (n - 1) == 0 else n} | {med['memcpy'] / nat:.3f} | {med['cub'] / nat:.3f} | " + ' | '.join(cells) + ' |')
