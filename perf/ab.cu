//! \file archscan-ab: the README's main job. Exclusive sums of int32 and double at a few sizes, every
//! archscan policy against cub::DeviceScan::ExclusiveSum and thrust::cuda::par, one markdown table.
//!
//! Method: same random inputs (nonzero) for every implementation; CUB's result is the reference
//! (int32 bitwise, double within a relative 1e-9); 3 warm-up calls, then the median of 25 timed calls
//! (CUDA events on one stream), each after an L2 flush. Ratio = CUB time / implementation time
//! (> 1: faster than CUB). Exit status: 0 all match, 1 a mismatch or CUDA error, 2 no GPU.

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

namespace {
using namespace archscan::perf;

constexpr int warmup_calls = 3;
constexpr int timed_calls  = 25;
constexpr int log2_sizes[] = {10, 16, 20, 24, 28};

struct row {
  std::string impl, type;
  std::size_t n;
  double us;
  bool ok;
};

template <class T>
const char* type_name() {
  return std::is_same_v<T, int> ? "int32" : "double";
}

constexpr const char* cub_name      = "cub::DeviceScan::ExclusiveSum";
constexpr const char* cub_sync_name = "cub::DeviceScan::ExclusiveSum + cudaStreamSynchronize";

//! Measures every implementation for one type and size; appends to `rows`; returns false on mismatch.
template <class T>
bool run_case(std::size_t n, cudaStream_t s, l2_flusher& flusher, std::vector<row>& rows) {
  device_buffer<T> in(n), out(n), ref(n);
  fill_random(in.get(), n, 0x5eed0000 + n, s);

  T* cub_out = ref.get();  // the reference first, then the timed calls' output
  const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), cub_out, static_cast<std::int64_t>(n), s);
  });
  cub_scan();
  cub_out = out.get();
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");

  bool all_ok  = true;
  auto measure = [&](const std::string& name, auto&& call) {
    check(cudaMemsetAsync(out.get(), 0, n * sizeof(T), s), "cudaMemsetAsync");
    call();
    const mismatch_report m = compare(out.get(), ref.get(), n, s);
    if (m.count) {
      std::fprintf(stderr, "MISMATCH: %s %s n=%zu: %llu items differ from CUB, first at %llu\n", name.c_str(),
                   type_name<T>(), n, m.count, m.first);
      all_ok = false;
    }
    const double ms = median(time_calls(s, flusher, false, warmup_calls, timed_calls, call));
    rows.push_back({name, type_name<T>(), n, ms * 1e3, m.count == 0});
  };

  measure(cub_name, [&] { cub_scan(); });
  // The like-for-like reference of a blocking policy, which returns with its results ready.
  measure(cub_sync_name, [&] {
    cub_scan();
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  });
  for_each_policy([&](const auto& p) {
    measure(p.name, [&] { thrust::exclusive_scan(p.policy.on(s), in.get(), in.get() + n, out.get()); });
  });
  measure("thrust::cuda::par",
          [&] { thrust::exclusive_scan(thrust::cuda::par.on(s), in.get(), in.get() + n, out.get()); });
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  return all_ok;
}

}  // namespace

int main() {
  return run_program("archscan-ab", [&](const cudaDeviceProp& prop) {
    std::printf("# archscan-ab\n\nDevice: %s (sm_%d%d, %d SMs, %d MB L2); %s\n\n", prop.name, prop.major, prop.minor,
                prop.multiProcessorCount, prop.l2CacheSize >> 20, version_line().c_str());
    std::printf(
        "Exclusive sum; median of %d calls after %d warm-up, cold L2; GB/s = 2 n sizeof(T) / time; "
        "ratio = CUB time / time (> 1: faster than CUB). Checked against CUB: int32 bitwise, double "
        "relative %.0e.\n\n",
        timed_calls, warmup_calls, tolerance<double>::rtol);
    stream_handle stream;
    l2_flusher flusher(prop);
    std::vector<row> rows;
    bool ok = true;
    for (int lg : log2_sizes) {
      const std::size_t n = std::size_t{1} << lg;
      ok &= run_case<int>(n, stream.get(), flusher, rows);
      ok &= run_case<double>(n, stream.get(), flusher, rows);
    }

    std::printf("| implementation | type | n | time (us) | GB/s | ratio to CUB |\n|---|---|---:|---:|---:|---:|\n");
    double cub_us = 0;
    for (const row& r : rows) {
      if (r.impl == cub_name) cub_us = r.us;  // CUB comes first in each (type, n) group
      const double bytes = 2.0 * static_cast<double>(r.n) * (r.type == std::string("int32") ? 4 : 8);
      std::printf("| %s | %s | 2^%d | %.2f | %.1f | %.3f%s |\n", r.impl.c_str(), r.type.c_str(),
                  static_cast<int>(std::log2(static_cast<double>(r.n))), r.us, bytes / (r.us * 1e-6) / 1e9,
                  cub_us / r.us, r.ok ? "" : " (MISMATCH)");
    }
    return ok;
  });
}
