#!/usr/bin/env python3
"""tools/check_test_includes.py on fake trees in a temporary folder: a test source that uses a name
another source's include brought in must fail, named by file, line and header; the same source with its
own include (direct or through a support header) passes, and so does a name declared nowhere. Run by
ctest (test/CMakeLists.txt); no GPU and no CUDA tool needed."""

import os
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_test_includes.py")

HEADERS = {
    "include/archscan/dispatch/plan.cuh": "#pragma once\nnamespace archscan::dispatch {\n"
                                          "constexpr unsigned delay(int tiles) { return tiles > 4 ? 1u : 0u; }\n}\n",
    "include/archscan/dispatch/family.cuh": "#pragma once\nnamespace archscan {\nnamespace dispatch {\n"
                                            "struct grid_error {};\n}  // namespace dispatch\n}  // namespace archscan\n",
    "test/support/all.cuh": "#pragma once\n#include <archscan/dispatch/plan.cuh>\n",
}


class CheckTestIncludes(unittest.TestCase):
    def run_tool(self, source):
        """Writes the headers and test/dispatch/x_test.cu (`source`), runs the tool: (exit status, stdout)."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        for rel, text in {**HEADERS, "test/dispatch/x_test.cu": source}.items():
            path = os.path.join(tmp.name, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        done = subprocess.run([sys.executable, TOOL, "--root", tmp.name], capture_output=True, text=True)
        return done.returncode, done.stdout

    def test_a_name_whose_header_the_source_does_not_include_fails(self):
        rc, out = self.run_tool("#include <archscan/dispatch/family.cuh>\n\n"
                                "unsigned f() { return archscan::dispatch::delay(5); }\n")
        self.assertEqual(rc, 1, out)
        self.assertIn("test/dispatch/x_test.cu:3: archscan::dispatch::delay is declared in "
                      "include/archscan/dispatch/plan.cuh", out)

    def test_a_using_declaration_counts_as_a_use(self):
        rc, out = self.run_tool("#include <archscan/dispatch/family.cuh>\nusing archscan::dispatch::delay;\n")
        self.assertEqual(rc, 1, out)

    def test_the_header_included_directly_or_through_a_support_header_passes(self):
        for include in ("#include <archscan/dispatch/plan.cuh>\n", '#include "support/all.cuh"\n'):
            rc, out = self.run_tool(include + "unsigned f() { return archscan::dispatch::delay(5); }\n"
                                    "// archscan::dispatch::grid_error in a comment is no use\n")
            self.assertEqual(rc, 0, out)

    def test_a_name_declared_nowhere_is_ignored(self):
        rc, out = self.run_tool("#include <archscan/dispatch/plan.cuh>\nint g() { return archscan::by_macro(); }\n")
        self.assertEqual(rc, 0, out)


if __name__ == "__main__":
    unittest.main()
