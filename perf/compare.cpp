//! \file archscan-compare: two archscan-bench JSON files in, a markdown table of time ratios per case
//! out, and a regression gate.
//!
//!   archscan-compare BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise RERUN.json] [--out FILE.md]
//!                   [--allow-missing]
//!   archscan-compare --cccl OLD.json NEW.json [--threshold 0.05] [--noise OLD_RERUN.json] [--out FILE.md]
//!                   [--allow-missing]
//!   archscan-compare --compact RESULTS.json OUT.json
//!
//! The first form compares every case of two builds of archscan (before and after a change). The second
//! compares two builds of archscan-bench that differ in the CCCL release they were compiled with
//! (perf/cccl_ab.sh): the gate applies to CUB itself (new CUB slower than old), and each archscan policy is
//! shown against the CUB of its own build. Both read Google Benchmark's JSON of archscan-bench or the
//! compact form, in any mix (a committed bench_medians.json is a baseline).
//! The third writes the compact form of a results file (report::compact_json): medians, spreads, GB/s and
//! ratios to CUB per case with the run's context, what perf/results/ commits (perf/run_full.sh).
//!
//! Exit status: 0 no regression, 1 some case slowed by more than threshold + noise or is missing from the
//! candidate (a case that errored there; --allow-missing accepts that), 2 usage or input error.
//! Noise per case: |rerun / baseline - 1| when --noise names a second run of the baseline (old) build that
//! has the case, else the larger of the two runs' per-case spreads (relative interquartile range).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>

#include "report.hpp"

namespace {
int usage() {
  std::fprintf(stderr,
               "usage: archscan-compare BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise RERUN.json] "
               "[--out FILE.md] [--allow-missing]\n"
               "       archscan-compare --cccl OLD.json NEW.json [--threshold 0.05] [--noise OLD_RERUN.json] "
               "[--out FILE.md] [--allow-missing]\n"
               "       archscan-compare --compact RESULTS.json OUT.json\n");
  return 2;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

//! --compact IN OUT: the compact form of IN written to OUT.
int compact(const std::string& in, const std::string& out) {
  using namespace archscan::perf::report;
  try {
    const run r = load_run(in);
    if (r.results.empty()) throw std::runtime_error(in + " holds no archscan-bench case");
    const std::string text = compact_json(r);
    write_text(out, text);
    std::printf("archscan-compare: %s: %zu cases, %zu bytes (from %s)\n", out.c_str(), r.results.size(), text.size(),
                in.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "archscan-compare: %s\n", e.what());
    return 2;
  }
}
}  // namespace

int main(int argc, char** argv) {
  using namespace archscan::perf::report;
  if (argc > 1 && std::string(argv[1]) == "--compact") return argc == 4 ? compact(argv[2], argv[3]) : usage();
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
    if (!out_file.empty()) write_text(out_file, md);
    return failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "archscan-compare: %s\n", e.what());
    return 2;
  }
}
