// The `mark` hook (hooks.cuh): thread 0 of every transposed tile reports each of the tile's events
// once, in order (perf/timeline.cu draws native's timelines from it). Checked with native's and
// turing's tunings on one tile, one wave and a look-back, for int32 sums (items one to a register)
// and uint8 sums (native keeps them packed, four to a register), results against a host reference.

#include <cstdint>
#include <vector>

#include <thrust/functional.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace {

using archscan::tile_event;
using archscan::test::device_buffer;

constexpr int max_tiles = 4096;
constexpr int events    = static_cast<int>(tile_event::count);

__device__ unsigned d_counts[max_tiles * events];           // calls per tile and event
__device__ unsigned long long d_times[max_tiles * events];  // the global timer at the last call
__device__ unsigned d_threads_other_than_0;                 // calls from another thread than 0
__device__ unsigned d_next_event[max_tiles];                // events seen so far, per tile
__device__ unsigned d_out_of_order;                         // events that came before an earlier one

struct marking_hooks {
  __device__ static void mark(std::int64_t tile, tile_event e) {
    if (threadIdx.x != 0) atomicAdd(&d_threads_other_than_0, 1u);
    if (tile < 0 || tile >= max_tiles) return;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    const int slot = static_cast<int>(tile) * events + static_cast<int>(e);
    atomicAdd(&d_counts[slot], 1u);
    // Thread 0 alone marks a tile, so its events arrive one after another: the e-th must be e.
    if (atomicAdd(&d_next_event[tile], 1u) != static_cast<unsigned>(e)) atomicAdd(&d_out_of_order, 1u);
    d_times[slot] = now;
  }
};

template <class Tuning, class T>
void check_marks(std::int64_t n) {
  const std::vector<unsigned> zero_counts(max_tiles * events, 0);
  const unsigned zero = 0;
  ARCHSCAN_CUDA_OK(cudaMemcpyToSymbol(d_counts, zero_counts.data(), zero_counts.size() * sizeof(unsigned)));
  ARCHSCAN_CUDA_OK(cudaMemcpyToSymbol(d_next_event, zero_counts.data(), max_tiles * sizeof(unsigned)));
  ARCHSCAN_CUDA_OK(cudaMemcpyToSymbol(d_threads_other_than_0, &zero, sizeof(zero)));
  ARCHSCAN_CUDA_OK(cudaMemcpyToSymbol(d_out_of_order, &zero, sizeof(zero)));
  const auto items = archscan::test::random_values<T>(n, static_cast<std::uint64_t>(n));
  device_buffer<T> in(items), out(n);
  out.poison();
  const archscan::policy<archscan::with_hooks<Tuning, marking_hooks>> policy;
  thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), thrust::plus<T>{});

  ASSERT_EQ(out.to_host(), archscan::test::host_scan(items, thrust::plus<T>{}, false, false, T{})) << "n=" << n;

  std::vector<unsigned> counts(max_tiles * events);
  std::vector<unsigned long long> times(max_tiles * events);
  unsigned others = 0, disorder = 0;
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(counts.data(), d_counts, counts.size() * sizeof(unsigned)));
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(times.data(), d_times, times.size() * sizeof(unsigned long long)));
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(&others, d_threads_other_than_0, sizeof(others)));
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(&disorder, d_out_of_order, sizeof(disorder)));
  EXPECT_EQ(others, 0u) << "n=" << n;
  EXPECT_EQ(disorder, 0u) << "n=" << n;
  const std::int64_t tile  = archscan::test::row_tile_items<Tuning, T>();
  const std::int64_t tiles = (n + tile - 1) / tile;
  ASSERT_LE(tiles, max_tiles);
  for (std::int64_t t = 0; t < max_tiles; ++t) {
    for (int e = 0; e < events; ++e) {
      const std::size_t slot = static_cast<std::size_t>(t * events + e);
      ASSERT_EQ(counts[slot], t < tiles ? 1u : 0u) << "n=" << n << " tile " << t << " event " << e;
      if (t < tiles && e > 0) ASSERT_LE(times[slot - 1], times[slot]) << "n=" << n << " tile " << t << " event " << e;
    }
  }
}

//! Sizes that take the row's own tiles (no small ones: more than small_tiles_max of those).
template <class Tuning, class T>
void check_tuning() {
  const std::int64_t tile = archscan::test::row_tile_items<Tuning, T>();
  check_marks<Tuning, T>(tile - 3);        // one tile
  check_marks<Tuning, T>(140 * tile - 5);  // a wave on any GPU of 35 SMs or more (280 small tiles: too many)
  // More tiles than any GPU holds at once (the look-back); under compute-sanitizer
  // (ARCHSCAN_TEST_SHORT=1), whose tools are slow, 600: still past one wave on an H100.
  check_marks<Tuning, T>((archscan::test::short_run() ? 600 : 2000) * tile + 7);
}

TEST(MarkHook, NativeTilesReportEachEventOnceInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  check_tuning<archscan::native_tuning, std::int32_t>();
  check_tuning<archscan::native_tuning, std::uint8_t>();  // packed tiles
}

TEST(MarkHook, TuringTilesReportEachEventOnceInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  check_tuning<archscan::turing_tuning, std::int32_t>();
}

}  // namespace
