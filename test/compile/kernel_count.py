#!/usr/bin/env python3
"""Counts the kernels (.entry directives) of a PTX file and fails above a limit.

  kernel_count.py PTX [--limit N] [--name NAME]

The count leaves out CUB's EmptyKernel, which every translation unit that includes CUB holds whatever
it calls. Each kernel is listed by its demangled template name (c++filt, where found) with how many
instantiations of it the PTX holds. Without --limit it only reports (exit 0). With --limit it fails
(exit 1) when the count is above N, and says so when it is below (the limit is a ratchet: lower it).
Run by ctest (test/CMakeLists.txt, kernel_count_*); needs no GPU.
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys

ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)", re.MULTILINE)
IGNORED = ("EmptyKernel",)


def entries(ptx_text):
    """The mangled names of the PTX's kernels, in order."""
    return ENTRY.findall(ptx_text)


def demangle(names):
    """Names through c++filt where it is installed; the mangled names otherwise."""
    tool = shutil.which("c++filt")
    if tool is None or not names:
        return list(names)
    r = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, check=False)
    out = r.stdout.splitlines()
    return out if r.returncode == 0 and len(out) == len(names) else list(names)


def template_name(demangled):
    """`void ns::kernel<...>(...)` -> `ns::kernel`."""
    name = demangled.split("<", 1)[0].split("(", 1)[0]
    return name.rsplit(" ", 1)[-1]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ptx")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--name", default="")
    args = ap.parse_args(argv)
    with open(args.ptx, encoding="utf-8", errors="replace") as f:
        names = demangle(entries(f.read()))
    kept = [n for n in names if not any(i in template_name(n) for i in IGNORED)]
    label = args.name or args.ptx
    if not names and args.limit is not None:  # a call site's PTX has kernels: none means a wrong file
        print(f"{label}: FAIL: no .entry in {args.ptx}")
        return 1
    print(f"{label}: {len(kept)} kernels ({len(names) - len(kept)} left out: {', '.join(IGNORED)})")
    for name, count in sorted(collections.Counter(template_name(n) for n in kept).items()):
        print(f"  {count:3d} {name}")
    if args.limit is None:
        return 0
    if len(kept) > args.limit:
        print(f"{label}: FAIL: {len(kept)} kernels, above the limit of {args.limit}")
        return 1
    if len(kept) < args.limit:
        print(f"{label}: {len(kept)} kernels, below the limit of {args.limit}: lower the limit to {len(kept)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
