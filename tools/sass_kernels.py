#!/usr/bin/env python3
"""Compares the SASS of two builds of one unit, kernel by kernel (tools/same_sass.sh).

    tools/sass_kernels.py [--renames] OLD.sass NEW.sass

Each file is `cuobjdump -sass` of one object. A kernel is its `Function :` header and the
instructions under it, up to the next header; two kernels are the same when their instructions,
encodings included, are the same text. Prints one line per kernel that differs or stands in one
file only (names demangled where c++filt is found; the first 12 of each kind, the rest counted),
then a summary. Exit 0: the same kernels with the same code; 1: any difference; 2: a file holds
no kernel or a bad argument.

--renames: for a change that renames kernels (their template arguments, say) but must not change
their code. A kernel found in one file only is paired with one of the other file's of the same
arch and the same instructions (a call's target is an offset, never a name, so a body does not
depend on the names); it passes when every kernel on either side finds its pair. What it cannot
see, so what a change it passes must still be shown not to do by other means (the host plan tests,
the GPU tests of each route):
  - which renamed kernel is which: bodies that moved between kernels pass (two kernels that traded
    their code, a longer cycle, a kernel dropped and an unrelated one of the same code added);
  - what the SASS listing does not print: launch bounds, cluster dimensions, registers and shared
    memory (cuobjdump -res-usage shows the last two).
"""

import collections

import hashlib
import re
import shutil
import subprocess
import sys


#: Kernels named per kind of difference; the rest are counted.
LISTED = 12

_ANONYMOUS = re.compile(r"(\d+)_GLOBAL__N__")


def without_anonymous(text):
    """Anonymous namespaces' names carry a hash of the file's path and the compiler's process:
    each becomes the plain `12_GLOBAL__N_1`, found by its length prefix in the mangled name."""
    out, at = [], 0
    for m in _ANONYMOUS.finditer(text):
        if m.start() < at:
            continue
        out.append(text[at:m.start()])
        out.append("12_GLOBAL__N_1")
        at = m.start(1) + len(m.group(1)) + int(m.group(1))
    out.append(text[at:])
    return "".join(out)


def kernels(path):
    """Mangled name -> sha256 of its instructions, for every kernel of every ELF in the dump."""
    out, name, body = {}, None, []

    def close():
        if name is not None:
            out[f"{arch} {name}"] = hashlib.sha256("\n".join(body).encode()).hexdigest()

    arch = "?"
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = without_anonymous(line.rstrip())
            stripped = line.strip()
            if stripped.startswith("arch = "):  # the next ELF: its kernels are of this arch
                close()
                name, body = None, []
                arch = stripped.split("=", 1)[1].strip()
            elif stripped.startswith("Function : "):
                close()
                name, body = stripped[len("Function : "):], []
            elif name is not None and stripped and not stripped.startswith(("Fatbin", "code for", ".")):
                body.append(stripped)
    close()
    return out


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool or not names:
        return names
    mangled = [n.split(" ", 1)[1] for n in names]
    result = subprocess.run([tool], input="\n".join(mangled), capture_output=True, text=True, check=False)
    lines = result.stdout.splitlines()
    if len(lines) != len(names):
        return names
    return [f"{n.split(' ', 1)[0]} {d}" for n, d in zip(names, lines)]


def pair_renamed(old, new, only_old, only_new):
    """Pairs kernels of one side only with the other side's of the same arch and the same code:
    returns the pairs (old name, new name) and what is left unpaired on each side."""
    by_code = collections.defaultdict(list)
    for k in only_new:
        by_code[(k.split(" ", 1)[0], new[k])].append(k)
    pairs, left_old = [], []
    for k in only_old:
        candidates = by_code.get((k.split(" ", 1)[0], old[k]))
        if candidates:
            pairs.append((k, candidates.pop(0)))
        else:
            left_old.append(k)
    left_new = sorted(k for ks in by_code.values() for k in ks)
    return pairs, left_old, left_new


def main():
    args = sys.argv[1:]
    renames = "--renames" in args
    args = [a for a in args if a != "--renames"]
    if len(args) != 2 or any(a.startswith("-") for a in args):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old, new = kernels(args[0]), kernels(args[1])
    if not old or not new:
        print(f"sass_kernels: no kernel in {args[0] if not old else args[1]}", file=sys.stderr)
        return 2
    only_old = sorted(set(old) - set(new))
    only_new = sorted(set(new) - set(old))
    changed = sorted(k for k in set(old) & set(new) if old[k] != new[k])
    pairs = []
    if renames:
        pairs, only_old, only_new = pair_renamed(old, new, only_old, only_new)
    for label, names in (("only in old", only_old), ("only in new", only_new), ("changed", changed)):
        for n in demangle(names[:LISTED]):
            print(f"  {label}: {n[:300]}")
        if len(names) > LISTED:
            print(f"  {label}: ... and {len(names) - LISTED} more")
    same = len(set(old) & set(new)) - len(changed)
    summary = f"  {same} kernels the same, {len(changed)} changed, {len(only_old)} only in old, {len(only_new)} only in new"
    if renames:
        summary += f", {len(pairs)} renamed with the same code"
    print(summary)
    return 0 if not (only_old or only_new or changed) else 1


if __name__ == "__main__":
    sys.exit(main())
