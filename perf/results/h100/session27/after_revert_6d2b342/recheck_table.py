import json, sys, statistics
r = json.load(open(sys.argv[1]))
cases = {}
for b in r['benchmarks']:
    if b.get('run_type') != 'iteration': continue
    parts = b['name'].split('/')
    cases['/'.join(parts[:4])] = b.get('median_us', b['real_time'])
new = json.load(open('/tmp/r2/a/bench/bench_medians.json'))['cases']
old = json.load(open('/tmp/bm26.json'))['cases']
imp = 'archscan::native_nosync'; tree = 'archscan::native_tree_nosync'
print("x CUB: session 26 | dca863e | after revert;   cost of determinism: s26 | dca863e | now")
hi = [0, 0, 0]; tot = 0
for a in ['exclusive_scan', 'inclusive_scan', 'transform_inclusive_scan', 'exclusive_scan_by_key']:
    for t in ['float', 'double', 'mat2x2']:
        for k in range(13, 22):
            n = 2 ** k; base = f'{a}/{t}/{n}'
            if f'{base}/{imp}' not in cases: continue
            rc = [d[f'{base}/cub']['median_us'] / d[f'{base}/{imp}']['median_us'] for d in (old, new)]
            rc.append(cases[f'{base}/cub'] / cases[f'{base}/{imp}'])
            cd = [d[f'{base}/{imp}']['median_us'] / d[f'{base}/{tree}']['median_us'] for d in (old, new)]
            cd.append(cases[f'{base}/{imp}'] / cases[f'{base}/{tree}'])
            tot += 1
            for i in range(3): hi[i] += cd[i] > 1.03
            print(f'{a[:14]:14s} {t:6s} 2^{k}: ' + ' '.join(f'{x:.3f}' for x in rc) + '  |  ' + ' '.join(f'{x:.3f}' for x in cd))
print('points', tot, 'above 1.03 (s26, dca863e, now):', hi)
