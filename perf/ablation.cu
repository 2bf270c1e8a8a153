//! \file archscan-ablation: each family's ablated tunings against the family's own, in the same run.
//!
//! perf/ablations_<family>.cuh (written with each family) defines `<family>_ablations`, a std::tuple whose
//! first entry is the family's tuning (the baseline) and whose others each switch one design choice off
//! and name it in `ablation`. For each, this runs exclusive sums of int32, float, int64 and double at
//! 2^14, 2^20 and 2^24..2^28 through `archscan::policy<Tuning>`, checks the result against CUB, and prints
//! the median time and ratio = baseline time / ablated time (< 1: the ablated variant is slower, i.e.
//! the choice it removes pays off). Median of 25 calls, 3 warm-up, cold L2.
//! A family whose header is absent or whose dispatch has not landed is reported and skipped.
//! Exit status: 0, 1 on a mismatch or error, 2 without a GPU.

#include <cstdio>
#include <exception>
#include <string>
#include <tuple>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

#if __has_include("ablations_kepler.cuh")
#include "ablations_kepler.cuh"
#define ARCHSCAN_PERF_HAVE_KEPLER_ABLATIONS 1
#endif
#if __has_include("ablations_turing.cuh")
#include "ablations_turing.cuh"
#define ARCHSCAN_PERF_HAVE_TURING_ABLATIONS 1
#endif

namespace {
using namespace archscan::perf;

constexpr int log2_sizes[] = {14, 20, 24, 25, 26, 27, 28};
constexpr int warmup_calls = 3;
constexpr int timed_calls  = 25;

//! Has a member `ablation`?
template <class T, class = void>
struct has_ablation : std::false_type {};
template <class T>
struct has_ablation<T, std::void_t<decltype(T::ablation)>> : std::true_type {};

//! What `Tuning` switches off, or "baseline" for the family's own tuning.
template <class Tuning>
const char* ablation_name() {
  if constexpr (has_ablation<Tuning>::value)
    return Tuning::ablation;
  else
    return "baseline (the family's tuning)";
}

template <class T, class... Tunings>
bool run_type(const char* family, cudaStream_t s, l2_flusher& flusher) {
  bool ok = true;
  for (int lg : log2_sizes) {
    const std::size_t n = std::size_t{1} << lg;
    device_buffer<T> in(n), out(n), ref(n);
    fill_random(in.get(), n, 0xab1a7e00u ^ n, s);
    cub_call{[&](void* d_temp, std::size_t& bytes) {  // the reference
      return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s);
    }}();

    double baseline_ms = 0;
    auto one           = [&](auto tuning_tag) {
      using tuning = typename decltype(tuning_tag)::type;
      const archscan::policy<tuning> policy{};
      auto call = [&] { thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, out.get()); };
      call();
      const mismatch_report m = compare(out.get(), ref.get(), n, s);
      const double ms         = median(time_calls(s, flusher, false, warmup_calls, timed_calls, call));
      if (baseline_ms == 0) baseline_ms = ms;  // the tuple's first entry
      const char* what = ablation_name<tuning>();
      std::printf("| %s | %s | 2^%d | %s | %.2f | %.1f | %.3f |%s\n", family, value_type_name<T>(), lg, what, ms * 1e3,
                            2.0 * static_cast<double>(n * sizeof(T)) / (ms * 1e-3) / 1e9, baseline_ms / ms,
                  m.count ? " MISMATCH" : "");
      if (m.count) {
        std::fprintf(stderr, "MISMATCH: %s %s %s n=2^%d: %llu items differ from CUB, first at %llu\n", family, what,
                               value_type_name<T>(), lg, m.count, m.first);
        ok = false;
      }
    };
    (one(std::common_type<Tunings>{}), ...);
  }
  return ok;
}

template <class... Tunings>
bool run_family(const char* family, std::tuple<Tunings...>*, cudaStream_t s, l2_flusher& flusher) {
  using baseline = std::tuple_element_t<0, std::tuple<Tunings...>>;
  if constexpr (!family_ready<baseline>) {
    std::printf("\n%s: the family's dispatch has not landed; skipped.\n", family);
    return true;
  } else {
    std::printf(
        "\n## %s\n\n| family | type | n | variant | median (us) | GB/s | baseline time / time |\n"
        "|---|---|---:|---|---:|---:|---:|\n",
        family);
    bool ok = run_type<std::int32_t, Tunings...>(family, s, flusher);
    ok &= run_type<float, Tunings...>(family, s, flusher);
    ok &= run_type<std::int64_t, Tunings...>(family, s, flusher);
    ok &= run_type<double, Tunings...>(family, s, flusher);
    return ok;
  }
}

}  // namespace

int main() {
  return run_program("archscan-ablation", [&](const cudaDeviceProp& prop) {
    std::printf(
        "# Ablations\n\nDevice: %s; %s. Exclusive sums; median of %d calls after %d warm-up, cold L2; "
        "GB/s = 2 n sizeof(T) / time; last column < 1: the ablated variant is slower than the family's "
        "tuning, measured in the same run.\n",
        prop.name, version_line().c_str(), timed_calls, warmup_calls);
    stream_handle stream;
    l2_flusher flusher(prop);
    bool ok = true;
#ifdef ARCHSCAN_PERF_HAVE_KEPLER_ABLATIONS
    ok &= run_family("kepler", static_cast<kepler_ablations*>(nullptr), stream.get(), flusher);
#else
    std::printf("\nkepler: perf/ablations_kepler.cuh is absent; skipped.\n");
#endif
#ifdef ARCHSCAN_PERF_HAVE_TURING_ABLATIONS
    ok &= run_family("turing", static_cast<turing_ablations*>(nullptr), stream.get(), flusher);
#else
    std::printf("\nturing: perf/ablations_turing.cuh is absent; skipped.\n");
#endif
    return ok;
  });
}
