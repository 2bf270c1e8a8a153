#include "report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace archscan::perf::report {

namespace {

using json = nlohmann::ordered_json;  // ordered: results keep the order of the file

//! Google Benchmark writes non-finite counters as the bare tokens NaN, Infinity and -Infinity, which JSON
//! has not; nlohmann::json rejects them. Outside strings they are quoted here, and number_or reads such
//! strings back as numbers.
std::string quote_non_finite(const std::string& text) {
  static const std::set<std::string> words = {"NaN", "-NaN", "nan", "-nan", "Infinity", "-Infinity", "inf", "-inf"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      out += text[i++];
      if (c == '\\' && i < text.size())
        out += text[i++];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += text[i++];
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '-') {
      out += text[i++];
      continue;
    }
    // A bare word (true, NaN, ...) or the rest of a number: taken whole, so "1e-5" is never split.
    std::size_t j = i + 1;
    while (j < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '-' || text[j] == '+' || text[j] == '.'))
      ++j;
    const std::string word = text.substr(i, j - i);
    out += words.count(word) ? "\"" + word + "\"" : word;
    i = j;
  }
  return out;
}

json parse_document(const std::string& text) {
  try {
    return json::parse(quote_non_finite(text));
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("JSON: ") + e.what());
  }
}

//! Member `key` of `j` as a number: a JSON number, or a string that is one whole number (Google
//! Benchmark's context holds numbers as strings; non-finite counters come quoted by quote_non_finite).
double number_or(const json& j, const char* key, double fallback) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    char* end            = nullptr;
    const double d       = std::strtod(s.c_str(), &end);
    if (!s.empty() && *end == '\0') return d;
  }
  return fallback;
}

std::string string_or(const json& j, const char* key, const std::string& fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == sep)
      parts.push_back(cur), cur.clear();
    else
      cur += c;
  }
  parts.push_back(cur);
  return parts;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.empty() ? 0 : v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

//! "2^20" for powers of two, else the number.
std::string size_label(std::uint64_t n) {
  if (n && (n & (n - 1)) == 0) {
    int lg = 0;
    while ((std::uint64_t{1} << lg) != n) ++lg;
    return "2^" + std::to_string(lg);
  }
  return std::to_string(n);
}

}  // namespace

// ---- results -------------------------------------------------------------------------------------------

std::string result::case_key() const { return algorithm + "/" + type + "/" + std::to_string(n); }
std::string result::key() const { return case_key() + "/" + impl; }

namespace {

//! algorithm, type, n and impl of a case name ("algorithm/type/n/impl[/...]"); false when it is no
//! archscan-bench case (e.g. a user's own benchmark).
bool name_case(const std::string& name, result& r) {
  const auto parts = split(name, '/');
  if (parts.size() < 4) return false;
  r.algorithm = parts[0];
  r.type      = parts[1];
  r.n         = static_cast<std::uint64_t>(std::strtoull(parts[2].c_str(), nullptr, 10));
  r.impl      = parts[3];
  return true;
}

//! The results of Google Benchmark's output.
std::vector<result> benchmark_results(const json& benchmarks, double context_copy) {
  struct merged {
    result first;
    std::vector<double> medians;
    double spread = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, merged> by_key;
  for (const json& b : benchmarks) {
    if (string_or(b, "run_type", "iteration") != "iteration") continue;
    const auto err = b.find("error_occurred");
    if (err != b.end() && err->is_boolean() && err->get<bool>()) continue;
    result r;
    if (!name_case(string_or(b, "run_name", string_or(b, "name", "")), r)) continue;
    r.median_us = number_or(b, "median_us", -1);
    if (r.median_us < 0) {  // no counter: fall back on Google Benchmark's own (mean) time
      const std::string unit = string_or(b, "time_unit", "ns");
      const double scale     = unit == "ns" ? 1e-3 : unit == "us" ? 1 : unit == "ms" ? 1e3 : unit == "s" ? 1e6 : 1e-3;
      r.median_us            = number_or(b, "real_time", 0) * scale;
    }
    r.spread            = number_or(b, "spread", 0);
    r.bytes             = number_or(b, "bytes", 0);
    r.copy_GBps         = number_or(b, "copy_GBps", context_copy);
    const std::string k = r.key();
    auto it             = by_key.find(k);
    if (it == by_key.end()) {
      order.push_back(k);
      it = by_key.emplace(k, merged{r, {}, 0}).first;
    }
    it->second.medians.push_back(r.median_us);
    it->second.spread = std::max(it->second.spread, r.spread);
  }

  std::vector<result> out;
  for (const std::string& k : order) {
    merged& m           = by_key.at(k);
    result r            = m.first;
    r.median_us         = median_of(m.medians);
    const auto [lo, hi] = std::minmax_element(m.medians.begin(), m.medians.end());
    const double range  = r.median_us > 0 ? (*hi - *lo) / r.median_us : 0;
    r.spread            = std::max(m.spread, range);
    out.push_back(r);
  }
  return out;
}

//! The results of the compact form.
std::vector<result> compact_results(const json& cases, double context_copy) {
  std::vector<result> out;
  for (const auto& [name, c] : cases.items()) {
    result r;
    if (!name_case(name, r)) throw std::runtime_error("compact results: \"" + name + "\" names no case");
    r.median_us = number_or(c, "median_us", 0);
    r.spread    = number_or(c, "spread", 0);
    r.bytes     = number_or(c, "bytes", 0);
    r.copy_GBps = context_copy;
    out.push_back(r);
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

//! "cccl 3.0.1" from a `versions` context line ("..., CCCL 3.0.1"), for files written before archscan-bench
//! recorded `cccl` itself; "" when the line names no CCCL.
std::string cccl_from_versions(const std::string& versions) {
  const std::string tag = "CCCL ";
  const std::size_t at  = versions.find(tag);
  if (at == std::string::npos) return "";
  const std::size_t from = at + tag.size();
  return "cccl " + versions.substr(from, versions.find(',', from) - from);
}

}  // namespace

run parse_run(const std::string& json_text) {
  const json doc = parse_document(json_text);
  if (!doc.is_object()) throw std::runtime_error("the results are not a JSON object");
  run r;
  const auto context = doc.find("context");
  if (context != doc.end() && context->is_object()) {
    for (const auto& [k, v] : context->items())
      if (v.is_string())
        r.context[k] = v.get<std::string>();
      else if (v.is_primitive() && !v.is_null())
        r.context[k] = v.dump();
    r.device = string_or(*context, "device", "");
    r.cccl   = string_or(*context, "cccl", cccl_from_versions(string_or(*context, "versions", "")));
  }
  const double context_copy = context != doc.end() ? number_or(*context, "copy_GBps", 0) : 0;
  const auto benchmarks     = doc.find("benchmarks");
  const auto cases          = doc.find("cases");
  if (benchmarks != doc.end() && benchmarks->is_array())
    r.results = benchmark_results(*benchmarks, context_copy);
  else if (string_or(doc, "format", "") == compact_format && cases != doc.end() && cases->is_object())
    r.results = compact_results(*cases, context_copy);
  else
    throw std::runtime_error("neither a \"benchmarks\" array (Google Benchmark) nor \"" + compact_format +
                             "\" cases (archscan-compare --compact) in the results");
  return r;
}

std::vector<result> parse_results(const std::string& json_text) { return parse_run(json_text).results; }
run load_run(const std::string& path) { return parse_run(read_file(path)); }
std::vector<result> load_results(const std::string& path) { return load_run(path).results; }

namespace {
//! The result of `impl` for the case of `like` (same algorithm, type, n) in `all`, or nullptr.
const result* find_impl(const std::vector<result>& all, const result& like, const std::string& impl) {
  for (const result& c : all)
    if (c.impl == impl && c.algorithm == like.algorithm && c.type == like.type && c.n == like.n) return &c;
  return nullptr;
}
}  // namespace

double ratio_to_reference(const result& r, const std::vector<result>& all) {
  const result* cub = find_impl(all, r, reference_impl);
  return cub && r.median_us > 0 ? cub->median_us / r.median_us : 0;
}

// ---- the compact form ----------------------------------------------------------------------------------

namespace {
//! `x` to `digits` significant digits: more than a median of noisy timings can claim, few enough to keep
//! the committed file small (nlohmann::json writes the shortest text that reads back the same double).
double significant(double x, int digits = 6) {
  if (x == 0 || !std::isfinite(x)) return x;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return std::strtod(buf, nullptr);
}
}  // namespace

std::string compact_json(const run& r) {
  // The copy bandwidth of the run: every archscan-bench case holds the one measured at its start.
  double copy = 0;
  for (const result& x : r.results)
    if (x.copy_GBps > 0) {
      copy = x.copy_GBps;
      break;
    }
  if (copy == 0 && r.context.count("copy_GBps")) copy = std::strtod(r.context.at("copy_GBps").c_str(), nullptr);

  json context = json::object();
  for (const char* k : {"date", "device", "compute_capability", "cccl", "CCCL_VERSION", "CUB_VERSION", "versions",
                        "copy_GBps", "l2_cache", "method", "runs"}) {
    const std::string key = k;
    if (key == "cccl") {
      if (!r.cccl.empty()) context[key] = r.cccl;
    } else if (key == "copy_GBps") {
      if (copy > 0) context[key] = significant(copy);
    } else if (const auto it = r.context.find(key); it != r.context.end()) {
      context[key] = it->second;
    }
  }

  // GB/s and ratios come from the rounded medians, so that the compact form of the compact form is itself.
  std::map<std::string, double> cub_us;  // ratio_to_reference, without a search of the whole run per case
  for (const result& x : r.results)
    if (x.impl == reference_impl) cub_us.emplace(x.case_key(), significant(x.median_us));

  // One line per case, so that the diff of two runs reads case by case: nlohmann::json writes every value
  // and case name; only the three member names of the document and the line breaks are spelt out here.
  std::ostringstream os;
  os << "{\n\"format\": " << json(compact_format).dump() << ",\n\"context\": " << context.dump() << ",\n\"cases\": {";
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    result x       = r.results[i];
    x.median_us    = significant(x.median_us);
    json c         = json::object();
    c["median_us"] = x.median_us;
    c["spread"]    = significant(x.spread);
    c["GBps"]      = significant(x.gbps());
    const auto cub = cub_us.find(x.case_key());
    if (cub != cub_us.end() && x.median_us > 0) c["ratio_to_cub"] = significant(cub->second / x.median_us);
    c["bytes"] = static_cast<std::uint64_t>(std::llround(x.bytes));
    os << (i ? ",\n" : "\n") << json(x.key()).dump() << ": " << c.dump();
  }
  os << (r.results.empty() ? "}\n}\n" : "\n}\n}\n");
  return os.str();
}

std::string markdown_table(const std::vector<result>& results) {
  std::ostringstream os;
  os << "| algorithm | type | n | implementation | median (us) | Gitems/s | GB/s | of copy BW | ratio to CUB | spread "
        "|\n"
     << "|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n";
  for (const result& r : results) {
    const double ratio = ratio_to_reference(r, results);
    os << "| " << r.algorithm << " | " << r.type << " | " << size_label(r.n) << " | " << r.impl << " | "
       << fmt("%.2f", r.median_us) << " | " << fmt("%.2f", r.items_per_s() / 1e9) << " | " << fmt("%.1f", r.gbps())
       << " | " << (r.copy_GBps > 0 ? fmt("%.1f%%", 100 * r.copy_fraction()) : "-") << " | "
       << (ratio > 0 ? fmt("%.3f", ratio) : "-") << " | " << fmt("%.1f%%", 100 * r.spread) << " |\n";
  }
  return os.str();
}

std::string summary_table(const std::vector<result>& results) {
  std::map<std::pair<std::string, std::string>, std::uint64_t> largest;
  std::vector<std::pair<std::string, std::string>> order;
  for (const result& r : results) {
    auto k = std::make_pair(r.algorithm, r.type);
    if (!largest.count(k)) order.push_back(k);
    largest[k] = std::max(largest[k], r.n);
  }
  std::ostringstream os;
  os << "| algorithm | type | n | implementation | median (us) | GB/s | of copy BW | ratio to CUB |\n"
     << "|---|---|---:|---|---:|---:|---:|---:|\n";
  for (const auto& k : order)
    for (const result& r : results) {
      if (r.algorithm != k.first || r.type != k.second || r.n != largest[k]) continue;
      const double ratio = ratio_to_reference(r, results);
      os << "| " << r.algorithm << " | " << r.type << " | " << size_label(r.n) << " | " << r.impl << " | "
         << fmt("%.1f", r.median_us) << " | " << fmt("%.1f", r.gbps()) << " | "
         << (r.copy_GBps > 0 ? fmt("%.1f%%", 100 * r.copy_fraction()) : "-") << " | "
         << (ratio > 0 ? fmt("%.3f", ratio) : "-") << " |\n";
    }
  return os.str();
}

// ---- comparison ----------------------------------------------------------------------------------------

const char* to_string(verdict v) {
  switch (v) {
    case verdict::unchanged:
      return "unchanged";
    case verdict::faster:
      return "faster";
    case verdict::slower:
      return "slower (within noise)";
    case verdict::regression:
      return "REGRESSION";
    case verdict::missing:
      return "missing in candidate";
    case verdict::added:
      return "new in candidate";
  }
  return "?";
}

bool comparison::failed() const {
  return std::any_of(rows.begin(), rows.end(), [&](const comparison_row& r) {
    return r.outcome == verdict::regression || (r.outcome == verdict::missing && !allow_missing);
  });
}

namespace {
//! The verdict on a case whose time changed by `change` (new / old - 1) where threshold + noise is allowed.
verdict classify(double change, double threshold, double noise) {
  const double allowed = threshold + noise;
  return change > allowed    ? verdict::regression
         : change > 0        ? (change > threshold ? verdict::slower : verdict::unchanged)
         : -change > allowed ? verdict::faster
                             : verdict::unchanged;
}
}  // namespace

comparison compare(const std::vector<result>& baseline, const std::vector<result>& candidate, double threshold,
                   const std::vector<result>* rerun, bool allow_missing) {
  comparison c;
  c.threshold        = threshold;
  c.allow_missing    = allow_missing;
  c.noise_from_rerun = rerun != nullptr;
  std::map<std::string, const result*> cand, again;
  for (const result& r : candidate) cand[r.key()] = &r;
  if (rerun)
    for (const result& r : *rerun) again[r.key()] = &r;

  std::set<std::string> seen;
  for (const result& b : baseline) {
    comparison_row row;
    row.key         = b.key();
    row.baseline_us = b.median_us;
    seen.insert(row.key);
    const auto it = cand.find(row.key);
    if (it == cand.end()) {
      row.outcome = verdict::missing;
      c.rows.push_back(row);
      continue;
    }
    const result& k  = *it->second;
    row.candidate_us = k.median_us;
    row.ratio        = b.median_us > 0 ? k.median_us / b.median_us : 0;
    const auto a     = again.find(row.key);
    row.noise        = a != again.end() && b.median_us > 0 ? std::fabs(a->second->median_us / b.median_us - 1)
                                                           : std::max(b.spread, k.spread);
    row.outcome      = classify(row.ratio - 1, threshold, row.noise);
    c.rows.push_back(row);
  }
  for (const result& k : candidate)
    if (!seen.count(k.key())) {
      comparison_row row;
      row.key          = k.key();
      row.candidate_us = k.median_us;
      row.outcome      = verdict::added;
      c.rows.push_back(row);
    }
  return c;
}

namespace {
//! How a gate line names its terms: the time ratio it tests, the rerun's noise, the run cases go missing from.
struct gate_terms {
  const char* title;
  const char* change;
  const char* rerun_noise;
  const char* candidate;
};

//! The gate's rule, its counts and PASS or FAIL, on one line.
std::string gate_line(const comparison& c, const gate_terms& t) {
  const auto count = [&](verdict v) {
    return std::count_if(c.rows.begin(), c.rows.end(), [v](const comparison_row& r) { return r.outcome == v; });
  };
  std::ostringstream os;
  os << t.title << ": a case fails when " << t.change << " - 1 > threshold (" << fmt("%.1f%%", 100 * c.threshold)
     << ") + noise (" << (c.noise_from_rerun ? t.rerun_noise : "larger spread of the two runs") << "). "
     << count(verdict::regression) << " regression(s), " << count(verdict::missing) << " case(s) missing from "
     << t.candidate << (c.allow_missing ? " (allowed)" : "") << ": " << (c.failed() ? "FAIL" : "PASS") << "\n";
  return os.str();
}

std::string us_or_dash(double us) { return us > 0 ? fmt("%.2f", us) : "-"; }
}  // namespace

std::string markdown_comparison(const comparison& c) {
  std::ostringstream os;
  os << "| case | baseline (us) | candidate (us) | candidate / baseline | noise | verdict |\n"
     << "|---|---:|---:|---:|---:|---|\n";
  for (const comparison_row& r : c.rows)
    os << "| " << r.key << " | " << us_or_dash(r.baseline_us) << " | " << us_or_dash(r.candidate_us) << " | "
       << (r.ratio > 0 ? fmt("%.3f", r.ratio) : "-") << " | " << fmt("%.1f%%", 100 * r.noise) << " | "
       << to_string(r.outcome) << " |\n";
  os << "\n" << gate_line(c, {"Gate", "candidate / baseline", "|rerun / baseline - 1| from --noise", "the candidate"});
  return os.str();
}

// ---- across CCCL releases ------------------------------------------------------------------------------

namespace {
std::vector<result> of_impl(const std::vector<result>& all, const std::string& impl) {
  std::vector<result> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out), [&](const result& r) { return r.impl == impl; });
  return out;
}

//! CUB time / `impl`'s time for the case of `like` within one build; 0 when either is absent.
double ratio_in(const run& build, const result& like, const std::string& impl) {
  const result* r = find_impl(build.results, like, impl);
  return r ? ratio_to_reference(*r, build.results) : 0;
}

bool is_archscan_policy(const std::string& impl) { return impl.rfind("archscan::", 0) == 0; }
}  // namespace

release_comparison compare_releases(const run& old_build, const run& new_build, double threshold, const run* old_rerun,
                                    bool allow_missing) {
  release_comparison c;
  c.old_cccl = old_build.cccl;
  c.new_cccl = new_build.cccl;
  c.device   = old_build.device;

  const std::vector<result> old_cub = of_impl(old_build.results, reference_impl);
  const std::vector<result> new_cub = of_impl(new_build.results, reference_impl);
  if (old_cub.empty()) throw std::runtime_error("the old build's results hold no CUB case");
  std::vector<result> rerun_cub;
  if (old_rerun) rerun_cub = of_impl(old_rerun->results, reference_impl);
  c.gate = compare(old_cub, new_cub, threshold, old_rerun ? &rerun_cub : nullptr, allow_missing);

  if (old_build.cccl.empty() || new_build.cccl.empty())
    c.warnings.push_back("a file does not name its CCCL (written before archscan-bench recorded it?)");
  else if (old_build.cccl == new_build.cccl)
    c.warnings.push_back("both builds name " + old_build.cccl + ": two runs of one release, not two releases");
  if (!old_build.device.empty() && !new_build.device.empty() && old_build.device != new_build.device)
    c.warnings.push_back("the runs come from different devices (" + old_build.device + "; " + new_build.device +
                         "): the gate then compares machines as well as releases");
  if (old_rerun && old_rerun->cccl != old_build.cccl)
    c.warnings.push_back("the --noise run names " + (old_rerun->cccl.empty() ? "no CCCL" : old_rerun->cccl) +
                         ", the old build " + (old_build.cccl.empty() ? "none" : old_build.cccl) +
                         ": noise should come from a rerun of the old build");

  std::set<std::string> seen;
  for (const run* build : {&old_build, &new_build})
    for (const result& r : build->results)
      if (is_archscan_policy(r.impl) && seen.insert(r.impl).second) c.policies.push_back(r.impl);

  // Each gate row is one CUB case of either build; its result names the case's algorithm, type and n.
  std::map<std::string, const result*> cub_by_key;
  for (const auto* cubs : {&old_cub, &new_cub})
    for (const result& r : *cubs) cub_by_key.emplace(r.key(), &r);
  for (const comparison_row& row : c.gate.rows) {
    const result& cub = *cub_by_key.at(row.key);
    release_case rc{cub.algorithm, cub.type, cub.n, {}, {}};
    for (const std::string& p : c.policies) {
      rc.old_ratio.push_back(ratio_in(old_build, cub, p));
      rc.new_ratio.push_back(ratio_in(new_build, cub, p));
    }
    c.cases.push_back(std::move(rc));
  }
  return c;
}

std::string markdown_release_comparison(const release_comparison& c) {
  const auto name  = [](const std::string& cccl) { return cccl.empty() ? std::string("unknown CCCL") : cccl; };
  const auto ratio = [](double x) { return x > 0 ? fmt("%.3f", x) : std::string("-"); };
  std::ostringstream os;
  os << "## CUB across CCCL releases: " << name(c.old_cccl) << " (old) vs " << name(c.new_cccl) << " (new)\n\n"
     << "Device: " << (c.device.empty() ? "unknown" : c.device) << ". CUB new/old: CUB's time in the old build / "
     << "its time in the new build (> 1: the new release is faster); change: new / old time - 1, what the gate "
     << "tests. Policy columns: CUB time / policy time within the old build → within the new build (> 1: faster "
     << "than that build's CUB).\n\n";
  for (const std::string& w : c.warnings) os << "> warning: " << w << "\n\n";

  os << "| algorithm | type | n | CUB old (us) | CUB new (us) | CUB new/old | change | noise | verdict |";
  for (const std::string& p : c.policies) os << " " << p.substr(std::string("archscan::").size()) << " |";
  os << "\n|---|---|---:|---:|---:|---:|---:|---:|---|";
  for (std::size_t i = 0; i < c.policies.size(); ++i) os << "---:|";
  os << "\n";
  for (std::size_t i = 0; i < c.cases.size(); ++i) {
    const release_case& k   = c.cases[i];
    const comparison_row& g = c.gate.rows[i];
    const bool both         = g.baseline_us > 0 && g.candidate_us > 0;
    os << "| " << k.algorithm << " | " << k.type << " | " << size_label(k.n) << " | " << us_or_dash(g.baseline_us)
       << " | " << us_or_dash(g.candidate_us) << " | " << (both ? fmt("%.3f", g.baseline_us / g.candidate_us) : "-")
       << " | " << (both ? fmt("%+.1f%%", 100 * (g.ratio - 1)) : "-") << " | " << fmt("%.1f%%", 100 * g.noise) << " | "
       << to_string(g.outcome) << " |";
    for (std::size_t j = 0; j < c.policies.size(); ++j)
      os << " " << ratio(k.old_ratio[j]) << " → " << ratio(k.new_ratio[j]) << " |";
    os << "\n";
  }
  os << "\n"
     << gate_line(c.gate, {"Gate on CUB", "CUB's time new / old",
                           "|CUB rerun / old - 1| from --noise, a second run of the old build", "the new build"});
  return os.str();
}

// ---- repeated runs of two builds -----------------------------------------------------------------------

namespace {
//! One case over several runs of one build.
struct case_runs {
  result first;                 //!< the case as the first run that has it reports it
  std::vector<double> medians;  //!< each run's median, in run order (positive and finite only)
  double spread = 0;            //!< the largest of the runs' spreads
};

//! Every case of `runs`, in order of first appearance.
std::pair<std::vector<std::string>, std::map<std::string, case_runs>> gather(const std::vector<run>& runs) {
  std::vector<std::string> order;
  std::map<std::string, case_runs> by_key;
  for (const run& r : runs)
    for (const result& x : r.results) {
      const std::string k = x.key();
      auto it             = by_key.find(k);
      if (it == by_key.end()) {
        order.push_back(k);
        it = by_key.emplace(k, case_runs{x, {}, 0}).first;
      }
      if (x.median_us > 0 && std::isfinite(x.median_us)) {
        it->second.medians.push_back(x.median_us);
        it->second.spread = std::max(it->second.spread, x.spread);
      }
    }
  return {order, by_key};
}

//! max_i |x_i / median - 1|; `single` (the run's own spread) when fewer than two runs.
double spread_about(const std::vector<double>& xs, double median, double single) {
  if (xs.size() < 2) return single;
  double s = 0;
  for (double x : xs) s = std::max(s, std::fabs(x / median - 1));
  return s;
}

runs_geomean geomean_of(const std::string& impl, const std::vector<double>& ratios) {
  runs_geomean g{impl, ratios.size(), 0};
  if (ratios.empty()) return g;
  double logs = 0;
  for (double r : ratios) logs += std::log(r);
  g.ratio = std::exp(logs / static_cast<double>(ratios.size()));
  return g;
}

std::string runs_list(const std::vector<double>& us) {
  std::string s;
  for (std::size_t i = 0; i < us.size(); ++i) s += (i ? ", " : "") + fmt("%.2f", us[i]);
  return s.empty() ? "-" : s;
}

std::string signed_percent(double ratio) { return ratio > 0 ? fmt("%+.2f%%", 100 * (ratio - 1)) : "-"; }
}  // namespace

run median_run(const std::vector<run>& runs) {
  run out;
  if (runs.empty()) return out;
  out.cccl             = runs.front().cccl;
  out.device           = runs.front().device;
  out.context          = runs.front().context;
  out.context["runs"]  = std::to_string(runs.size());
  auto [order, by_key] = gather(runs);
  for (const std::string& k : order) {
    const case_runs& c = by_key.at(k);
    if (c.medians.empty()) continue;
    result r            = c.first;
    r.median_us         = median_of(c.medians);
    const auto [lo, hi] = std::minmax_element(c.medians.begin(), c.medians.end());
    r.spread            = std::max(c.spread, (*hi - *lo) / r.median_us);
    out.results.push_back(r);
  }
  return out;
}

runs_comparison compare_runs(const std::vector<run>& old_runs, const std::vector<run>& new_runs, double threshold,
                             bool allow_missing) {
  if (old_runs.empty() || new_runs.empty()) throw std::runtime_error("compare_runs: no old or no new run");
  runs_comparison c;
  c.old_runs                   = old_runs.size();
  c.new_runs                   = new_runs.size();
  c.gate.threshold             = threshold;
  c.gate.allow_missing         = allow_missing;
  c.gate.noise_from_rerun      = true;
  const auto [old_order, olds] = gather(old_runs);
  const auto [new_order, news] = gather(new_runs);

  std::vector<std::string> order = old_order;
  for (const std::string& k : new_order)
    if (!olds.count(k)) order.push_back(k);
  std::vector<std::string> impls;
  std::map<std::string, std::vector<double>> ratios;  // per implementation
  std::vector<double> all;
  for (const std::string& k : order) {
    comparison_row row;
    runs_case rc;
    row.key            = k;
    const auto o       = olds.find(k);
    const auto n       = news.find(k);
    const bool has_old = o != olds.end() && !o->second.medians.empty();
    const bool has_new = n != news.end() && !n->second.medians.empty();
    if (has_old) {
      rc.old_us       = o->second.medians;
      row.baseline_us = median_of(rc.old_us);
      rc.old_noise    = spread_about(rc.old_us, row.baseline_us, o->second.spread);
    }
    if (has_new) {
      rc.new_us        = n->second.medians;
      row.candidate_us = median_of(rc.new_us);
      rc.new_noise     = spread_about(rc.new_us, row.candidate_us, n->second.spread);
    }
    if (!has_new) {
      row.outcome = verdict::missing;
    } else if (!has_old) {
      row.outcome = verdict::added;
    } else {
      row.ratio               = row.candidate_us / row.baseline_us;
      row.noise               = std::max(rc.old_noise, rc.new_noise);
      row.outcome             = classify(row.ratio - 1, threshold, row.noise);
      const std::string& impl = o->second.first.impl;
      if (!ratios.count(impl)) impls.push_back(impl);
      ratios[impl].push_back(row.ratio);
      all.push_back(row.ratio);
    }
    c.gate.rows.push_back(row);
    c.cases.push_back(std::move(rc));
  }
  // CUB first: the control the others are read against.
  std::stable_partition(impls.begin(), impls.end(), [](const std::string& i) { return i == reference_impl; });
  for (const std::string& impl : impls) c.geomeans.push_back(geomean_of(impl, ratios[impl]));
  c.overall = geomean_of("all", all);
  c.control = geomean_of(reference_impl, ratios.count(reference_impl) ? ratios[reference_impl] : std::vector<double>{});
  return c;
}

std::string markdown_runs_comparison(const runs_comparison& c) {
  std::ostringstream os;
  os << "| case | old (us) | new (us) | new / old | noise | verdict | old runs (us) | new runs (us) |\n"
     << "|---|---:|---:|---:|---:|---|---|---|\n";
  for (std::size_t i = 0; i < c.gate.rows.size(); ++i) {
    const comparison_row& r = c.gate.rows[i];
    const runs_case& k      = c.cases[i];
    os << "| " << r.key << " | " << us_or_dash(r.baseline_us) << " | " << us_or_dash(r.candidate_us) << " | "
       << (r.ratio > 0 ? fmt("%.3f", r.ratio) : "-") << " | " << fmt("%.1f%%", 100 * r.noise) << " | "
       << to_string(r.outcome) << " | " << runs_list(k.old_us) << " (±" << fmt("%.1f%%", 100 * k.old_noise) << ") | "
       << runs_list(k.new_us) << " (±" << fmt("%.1f%%", 100 * k.new_noise) << ") |\n";
  }
  os << "\nGeometric mean of median new / median old time over the cases in both builds (" << c.old_runs
     << " old run(s), " << c.new_runs << " new run(s); > 1: the new build is slower):\n\n"
     << "| implementation | cases | geomean new / old | change |\n|---|---:|---:|---:|\n";
  for (const runs_geomean& g : c.geomeans)
    os << "| " << g.impl << (g.impl == reference_impl ? " (control)" : "") << " | " << g.cases << " | "
       << (g.ratio > 0 ? fmt("%.4f", g.ratio) : "-") << " | " << signed_percent(g.ratio) << " |\n";
  os << "| all | " << c.overall.cases << " | " << (c.overall.ratio > 0 ? fmt("%.4f", c.overall.ratio) : "-") << " | "
     << signed_percent(c.overall.ratio) << " |\n\n";
  if (c.control.cases)
    os << "Control: CUB is compiled from the same CCCL in both builds, so its geomean ("
       << signed_percent(c.control.ratio) << " over " << c.control.cases
       << " cases) is this session's drift between the old and the new slots, not a change of code; an "
          "implementation's geomean means a change only as far as it differs from CUB's.\n\n";
  else
    os << "Control: no CUB case in both builds, so the session's slot drift is unknown.\n\n";
  os << gate_line(c.gate,
                  {"Gate", "median new / median old",
                   "the larger of either build's max |run / its median - 1|; one run: its spread", "every new run"});
  return os.str();
}

}  // namespace archscan::perf::report
