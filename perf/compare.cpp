//! \file archscan-compare: archscan-bench JSON files in, a markdown table of time ratios per case out, and a
//! regression gate.
//!
//!   archscan-compare BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise RERUN.json] [--out FILE.md]
//!                   [--allow-missing]
//!   archscan-compare --runs-old OLD1.json OLD2.json ... --runs-new NEW1.json NEW2.json ... [--threshold 0.05]
//!                   [--out FILE.md] [--allow-missing]
//!   archscan-compare --cccl OLD.json NEW.json [--threshold 0.05] [--noise OLD_RERUN.json] [--out FILE.md]
//!                   [--allow-missing]
//!   archscan-compare --compact RESULTS.json [MORE.json ...] OUT.json
//!
//! The first form compares every case of two builds of archscan (before and after a change). The second
//! compares repeated runs of two builds, interleaved in one session (perf/revision_ab.sh): per case the
//! median over each build's runs, noise the larger of the two builds' spreads of their runs about their
//! medians (report::compare_runs), and the geometric mean of new / old per implementation with CUB as the
//! control for the session's drift. The third compares two builds of archscan-bench that differ in the CCCL
//! release they were compiled with (perf/cccl_ab.sh): the gate applies to CUB itself (new CUB slower than
//! old), and each archscan policy is shown against the CUB of its own build. All read Google Benchmark's
//! JSON of archscan-bench or the compact form, in any mix (a committed bench_medians.json is a baseline).
//! The fourth writes the compact form of a results file (report::compact_json): medians, spreads, GB/s and
//! ratios to CUB per case with the run's context, what perf/baselines/<gpu>/ commits (perf/run_full.sh); of several
//! files (runs of one build), the compact form of their per-case medians (report::median_run).
//!
//! Exit status: 0 no regression, 1 some case slowed by more than threshold + noise or is missing from the
//! candidate (a case that errored there; --allow-missing accepts that), 2 usage or input error.
//! Noise per case in the first and third forms: |rerun / baseline - 1| when --noise names a second run of the
//! baseline (old) build that has the case, else the larger of the two runs' per-case spreads (relative
//! interquartile range).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "report.hpp"

namespace {
int usage() {
  std::fprintf(stderr,
               "usage: archscan-compare BASELINE.json CANDIDATE.json [--threshold 0.05] [--noise RERUN.json] "
               "[--out FILE.md] [--allow-missing]\n"
               "       archscan-compare --runs-old OLD1.json OLD2.json ... --runs-new NEW1.json NEW2.json ... "
               "[--threshold 0.05] [--out FILE.md] [--allow-missing]\n"
               "       archscan-compare --cccl OLD.json NEW.json [--threshold 0.05] [--noise OLD_RERUN.json] "
               "[--out FILE.md] [--allow-missing]\n"
               "       archscan-compare --compact RESULTS.json [MORE.json ...] OUT.json\n");
  return 2;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

//! --compact IN... OUT: the compact form of IN written to OUT; of several, that of their per-case medians.
int compact(const std::vector<std::string>& in, const std::string& out) {
  using namespace archscan::perf::report;
  try {
    std::vector<run> runs;
    for (const std::string& path : in) {
      runs.push_back(load_run(path));
      if (runs.back().results.empty()) throw std::runtime_error(path + " holds no archscan-bench case");
    }
    const run r            = runs.size() == 1 ? runs.front() : median_run(runs);
    const std::string text = compact_json(r);
    write_text(out, text);
    std::printf("archscan-compare: %s: %zu cases, %zu bytes (%s %s%s)\n", out.c_str(), r.results.size(), text.size(),
                in.size() == 1 ? "from" : "medians over", in.front().c_str(), in.size() == 1 ? "" : " ...");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "archscan-compare: %s\n", e.what());
    return 2;
  }
}
}  // namespace

int main(int argc, char** argv) {
  using namespace archscan::perf::report;
  if (argc > 1 && std::string(argv[1]) == "--compact")
    return argc >= 4 ? compact(std::vector<std::string>(argv + 2, argv + argc - 1), argv[argc - 1]) : usage();
  std::string files[2], noise_file, out_file;
  std::vector<std::string> runs_old, runs_new;
  std::vector<std::string>* runs_list = nullptr;  // after --runs-old / --runs-new: where file names go
  int positional                      = 0;
  double threshold                    = 0.05;
  bool allow_missing                  = false;
  bool releases                       = false;  // --cccl: two CCCL releases, gate on CUB
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next           = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (!a.empty() && a[0] == '-') runs_list = nullptr;  // an option ends a list of runs
    if (a == "--runs-old" || a == "--runs-new") {
      runs_list = a == "--runs-old" ? &runs_old : &runs_new;
    } else if (runs_list) {
      runs_list->push_back(a);
    } else if (a == "--threshold") {
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
  const bool runs = !runs_old.empty() || !runs_new.empty();
  if (runs ? runs_old.empty() || runs_new.empty() || positional || releases || !noise_file.empty() : positional != 2)
    return usage();
  try {
    if (runs) {
      std::vector<run> old_runs, new_runs;
      for (const std::string& f : runs_old) old_runs.push_back(load_run(f));
      for (const std::string& f : runs_new) new_runs.push_back(load_run(f));
      const runs_comparison c = compare_runs(old_runs, new_runs, threshold, allow_missing);
      const std::string md    = markdown_runs_comparison(c);
      std::fputs(md.c_str(), stdout);
      if (!out_file.empty()) write_text(out_file, md);
      return c.failed() ? 1 : 0;
    }
    const run baseline  = load_run(files[0]);
    const run candidate = load_run(files[1]);
    run rerun;
    if (!noise_file.empty()) rerun = load_run(noise_file);
    const run* noise = noise_file.empty() ? nullptr : &rerun;
    std::string md;
    bool failed = false;
    if (releases) {
      const release_comparison c = compare_releases(baseline, candidate, threshold, noise, allow_missing);
      md                         = markdown_release_comparison(c);
      failed                     = c.failed();
    } else {
      const comparison c =
          compare(baseline.results, candidate.results, threshold, noise ? &rerun.results : nullptr, allow_missing);
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
