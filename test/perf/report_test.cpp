// Pure host tests of perf/report: reading results JSON (Google Benchmark's and the compact form), writing the
// compact form, ratio and summary tables, markdown, the regression gate, the gate over repeated runs of two
// builds (archscan-compare --runs-old/--runs-new) and the comparison of two CCCL releases (archscan-compare
// --cccl). No GPU is needed.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report.hpp"

namespace {
using namespace archscan::perf::report;

const std::string fixtures = ARCHSCAN_PERF_FIXTURES;

const result* find(const std::vector<result>& rs, const std::string& key) {
  for (const result& r : rs)
    if (r.key() == key) return &r;
  return nullptr;
}

TEST(PerfJson, ReadsNonFiniteCountersAndEscapes) {
  // Google Benchmark writes non-finite counters as bare NaN / Infinity / -Infinity (not JSON).
  const std::string doc = R"({"context": {"copy_GBps": "2990.5", "note": "NaN and Infinity inside a string"},
    "benchmarks": [
    {"name": "inclusive_scan\/float\/1024\/archscan::turing\u002fmanual_time", "run_type": "iteration",
     "median_us": 5, "spread": 1e-5, "ratio_to_cub": NaN, "GBps": Infinity, "other": -Infinity, "bytes": 8192},
    {"name": "inclusive_scan/float/1024/cub/manual_time", "median_us": Infinity, "ratio_to_cub": -NaN},
    {"name": "inclusive_scan/float/2048/cub/manual_time", "median_us": NaN, "copy_GBps": 3000}]})";
  const run r           = parse_run(doc);
  ASSERT_EQ(3u, r.results.size());
  EXPECT_EQ("inclusive_scan/float/1024/archscan::turing", r.results[0].key());  // escaped '/' split the name
  EXPECT_DOUBLE_EQ(5.0, r.results[0].median_us);
  EXPECT_DOUBLE_EQ(1e-5, r.results[0].spread);
  EXPECT_DOUBLE_EQ(8192.0, r.results[0].bytes);
  EXPECT_DOUBLE_EQ(2990.5, r.results[0].copy_GBps);  // the context's (a string there), when the case has none
  EXPECT_TRUE(std::isinf(r.results[1].median_us));
  EXPECT_TRUE(std::isnan(r.results[2].median_us));
  EXPECT_DOUBLE_EQ(3000.0, r.results[2].copy_GBps);
  EXPECT_EQ("NaN and Infinity inside a string", r.context.at("note"));
  EXPECT_EQ("2990.5", r.context.at("copy_GBps"));
}

TEST(PerfJson, RejectsMalformedInput) {
  EXPECT_THROW(parse_results("{\"benchmarks\": [1, }"), std::runtime_error);
  EXPECT_THROW(parse_results("{\"benchmarks\": [1, 2"), std::runtime_error);
  EXPECT_THROW(parse_results("{\"benchmarks\": []} extra"), std::runtime_error);
  EXPECT_THROW(parse_results("[]"), std::runtime_error);                 // not an object
  EXPECT_THROW(parse_results("{\"context\": {}}"), std::runtime_error);  // neither form
  EXPECT_THROW(parse_results("{\"cases\": {}}"), std::runtime_error);    // cases without the format
  EXPECT_TRUE(parse_results("{\"benchmarks\": []}").empty());
}

TEST(PerfResults, LoadsBenchmarkJsonAndSkipsErrors) {
  const auto rs = load_results(fixtures + "/baseline.json");
  ASSERT_EQ(5u, rs.size());  // the errored case is left out
  const result* r = find(rs, "exclusive_scan/int32/268435456/archscan::blelloch");
  ASSERT_NE(nullptr, r);
  EXPECT_EQ("exclusive_scan", r->algorithm);
  EXPECT_EQ("int32", r->type);
  EXPECT_EQ(268435456u, r->n);
  EXPECT_DOUBLE_EQ(1600.0, r->median_us);  // the median counter, not Google Benchmark's mean
  EXPECT_DOUBLE_EQ(0.01, r->spread);
  EXPECT_NEAR(2.0 * 268435456 * 4 / 1600e-6 / 1e9, r->gbps(), 1e-9);
  EXPECT_NEAR(r->gbps() / 2900.0, r->copy_fraction(), 1e-12);
  EXPECT_THROW(load_results(fixtures + "/no_such_file.json"), std::runtime_error);
}

TEST(PerfResults, MergesRepetitionsByMedian) {
  const std::string doc = R"({"benchmarks": [
    {"name": "inclusive_scan/float/1024/cub/manual_time", "run_type": "iteration", "median_us": 3, "spread": 0.02},
    {"name": "inclusive_scan/float/1024/cub/manual_time", "run_type": "iteration", "median_us": 5, "spread": 0.01},
    {"name": "inclusive_scan/float/1024/cub/manual_time", "run_type": "iteration", "median_us": 4, "spread": 0.01},
    {"name": "inclusive_scan/float/1024/cub/manual_time_median", "run_type": "aggregate", "median_us": 4}]})";
  const auto rs         = parse_results(doc);
  ASSERT_EQ(1u, rs.size());
  EXPECT_DOUBLE_EQ(4.0, rs[0].median_us);
  EXPECT_DOUBLE_EQ(0.5, rs[0].spread);  // (5 - 3) / 4: the spread across repetitions dominates
}

TEST(PerfTables, RatioToCubAndMarkdown) {
  const auto rs   = load_results(fixtures + "/baseline.json");
  const result* b = find(rs, "exclusive_scan/int32/1048576/archscan::blelloch");
  ASSERT_NE(nullptr, b);
  EXPECT_DOUBLE_EQ(0.5, ratio_to_reference(*b, rs));  // CUB 10 us / 20 us

  const std::string md = markdown_table(rs);
  EXPECT_NE(std::string::npos, md.find("| algorithm | type | n | implementation |"));
  EXPECT_NE(std::string::npos, md.find("| exclusive_scan | int32 | 2^20 | archscan::blelloch | 20.00 |"));
  EXPECT_NE(std::string::npos, md.find("| 0.500 |"));
  EXPECT_EQ(6, std::count(md.begin(), md.end(), '\n') - 1);  // header, rule, 5 rows

  const std::string sum = summary_table(rs);
  // Only the largest n of each (algorithm, type): int32 at 2^28, double at 2^20.
  EXPECT_NE(std::string::npos, sum.find("| exclusive_scan | int32 | 2^28 | archscan::blelloch | 1600.0 |"));
  EXPECT_EQ(std::string::npos, sum.find("| int32 | 2^20 |"));
  EXPECT_NE(std::string::npos, sum.find("| exclusive_scan | double | 2^20 | cub |"));
}

// ---- the compact form (what perf/baselines/ commits) ---------------------------------------------------

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(PerfCompact, ReadsBackToTheSameResults) {
  const run full         = load_run(fixtures + "/cccl_old.json");
  const std::string text = compact_json(full);
  EXPECT_EQ(full.results.size() + 6, lines(text));  // {, format, context, "cases": {, one line a case, }, }
  EXPECT_NE(std::string::npos, text.find("\"format\": \"" + compact_format + "\""));
  EXPECT_EQ(std::string::npos, text.find("host_name"));  // the context keeps what says how it was measured

  const run back = parse_run(text);
  EXPECT_EQ(full.cccl, back.cccl);
  EXPECT_EQ(full.device, back.device);
  EXPECT_EQ("2026-11-22T10:00:00+00:00", back.context.at("date"));
  EXPECT_EQ("3000001", back.context.at("CCCL_VERSION"));
  ASSERT_EQ(full.results.size(), back.results.size());
  for (std::size_t i = 0; i < full.results.size(); ++i) {
    const result& a = full.results[i];
    const result& b = back.results[i];
    EXPECT_EQ(a.key(), b.key());  // in run order
    EXPECT_NEAR(a.median_us, b.median_us, 1e-6 * a.median_us) << a.key();
    EXPECT_NEAR(a.spread, b.spread, 1e-6 * a.spread) << a.key();
    EXPECT_EQ(a.bytes, b.bytes) << a.key();
    EXPECT_EQ(a.copy_GBps, b.copy_GBps) << a.key();
  }
  EXPECT_EQ(text, compact_json(back));  // the compact form of the compact form is itself
}

TEST(PerfCompact, HoldsGBpsAndTheRatioToCub) {
  const run r            = load_run(fixtures + "/baseline.json");
  const std::string text = compact_json(r);
  EXPECT_NE(std::string::npos, text.find("\"copy_GBps\":2900.0"));  // once, in the context
  // blelloch at int32 2^20: 20 us against CUB's 10, 8 MiB moved.
  EXPECT_NE(std::string::npos,
            text.find("\"exclusive_scan/int32/1048576/archscan::blelloch\": {\"median_us\":20.0,\"spread\":0.01,"
                      "\"GBps\":419.43,\"ratio_to_cub\":0.5,\"bytes\":8388608}"));
  // A case without CUB in its run has no ratio.
  const result* blelloch = find(r.results, "exclusive_scan/int32/1048576/archscan::blelloch");
  ASSERT_NE(nullptr, blelloch);
  run alone;
  alone.results = {*blelloch};
  EXPECT_EQ(std::string::npos, compact_json(alone).find("ratio_to_cub"));
  EXPECT_TRUE(parse_run(compact_json(run{})).results.empty());
}

TEST(PerfCompact, IsABaselineOfTheGates) {
  const auto base  = parse_results(compact_json(load_run(fixtures + "/baseline.json")));
  const auto again = load_results(fixtures + "/rerun.json");
  EXPECT_FALSE(compare(base, load_results(fixtures + "/candidate_within_noise.json"), 0.05, &again).failed());
  EXPECT_TRUE(compare(base, load_results(fixtures + "/candidate_slow.json"), 0.05, &again).failed());

  const run old_build        = parse_run(compact_json(load_run(fixtures + "/cccl_old.json")));
  const run new_build        = load_run(fixtures + "/cccl_new.json");
  const run rerun            = load_run(fixtures + "/cccl_old_rerun.json");
  const release_comparison c = compare_releases(old_build, new_build, 0.05, &rerun);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(verdict::regression, c.gate.rows[0].outcome);
  EXPECT_NEAR(960.0 / 880.0, c.gate.rows[0].ratio, 1e-9);
}

TEST(PerfCompact, CommittedResultsLoadAndStaySmall) {
  // perf/baselines/<gpu>/bench_medians.json: committed, a baseline for archscan-compare, under 2 MB.
  const std::string path = fixtures + "/../../../perf/baselines/h200/bench_medians.json";
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  ASSERT_TRUE(f) << path;
  EXPECT_LT(static_cast<long long>(f.tellg()), 2'000'000);
  const run r = load_run(path);
  EXPECT_EQ("NVIDIA H200", r.device);
  EXPECT_EQ("cccl 3.0.1", r.cccl);
  EXPECT_GT(r.results.size(), 1000u);
  for (const result& x : r.results) {
    EXPECT_GT(x.median_us, 0) << x.key();
    EXPECT_GT(x.copy_GBps, 0) << x.key();
  }
}

TEST(PerfGate, UnchangedRunPasses) {
  const auto base    = load_results(fixtures + "/baseline.json");
  const comparison c = compare(base, base, 0.05);
  EXPECT_FALSE(c.failed());
  for (const auto& r : c.rows) EXPECT_EQ(verdict::unchanged, r.outcome) << r.key;
}

TEST(PerfGate, SlowerBeyondThresholdAndNoiseFails) {
  const auto base  = load_results(fixtures + "/baseline.json");
  const auto slow  = load_results(fixtures + "/candidate_slow.json");
  const auto again = load_results(fixtures + "/rerun.json");
  EXPECT_TRUE(compare(base, slow, 0.05).failed());
  EXPECT_TRUE(compare(base, slow, 0.05, &again).failed());  // 20% > 5% + 5% noise
  EXPECT_FALSE(compare(base, slow, 0.25).failed());         // a looser threshold lets it pass
  const comparison c = compare(base, slow, 0.05);
  const auto bad     = std::find_if(c.rows.begin(), c.rows.end(),
                                    [](const comparison_row& r) { return r.outcome == verdict::regression; });
  ASSERT_NE(c.rows.end(), bad);
  EXPECT_EQ("exclusive_scan/int32/268435456/archscan::blelloch", bad->key);
  EXPECT_NEAR(1.2, bad->ratio, 1e-12);
}

TEST(PerfGate, SlowerWithinMeasuredNoisePasses) {
  const auto base  = load_results(fixtures + "/baseline.json");
  const auto cand  = load_results(fixtures + "/candidate_within_noise.json");  // one case 8% slower
  const auto again = load_results(fixtures + "/rerun.json");                   // the same build moved it 5%
  EXPECT_TRUE(compare(base, cand, 0.05).failed());                             // spreads of 1% only: 8% > 6%
  const comparison c = compare(base, cand, 0.05, &again);                      // 8% < 5% + 5%
  EXPECT_FALSE(c.failed());
  for (const auto& r : c.rows)
    if (r.key == "exclusive_scan/int32/268435456/archscan::blelloch") {
      EXPECT_EQ(verdict::slower, r.outcome);
      EXPECT_NEAR(0.05, r.noise, 1e-12);
    }
}

TEST(PerfGate, FasterAndAddedCasesPassMissingCasesFailUnlessAllowed) {
  auto base = load_results(fixtures + "/baseline.json");
  auto cand = base;
  cand[0].median_us *= 0.5;  // faster
  cand.pop_back();           // missing in the candidate
  result extra = base[0];
  extra.impl   = "archscan::turing";  // new in the candidate
  cand.push_back(extra);
  EXPECT_TRUE(compare(base, cand, 0.05).failed());  // a lost case (it errored in the candidate) fails
  const comparison c = compare(base, cand, 0.05, nullptr, /*allow_missing=*/true);
  EXPECT_FALSE(c.failed());
  EXPECT_EQ(verdict::faster, c.rows[0].outcome);
  EXPECT_EQ(verdict::missing, c.rows[base.size() - 1].outcome);
  EXPECT_EQ(verdict::added, c.rows.back().outcome);
  const std::string md = markdown_comparison(c);
  EXPECT_NE(std::string::npos, md.find("PASS"));
  EXPECT_NE(std::string::npos, md.find("| candidate / baseline |"));
  EXPECT_NE(std::string::npos,
            markdown_comparison(compare(base, load_results(fixtures + "/candidate_slow.json"), 0.05)).find("FAIL"));
}

// ---- repeated runs of two builds (archscan-compare --runs-old ... --runs-new ...) -------------------------

//! One run per entry of `us`: the case `key` with that median (spread 1%).
std::vector<run> runs_of(const std::string& key, const std::vector<double>& us) {
  const result like = parse_results("{\"format\": \"" + compact_format + "\", \"cases\": {\"" + key +
                                    "\": {\"median_us\": 1, \"spread\": 0.01, \"bytes\": 8}}}")
                          .at(0);
  std::vector<run> out(us.size());
  for (std::size_t i = 0; i < us.size(); ++i) {
    out[i].results              = {like};
    out[i].results[0].median_us = us[i];
  }
  return out;
}

//! `b`'s runs appended to `a`'s, run by run (the same number of runs).
std::vector<run> merge_runs(std::vector<run> a, const std::vector<run>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i].results.insert(a[i].results.end(), b.at(i).results.begin(), b.at(i).results.end());
  return a;
}

TEST(PerfRunsGate, OldRunsSpreadingFifteenPercentHideATenPercentShift) {
  // blelloch's by-key scans at 2^24..2^28 drift +-15% over a minute: a +10% new median is within that.
  const std::string key   = "exclusive_scan_by_key/int32/16777216/archscan::blelloch";
  const runs_comparison c = compare_runs(runs_of(key, {8500, 10000, 11500}), runs_of(key, {11000, 10900, 11200}), 0.05);
  ASSERT_EQ(1u, c.gate.rows.size());
  const comparison_row& r = c.gate.rows[0];
  EXPECT_DOUBLE_EQ(10000, r.baseline_us);
  EXPECT_DOUBLE_EQ(11000, r.candidate_us);
  EXPECT_NEAR(1.10, r.ratio, 1e-12);
  EXPECT_NEAR(0.15, c.cases[0].old_noise, 1e-12);
  EXPECT_NEAR(200.0 / 11000, c.cases[0].new_noise, 1e-12);
  EXPECT_NEAR(0.15, r.noise, 1e-12);  // the larger of the two
  EXPECT_EQ(verdict::slower, r.outcome);
  EXPECT_FALSE(c.failed());
  // The same spread in the new runs counts the same way.
  EXPECT_FALSE(compare_runs(runs_of(key, {10000, 10050, 9950}), runs_of(key, {9350, 11000, 12650}), 0.05).failed());
}

TEST(PerfRunsGate, TightRunsAndAnEightPercentShiftFail) {
  const std::string key   = "exclusive_scan/int32/1048576/archscan::turing";
  const auto old_runs     = runs_of(key, {20.0, 20.1, 19.9});
  const auto new_runs     = runs_of(key, {21.6, 21.7, 21.5});
  const runs_comparison c = compare_runs(old_runs, new_runs, 0.05);
  EXPECT_NEAR(1.08, c.gate.rows[0].ratio, 1e-12);
  EXPECT_NEAR(0.005, c.gate.rows[0].noise, 1e-12);  // 8% > 5% + 0.5%
  EXPECT_EQ(verdict::regression, c.gate.rows[0].outcome);
  EXPECT_TRUE(c.failed());
  EXPECT_FALSE(compare_runs(old_runs, new_runs, 0.09).failed());  // 8% < 9% + 0.5%
  // One slow new run out of three moves the median no more than the other two allow.
  EXPECT_FALSE(compare_runs(old_runs, runs_of(key, {20.0, 30.0, 20.1}), 0.05).failed());
  // One run a side: the noise is the runs' own spread (1%), as compare() without a rerun.
  const runs_comparison one = compare_runs(runs_of(key, {20.0}), runs_of(key, {21.6}), 0.05);
  EXPECT_NEAR(0.01, one.gate.rows[0].noise, 1e-12);
  EXPECT_TRUE(one.failed());
}

TEST(PerfRunsGate, MissingCasesFailAddedCasesPassAndRunsMayLackACase) {
  const std::string a = "exclusive_scan/int32/65536/cub", b = "exclusive_scan/int32/65536/archscan::turing";
  const std::string d = "exclusive_scan/int32/65536/archscan::kepler";
  const auto old_runs = merge_runs(runs_of(a, {7, 7, 7}), runs_of(b, {8, 8, 8}));
  auto new_runs       = merge_runs(runs_of(a, {7, 7, 7}), runs_of(d, {9, 9, 9}));
  new_runs[2].results.erase(new_runs[2].results.begin());  // the last new run lost CUB (it timed out)
  const runs_comparison c = compare_runs(old_runs, new_runs, 0.05);
  ASSERT_EQ(3u, c.gate.rows.size());
  EXPECT_EQ(a, c.gate.rows[0].key);
  EXPECT_EQ(2u, c.cases[0].new_us.size());  // two new runs have it: still compared
  EXPECT_EQ(verdict::unchanged, c.gate.rows[0].outcome);
  EXPECT_EQ(b, c.gate.rows[1].key);
  EXPECT_EQ(verdict::missing, c.gate.rows[1].outcome);
  EXPECT_EQ(d, c.gate.rows[2].key);
  EXPECT_EQ(verdict::added, c.gate.rows[2].outcome);
  EXPECT_TRUE(c.failed());
  EXPECT_FALSE(compare_runs(old_runs, new_runs, 0.05, /*allow_missing=*/true).failed());
  const std::string md = markdown_runs_comparison(c);
  EXPECT_NE(
      std::string::npos,
      md.find("| " + b + " | 8.00 | - | - | 0.0% | missing in candidate | 8.00, 8.00, 8.00 (±0.0%) | - (±0.0%) |"));
  EXPECT_NE(std::string::npos, md.find("0 regression(s), 1 case(s) missing from every new run: FAIL"));
  EXPECT_THROW(compare_runs({}, new_runs, 0.05), std::runtime_error);
}

TEST(PerfRunsGate, GeomeansPerImplementationWithCubAsTheControl) {
  const runs_comparison c =
      compare_runs({load_run(fixtures + "/runs_old_1.json"), load_run(fixtures + "/runs_old_2.json"),
                    load_run(fixtures + "/runs_old_3.json")},
                   {load_run(fixtures + "/runs_new_1.json"), load_run(fixtures + "/runs_new_2.json"),
                    load_run(fixtures + "/runs_new_3.json")},
                   0.05);
  ASSERT_EQ(4u, c.gate.rows.size());
  EXPECT_EQ(3u, c.old_runs);
  ASSERT_EQ(3u, c.geomeans.size());
  EXPECT_EQ("cub", c.geomeans[0].impl);  // first: the control
  EXPECT_EQ(2u, c.geomeans[0].cases);
  EXPECT_NEAR(std::sqrt(10.1 / 10.0 * 705.0 / 700.0), c.geomeans[0].ratio, 1e-12);
  EXPECT_EQ(c.geomeans[0].ratio, c.control.ratio);
  EXPECT_EQ("archscan::turing", c.geomeans[1].impl);
  EXPECT_NEAR(1.08, c.geomeans[1].ratio, 1e-12);
  EXPECT_EQ("archscan::blelloch", c.geomeans[2].impl);
  EXPECT_NEAR(1.10, c.geomeans[2].ratio, 1e-12);
  EXPECT_EQ(4u, c.overall.cases);
  EXPECT_NEAR(std::pow(10.1 / 10.0 * 705.0 / 700.0 * 1.08 * 1.10, 0.25), c.overall.ratio, 1e-12);
  EXPECT_EQ(verdict::regression, c.gate.rows[1].outcome);  // turing: tight runs, +8%
  EXPECT_EQ(verdict::slower, c.gate.rows[3].outcome);      // blelloch: +10% within its runs' 15%
  const std::string md = markdown_runs_comparison(c);
  EXPECT_NE(std::string::npos, md.find("| cub (control) | 2 | 1.0086 | +0.86% |"));
  EXPECT_NE(std::string::npos, md.find("| archscan::turing | 1 | 1.0800 | +8.00% |"));
  EXPECT_NE(std::string::npos,
            md.find("Control: CUB is compiled from the same CCCL in both builds, so its geomean (+0.86%"));
  EXPECT_NE(std::string::npos,
            md.find("| exclusive_scan/int32/1048576/archscan::turing | 20.00 | 21.60 | 1.080 | 0.5% | "
                    "REGRESSION | 20.00, 20.10, 19.90 (±0.5%) | 21.60, 21.70, 21.50 (±0.5%) |"));
  EXPECT_NE(std::string::npos, md.find("1 regression(s), 0 case(s) missing from every new run: FAIL"));
}

TEST(PerfRunsGate, MedianRunIsThePerCaseMedianOverRuns) {
  const run m = median_run({load_run(fixtures + "/runs_old_1.json"), load_run(fixtures + "/runs_old_2.json"),
                            load_run(fixtures + "/runs_old_3.json")});
  EXPECT_EQ("3", m.context.at("runs"));
  EXPECT_EQ("NVIDIA H100 80GB HBM3", m.device);
  ASSERT_EQ(4u, m.results.size());
  EXPECT_EQ("exclusive_scan_by_key/int32/16777216/archscan::blelloch", m.results[3].key());
  EXPECT_DOUBLE_EQ(10000, m.results[3].median_us);
  EXPECT_NEAR(0.3, m.results[3].spread, 1e-12);   // (11500 - 8500) / 10000 beats each run's 1%
  EXPECT_NEAR(0.02, m.results[0].spread, 1e-12);  // (10.1 - 9.9) / 10
  const run back = parse_run(compact_json(m));    // what revision_ab.sh commits as old_medians.json
  EXPECT_EQ("3", back.context.at("runs"));
  EXPECT_DOUBLE_EQ(10000, back.results[3].median_us);
  EXPECT_TRUE(median_run({}).results.empty());
}

// ---- across CCCL releases (fixtures cccl_*.json: CUB int32 2^28 9.1% slower in the new build, double 2^16
// 11% faster, float 2^24 4% slower; the rerun of the old build moved CUB by 0.45%, 1.1% and 1.0%) ----------

TEST(PerfRuns, RecordTheCcclOfTheBuild) {
  const run old_build = load_run(fixtures + "/cccl_old.json");
  EXPECT_EQ("cccl 3.0.1", old_build.cccl);
  EXPECT_EQ("NVIDIA H100 80GB HBM3", old_build.device);
  EXPECT_EQ(10u, old_build.results.size());
  // Files written before archscan-bench recorded `cccl`: the CCCL named in `versions`, else nothing.
  EXPECT_EQ("cccl 3.0.1", parse_run(R"({"context": {"versions": "CUDA driver API 13.0, CUDA runtime 13.0, CCCL 3.0.1"},
                                        "benchmarks": []})")
                              .cccl);
  EXPECT_EQ("", load_run(fixtures + "/baseline.json").cccl);
}

TEST(PerfReleases, GateAppliesToCubAndPoliciesAreRatiosWithinEachBuild) {
  const run old_build        = load_run(fixtures + "/cccl_old.json");
  const run new_build        = load_run(fixtures + "/cccl_new.json");
  const run rerun            = load_run(fixtures + "/cccl_old_rerun.json");
  const release_comparison c = compare_releases(old_build, new_build, 0.05, &rerun);
  EXPECT_EQ("cccl 3.0.1", c.old_cccl);
  EXPECT_EQ("cccl 3.5.0", c.new_cccl);
  EXPECT_TRUE(c.warnings.empty());
  // One row per case, CUB's only: cub+sync and thrust are neither gated nor columns.
  ASSERT_EQ(3u, c.cases.size());
  ASSERT_EQ(3u, c.gate.rows.size());
  EXPECT_EQ((std::vector<std::string>{"archscan::kepler_nosync", "archscan::turing_nosync"}), c.policies);

  EXPECT_EQ("exclusive_scan/int32/268435456/cub", c.gate.rows[0].key);
  EXPECT_EQ(268435456u, c.cases[0].n);
  EXPECT_NEAR(960.0 / 880.0, c.gate.rows[0].ratio, 1e-12);
  EXPECT_NEAR(4.0 / 880.0, c.gate.rows[0].noise, 1e-12);   // from the rerun, not the 1% spreads
  EXPECT_EQ(verdict::regression, c.gate.rows[0].outcome);  // 9.1% > 5% + 0.45%
  EXPECT_NEAR(880.0 / 890.0, c.cases[0].old_ratio[0], 1e-12);
  EXPECT_NEAR(960.0 / 900.0, c.cases[0].new_ratio[0], 1e-12);
  EXPECT_NEAR(880.0 / 820.0, c.cases[0].old_ratio[1], 1e-12);
  EXPECT_NEAR(960.0 / 830.0, c.cases[0].new_ratio[1], 1e-12);

  EXPECT_EQ("double", c.cases[1].type);
  EXPECT_EQ(verdict::faster, c.gate.rows[1].outcome);
  EXPECT_EQ(0.0, c.cases[1].new_ratio[0]);                // kepler_nosync is absent from the new build's double 2^16
  EXPECT_EQ(verdict::unchanged, c.gate.rows[2].outcome);  // float: 4% < 5%
  EXPECT_TRUE(c.failed());

  // A threshold of 9%: the int32 case is slower, but within threshold + noise.
  const release_comparison loose = compare_releases(old_build, new_build, 0.09, &rerun);
  EXPECT_EQ(verdict::slower, loose.gate.rows[0].outcome);
  EXPECT_FALSE(loose.failed());
  // Without a rerun the noise is the larger spread (1%): still a regression at 5%.
  EXPECT_TRUE(compare_releases(old_build, new_build, 0.05).failed());
}

TEST(PerfReleases, MarkdownShowsBothReleasesAndTheGate) {
  const run old_build  = load_run(fixtures + "/cccl_old.json");
  const run new_build  = load_run(fixtures + "/cccl_new.json");
  const run rerun      = load_run(fixtures + "/cccl_old_rerun.json");
  const std::string md = markdown_release_comparison(compare_releases(old_build, new_build, 0.05, &rerun));
  EXPECT_NE(std::string::npos, md.find("cccl 3.0.1 (old) vs cccl 3.5.0 (new)"));
  EXPECT_NE(std::string::npos, md.find("| CUB new/old | change | noise | verdict | kepler_nosync | turing_nosync |"));
  EXPECT_NE(
      std::string::npos,
      md.find("| exclusive_scan | int32 | 2^28 | 880.00 | 960.00 | 0.917 | +9.1% | 0.5% | REGRESSION | 0.989 → 1.067 | "
              "1.073 → 1.157 |"));
  EXPECT_NE(std::string::npos, md.find("| 0.947 → - |"));  // absent from the new build
  EXPECT_NE(std::string::npos, md.find("1 regression(s), 0 case(s) missing from the new build: FAIL"));
  EXPECT_EQ(std::string::npos, md.find("warning"));
}

TEST(PerfReleases, WarnsWhenTheFilesAreNotTwoReleasesOfOneMachine) {
  const run old_build        = load_run(fixtures + "/cccl_old.json");
  run other_gpu              = load_run(fixtures + "/cccl_new.json");
  other_gpu.device           = "NVIDIA H200";
  const release_comparison c = compare_releases(old_build, other_gpu, 0.05, &other_gpu);
  ASSERT_EQ(2u, c.warnings.size());
  EXPECT_NE(std::string::npos, c.warnings[0].find("different devices"));
  EXPECT_NE(std::string::npos, c.warnings[1].find("rerun of the old build"));
  EXPECT_NE(std::string::npos, markdown_release_comparison(c).find("> warning: the runs come from different devices"));

  const release_comparison same = compare_releases(old_build, old_build, 0.05);
  ASSERT_EQ(1u, same.warnings.size());
  EXPECT_NE(std::string::npos, same.warnings[0].find("two runs of one release"));
  EXPECT_FALSE(same.failed());

  run no_cub = old_build;
  no_cub.results.erase(std::remove_if(no_cub.results.begin(), no_cub.results.end(),
                                      [](const result& r) { return r.impl == reference_impl; }),
                       no_cub.results.end());
  EXPECT_THROW(compare_releases(no_cub, old_build, 0.05), std::runtime_error);
}

}  // namespace
