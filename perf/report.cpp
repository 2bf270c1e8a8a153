#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace archscan::perf::report {

// ---- JSON ----------------------------------------------------------------------------------------------

const json* json::find(const std::string& key) const {
  const auto* o = std::get_if<object>(&v);
  if (!o) return nullptr;
  const auto it = o->find(key);
  return it == o->end() ? nullptr : &it->second;
}

namespace {

class parser {
 public:
  explicit parser(const std::string& t) : t_(t) {}

  json document() {
    json j = value();
    skip_ws();
    if (i_ != t_.size()) fail("trailing characters");
    return j;
  }

 private:
  const std::string& t_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i_));
  }
  void skip_ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }
  bool starts(const char* word) const { return t_.compare(i_, std::char_traits<char>::length(word), word) == 0; }
  bool take(const char* word) {
    if (!starts(word)) return false;
    i_ += std::char_traits<char>::length(word);
    return true;
  }

  json value() {
    skip_ws();
    if (i_ >= t_.size()) fail("unexpected end");
    const char c = t_[i_];
    if (c == '{') return json{object_()};
    if (c == '[') return json{array_()};
    if (c == '"') return json{string_()};
    if (take("true")) return json{true};
    if (take("false")) return json{false};
    if (take("null")) return json{nullptr};
    if (take("NaN") || take("nan") || take("-nan")) return json{std::numeric_limits<double>::quiet_NaN()};
    if (take("Infinity") || take("inf")) return json{std::numeric_limits<double>::infinity()};
    if (take("-Infinity") || take("-inf")) return json{-std::numeric_limits<double>::infinity()};
    return json{number()};
  }

  json::object object_() {
    json::object o;
    ++i_;  // {
    skip_ws();
    if (i_ < t_.size() && t_[i_] == '}') return ++i_, o;
    for (;;) {
      skip_ws();
      if (i_ >= t_.size() || t_[i_] != '"') fail("expected a member name");
      std::string k = string_();
      skip_ws();
      if (i_ >= t_.size() || t_[i_] != ':') fail("expected ':'");
      ++i_;
      o[std::move(k)] = value();
      skip_ws();
      if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
      if (i_ < t_.size() && t_[i_] == '}') { ++i_; return o; }
      fail("expected ',' or '}'");
    }
  }

  json::array array_() {
    json::array a;
    ++i_;  // [
    skip_ws();
    if (i_ < t_.size() && t_[i_] == ']') return ++i_, a;
    for (;;) {
      a.push_back(value());
      skip_ws();
      if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
      if (i_ < t_.size() && t_[i_] == ']') { ++i_; return a; }
      fail("expected ',' or ']'");
    }
  }

  static void append_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) s += static_cast<char>(cp);
    else if (cp < 0x800) s += static_cast<char>(0xc0 | (cp >> 6)), s += static_cast<char>(0x80 | (cp & 0x3f));
    else {
      s += static_cast<char>(0xe0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  std::string string_() {
    std::string s;
    ++i_;  // "
    while (i_ < t_.size() && t_[i_] != '"') {
      char c = t_[i_++];
      if (c != '\\') { s += c; continue; }
      if (i_ >= t_.size()) fail("unterminated escape");
      c = t_[i_++];
      switch (c) {
        case '"': case '\\': case '/': s += c; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          if (i_ + 4 > t_.size()) fail("short \\u escape");
          append_utf8(s, static_cast<unsigned>(std::stoul(t_.substr(i_, 4), nullptr, 16)));  // BMP only
          i_ += 4;
          break;
        }
        default: fail("bad escape");
      }
    }
    if (i_ >= t_.size()) fail("unterminated string");
    ++i_;
    return s;
  }

  double number() {
    const char* begin = t_.c_str() + i_;
    char* end         = nullptr;
    const double d    = std::strtod(begin, &end);
    if (end == begin) fail("expected a value");
    i_ += static_cast<std::size_t>(end - begin);
    return d;
  }
};

double number_or(const json& j, const std::string& key, double fallback) {
  const json* m = j.find(key);
  return m && m->is_number() ? std::get<double>(m->v) : fallback;
}

std::string string_or(const json& j, const std::string& key, const std::string& fallback) {
  const json* m = j.find(key);
  return m && m->is_string() ? std::get<std::string>(m->v) : fallback;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == sep) parts.push_back(cur), cur.clear();
    else cur += c;
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

json parse_json(const std::string& text) { return parser(text).document(); }

// ---- results -------------------------------------------------------------------------------------------

std::string result::case_key() const { return algorithm + "/" + type + "/" + std::to_string(n); }
std::string result::key() const { return case_key() + "/" + impl; }

std::vector<result> parse_results(const std::string& json_text) {
  const json doc         = parse_json(json_text);
  const json* benchmarks = doc.find("benchmarks");
  if (!benchmarks || !benchmarks->is_array()) throw std::runtime_error("no \"benchmarks\" array in the results");
  const double context_copy = doc.find("context") ? number_or(*doc.find("context"), "copy_GBps", 0) : 0;

  struct merged {
    result first;
    std::vector<double> medians;
    double spread = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, merged> by_key;
  for (const json& b : std::get<json::array>(benchmarks->v)) {
    if (string_or(b, "run_type", "iteration") != "iteration") continue;
    const json* err = b.find("error_occurred");
    if (err && std::holds_alternative<bool>(err->v) && std::get<bool>(err->v)) continue;
    const std::string name = string_or(b, "run_name", string_or(b, "name", ""));
    const auto parts        = split(name, '/');
    if (parts.size() < 4) continue;  // not an archscan-bench case (e.g. a user's own benchmark)
    result r;
    r.algorithm = parts[0];
    r.type      = parts[1];
    r.n         = static_cast<std::uint64_t>(std::strtoull(parts[2].c_str(), nullptr, 10));
    r.impl      = parts[3];
    r.median_us = number_or(b, "median_us", -1);
    if (r.median_us < 0) {  // no counter: fall back on Google Benchmark's own (mean) time
      const std::string unit = string_or(b, "time_unit", "ns");
      const double scale = unit == "ns" ? 1e-3 : unit == "us" ? 1 : unit == "ms" ? 1e3 : unit == "s" ? 1e6 : 1e-3;
      r.median_us        = number_or(b, "real_time", 0) * scale;
    }
    r.spread    = number_or(b, "spread", 0);
    r.bytes     = number_or(b, "bytes", 0);
    r.copy_GBps = number_or(b, "copy_GBps", context_copy);
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
    merged& m          = by_key.at(k);
    result r           = m.first;
    r.median_us        = median_of(m.medians);
    const auto [lo, hi] = std::minmax_element(m.medians.begin(), m.medians.end());
    const double range = r.median_us > 0 ? (*hi - *lo) / r.median_us : 0;
    r.spread           = std::max(m.spread, range);
    out.push_back(r);
  }
  return out;
}

std::vector<result> load_results(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_results(ss.str());
}

double ratio_to_reference(const result& r, const std::vector<result>& all) {
  for (const result& c : all)
    if (c.impl == reference_impl && c.algorithm == r.algorithm && c.type == r.type && c.n == r.n)
      return r.median_us > 0 ? c.median_us / r.median_us : 0;
  return 0;
}

std::string markdown_table(const std::vector<result>& results) {
  std::ostringstream os;
  os << "| algorithm | type | n | implementation | median (us) | Gitems/s | GB/s | of copy BW | ratio to CUB | spread |\n"
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
    case verdict::unchanged: return "unchanged";
    case verdict::faster: return "faster";
    case verdict::slower: return "slower (within noise)";
    case verdict::regression: return "REGRESSION";
    case verdict::missing: return "missing in candidate";
    case verdict::added: return "new in candidate";
  }
  return "?";
}

bool comparison::failed() const {
  return std::any_of(rows.begin(), rows.end(), [&](const comparison_row& r) {
    return r.outcome == verdict::regression || (r.outcome == verdict::missing && !allow_missing);
  });
}

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
    const double allowed = threshold + row.noise;
    const double change  = row.ratio - 1;
    row.outcome = change > allowed ? verdict::regression
                : change > 0       ? (change > threshold ? verdict::slower : verdict::unchanged)
                : -change > allowed ? verdict::faster
                                    : verdict::unchanged;
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

std::string markdown_comparison(const comparison& c) {
  std::ostringstream os;
  os << "| case | baseline (us) | candidate (us) | candidate / baseline | noise | verdict |\n"
     << "|---|---:|---:|---:|---:|---|\n";
  std::size_t regressions = 0, missing = 0;
  for (const comparison_row& r : c.rows) {
    regressions += r.outcome == verdict::regression;
    missing += r.outcome == verdict::missing;
    os << "| " << r.key << " | " << (r.baseline_us > 0 ? fmt("%.2f", r.baseline_us) : "-") << " | "
       << (r.candidate_us > 0 ? fmt("%.2f", r.candidate_us) : "-") << " | "
       << (r.ratio > 0 ? fmt("%.3f", r.ratio) : "-") << " | " << fmt("%.1f%%", 100 * r.noise) << " | "
       << to_string(r.outcome) << " |\n";
  }
  os << "\nGate: a case fails when candidate / baseline - 1 > threshold (" << fmt("%.1f%%", 100 * c.threshold)
     << ") + noise (" << (c.noise_from_rerun ? "|rerun / baseline - 1| from --noise" : "larger spread of the two runs")
     << "). " << regressions << " regression(s), " << missing << " case(s) missing from the candidate"
     << (c.allow_missing ? " (allowed)" : "") << ": " << (c.failed() ? "FAIL" : "PASS") << "\n";
  return os.str();
}

}  // namespace archscan::perf::report
