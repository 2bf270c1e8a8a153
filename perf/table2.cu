//! \file archscan-table2: the paper's Table 2 on today's hardware. A single-core sequential CPU scan of
//! floats against each GPU policy, at powers of two from 2^10 to 2^24, next to the paper's figures.
//!
//! GPU time: median of 25 calls (CUDA events, 3 warm-up, cold L2), device-resident data, as the
//! paper's GPU column excludes transfers. CPU time: median of several calls of the loop below (one
//! thread, steady_clock). Inputs are random 0/1 floats, so every prefix sum (at most 2^24) is exact in
//! float and the GPU results must equal the CPU's bitwise. Exit status: 0, 1 on a mismatch or error,
//! 2 without a GPU.

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

namespace {
using namespace archscan::perf;

//! One row of the paper's Table 2.
struct paper_row {
  long long n;
  double cpu_ms, gpu_ms, speedup;
};

//! Harris, Sengupta, Owens, "Parallel Prefix Sum (Scan) with CUDA" (NVIDIA, April 2007), Table 2:
//! work-efficient, bank-conflict-free scan on an NVIDIA GeForce 8800 GTX against a sequential C++ scan on
//! a single core of an "Intel Core Duo Extreme 2.93 GHz" (the caption's words). Copied from
//! /work/shared/reference/004_06deac4291e7de85.txt. The paper prints 8,388,688 for the row between
//! 2^22 and 2^24; it is 2^23 = 8,388,608 (the CPU and GPU times double with each row), so the row is
//! keyed 2^23 here.
constexpr paper_row paper[] = {
    {1024, 0.002231, 0.079492, 0.03},     {32768, 0.072663, 0.106159, 0.68},      {65536, 0.146326, 0.137006, 1.07},
    {131072, 0.726429, 0.200257, 3.63},   {262144, 1.454742, 0.326900, 4.45},     {524288, 2.911067, 0.624104, 4.66},
    {1048576, 5.900097, 1.118091, 5.28},  {2097152, 11.848376, 2.099666, 5.64},   {4194304, 23.835931, 4.062923, 5.87},
    {8388608, 47.390906, 7.987311, 5.93}, {16777216, 94.794598, 15.854781, 5.98},
};

const paper_row* paper_at(long long n) {
  for (const paper_row& r : paper)
    if (r.n == n) return &r;
  return nullptr;
}

//! The paper's sequential scan (its Example 1): out[0] = 0, out[i] = out[i-1] + in[i-1].
__attribute__((noinline)) void cpu_scan(const float* in, float* out, std::size_t n) {
  out[0] = 0;
  for (std::size_t i = 1; i < n; ++i) out[i] = in[i - 1] + out[i - 1];
}

//! Median CPU time in ms over enough calls to last about 50 ms (at least 3).
double time_cpu(const std::vector<float>& in, std::vector<float>& out) {
  using clock = std::chrono::steady_clock;
  std::vector<double> ms;
  double total = 0;
  while (ms.size() < 3 || (total < 50 && ms.size() < 1000)) {
    const auto t0 = clock::now();
    cpu_scan(in.data(), out.data(), in.size());
    const double t = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    ms.push_back(t);
    total += t;
  }
  return median(ms);
}

struct zero_one {
  __host__ __device__ float operator()(std::uint64_t h) const { return static_cast<float>(h & 1); }
};

}  // namespace

int main() {
  return run_program("archscan-table2", [&](const cudaDeviceProp& prop) {
    stream_handle stream;
    const cudaStream_t s = stream.get();
    l2_flusher flusher(prop);
    bool ok = true;

    std::vector<std::string> names;
    for_each_policy([&](const auto& p) { names.emplace_back(p.name); });

    std::printf(
        "# The paper's Table 2 on today's hardware\n\nGPU: %s; %s. CPU: one core, the sequential loop of "
        "the paper's Example 1, float. GPU: median of 25 calls, cold L2, data on the device.\n"
        "Paper: GeForce 8800 GTX vs one core of an Intel Core Duo Extreme 2.93 GHz (its Table 2).\n\n",
        prop.name, version_line().c_str());
    std::printf("| n | paper CPU ms | paper GPU ms | paper speedup | CPU ms |");
    for (const auto& nm : names) std::printf(" %s GPU ms | %s speedup |", nm.c_str(), nm.c_str());
    std::printf("\n|---:|---:|---:|---:|---:|");
    for (std::size_t i = 0; i < names.size(); ++i) std::printf("---:|---:|");
    std::printf("\n");

    for (int lg = 10; lg <= 24; ++lg) {
      const std::size_t n = std::size_t{1} << lg;
      device_buffer<float> d_in(n), d_out(n);
      fill_random(d_in.get(), n, 0x7ab1e2u + n, s, zero_one{});
      std::vector<float> in(n), cpu_out(n), gpu_out(n);
      check(cudaMemcpyAsync(in.data(), d_in.get(), n * sizeof(float), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
      check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
      const double cpu_ms = time_cpu(in, cpu_out);

      const paper_row* p = paper_at(static_cast<long long>(n));
      if (p)
        std::printf("| %zu | %.6f | %.6f | %.2f | %.4f |", n, p->cpu_ms, p->gpu_ms, p->speedup, cpu_ms);
      else
        std::printf("| %zu | - | - | - | %.4f |", n, cpu_ms);

      for_each_policy([&](const auto& pol) {
        auto call = [&] { thrust::exclusive_scan(pol.policy.on(s), d_in.get(), d_in.get() + n, d_out.get()); };
        call();
        check(cudaMemcpyAsync(gpu_out.data(), d_out.get(), n * sizeof(float), cudaMemcpyDeviceToHost, s),
              "cudaMemcpyAsync");
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        for (std::size_t i = 0; i < n; ++i)
          if (gpu_out[i] != cpu_out[i]) {
            std::fprintf(stderr, "MISMATCH: %s n=%zu at %zu: GPU %.1f, CPU %.1f\n", pol.name, n, i, gpu_out[i],
                         cpu_out[i]);
            ok = false;
            break;
          }
        const double gpu_ms = median(time_calls(s, flusher, false, 3, 25, call));
        std::printf(" %.4f | %.2f |", gpu_ms, cpu_ms / gpu_ms);
      });
      std::printf("\n");
    }
    return ok;
  });
}
