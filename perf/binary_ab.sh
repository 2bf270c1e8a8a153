#!/usr/bin/env bash
# Two builds of archscan-bench made beforehand (e.g. two ARCHSCAN_BUILD_DIRs of `tools/gpu.sh build`, or
# builds made elsewhere and carried), run in alternating rounds on one GPU in one device call, old first
# (O N O N ...):
#
#   perf/binary_ab.sh OLD_BUILD NEW_BUILD OUT_DIR
#
# OLD_BUILD / NEW_BUILD: build folders holding perf/archscan-bench (and, for a build made elsewhere,
# carried-lib/ with its Google Benchmark library); NEW_BUILD also perf/archscan-compare, which takes
# each build's per-case medians over its rounds (build both targets).
# For a change to archscan's headers only, both builds come from one tree, so their case lists
# match (perf/revision_ab.sh builds two revisions on the GPU machine instead).
# OUT_DIR gets each run's JSON ({old,new}_R.json), each build's medians ({old,new}_medians.json)
# and ab.md: per case the median over each build's rounds for every implementation, and new / old
# for native_nosync beside CUB's and the tree variant's (both unchanged by a change to native's
# ordered fold: their ratios are the drift between the slots), and native_nosync /
# native_tree_nosync (what determinism costs) in each build; then the 2% gate over native_nosync's points, with
# CUB's spread as the control (perf/revision_ab.sh's gate adds each case's noise and confirmation rounds).
# Environment: AB_ROUNDS [3], AB_REPS timed calls a case [30], AB_FILTER [every case].
set -u
old=${1:?old build}
new=${2:?new build}
out=$(realpath -m "${3:?out dir}")
mkdir -p "$out"
rounds=${AB_ROUNDS:-3}
filter=${AB_FILTER:-.}
rc=0
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    build=$old
    [[ $side == new ]] && build=$new
    LD_LIBRARY_PATH="$build/carried-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$build/perf/archscan-bench" \
      --reps "${AB_REPS:-30}" --benchmark_filter="$filter" --benchmark_out="$out/${side}_$r.json" \
      --benchmark_out_format=json > "$out/${side}_$r.txt" 2>&1 || rc=1
    echo "round $r $side: rc $rc, $(grep -c median_us "$out/${side}_$r.json" 2> /dev/null) cases"
  done
done
# Per case, the median over each build's rounds: archscan-compare's compact form of several runs
# (report::median_run, the medians perf/revision_ab.sh compares), one file a build.
compare=$new/perf/archscan-compare
for side in old new; do
  runs=("$out/${side}"_[0-9]*.json)
  [ -e "${runs[0]}" ] || runs=()
  LD_LIBRARY_PATH="$new/carried-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$compare" --compact \
    "${runs[@]}" "$out/${side}_medians.json" || rc=1
done
python3 - "$out" "$rounds" > "$out/ab.md" <<'PY'
import json, math, sys
out, rounds = sys.argv[1], int(sys.argv[2])
med = {}
for side in ("old", "new"):
    try:
        cases = json.load(open(f"{out}/{side}_medians.json"))["cases"]
    except (OSError, ValueError):
        cases = {}
    med[side] = {}
    for name, c in cases.items():
        alg, typ, n, impl = name.split("/")[:4]
        med[side][(alg, typ, int(n), impl)] = c["median_us"]
nat, tree = "archscan::native_nosync", "archscan::native_tree_nosync"
cases = sorted({k[:3] for k in med["new"]})
print(f"Medians over {rounds} rounds of each build. new / old: < 1 is faster in the new build.\n")
print("| scan | type | n | native old (us) | native new (us) | native new/old | tree new/old | cub new/old "
      "| cost old | cost new | new x CUB |")
print("| --- | --- | --- |" + " ---: |" * 8)
for c in cases:
    g = lambda side, impl: med[side].get(c + (impl,))
    cells = []
    for impl in (nat, tree, "cub"):
        o, n = g("old", impl), g("new", impl)
        cells.append(f"{n / o:.3f}" if o and n else "-")
    costs = [f"{g(s, nat) / g(s, tree):.3f}" if g(s, nat) and g(s, tree) else "-" for s in ("old", "new")]
    vs_cub = f"{g('new', 'cub') / g('new', nat):.2f}" if g("new", "cub") and g("new", nat) else "-"
    o, n = g("old", nat), g("new", nat)
    print(f"| {c[0]} | {c[1]} | 2^{c[2].bit_length() - 1} | {o or 0:.2f} | {n or 0:.2f} | {cells[0]} | {cells[1]} "
          f"| {cells[2]} | {costs[0]} | {costs[1]} | {vs_cub} |")
# The 2% gate, with CUB as the control: a slot's drift moves CUB as much as native, so a native point
# above 1.02 decides nothing while CUB's own points move that much.
def ratios(impl):
    return {c: med["new"][c + (impl,)] / med["old"][c + (impl,)] for c in cases
            if med["old"].get(c + (impl,)) and med["new"].get(c + (impl,))}
def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
native, control = ratios(nat), ratios("cub")
slow = [f"{c[0]} {c[1]} 2^{c[2].bit_length() - 1} {r:.3f}" for c, r in native.items() if r > 1.02]
print(f"\nnative_nosync new/old: {len(native)} points, geomean {geomean(list(native.values())):.4f}, "
      f"{len(slow)} above 1.02{': ' + '; '.join(slow) if slow else ''}.")
moved = sum(abs(r - 1) > 0.02 for r in control.values())
if control:
    print(f"CUB new/old (the control): geomean {geomean(list(control.values())):.4f}, "
          f"{min(control.values()):.3f}..{max(control.values()):.3f}, {moved} points beyond 2%.")
if not native:
    print("Gate: no native points.")
elif not slow:
    print("Gate: passed.")
elif moved:
    print("Gate: not resolved (the control moves as much: more rounds, AB_ROUNDS, at those points).")
else:
    print("Gate: not passed.")
PY
cat "$out/ab.md"
exit $rc
