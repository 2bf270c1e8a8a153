#pragma once
//! \file Pure host C++ (no CUDA): benchmark results, their JSON, markdown tables and the regression
//! gate of archscan-compare. Unit-tested without a GPU (test/perf/report_test.cpp).
//!
//! A result is one case: (algorithm, type, n, implementation). archscan-bench names its Google
//! Benchmark runs "algorithm/type/n/implementation" (Google Benchmark appends "/iterations:R/
//! manual_time") and stores its own statistics as counters: `median_us` (median per-call time),
//! `spread` (relative interquartile range of the per-call times: (q3 - q1) / median), `bytes`
//! (bytes that must move), `copy_GBps` (device-to-device copy bandwidth measured in the same run).
//!
//! Results are read from either of two JSON forms (nlohmann::json, kept out of this header):
//! - Google Benchmark's own output (`--benchmark_out`), the full record of a run (~4 MB for every
//!   axis): a run artifact, never committed;
//! - the compact form that compact_json() writes (`archscan-compare --compact`): per case its median,
//!   spread, GB/s, bytes and ratio to CUB, plus the run's context; what perf/baselines/<gpu>/ commits
//!   (bench_medians.json), and a baseline archscan-compare accepts like the full form.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace archscan::perf::report {

// ---- results -------------------------------------------------------------------------------------------

//! One measured case.
struct result {
  std::string algorithm;  //!< "exclusive_scan", "inclusive_scan", "exclusive_scan_by_key", "transform_inclusive_scan"
  std::string type;       //!< "int8", "int32", "int64", "float", "double", "mat2x2"
  std::uint64_t n = 0;    //!< items
  std::string impl;       //!< "cub", "archscan::turing", "thrust::cuda::par", ...
  double median_us = 0;   //!< median time per call
  double spread    = 0;   //!< relative interquartile range of the per-call times
  double bytes     = 0;   //!< bytes that must move per call
  double copy_GBps = 0;   //!< device-to-device copy bandwidth of the same run (0: unknown)

  double gbps() const { return median_us > 0 ? bytes / (median_us * 1e-6) / 1e9 : 0; }
  double items_per_s() const { return median_us > 0 ? static_cast<double>(n) / (median_us * 1e-6) : 0; }
  double copy_fraction() const { return copy_GBps > 0 ? gbps() / copy_GBps : 0; }
  //! "algorithm/type/n": the case without its implementation.
  std::string case_key() const;
  //! "algorithm/type/n/impl".
  std::string key() const;
};

//! The implementation every ratio is taken against.
inline const std::string reference_impl = "cub";
//! CUB's call followed by cudaStreamSynchronize: what a blocking policy's call also includes.
inline const std::string reference_sync_impl = "cub+sync";
//! A device-to-device cudaMemcpyAsync of the output's bytes on the same stream: the launch floor of a
//! small call and the bandwidth limit of a large one, measured beside every case.
inline const std::string copy_impl = "memcpy";

//! Results of one JSON document: Google Benchmark's output of archscan-bench, or the compact form.
//! Throws std::runtime_error when the text is not JSON or is neither form. Of Google Benchmark's output,
//! runs with errors and aggregate rows are left out; repeated runs of one case (--benchmark_repetitions)
//! are merged: the median of their medians, and the largest of their spreads and of the relative range
//! of medians. The bare tokens NaN, Infinity and -Infinity that Google Benchmark writes for non-finite
//! counters (not JSON) are read as those numbers.
std::vector<result> parse_results(const std::string& json_text);
//! parse_results of a file's content; throws std::runtime_error when it cannot be read.
std::vector<result> load_results(const std::string& path);

//! One archscan-bench results file: its cases and what they were measured with (from the context).
struct run {
  std::string cccl;    //!< "cccl 3.5.0": context `cccl`, else the CCCL named in `versions`; "" when neither
  std::string device;  //!< context `device`; "" when absent
  //! Every member of the context that is a string, number or boolean, as text (numbers as JSON writes
  //! them): date, device, versions, copy_GBps, method, ...
  std::map<std::string, std::string> context;
  std::vector<result> results;
};
//! parse_results of the document, with its context.
run parse_run(const std::string& json_text);
//! parse_run of a file's content; throws std::runtime_error when it cannot be read.
run load_run(const std::string& path);

//! CUB's time / this time for the same case in `all` (> 1: faster than CUB); 0 when CUB is absent.
double ratio_to_reference(const result& r, const std::vector<result>& all);

// ---- the compact form ----------------------------------------------------------------------------------

//! The value of the compact form's `format` member.
inline const std::string compact_format = "archscan-bench medians 1";

//! The run in compact form: `format`, `context` (date, device, compute capability, CCCL, versions, copy
//! bandwidth, L2 protocol and method, where the run names them) and `cases`: "algorithm/type/n/impl" ->
//! {median_us, spread, GBps, ratio_to_cub (where CUB ran in the same run), bytes}, in run order, one line
//! per case so that two runs diff case by case. Times, spreads and rates keep 6 significant digits.
//! parse_run reads it back to the same results (to those digits); it is ~150 bytes a case (every axis
//! of archscan-bench, 5,040 cases: 0.76 MB, against 4.4 MB of Google Benchmark JSON).
std::string compact_json(const run& r);

//! Every result as one markdown table, in the given order.
std::string markdown_table(const std::vector<result>& results);
//! For each (algorithm, type), the results at its largest n: GB/s, fraction of copy bandwidth, ratio to CUB.
std::string summary_table(const std::vector<result>& results);

// ---- comparison and regression gate --------------------------------------------------------------------

enum class verdict {
  unchanged,   //!< within threshold + noise either way
  faster,      //!< faster beyond threshold + noise
  slower,      //!< slower, but within threshold + noise
  regression,  //!< slower beyond threshold + noise: fails the gate
  missing,     //!< in the baseline only (the candidate lost a case)
  added,       //!< in the candidate only
};
const char* to_string(verdict v);

struct comparison_row {
  std::string key;
  double baseline_us  = 0;
  double candidate_us = 0;
  double ratio        = 0;  //!< candidate / baseline (> 1: slower)
  double noise        = 0;  //!< relative noise allowed on top of the threshold
  verdict outcome     = verdict::unchanged;
};

struct comparison {
  std::vector<comparison_row> rows;
  double threshold      = 0;
  bool noise_from_rerun = false;
  bool allow_missing    = false;  //!< a case absent from the candidate (e.g. it errored) does not fail
  //! True when some case is a regression, or is missing from the candidate unless allowed:
  //! archscan-compare then exits non-zero.
  bool failed() const;
};

//! Compares `candidate` with `baseline` case by case. A case is a regression when
//! candidate / baseline - 1 > threshold + noise, where noise is |rerun / baseline - 1| when `rerun` (a
//! second run of the baseline build) holds the case, else the larger of the two runs' spreads.
comparison compare(const std::vector<result>& baseline, const std::vector<result>& candidate, double threshold,
                   const std::vector<result>* rerun = nullptr, bool allow_missing = false);

//! The comparison as a markdown table plus a one-line verdict.
std::string markdown_comparison(const comparison& c);

// ---- repeated runs of two builds -----------------------------------------------------------------------
// Two builds run in rounds, interleaved in one session (perf/revision_ab.sh: old, new, old, new, ...). Per
// case the gate takes the median over each build's runs (of the runs' medians) and, as noise, how far that
// build's own runs strayed from their median: what one build does from slot to slot is the noise a change
// must beat. CUB, compiled identically in both builds, is the control: its geometric mean of new / old is
// the session's drift between the slots.

//! Per case over `runs` (several runs of one build): the median of the runs' medians (runs without the case
//! or with no positive, finite median for it are left out); spread the larger of the runs' spreads and of
//! their medians' range relative to that median, as parse_results merges repetitions; bytes and copy
//! bandwidth of the first run that has the case. Cases in order of first appearance; the context of the first
//! run, plus `runs` (how many runs). Its compact form is old_medians.json / new_medians.json of revision_ab.sh.
run median_run(const std::vector<run>& runs);

//! One case's runs in a runs_comparison.
struct runs_case {
  std::vector<double> old_us;  //!< median of each old run that has the case, in run order
  std::vector<double> new_us;  //!< the same of the new runs
  double old_noise = 0;        //!< max_i |old_us[i] / median - 1|; that run's spread when only one run has it
  double new_noise = 0;        //!< the same of the new runs
};

//! Geometric mean of median new / median old time over one implementation's cases in both builds.
struct runs_geomean {
  std::string impl;       //!< "cub", "archscan::<policy>", ...; "all" for every case
  std::size_t cases = 0;  //!< cases in both builds
  double ratio      = 0;  //!< > 1: the new build is slower; 0 when no case
};

struct runs_comparison {
  comparison gate;  //!< baseline = median of the old runs, candidate = of the new; noise =
                    //!< max(old_noise, new_noise); rows[i] is cases[i]
  std::vector<runs_case> cases;
  std::size_t old_runs = 0, new_runs = 0;
  std::vector<runs_geomean> geomeans;  //!< per implementation in order of first appearance (CUB first when present)
  runs_geomean overall;                //!< over every case in both builds
  runs_geomean control;                //!< CUB's (identical code in both builds: the slot drift); cases 0 when absent
  bool failed() const { return gate.failed(); }
};

//! The gate over repeated runs: per case median_new / median_old - 1 > threshold + noise is a regression,
//! noise = the larger of the two builds' spreads about their medians (runs_case). A case in no new run is
//! missing (fails unless allowed), one in no old run added. Throws std::runtime_error when either list is empty.
runs_comparison compare_runs(const std::vector<run>& old_runs, const std::vector<run>& new_runs, double threshold,
                             bool allow_missing = false);

//! The comparison as markdown: one row per case (medians, ratio, noise, verdict, then each build's runs), the
//! geometric means with CUB as the control, and the gate's one-line verdict last.
std::string markdown_runs_comparison(const runs_comparison& c);

// ---- across CCCL releases ------------------------------------------------------------------------------
// Two builds of archscan-bench that differ only in the CCCL they were compiled with, run on one machine in
// one session. The gate applies to CUB itself (did the new release slow cub::DeviceScan down?); each
// archscan policy is shown against the CUB of its own build.

//! One case (algorithm, type, n) of a cross-release comparison.
struct release_case {
  std::string algorithm;
  std::string type;
  std::uint64_t n = 0;
  std::vector<double>
      old_ratio;  //!< per release_comparison::policies: CUB time / policy time in the old build (0: absent)
  std::vector<double> new_ratio;  //!< the same within the new build
};

struct release_comparison {
  std::string old_cccl, new_cccl;     //!< run::cccl of each build
  std::string device;                 //!< the old run's device
  std::vector<std::string> warnings;  //!< why the two files may not make a fair comparison
  comparison gate;                    //!< CUB of the new build against CUB of the old; rows[i] is cases[i]
  std::vector<std::string> policies;  //!< archscan policies of either build, in the order first seen
  std::vector<release_case> cases;
  //! True when CUB regressed in some case, or a case is missing from the new build unless allowed.
  bool failed() const { return gate.failed(); }
};

//! Compares CUB across two builds with the gate of compare() (threshold + noise; the noise from
//! `old_rerun`, a second run of the old build in the same session, when given) and collects each
//! archscan policy's ratio to CUB within each build. Throws std::runtime_error when the old run has no
//! CUB results. Warns (release_comparison::warnings) when both runs name the same CCCL, when their
//! devices differ, or when the rerun names another CCCL than the old build.
release_comparison compare_releases(const run& old_build, const run& new_build, double threshold,
                                    const run* old_rerun = nullptr, bool allow_missing = false);

//! The cross-release comparison as markdown: a header naming both releases, one row per case (CUB's times,
//! new/old speed, change in time, noise, verdict; each policy's ratio to CUB in the old and new build) and
//! the gate's one-line verdict last.
std::string markdown_release_comparison(const release_comparison& c);

}  // namespace archscan::perf::report
