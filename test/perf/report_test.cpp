// Pure host tests of perf/report: JSON parsing, ratio and summary tables, markdown, the regression gate.
// No GPU is needed.

#include <algorithm>
#include <cmath>
#include <string>

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

TEST(PerfJson, ParsesValuesAndEscapes) {
  const json j = parse_json(R"( {"a": [1, -2.5e3, true, false, null], "s": "x\"y\\n\u0041", "o": {}, "e": [],
                                 "nan": NaN, "inf": -Infinity} )");
  ASSERT_TRUE(j.is_object());
  const auto& a = std::get<json::array>(j.find("a")->v);
  ASSERT_EQ(5u, a.size());
  EXPECT_EQ(1.0, std::get<double>(a[0].v));
  EXPECT_EQ(-2500.0, std::get<double>(a[1].v));
  EXPECT_TRUE(std::get<bool>(a[2].v));
  EXPECT_EQ("x\"y\\nA", std::get<std::string>(j.find("s")->v));
  EXPECT_TRUE(std::isnan(std::get<double>(j.find("nan")->v)));
  EXPECT_TRUE(std::isinf(std::get<double>(j.find("inf")->v)));
  EXPECT_EQ(nullptr, j.find("absent"));
}

TEST(PerfJson, RejectsMalformedInput) {
  EXPECT_THROW(parse_json("{\"a\": }"), std::runtime_error);
  EXPECT_THROW(parse_json("[1, 2"), std::runtime_error);
  EXPECT_THROW(parse_json("{} extra"), std::runtime_error);
  EXPECT_THROW(parse_results("{\"context\": {}}"), std::runtime_error);
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
  const auto rs = parse_results(doc);
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

TEST(PerfGate, UnchangedRunPasses) {
  const auto base = load_results(fixtures + "/baseline.json");
  const comparison c = compare(base, base, 0.05);
  EXPECT_FALSE(c.failed());
  for (const auto& r : c.rows) EXPECT_EQ(verdict::unchanged, r.outcome) << r.key;
}

TEST(PerfGate, SlowerBeyondThresholdAndNoiseFails) {
  const auto base = load_results(fixtures + "/baseline.json");
  const auto slow = load_results(fixtures + "/candidate_slow.json");
  const auto again = load_results(fixtures + "/rerun.json");
  EXPECT_TRUE(compare(base, slow, 0.05).failed());
  EXPECT_TRUE(compare(base, slow, 0.05, &again).failed());  // 20% > 5% + 5% noise
  EXPECT_FALSE(compare(base, slow, 0.25).failed());         // a looser threshold lets it pass
  const comparison c = compare(base, slow, 0.05);
  const auto bad = std::find_if(c.rows.begin(), c.rows.end(), [](const comparison_row& r) { return r.outcome == verdict::regression; });
  ASSERT_NE(c.rows.end(), bad);
  EXPECT_EQ("exclusive_scan/int32/268435456/archscan::blelloch", bad->key);
  EXPECT_NEAR(1.2, bad->ratio, 1e-12);
}

TEST(PerfGate, SlowerWithinMeasuredNoisePasses) {
  const auto base  = load_results(fixtures + "/baseline.json");
  const auto cand  = load_results(fixtures + "/candidate_within_noise.json");  // one case 8% slower
  const auto again = load_results(fixtures + "/rerun.json");                   // the same build moved it 5%
  EXPECT_TRUE(compare(base, cand, 0.05).failed());            // spreads of 1% only: 8% > 6%
  const comparison c = compare(base, cand, 0.05, &again);    // 8% < 5% + 5%
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
  cand[0].median_us *= 0.5;                     // faster
  cand.pop_back();                              // missing in the candidate
  result extra = base[0];
  extra.impl   = "archscan::turing";            // new in the candidate
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
  EXPECT_NE(std::string::npos, markdown_comparison(compare(base, load_results(fixtures + "/candidate_slow.json"), 0.05)).find("FAIL"));
}

}  // namespace
