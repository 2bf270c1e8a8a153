#!/usr/bin/env python3
"""Compares the digests of archscan-digest runs on two devices (perf/digest.cu), case by case:
    perf/digest_compare.py A.json B.json
Prints one line a case and a summary; exit status 1 when any case differs, is missing from either
file, or failed its own checks (run to run, or against CUB) on either device."""
import json
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    return data, {(c["alg"], c["type"], c["n"]): c for c in data["cases"]}


def main(a_path, b_path):
    a, a_cases = load(a_path)
    b, b_cases = load(b_path)
    print(f"A: {a['device']} ({a['sms']} SMs), {a['versions']}")
    print(f"B: {b['device']} ({b['sms']} SMs), {b['versions']}")
    bad = 0
    for key in sorted(set(a_cases) | set(b_cases)):
        ca, cb = a_cases.get(key), b_cases.get(key)
        if ca is None or cb is None:
            verdict = "missing on " + ("A" if ca is None else "B")
        elif not (ca["ok"] and cb["ok"]):
            verdict = "failed its checks on " + ("A" if not ca["ok"] else "B")
        elif ca["digest"] != cb["digest"]:
            verdict = f"DIFFERENT ({ca['digest']} / {cb['digest']})"
        else:
            verdict = f"same bits ({ca['digest']})"
        bad += not verdict.startswith("same")
        print(f"{key[0]:24} {key[1]:7} {key[2]:>10}  {verdict}")
    total = len(set(a_cases) | set(b_cases))
    print(f"{total - bad} of {total} cases: the same bits on both devices")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
