#!/usr/bin/env python3
"""Checks the include layering of include/archscan/ against an allowlist that may only shrink.

  tools/check_layering.py [--root REPO] [--allowlist FILE] [--write-allowlist] [--max-lines N]

Scopes, top to bottom: tuning -> thrust -> dispatch -> kernel -> tile -> block -> warp. A header's
scope is its folder; the headers directly in include/archscan/ (archscan.cuh, policy.cuh, tuning.cuh,
hooks.cuh, ...) are the top scope, tuning. detail/ holds utilities. The rules, per
`#include <archscan/...>` line:
  skip      a header includes a scope more than one below its own;
  upward    a header includes a scope above its own;
  detail    a header of detail/ includes one outside detail/ (anyone may include detail/);
  missing   the included header does not exist;
  scope     a header lies in a folder that is no scope;
and over the whole tree:
  cycle     headers that include each other, directly or through others (one line per cycle group);
  oversize  a header longer than --max-lines lines (350).

The allowlist (tools/layering_allowlist.txt, written by --write-allowlist) holds the violations that
today's tree still has, one a line. The check fails on a violation that is not in it, and on a line
of it that no longer occurs, so that the list can only shrink. An oversize line carries the header's
line count when it was written: the header fails when it grows past it (and is told to lower it when
it shrinks). Run by ctest (test/CMakeLists.txt, tools_check_layering); needs no GPU.
"""

import argparse
import os
import re
import sys

SCOPES = ("tuning", "thrust", "dispatch", "kernel", "tile", "block", "warp")
DETAIL = "detail"
INCLUDE = re.compile(r"^\s*#\s*include\s*<archscan/([^>]+)>")
HEADER_SUFFIXES = (".cuh", ".h", ".hpp", ".inl")


def scope_of(rel):
    """The scope of a header named relative to include/archscan/: its folder, tuning at the top."""
    if "/" not in rel:
        return SCOPES[0]
    folder = rel.split("/", 1)[0]
    return folder if folder in SCOPES or folder == DETAIL else None


def read_tree(root):
    """{header relative to include/archscan/: (line count, [(line number, included header)])}."""
    base = os.path.join(root, "include", "archscan")
    tree = {}
    for dirpath, _, files in os.walk(base):
        for name in files:
            if not name.endswith(HEADER_SUFFIXES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, base).replace(os.sep, "/")
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
            includes = [(i + 1, m.group(1)) for i, line in enumerate(lines) if (m := INCLUDE.match(line))]
            tree[rel] = (len(lines), includes)
    return tree


def include_rule(src, dst):
    """The kind of violation of `src` including `dst`, or None."""
    s, d = scope_of(src), scope_of(dst)
    if s is None or d is None:
        return None  # reported once per header as `scope`
    if d == DETAIL:
        return None
    if s == DETAIL:
        return "detail"
    step = SCOPES.index(d) - SCOPES.index(s)
    if step < 0:
        return "upward"
    if step > 1:
        return "skip"
    return None


def cycle_groups(graph):
    """Strongly connected components with a cycle (Tarjan), each as a sorted list of headers."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        # Iterative, so that a deep include chain cannot exhaust Python's recursion limit.
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            advanced = False
            for w in children:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == node:
                        break
                if len(group) > 1 or node in graph.get(node, ()):
                    groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def one_cycle(graph, group):
    """A path through `group` that returns to its first header, for the report."""
    members = set(group)
    start = group[0]
    path, seen = [start], {start}
    # Depth-first from start, within the group, until an edge leads back to start.
    stack = [(start, iter(sorted(graph[start] & members)))]
    while stack:
        node, children = stack[-1]
        for w in children:
            if w == start:
                return path + [start]
            if w not in seen:
                seen.add(w)
                path.append(w)
                stack.append((w, iter(sorted(graph[w] & members))))
                break
        else:
            stack.pop()
            path.pop()
    return group + [start]


def violations(tree, max_lines):
    """{allowlist key: (detail for the report, line count or None)}."""
    found = {}
    graph = {rel: set() for rel in tree}
    for rel, (count, includes) in sorted(tree.items()):
        if scope_of(rel) is None:
            found[f"scope {rel}"] = (f"{rel}: folder is none of {', '.join(SCOPES + (DETAIL,))}", None)
        if count > max_lines:
            found[f"oversize {rel}"] = (f"{rel}: {count} lines, over {max_lines}", count)
        for line, dst in includes:
            if dst not in tree:
                what = f"{rel}:{line}: includes <archscan/{dst}>, which does not exist"
                found[f"missing {rel} -> {dst}"] = (what, None)
                continue
            graph[rel].add(dst)
            kind = include_rule(rel, dst)
            if kind is not None:
                what = f"{scope_of(rel)} includes {scope_of(dst)}"
                found[f"{kind} {rel} -> {dst}"] = (f"{rel}:{line}: {what} (<archscan/{dst}>)", None)
    for group in cycle_groups(graph):
        found["cycle " + " ".join(group)] = (" -> ".join(one_cycle(graph, group)), None)
    return found


def read_allowlist(path):
    """{key: line count or None}; the line count only on oversize lines."""
    allowed = {}
    if not os.path.exists(path):
        return allowed
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            count = None
            if line.startswith("oversize "):
                parts = line.split()
                if len(parts) == 3 and parts[2].isdigit():
                    line, count = f"{parts[0]} {parts[1]}", int(parts[2])
            allowed[line] = count
    return allowed


def write_allowlist(path, found, max_lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Layering violations that include/archscan/ still has (tools/check_layering.py); the check\n")
        f.write("# fails on any other and on a line here that no longer occurs: delete lines, never add them.\n")
        f.write(f"# Regenerate: tools/check_layering.py --write-allowlist (oversize: over {max_lines} lines,\n")
        f.write("# with the header's line count, which it may not grow past).\n")
        for key in sorted(found):
            count = found[key][1]
            f.write(f"{key} {count}\n" if key.startswith("oversize ") else f"{key}\n")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(here), help="the repository (holds include/archscan/)")
    ap.add_argument("--allowlist", help="default: ROOT/tools/layering_allowlist.txt")
    ap.add_argument("--write-allowlist", action="store_true", help="write today's violations as the allowlist")
    ap.add_argument("--max-lines", type=int, default=350)
    args = ap.parse_args(argv)
    allowlist = args.allowlist or os.path.join(args.root, "tools", "layering_allowlist.txt")
    tree = read_tree(args.root)
    if not tree:
        print(f"check_layering: no header under {os.path.join(args.root, 'include', 'archscan')}")
        return 1
    found = violations(tree, args.max_lines)
    if args.write_allowlist:
        write_allowlist(allowlist, found, args.max_lines)
        print(f"check_layering: wrote {len(found)} violations to {allowlist}")
        return 0

    allowed = read_allowlist(allowlist)
    new, grown, stale, notes = [], [], [], []
    for key, (detail, count) in sorted(found.items()):
        if key not in allowed:
            new.append(f"  {key}\n      {detail}")
        elif count is not None and allowed[key] is not None and count > allowed[key]:
            grown.append(f"  {key}: {count} lines, {allowed[key]} allowed")
        elif count is not None and allowed[key] is not None and count < allowed[key]:
            notes.append(f"  {key}: {count} lines now; lower its allowlist line to {count}")
    for key in sorted(allowed):
        if key not in found:
            stale.append(f"  {key}")

    kinds = {}
    for key in found:
        kinds[key.split(" ", 1)[0]] = kinds.get(key.split(" ", 1)[0], 0) + 1
    summary = ", ".join(f"{kinds[k]} {k}" for k in sorted(kinds)) or "none"
    print(f"check_layering: {len(tree)} headers, {len(found)} violations ({summary}), {len(allowed)} allowed")
    for title, items in (("not in the allowlist", new), ("grown past the allowlist's line count", grown),
                         ("allowlist lines that no longer occur (delete them)", stale), ("notes", notes)):
        if items:
            print(f"{title}:")
            print("\n".join(items))
    if new or grown or stale:
        print(f"check_layering: FAIL ({len(new)} new, {len(grown)} grown, {len(stale)} stale; allowlist {allowlist})")
        return 1
    print("check_layering: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
