// The `mark` hook (hooks.cuh): thread 0 of every transposed tile reports each of the tile's events
// once, in order (perf/timeline.cu draws native's timelines from it). Checked with native's and
// turing's tunings on one tile, one wave and a look-back, results against a host reference.

#include <cstdint>
#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace {

using archscan::tile_event;
using archscan::test::device_buffer;

constexpr int max_tiles = 4096;
constexpr int events    = static_cast<int>(tile_event::count);

__device__ unsigned d_counts[max_tiles * events];         // calls per tile and event
__device__ unsigned long long d_times[max_tiles * events];  // the global timer at the last call
__device__ unsigned d_threads_other_than_0;                 // calls from another thread than 0

struct marking_hooks {
  __device__ static void mark(std::int64_t tile, tile_event e) {
    if (threadIdx.x != 0) atomicAdd(&d_threads_other_than_0, 1u);
    if (tile < 0 || tile >= max_tiles) return;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    const int slot = static_cast<int>(tile) * events + static_cast<int>(e);
    atomicAdd(&d_counts[slot], 1u);
    d_times[slot] = now;
  }
};

template <class Tuning>
std::int64_t tile_items() {
  using row = archscan::row_for<Tuning, sizeof(std::int32_t)>;
  return static_cast<std::int64_t>(row::block_threads) * row::items_per_thread;
}

template <class Tuning>
void check_marks(std::int64_t n) {
  const std::vector<unsigned> zero_counts(max_tiles * events, 0);
  const unsigned zero = 0;
  ARCHSCAN_CUDA_OK(cudaMemcpyToSymbol(d_counts, zero_counts.data(), zero_counts.size() * sizeof(unsigned)));
  ARCHSCAN_CUDA_OK(cudaMemcpyToSymbol(d_threads_other_than_0, &zero, sizeof(zero)));
  const auto items = archscan::test::random_values<std::int32_t>(n, static_cast<std::uint64_t>(n));
  device_buffer<std::int32_t> in(items), out(n);
  out.poison();
  const archscan::policy<archscan::with_hooks<Tuning, marking_hooks>> policy;
  thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin());

  std::vector<std::int32_t> want(items.size());
  std::int32_t acc = 0;
  for (std::size_t i = 0; i < items.size(); ++i) want[i] = acc = static_cast<std::int32_t>(acc + items[i]);
  ASSERT_EQ(out.to_host(), want) << "n=" << n;

  std::vector<unsigned> counts(max_tiles * events);
  std::vector<unsigned long long> times(max_tiles * events);
  unsigned others = 0;
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(counts.data(), d_counts, counts.size() * sizeof(unsigned)));
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(times.data(), d_times, times.size() * sizeof(unsigned long long)));
  ARCHSCAN_CUDA_OK(cudaMemcpyFromSymbol(&others, d_threads_other_than_0, sizeof(others)));
  EXPECT_EQ(others, 0u) << "n=" << n;
  const std::int64_t tiles = (n + tile_items<Tuning>() - 1) / tile_items<Tuning>();
  ASSERT_LE(tiles, max_tiles);
  for (std::int64_t t = 0; t < max_tiles; ++t) {
    for (int e = 0; e < events; ++e) {
      const std::size_t slot = static_cast<std::size_t>(t * events + e);
      ASSERT_EQ(counts[slot], t < tiles ? 1u : 0u) << "n=" << n << " tile " << t << " event " << e;
      if (t < tiles && e > 0) ASSERT_LE(times[slot - 1], times[slot]) << "n=" << n << " tile " << t << " event " << e;
    }
  }
}

template <class Tuning>
void check_tuning() {
  const std::int64_t tile = tile_items<Tuning>();
  check_marks<Tuning>(tile - 3);         // one tile
  check_marks<Tuning>(100 * tile - 5);   // a wave on any GPU of 25 SMs or more
  // More tiles than any GPU holds at once (the look-back); under compute-sanitizer
  // (ARCHSCAN_TEST_SHORT=1), whose tools are slow, 600: still past one wave on an H100.
  check_marks<Tuning>((archscan::test::short_run() ? 600 : 2000) * tile + 7);
}

TEST(MarkHook, NativeTilesReportEachEventOnceInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  check_tuning<archscan::native_tuning>();
}

TEST(MarkHook, TuringTilesReportEachEventOnceInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  check_tuning<archscan::turing_tuning>();
}

}  // namespace
