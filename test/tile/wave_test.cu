// One wave (tile/wave.cuh): tiles that are all resident at once take their prefixes from one grid
// barrier. Checked against the look-back path and a host reference at tile counts around the fold's
// 32-lane runs and around the device's resident capacity (beyond it the dispatch falls back to the
// look-back); with a non-commutative type, a seed and in place; with starved tiles; and for the
// determinism the wave promises for floating point.

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace {

using archscan::test::device_buffer;
using archscan::test::expect_equal;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::random_values;

struct wave_tuning : archscan::turing_tuning {
  static constexpr int wave_max_tiles = 1 << 30;  // every problem that fits on the device
};
struct lookback_tuning : archscan::turing_tuning {
  static constexpr int wave_max_tiles = 0;
};
//! Every 7th tile sleeps 100 us before storing its aggregate: the others wait at the grid barrier.
struct starve_hooks {
  static constexpr int starve_every   = 7;
  static constexpr unsigned starve_ns = 100000;
};
using starving_wave_tuning = archscan::with_hooks<wave_tuning, starve_hooks>;

//! Tile counts: two (the smallest wave), runs of the 32-lane fold, and around 1056 and 1184, the
//! resident int32 tiles of an H100 and a B200 (132 or 148 SMs x 8 blocks), and 2000 (no GPU holds
//! that many: the look-back runs). Each count three ways: the last tile full, one item short, or
//! holding a single item.
//! Under compute-sanitizer (ARCHSCAN_TEST_SHORT=1) only up to 100 tiles: the tools are slow.
std::vector<std::int64_t> sizes(std::int64_t tile) {
  std::vector<std::int64_t> counts = {2, 3, 31, 32, 33, 64, 65, 100};
  if (!archscan::test::short_run()) counts.insert(counts.end(), {1055, 1056, 1057, 1184, 1185, 2000});
  return archscan::test::sizes_at_tile_counts(tile, counts);
}

template <class Tuning>
void check_int32_sums(const std::vector<std::int64_t>& ns) {
  const archscan::policy<Tuning> wave{};
  const archscan::policy<lookback_tuning> lookback{};
  for (const std::int64_t n : ns) {
    const auto h = random_values<int>(n, static_cast<std::uint64_t>(n));
    device_buffer<int> d_in(h), d_out(n), d_ref(n);
    std::vector<int> expect(h.size());

    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    d_out.poison();
    d_ref.poison();
    thrust::inclusive_scan(wave, d_in.begin(), d_in.end(), d_out.begin());
    thrust::inclusive_scan(lookback, d_in.begin(), d_in.end(), d_ref.begin());
    expect_equal(d_out, expect, "inclusive, wave", n);
    expect_equal(d_ref, expect, "inclusive, look-back", n);

    std::exclusive_scan(h.begin(), h.end(), expect.begin(), 17);
    d_out.poison();
    thrust::exclusive_scan(wave, d_in.begin(), d_in.end(), d_out.begin(), 17);
    expect_equal(d_out, expect, "exclusive, wave", n);
  }
}

TEST(TuringWave, Int32SumsAroundFoldRunsAndResidentCapacity) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32_sums<wave_tuning>(sizes(archscan::test::row_tile_items<wave_tuning, int>()));
}

TEST(TuringWave, NonCommutativeSeededInPlace) {
  ARCHSCAN_REQUIRE_GPU();
  const archscan::policy<wave_tuning> wave{};
  const std::int64_t tile = archscan::test::row_tile_items<wave_tuning, mat2>();
  for (const std::int64_t tiles : {2, 33, 100, archscan::test::short_run() ? 101 : 600}) {
    const std::int64_t n = tiles * tile - 5;
    const auto h         = random_values<mat2>(n, static_cast<std::uint64_t>(tiles));
    const mat2 seed{2u, 1u, 7u, 3u};
    std::vector<mat2> expect(h.size());
    mat2 run = seed;
    for (std::size_t i = 0; i < h.size(); ++i) expect[i] = run = mat2_mul{}(run, h[i]);

    device_buffer<mat2> d(h);
    thrust::inclusive_scan(wave, d.begin(), d.end(), d.begin(), seed, mat2_mul{});
    expect_equal(d, expect, "seeded, in place", n);
  }
}

TEST(TuringWave, StarvedTilesWaitAtTheBarrier) {
  ARCHSCAN_REQUIRE_GPU();
  const std::int64_t tile = archscan::test::row_tile_items<starving_wave_tuning, int>();
  check_int32_sums<starving_wave_tuning>({2 * tile, 50 * tile + 123, 300 * tile + 7});  // 300 tiles: 43 starve
}

TEST(TuringWave, FloatResultsRepeatBitForBit) {
  ARCHSCAN_REQUIRE_GPU();
  const archscan::policy<wave_tuning> wave{};
  const std::int64_t n = 200 * archscan::test::row_tile_items<wave_tuning, float>() + 77;
  const auto h         = random_values<float>(n, 5);
  device_buffer<float> d_in(h), first(n), again(n);
  first.poison();
  thrust::inclusive_scan(wave, d_in.begin(), d_in.end(), first.begin());
  const std::vector<float> got = first.to_host();
  for (int run = 0; run < 5; ++run) {
    again.poison();
    thrust::inclusive_scan(wave, d_in.begin(), d_in.end(), again.begin());
    const std::vector<float> b = again.to_host();
    ASSERT_EQ(0, std::memcmp(got.data(), b.data(), got.size() * sizeof(float))) << "run " << run;
  }
  // and the sums themselves, within the suite's float tolerance of a double-precision host scan
  const std::vector<double> scale = archscan::test::magnitude_prefix(h);
  double acc                      = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    acc += h[i];
    ASSERT_TRUE(archscan::test::close(got[i], static_cast<float>(acc), scale[i]))
        << "i = " << i << ": " << got[i] << " vs " << acc;
  }
}

}  // namespace
