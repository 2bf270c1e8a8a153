#!/usr/bin/env python3
"""perf/baseline_summary.py: its headline numbers from a small medians file whose answers are known,
the .json.xz form read like the plain one, and every committed perf/baselines/<gpu>/summary.md equal
to what the script makes from that folder's medians (a baseline edited by hand, or medians changed
without perf/update_baseline.sh, fails here)."""
import importlib.util
import io
import json
import lzma
import os
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
spec = importlib.util.spec_from_file_location("baseline_summary", os.path.join(root, "perf", "baseline_summary.py"))
baseline_summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(baseline_summary)


def summary_of(folder):
    argv = sys.argv
    sys.argv = ["baseline_summary.py", folder]
    out = io.StringIO()
    try:
        with redirect_stdout(out):
            baseline_summary.main()
    finally:
        sys.argv = argv
    return out.getvalue()


def case(us):
    return {"median_us": us, "spread": 0.01}


MEDIANS = {
    "format": "archscan-bench medians 1",
    "context": {"date": "2026-01-02T03:04:05+00:00", "device": "Test GPU", "cccl": "cccl 3.0.1",
                "CUB_VERSION": "300001", "copy_GBps": 100.0},
    "cases": {
        # int32: CUB / native = 2.0 at 2^10, 0.5 at 2^11: geomean 1.0, min 0.50 at 2^11; copy 4 / 8 at 2^11.
        "exclusive_scan/int32/1024/cub": case(10.0),
        "exclusive_scan/int32/1024/archscan::native_nosync": case(5.0),
        "exclusive_scan/int32/2048/cub": case(4.0),
        "exclusive_scan/int32/2048/archscan::native_nosync": case(8.0),
        "exclusive_scan/int32/2048/memcpy": case(4.0),
        # int8 comes before int32 in the table; one size, ratio 3.0, no copy measured.
        "exclusive_scan/int8/1024/cub": case(9.0),
        "exclusive_scan/int8/1024/archscan::native_nosync": case(3.0),
        # No native_nosync: no row.
        "inclusive_scan/int32/1024/cub": case(1.0),
    },
}
META = ("gpu: Test GPU (sm_90, 132 SMs)\nnvidia-smi: Test GPU, 123.45, 1 MiB\n"
        "nvcc: Cuda compilation tools, release 13.0, V13.0.88 Build x\ngit: 1111111 (dirty)\nrevision: 2222222\n")


class Headline(unittest.TestCase):
    def write(self, folder, xz):
        text = json.dumps(MEDIANS)
        if xz:
            with lzma.open(os.path.join(folder, "bench_medians.json.xz"), "wt") as f:
                f.write(text)
        else:
            with open(os.path.join(folder, "bench_medians.json"), "w") as f:
                f.write(text)
        with open(os.path.join(folder, "meta.txt"), "w") as f:
            f.write(META)

    def test_known_ratios_and_both_forms(self):
        texts = []
        for xz in (False, True):
            with tempfile.TemporaryDirectory() as d:
                self.write(d, xz)
                texts.append(summary_of(d).replace(d, "DIR"))
        self.assertEqual(texts[0], texts[1].replace("bench_medians.json.xz`", "bench_medians.json`"))
        text = texts[0]
        self.assertIn("| exclusive_scan | int32 | 2 | 1.000 | 0.50 | 2^11 | 0.500 | 2^11 |", text)
        self.assertIn("| exclusive_scan | int8 | 1 | 3.000 | 3.00 | 2^10 | - | 2^10 |", text)
        self.assertLess(text.index("| int8 |"), text.index("| int32 |"))
        self.assertNotIn("inclusive_scan", text.split("| --- |")[-1].split("Every point")[0])
        # geomean of 2.0, 0.5, 3.0; 2 of 3 at >= 1.
        self.assertIn(f"geomean {3.0 ** (1 / 3):.3f}, 2 of 3 at >= 1.00x CUB", text)
        self.assertIn("- Revision: 2222222", text)
        self.assertIn("- Checkout on the GPU machine: 1111111 (dirty)", text)
        self.assertIn("- Driver: 123.45;", text)
        self.assertIn("nvcc release 13.0, V13.0.88", text)
        self.assertIn("CUB 3.0.1", text)


class Committed(unittest.TestCase):
    def test_each_summary_is_what_its_medians_give(self):
        base = os.path.join(root, "perf", "baselines")
        gpus = sorted(g for g in os.listdir(base) if os.path.isdir(os.path.join(base, g)))
        self.assertTrue(gpus)
        undated = re.compile(r" \(committed \d{4}-\d\d-\d\d\)")  # needs the revision in git history
        for gpu in gpus:
            with self.subTest(gpu=gpu):
                with open(os.path.join(base, gpu, "summary.md")) as f:
                    committed = f.read()
                cwd = os.getcwd()
                os.chdir(root)
                try:
                    made = summary_of(os.path.join("perf", "baselines", gpu))
                finally:
                    os.chdir(cwd)
                self.assertEqual(undated.sub("", committed), undated.sub("", made))


if __name__ == "__main__":
    unittest.main()
