#!/usr/bin/env python3
"""tools/check_layering.py on fake trees in a temporary folder: it must catch a scope skip, an upward
include, detail/ including outside detail/, a cycle and an oversize header, pass a clean tree, honour
its allowlist and fail on an allowlist line that no longer occurs. Run by ctest (test/CMakeLists.txt);
no GPU and no CUDA tool needed."""

import os
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_layering.py")

# A tree that keeps every rule: each scope includes its own and the one below, and detail/.
CLEAN = {
    "archscan.cuh": ["policy.cuh", "thrust/scan.cuh"],
    "policy.cuh": ["detail/util.cuh"],
    "thrust/scan.cuh": ["dispatch/plan.cuh"],
    "dispatch/plan.cuh": ["kernel/k.cuh", "detail/util.cuh"],
    "kernel/k.cuh": ["tile/t.cuh"],
    "tile/t.cuh": ["block/b.cuh"],
    "block/b.cuh": ["warp/w.cuh"],
    "warp/w.cuh": ["detail/util.cuh"],
    "detail/util.cuh": ["detail/more.cuh"],
    "detail/more.cuh": [],
}


class CheckLayering(unittest.TestCase):
    def run_tool(self, tree, *args, allowlist=None, long_header=None):
        """Writes `tree` ({header: [included headers]}) and runs the tool on it: (exit status, stdout)."""
        self.tmp = tempfile.TemporaryDirectory()
        root = self.tmp.name
        self.addCleanup(self.tmp.cleanup)
        for rel, includes in tree.items():
            path = os.path.join(root, "include", "archscan", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("#pragma once\n")
                f.write("// #include <archscan/upward_in_a_comment.cuh> is no include\n")
                f.writelines(f"#include <archscan/{i}>\n" for i in includes)
                if rel == long_header:
                    f.writelines(f"// line {n}\n" for n in range(400))
        os.makedirs(os.path.join(root, "tools"), exist_ok=True)
        if allowlist is not None:
            with open(os.path.join(root, "tools", "layering_allowlist.txt"), "w") as f:
                f.write("# comment\n" + "".join(line + "\n" for line in allowlist))
        r = subprocess.run([sys.executable, TOOL, "--root", root, *args], capture_output=True, text=True,
                           check=False)
        return r.returncode, r.stdout

    def assert_fails_with(self, tree, *texts, **kwargs):
        """The tool fails on `tree` and its report holds each of `texts`."""
        rc, out = self.run_tool(tree, **kwargs)
        self.assertEqual(rc, 1, out)
        for text in texts:
            self.assertIn(text, out)

    def test_clean_tree_passes(self):
        rc, out = self.run_tool(CLEAN)
        self.assertEqual(rc, 0, out)
        self.assertIn("0 violations", out)

    def test_skip(self):
        self.assert_fails_with(CLEAN | {"dispatch/plan.cuh": ["tile/t.cuh"]}, "skip dispatch/plan.cuh -> tile/t.cuh")

    def test_upward(self):
        tree = CLEAN | {"tile/t.cuh": ["block/b.cuh", "policy.cuh"]}
        self.assert_fails_with(tree, "upward tile/t.cuh -> policy.cuh")

    def test_detail_includes_outside_detail(self):
        self.assert_fails_with(CLEAN | {"detail/more.cuh": ["warp/w.cuh"]}, "detail detail/more.cuh -> warp/w.cuh")

    def test_cycle(self):
        tree = CLEAN | {"tuning.cuh": ["tuning_x.cuh"], "tuning_x.cuh": ["tuning.cuh"]}
        self.assert_fails_with(tree, "cycle tuning.cuh tuning_x.cuh", "tuning.cuh -> tuning_x.cuh -> tuning.cuh")

    def test_cycle_through_three_headers_of_one_scope(self):
        tree = CLEAN | {"tile/a.cuh": ["tile/b.cuh"], "tile/b.cuh": ["tile/c.cuh"], "tile/c.cuh": ["tile/a.cuh"]}
        self.assert_fails_with(tree, "cycle tile/a.cuh tile/b.cuh tile/c.cuh")

    def test_oversize(self):
        self.assert_fails_with(CLEAN, "oversize tile/t.cuh", "403 lines, over 350", long_header="tile/t.cuh")

    def test_missing_header(self):
        self.assert_fails_with(CLEAN | {"warp/w.cuh": ["warp/gone.cuh"]}, "missing warp/w.cuh -> warp/gone.cuh")

    def test_allowlist_holds_todays_violations(self):
        tree = CLEAN | {"dispatch/plan.cuh": ["tile/t.cuh"]}
        rc, out = self.run_tool(tree, allowlist=["skip dispatch/plan.cuh -> tile/t.cuh"])
        self.assertEqual(rc, 0, out)
        # ...but not a new one beside them.
        tree["warp/w.cuh"] = ["block/b.cuh"]
        self.assert_fails_with(tree, "upward warp/w.cuh -> block/b.cuh",
                               allowlist=["skip dispatch/plan.cuh -> tile/t.cuh"])

    def test_allowlist_line_that_no_longer_occurs_fails(self):
        self.assert_fails_with(CLEAN, "no longer occur", "1 stale", allowlist=["skip dispatch/plan.cuh -> tile/t.cuh"])

    def test_oversize_may_not_grow_past_its_line(self):
        rc, out = self.run_tool(CLEAN, allowlist=["oversize tile/t.cuh 403"], long_header="tile/t.cuh")
        self.assertEqual(rc, 0, out)
        self.assert_fails_with(CLEAN, "403 lines, 402 allowed", allowlist=["oversize tile/t.cuh 402"],
                               long_header="tile/t.cuh")
        rc, out = self.run_tool(CLEAN, allowlist=["oversize tile/t.cuh 500"], long_header="tile/t.cuh")
        self.assertEqual(rc, 0, out)
        self.assertIn("lower its allowlist line to 403", out)

    def test_written_allowlist_passes_and_lists_each_violation(self):
        tree = CLEAN | {"dispatch/plan.cuh": ["tile/t.cuh"], "tile/t.cuh": ["policy.cuh"]}
        rc, out = self.run_tool(tree, "--write-allowlist")
        self.assertEqual(rc, 0, out)
        with open(os.path.join(self.tmp.name, "tools", "layering_allowlist.txt")) as f:
            lines = [line.strip() for line in f if not line.startswith("#")]
        self.assertEqual(lines, ["skip dispatch/plan.cuh -> tile/t.cuh", "upward tile/t.cuh -> policy.cuh"])


if __name__ == "__main__":
    unittest.main()
