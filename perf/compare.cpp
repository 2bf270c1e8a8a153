//! \file archscan-compare: two archscan-bench JSON files in, a markdown table of time ratios per case
//! out, and a regression gate.
//!
//!   archscan-compare BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise RERUN.json] [--out FILE.md]
//!                   [--allow-missing]
//!   archscan-compare --cccl OLD.json NEW.json [--threshold 0.05] [--noise OLD_RERUN.json] [--out FILE.md]
//!                   [--allow-missing]
//!
//! The first form compares every case of two builds of archscan (before and after a change). The second
//! compares two builds of archscan-bench that differ in the CCCL release they were compiled with
//! (perf/cccl_ab.sh): the gate applies to CUB itself (new CUB slower than old), and each archscan policy is
//! shown against the CUB of its own build.
//!
//! Exit status: 0 no regression, 1 some case slowed by more than threshold + noise or is missing from the
//! candidate (a case that errored there; --allow-missing accepts that), 2 usage or input error.
//! Noise per case: |rerun / baseline - 1| when --noise names a second run of the baseline (old) build that
//! has the case, else the larger of the two runs' per-case spreads (relative interquartile range).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

#include "report.hpp"

namespace {
int usage() {
  std::fprintf(stderr,
               "usage: archscan-compare BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise RERUN.json] "
               "[--out FILE.md] [--allow-missing]\n"
               "       archscan-compare --cccl OLD.json NEW.json [--threshold 0.05] [--noise OLD_RERUN.json] "
               "[--out FILE.md] [--allow-missing]\n");
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace archscan::perf::report;
  std::string files[2], noise_file, out_file;
  int positional   = 0;
  double threshold = 0.05;
  bool allow_missing = false;
  bool releases      = false;  // --cccl: two CCCL releases, gate on CUB
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next           = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--threshold") {
      const char* v = next();
      char* end     = nullptr;
      if (!v || (threshold = std::strtod(v, &end), *end != '\0') || threshold < 0) return usage();
    } else if (a == "--noise") {
      const char* v = next();
      if (!v) return usage();
      noise_file = v;
    } else if (a == "--out") {
      const char* v = next();
      if (!v) return usage();
      out_file = v;
    } else if (a == "--allow-missing") {
      allow_missing = true;
    } else if (a == "--cccl") {
      releases = true;
    } else if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else if (!a.empty() && a[0] != '-' && positional < 2) {
      files[positional++] = a;
    } else {
      return usage();
    }
  }
  if (positional != 2) return usage();
  try {
    const run baseline  = load_run(files[0]);
    const run candidate = load_run(files[1]);
    run rerun;
    if (!noise_file.empty()) rerun = load_run(noise_file);
    const run* noise = noise_file.empty() ? nullptr : &rerun;
    std::string md;
    bool failed = false;
    if (releases) {
      const release_comparison c = compare_releases(baseline, candidate, threshold, noise, allow_missing);
      md     = markdown_release_comparison(c);
      failed = c.failed();
    } else {
      const comparison c = compare(baseline.results, candidate.results, threshold, noise ? &rerun.results : nullptr,
                                   allow_missing);
      md     = markdown_comparison(c);
      failed = c.failed();
    }
    std::fputs(md.c_str(), stdout);
    if (!out_file.empty()) {
      std::ofstream f(out_file);
      f << md;
      if (!f) throw std::runtime_error("cannot write " + out_file);
    }
    return failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "archscan-compare: %s\n", e.what());
    return 2;
  }
}
