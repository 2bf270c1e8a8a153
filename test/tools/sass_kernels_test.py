#!/usr/bin/env python3
"""tools/sass_kernels.py (the SASS gate's comparison, tools/same_sass.sh): it must tell a changed
instruction, a kernel present on one side only and a renamed anonymous namespace apart. Run by ctest
(test/CMakeLists.txt) on every machine: no GPU and no CUDA tool needed."""

import os
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "sass_kernels.py")


def dump(kernels):
    """A cuobjdump -sass listing: one ELF for sm_90 holding `kernels` (name -> instruction lines)."""
    lines = ["", "Fatbin elf code:", "================", "arch = sm_90", "code version = [1,8]", "",
             "\tcode for sm_90", "\t.target\tsm_90", ""]
    for name, body in kernels.items():
        lines.append(f"\t\tFunction : {name}")
        lines.append('\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"')
        for i, ins in enumerate(body):
            lines.append(f"        /*{i * 16:04x}*/                   {ins} ;   /* 0x000000000000{i:04x} */")
        lines.append("\t\t..........")
    return "\n".join(lines) + "\n"


BODY = ["LDC R1, c[0x0][0x28]", "S2R R6, SR_CTAID.X", "EXIT"]
# A kernel of a type in an anonymous namespace, as two compiles of one file name it.
ANON_A = "_Z1kIN41_GLOBAL__N__faeae263_4_a_cu_91c45b1e_31941fEEvT_"
ANON_B = "_Z1kIN41_GLOBAL__N__7465e580_4_a_cu_08cd0aa4_32211fEEvT_"


class SassKernels(unittest.TestCase):
    def compare(self, old, new, *flags):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "old.sass"), os.path.join(d, "new.sass")
            with open(a, "w") as f:
                f.write(dump(old))
            with open(b, "w") as f:
                f.write(dump(new))
            r = subprocess.run([sys.executable, TOOL, *flags, a, b], capture_output=True, text=True, check=False)
            return r.returncode, r.stdout

    def test_same_code_under_other_anonymous_namespaces(self):
        rc, out = self.compare({"_Z3onev": BODY, ANON_A: BODY}, {"_Z3onev": BODY, ANON_B: BODY})
        self.assertEqual(rc, 0, out)
        self.assertIn("2 kernels the same, 0 changed", out)

    def test_one_changed_instruction(self):
        changed = BODY[:1] + ["S2R R7, SR_CTAID.X"] + BODY[2:]
        rc, out = self.compare({"_Z3onev": BODY, "_Z3twov": BODY}, {"_Z3onev": BODY, "_Z3twov": changed})
        self.assertEqual(rc, 1, out)
        self.assertIn("changed: sm_90 two()", out)
        self.assertIn("1 kernels the same, 1 changed", out)

    def test_kernels_on_one_side(self):
        rc, out = self.compare({"_Z3onev": BODY, "_Z3twov": BODY}, {"_Z3onev": BODY, "_Z5threev": BODY})
        self.assertEqual(rc, 1, out)
        self.assertIn("only in old: sm_90 two()", out)
        self.assertIn("only in new: sm_90 three()", out)

    def test_renamed_kernels_with_the_same_code_pass_only_with_renames(self):
        other = BODY[:1] + ["S2R R7, SR_CTAID.X"] + BODY[2:]
        old = {"_Z3onev": BODY, "_Z3twov": other}
        new = {"_Z5threev": other, "_Z4fourv": BODY}
        rc, out = self.compare(old, new)
        self.assertEqual(rc, 1, out)
        rc, out = self.compare(old, new, "--renames")
        self.assertEqual(rc, 0, out)
        self.assertIn("0 only in old, 0 only in new, 2 renamed with the same code", out)

    def test_a_renamed_kernel_with_other_code_fails_under_renames(self):
        other = BODY[:1] + ["S2R R7, SR_CTAID.X"] + BODY[2:]
        rc, out = self.compare({"_Z3onev": BODY, "_Z3twov": BODY}, {"_Z3onev": BODY, "_Z5threev": other}, "--renames")
        self.assertEqual(rc, 1, out)
        self.assertIn("only in old: sm_90 two()", out)
        self.assertIn("only in new: sm_90 three()", out)

    def test_renames_pair_each_kernel_once(self):
        # Two old kernels of one body, one new: one pair, one left over.
        rc, out = self.compare({"_Z3onev": BODY, "_Z3twov": BODY}, {"_Z5threev": BODY}, "--renames")
        self.assertEqual(rc, 1, out)
        self.assertIn("1 only in old, 0 only in new, 1 renamed with the same code", out)

    def test_no_kernel_is_an_error(self):
        rc, _ = self.compare({}, {"_Z3onev": BODY})
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
