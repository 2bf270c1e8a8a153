#!/usr/bin/env python3
"""Checks that each test source includes, itself, the headers declaring the archscan names it uses.

  tools/check_test_includes.py [--root REPO] [--file PATH ...] [--verbose]

CI compiles a test program's sources as one unit (ARCHSCAN_TEST_SINGLE_UNITS, test/CMakeLists.txt), where
a source that uses a name without including its header compiles when an earlier source included it; the
GPU machine's separate units then fail. For each .cu/.cuh/.cpp file under test/ (or --file), every
qualified use (`archscan::ns::name`, `using archscan::ns::name;`) must reach a file that declares the name
through the file's own #include lines, transitively. Declarations at namespace scope (classes, enums,
aliases, functions, variables, templates, in their `namespace a::b {` nesting) are read from
include/archscan/, test/ and what they include; a name declared nowhere (by a macro, say) is ignored
(--verbose counts them). Uses after `using namespace` are not checked. Run by ctest
(test/CMakeLists.txt, tools_check_test_includes); needs no GPU.
"""

import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# Comments, raw and plain strings, character literals (not a digit separator: 1'000): blanked before a scan.
NOISE = re.compile(r"//[^\n]*|/\*.*?\*/|(?<!\w)(?:u8|u|U|L)?R\"([^(\s]*)\(.*?\)\1\"|"
                   r"\"(?:\\.|[^\"\\\n])*\"|(?<!\w)'(?:\\.|[^'\\\n])*'", re.S)
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
TOKEN = re.compile(r"[A-Za-z_]\w*|::|\S")
IDENT = re.compile(r"[A-Za-z_]")
QUALIFIED = re.compile(r"(?<![\w:])archscan(?:\s*::\s*[A-Za-z_]\w*)+")
CLASS_KEYS = {"struct", "class", "union", "enum"}
# Words followed by a parenthesized group that is no function's parameter list (so are macros: ALL_CAPS).
ATTRIBUTES = {"alignas", "__attribute__", "__declspec", "decltype", "noexcept", "__launch_bounds__", "__align__"}
KEYWORDS = {"const", "constexpr", "inline", "static", "extern", "auto", "void", "int", "unsigned", "bool", "char",
            "long", "short", "float", "double", "typename", "volatile", "thread_local", "mutable", "final"}


def blank(text):
    """`text` without comments and literals, its line breaks kept."""
    return NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def skip_group(tokens, i, open_, close):
    """The index after the group that opens at tokens[i]; a `<...>` group skips `<`, `>` within parentheses."""
    depth = parens = 0
    while i < len(tokens):
        t = tokens[i]
        parens += open_ == "<" and (t == "(") - (t == ")")
        depth += 0 if parens else (t == open_) - (t == close)
        i += 1
        if depth == 0:
            break
    return i


def untemplated(head):
    """`head` without its `template <...>` prefixes; None for an explicit instantiation."""
    while head and head[0] == "template":
        if head[1:2] != ["<"]:
            return None
        head = head[skip_group(head, 1, "<", ">"):]
    return head


def ends_at_body(head):
    """Whether a body ends the declaration `head` begins: a function's does; a class's, an enum's or an
    initializer's does not (`struct s {...} x;`, `int a[] = {...};`)."""
    head = untemplated(head) or []
    before = head[:head.index("(")] if "(" in head else None
    return before is not None and "=" not in before and not CLASS_KEYS & set(before)


def declared_name(head):
    """The name that a namespace-scope declaration (its tokens before `{` or `;`) declares, or None."""
    head = untemplated(head)
    if not head or head[0] in ("static_assert", "friend", "operator") or head[:2] == ["using", "namespace"]:
        return None
    if head[0] in ("using", "namespace"):  # an alias, a using-declaration, a namespace alias
        end = head.index("=") if "=" in head else len(head)
        return head[end - 1] if end > 1 and IDENT.match(head[end - 1]) else None
    i, last = 0, None
    while i < len(head):
        t = head[i]
        if t == "operator":
            return None
        if t in ATTRIBUTES or (t.isupper() and head[i + 1:i + 2] == ["("]):
            i = skip_group(head, i + 1, "(", ")") if head[i + 1:i + 2] == ["("] else i + 1
        elif t == "[" and head[i + 1:i + 2] == ["["]:  # [[attribute]]
            i = skip_group(head, i, "[", "]")
        elif t == "<" and i > 0 and IDENT.match(head[i - 1]):  # template arguments
            i = skip_group(head, i, "<", ">")
        elif t in CLASS_KEYS and "(" not in head[:i]:  # struct [attributes] name [final] [: bases]
            rest = [n for n in head[i + 1:] if n not in CLASS_KEYS]
            rest = rest[:next((k for k, n in enumerate(rest) if n in ("{", ":", "<", "final", ";")), len(rest))]
            names = [k for k, n in enumerate(rest) if IDENT.match(n) and "(" not in rest[k:]]
            return rest[names[-1]] if names and (names[-1] == 0 or rest[names[-1] - 1] != "::") else None
        elif t in ("(", "=", "[", ":"):
            break
        else:
            if IDENT.match(t):
                last = None if i > 0 and head[i - 1] == "::" else t  # a::f() defines a member: no name
            i += 1
    return last if last not in KEYWORDS else None


def declarations(text):
    """([(namespace path, name)], {namespace paths}) of `text`, a C++ source."""
    tokens = TOKEN.findall(DIRECTIVE.sub(lambda m: "\n" * m.group(0).count("\n"), blank(text)))
    found, namespaces, stack, head, i = [], set(), [()], [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "{":
            words = [w for w in head if w != "inline"]
            if words[:1] == ["namespace"] or words == ["extern"]:  # namespace a::b {, extern "C" {
                stack.append(stack[-1] + tuple(w for w in words[1:] if w != "::"))
                namespaces.update(stack[-1][:n] for n in range(1, len(stack[-1]) + 1))
                head, i = [], i + 1
                continue
            end = skip_group(tokens, i, "{", "}")
            found += [(stack[-1], declared_name(head))]
            if head[:1] == ["enum"] and not {"class", "struct"} & set(head):  # an unscoped enum's enumerators
                found += [(stack[-1], e.split()[0]) for e in " ".join(tokens[i + 1:end - 1]).split(",") if e.split()]
            head, i = [] if ends_at_body(head) else head + ["{", "}"], end
            continue
        if t == ";" and "{" not in head:
            found.append((stack[-1], declared_name(head)))
        if t == "}" and len(stack) > 1:
            stack.pop()
        head = [] if t in (";", "}") else head + [t]
        i += 1
    return [(ns, name) for ns, name in found if name], namespaces


def resolve(root, includer, quote, target):
    """The file that `#include <target>` or `"target"` in `includer` names, where it is in the tree."""
    dirs = [os.path.join(root, "include")]
    if quote == '"' or target.startswith("support/"):  # test/ and perf/ are include folders of the tests
        dirs = [os.path.dirname(includer)] + dirs + [os.path.join(root, "test"), os.path.join(root, "perf")]
    paths = (os.path.normpath(os.path.join(d, target)) for d in dirs)
    return next((p for p in paths if os.path.isfile(p)), None)


class Tree:
    """The include graph and the declarations of every file scanned and every file those include."""

    def __init__(self, root):
        self.root, self.texts, self.includes, self.declared, self.namespaces = root, {}, {}, {}, set()

    def scan(self, path):
        pending = [os.path.abspath(path)]
        while pending:
            path = pending.pop()
            if path in self.texts:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                self.texts[path] = f.read()
            found = (resolve(self.root, path, q, t) for q, t in INCLUDE.findall(self.texts[path]))
            self.includes[path] = {p for p in found if p}
            pending += self.includes[path]
            decls, namespaces = declarations(self.texts[path])
            self.namespaces |= namespaces
            for ns, name in decls:
                self.declared.setdefault(ns + (name,), set()).add(path)

    def reachable(self, path):
        seen, pending = set(), [path]
        while pending:
            p = pending.pop()
            if p not in seen:
                seen.add(p)
                pending += self.includes.get(p, ())
        return seen

    def check(self, path, counts):
        """[(line, qualified name, [declaring files])] of `path`, at each name's first use; counts every
        use into counts["resolved"] or, where no declaration was found, counts["ignored"]."""
        reach, problems, reported = self.reachable(path), [], set()
        text = blank(self.texts[path])
        for m in QUALIFIED.finditer(text):
            parts = tuple(re.split(r"\s*::\s*", m.group(0)))
            n = 1  # the namespaces, then the name: archscan::ns::name::member checks archscan::ns::name
            while n < len(parts) and parts[:n + 1] in self.namespaces:
                n += 1
            if n == len(parts):
                continue  # a namespace alone
            name, where = parts[:n + 1], self.declared.get(parts[:n + 1])
            counts["resolved" if where else "ignored"].add((path, m.start(), name))
            if where and not where & reach and name not in reported:
                reported.add(name)
                problems.append((text.count("\n", 0, m.start()) + 1, "::".join(name), sorted(where)))
        return problems


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(here), help="the repository (holds include/ and test/)")
    ap.add_argument("--file", action="append", help="check this file alone (repeatable); default: all of test/")
    ap.add_argument("--verbose", action="store_true", help="count the qualified names resolved and ignored")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    tree = Tree(root)
    walk = [(top, os.path.join(d, f)) for top in ("include/archscan", "test")
            for d, _, files in os.walk(os.path.join(root, top)) for f in files if f.endswith(SOURCE_SUFFIXES)]
    sources = [os.path.abspath(f) for f in args.file] if args.file else [p for top, p in walk if top == "test"]
    for path in [p for _, p in walk] + sources:
        tree.scan(path)
    rel = lambda p: os.path.relpath(p, root) if p.startswith(root + os.sep) else p  # noqa: E731
    counts, problems = {"resolved": set(), "ignored": set()}, 0
    for path in sorted(sources):
        for line, name, where in tree.check(path, counts):
            problems += 1
            print(f"{rel(path)}:{line}: {name} is declared in {' or '.join(map(rel, where))}, which {rel(path)} "
                  "does not include (directly or through its includes)")
    if args.verbose:
        for kind, uses in counts.items():
            print(f"check_test_includes: {kind} {len(uses)} qualified uses of {len({u[2] for u in uses})} names")
    print(f"check_test_includes: {len(sources)} files, {'FAIL' if problems else 'OK'} ({problems} problems)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
