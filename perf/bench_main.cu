//! \file archscan-bench: every scan algorithm x value type x size x implementation, on Google Benchmark
//! with manual timing by CUDA events.
//!
//!   archscan-bench [--quick] [--hot] [--reps N] [--key-run N] [--sizes N,N,...] [--markdown FILE]
//!                  [--summary FILE] [--meta]
//!                  [Google Benchmark flags: --benchmark_out=FILE.json --benchmark_out_format=json
//!                   --benchmark_filter=REGEX ...]
//!
//! Statistics: each case runs `reps` Google Benchmark iterations of one timed call (after `warmup`
//! untimed calls); the reported time is our own median of those calls (counter `median_us`), with the
//! spread (q3 - q1) / median. We do not use --benchmark_repetitions: one run with many iterations per
//! case gives the median at a fraction of the cost, and the budget goes to covering every axis.
//! Budget: full = every power of two 2^10..2^30 that fits, 15 timed calls + 2 warm-up per case;
//! --quick = 2^12, 2^20, 2^26 with 5 timed calls + 1 warm-up. --sizes = these item counts instead of
//! 2^10..2^30 (a probe's sizes between powers of two).
//! Which scans a build measures is chosen at configure time (ARCHSCAN_BENCH_SCANS in perf/CMakeLists.txt);
//! case names do not depend on it, nor on the CCCL release, so results of different builds line up.
//! The JSON context records the CCCL release (`cccl`: "cccl 3.5.0", `CCCL_VERSION`, `CUB_VERSION`).
//! By-key inputs are runs of --key-run equal keys (default 100: not a power of two, so runs straddle
//! tiles anywhere; the JSON context records it, case names do not).
//! Exit status: 0 all cases ran and matched CUB, 1 a mismatch or CUDA error, 2 no GPU or a bad flag.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench.cuh"

namespace archscan::perf::bench {

settings& config() {
  static settings s;
  return s;
}
cudaStream_t stream() {
  static stream_handle s;
  return s.get();
}
l2_flusher& flusher() {
  static l2_flusher f(config().prop);
  return f;
}
std::vector<report::result>& recorded() {
  static std::vector<report::result> r;
  return r;
}
std::map<std::string, double>& cub_medians() {
  static std::map<std::string, double> m;
  return m;
}
bool& failed() {
  static bool f = false;
  return f;
}
case_slot& slot() {
  static case_slot s;
  return s;
}
std::map<int, register_fn>& registry() {
  static std::map<int, register_fn> r;
  return r;
}
registrar::registrar(int rank, register_fn f) {
  if (!registry().emplace(rank, f).second) {
    std::fprintf(stderr, "archscan-bench: two translation units register at rank %d\n", rank);
    std::abort();
  }
}

namespace {
__global__ void keys_kernel(key_type* keys, std::size_t n, std::size_t key_run) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    keys[i] = static_cast<key_type>(i / key_run);
}
}  // namespace

void fill_keys(key_type* keys, std::size_t n, cudaStream_t s) {
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
  keys_kernel<<<blocks, 256, 0, s>>>(keys, n, config().key_run);
  check_launch("keys_kernel");
}

}  // namespace archscan::perf::bench

namespace {

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace archscan::perf;
  using namespace archscan::perf::bench;

  // Our flags first; the rest goes to Google Benchmark.
  bool quick = false, meta = false;
  int reps = -1;
  std::string markdown_path, summary_path, sizes;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value          = [&](const char* flag) -> const char* {
      const std::size_t len = std::strlen(flag);
      if (a.compare(0, len, flag) == 0 && a.size() > len && a[len] == '=') return argv[i] + len + 1;
      if (a == flag && i + 1 < argc) return argv[++i];
      return nullptr;
    };
    const char* v = nullptr;
    if (a == "--quick")
      quick = true;
    else if (a == "--hot")
      config().hot = true;
    else if (a == "--meta")
      meta = true;
    else if ((v = value("--reps")))
      reps = std::atoi(v);
    else if ((v = value("--key-run")))
      config().key_run = static_cast<std::size_t>(std::max(1LL, std::atoll(v)));
    else if ((v = value("--markdown")))
      markdown_path = v;
    else if ((v = value("--summary")))
      summary_path = v;
    else if ((v = value("--sizes")))
      sizes = v;
    else
      rest.push_back(argv[i]);
  }

  const cudaDeviceProp prop = require_gpu("archscan-bench");
  try {
    if (meta) {  // for run_full.sh's meta file
      std::printf("gpu: %s (sm_%d%d, %d SMs, %d MB L2, %.1f GB)\nversions: %s\n", prop.name, prop.major, prop.minor,
                  prop.multiProcessorCount, prop.l2CacheSize >> 20, static_cast<double>(prop.totalGlobalMem) / 1e9,
                  version_line().c_str());
      return 0;
    }
    settings& cfg = config();
    cfg.prop      = prop;
    cfg.warmup    = quick ? 1 : 2;
    cfg.reps      = reps > 0 ? reps : quick ? 5 : 15;
    if (!sizes.empty()) {  // item counts, comma-separated: a probe's sizes between powers of two
      for (std::size_t at = 0; at < sizes.size();) {
        const std::size_t comma = std::min(sizes.find(',', at), sizes.size());
        cfg.sizes.push_back(static_cast<std::size_t>(std::stoull(sizes.substr(at, comma - at))));
        at = comma + 1;
      }
    } else {
      for (int lg = 10; lg <= 30; ++lg) {
        if (!quick || lg == 12 || lg == 20 || lg == 26) cfg.sizes.push_back(std::size_t{1} << lg);
      }
    }
    const auto [free_b, total_b] = device_memory();
    (void)total_b;
    // Headroom for the L2 flush buffer, Thrust's and CUB's temporary storage and the copy measurement.
    cfg.usable_bytes = free_b > (std::size_t{3} << 30) ? free_b - (std::size_t{3} << 30) : free_b / 2;
    {
      const std::size_t copy_bytes = std::min<std::size_t>(std::size_t{1} << 30, free_b / 4);
      cfg.copy_GBps                = measure_copy_bandwidth(stream(), copy_bytes);
    }

    benchmark::AddCustomContext("device", prop.name);
    benchmark::AddCustomContext("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
    benchmark::AddCustomContext("versions", version_line());
    // The CCCL this binary was compiled with: archscan-compare --cccl names each build by `cccl` and
    // checks that the two files come from different releases; the raw macros make the file traceable.
    benchmark::AddCustomContext("cccl", "cccl " + cccl_version());
    benchmark::AddCustomContext("CCCL_VERSION", std::to_string(CCCL_VERSION));
    benchmark::AddCustomContext("CUB_VERSION", std::to_string(CUB_VERSION));
    benchmark::AddCustomContext("copy_GBps", std::to_string(cfg.copy_GBps));
    benchmark::AddCustomContext("key_run", std::to_string(cfg.key_run));
    benchmark::AddCustomContext("l2_cache", cfg.hot ? "hot (not flushed)" : "cold (flushed before each timed call)");
    benchmark::AddCustomContext("method", "CUDA events per call; median of " + std::to_string(cfg.reps) +
                                              " timed calls after " + std::to_string(cfg.warmup) + " warm-up");
    std::fprintf(stderr, "archscan-bench: %s; %s; copy bandwidth %.1f GB/s (read + write); L2 %s; %d timed calls\n",
                 prop.name, version_line().c_str(), cfg.copy_GBps, cfg.hot ? "hot" : "cold", cfg.reps);

    for (const auto& [rank, register_cases] : registry()) register_cases();

    int bargc = static_cast<int>(rest.size());
    benchmark::Initialize(&bargc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(bargc, rest.data())) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    slot().data.reset();

    const std::string table   = report::markdown_table(recorded());
    const std::string summary = report::summary_table(recorded());
    const std::string header  = std::string("Device: ") + prop.name + "; " + version_line() +
                               "; device-to-device copy " + std::to_string(static_cast<int>(cfg.copy_GBps)) +
                               " GB/s; L2 " + (cfg.hot ? "hot" : "cold") + "\n\n";
    if (!markdown_path.empty() && !write_file(markdown_path, header + table))
      throw std::runtime_error("cannot write " + markdown_path);
    if (!summary_path.empty() && !write_file(summary_path, header + summary))
      throw std::runtime_error("cannot write " + summary_path);
    if (failed()) {
      std::fprintf(stderr, "archscan-bench: FAILED: a result differs from CUB's or a CUDA call failed (see above)\n");
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "archscan-bench: error: %s\n", e.what());
    return 1;
  }
}
