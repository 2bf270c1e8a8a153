// native's routes give the same bits over the same tiles (test/thrust/determinism_test.cu says what the
// policies promise): a wave, a cluster and the look-back; single tiles of few items; many segments;
// the chain of prefixes and the segment states; large and small tiles; pacing, prefetch and dependent
// launch.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/same_bits.cuh"

namespace {

using namespace archscan::test;

//! Small tiles for problems of few of them (a choice by n alone): a wave and a look-back over the
//! same small tiles give the same bits too.
struct native_small_tiles : archscan::native_tuning {
  static constexpr int small_tiles_max   = 132;
  static constexpr int cluster_max_tiles = 0;  // a wave at every count, not a cluster up to 16
  static constexpr int full_tiles_max    = 0;  // small tiles wherever they number at most 132
  struct row_4 : archscan::native_tuning::row_4 {
    static constexpr int small_items_per_thread = 16;
  };
  struct row_8 : archscan::native_tuning::row_8 {
    static constexpr int small_items_per_thread = 4;
  };
};
struct native_small_tiles_lookback_only : native_small_tiles {
  static constexpr int wave_max_tiles    = 0;
  static constexpr int cluster_max_tiles = 0;
};

//! 32-item tiles: enough of them that the look-back's window of 32 segment ends is crossed many
//! times over (every tile past segment 32 waits for a prefix inside its window), few enough for one
//! wave on an H100 (2000 tiles: 16 blocks of 32 threads per SM).
//! On the segment states as well as on the chain of prefixes, which float and double take by default.
using native_tiny_tiles               = with_tiny_tiles<archscan::native_tuning>;
using native_tiny_tiles_lookback_only = with_tiny_tiles<native_lookback_only>;
using states_tiny_tiles               = with_tiny_tiles<on_segment_states<archscan::native_tuning>>;
using states_tiny_tiles_lookback_only = with_tiny_tiles<on_segment_states<native_lookback_only>>;

TEST(NativeDeterminism, WaveAndLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {std::int64_t{5121}, std::int64_t{128} * 5120 + 1, std::int64_t{300} * 5120 - 3}) {
    expect_same_bits<native_no_cluster, native_lookback_only>(n, 21);
  }
}

//! One thread block cluster (at most 16 tiles, on devices with clusters) folds as the wave and the
//! look-back do: 3 small tiles of floats (9 of doubles), 16 of floats (16 full tiles of doubles), 4
//! of floats and 16 of doubles.
TEST(NativeDeterminism, ClusterWaveAndLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {std::int64_t{8193}, std::int64_t{16} * 4096, std::int64_t{16} * 1024}) {
    expect_same_bits<archscan::native_tuning, native_no_cluster>(n, 23);
    expect_same_bits<archscan::native_tuning, native_lookback_only>(n, 25);
  }
}

//! native's 4- and 8-byte rows as 256 threads of `Items` items in every tile: the shape of native's
//! single tiles for problems of at most 256 x `Items` items (tuning/shape.cuh, `single_items_per_thread` up
//! to `single_max_items_per_thread`; at 16, row_8's own full tile).
template <int Items>
struct native_items : archscan::native_tuning {
  struct row_4 : archscan::native_tuning::row_4 {
    static constexpr int items_per_thread            = Items;
    static constexpr int small_items_per_thread      = Items;
    static constexpr int single_items_per_thread     = Items;
    static constexpr int single_max_items_per_thread = Items;
  };
  struct row_8 : archscan::native_tuning::row_8 {
    static constexpr int items_per_thread            = Items;
    static constexpr int single_items_per_thread     = Items;
    static constexpr int single_max_items_per_thread = Items;
  };
};

//! Problems of at most 1024 items run as one tile of 4 items a thread, up to 2048 of 8, and floats
//! up to 4096 of 16: the same bits as those tiles run as full tiles (the rows' own 256x32 and 256x16
//! tiles would associate the floats otherwise), at each step's ends. (Doubles of 2049..4096 items
//! take row_8's own full tile: there the test compares the row with itself.)
TEST(NativeDeterminism, SingleTilesOfFewItemsUpTo4096Items) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{1024}}) {
    expect_same_bits<archscan::native_tuning, native_items<4>>(n, 29);
  }
  for (const std::int64_t n : {std::int64_t{1025}, std::int64_t{2048}}) {
    expect_same_bits<archscan::native_tuning, native_items<8>>(n, 30);
  }
  for (const std::int64_t n : {std::int64_t{2049}, std::int64_t{4096}}) {
    expect_same_bits<archscan::native_tuning, native_items<16>>(n, 31);
  }
}

TEST(NativeDeterminism, ManySegmentsWaveAndLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  // 1281 tiles (40 segments) and 2000 tiles (62.5 segments) of 32 items.
  for (const std::int64_t n : {std::int64_t{40} * 1024 + 3, std::int64_t{2000} * 32 - 1}) {
    expect_same_bits<native_tiny_tiles, native_tiny_tiles_lookback_only>(n, 41);
    expect_same_bits<states_tiny_tiles, states_tiny_tiles_lookback_only>(n, 43);
  }
}

TEST(NativeDeterminism, ChainOfPrefixesAndSegmentStatesGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  using chain  = on_prefix_chain<native_lookback_only>;
  using states = on_segment_states<native_lookback_only>;
  for (const std::int64_t n : {std::int64_t{5121}, (std::int64_t{1} << 22) + 7, (std::int64_t{1} << 24) + 3}) {
    expect_same_bits<chain, states>(n, 51);
  }
  // 40 and 62.5 segments of 32-item tiles.
  for (const std::int64_t n : {std::int64_t{40} * 1024 + 3, std::int64_t{2000} * 32 - 1}) {
    expect_same_bits<with_tiny_tiles<chain>, with_tiny_tiles<states>>(n, 53);
  }
}

//! x -> a x + b on doubles, composed first map first: 16 bytes (native's row_16), not commutative,
//! and rounded, so another association of the same maps changes the bits of b.
struct affine16 {
  double a, b;
};
struct affine16_then {
  __host__ __device__ affine16 operator()(const affine16& f, const affine16& g) const {
    return {f.a * g.a, f.b * g.a + g.b};
  }
};

//! row_16's large tiles walk the chain of prefixes (large_chained); on the segment states they must
//! give the same bits. Past large_from_items (2^22): look-backs over ~1000 and ~4200 large tiles,
//! inclusive and exclusive with a seed; b within 1e-9 of a sequential fold on the host.
TEST(NativeDeterminism, LargeTilesOnTheChainAndOnSegmentStatesGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  using chain  = archscan::native_tuning;
  using states = on_segment_states<chain>;
  static_assert(chain::row_16::large_chained && !states::row_16::large_chained);
  const std::int64_t large_from = chain::row_16::large_from_items;
  const affine16 seed{1.0, 0.25};
  for (const std::int64_t n : {large_from + 5, 4 * large_from + 3}) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    std::uniform_real_distribution<double> scale(0.5, 1.0), shift(-1.0, 1.0);
    std::vector<affine16> maps(static_cast<std::size_t>(n));
    for (auto& m : maps) m = {scale(rng), shift(rng)};
    device_buffer<affine16> in(maps), ca(n), sa(n), cb(n), sb(n);
    for (auto* out : {&ca, &sa, &cb, &sb}) out->poison();
    thrust::inclusive_scan(archscan::policy<chain>{}, in.begin(), in.end(), ca.begin(), affine16_then{});
    thrust::inclusive_scan(archscan::policy<states>{}, in.begin(), in.end(), sa.begin(), affine16_then{});
    thrust::exclusive_scan(archscan::policy<chain>{}, in.begin(), in.end(), cb.begin(), seed, affine16_then{});
    thrust::exclusive_scan(archscan::policy<states>{}, in.begin(), in.end(), sb.begin(), seed, affine16_then{});
    const auto inclusive = ca.to_host();
    const auto exclusive = cb.to_host();
    EXPECT_EQ(bytes_of(inclusive), bytes_of(sa.to_host())) << "inclusive, n=" << n;
    EXPECT_EQ(bytes_of(exclusive), bytes_of(sb.to_host())) << "exclusive with seed, n=" << n;
    affine16 in_sum = maps[0], ex_sum = seed;
    for (std::size_t i = 0; i < maps.size(); ++i) {
      if (i > 0) in_sum = affine16_then{}(in_sum, maps[i]);
      ASSERT_NEAR(inclusive[i].b, in_sum.b, 1e-9) << "inclusive, n=" << n << ", i=" << i;
      ASSERT_NEAR(exclusive[i].b, ex_sum.b, 1e-9) << "exclusive, n=" << n << ", i=" << i;
      ex_sum = affine16_then{}(ex_sum, maps[i]);
    }
  }
}

TEST(NativeDeterminism, SmallTilesWaveAndLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  // 2048-item float tiles, 1024-item double tiles: from just over one full tile to 132 small ones.
  for (const std::int64_t n : {std::int64_t{5121}, std::int64_t{40000}, std::int64_t{132} * 1024}) {
    expect_same_bits<native_small_tiles, native_small_tiles_lookback_only>(n, 31);
  }
}

//! The look-back's first set of tiles paces its loads, its tiles ask the L2 for later tiles' inputs,
//! and on sm_90 on the scan launches as a dependent of its states' reset: timing alone, so a tuning
//! with none of them gives the same bits.
struct native_unpaced : native_lookback_only {
  static constexpr double first_set_stagger_cycles_per_kib = 0;
  static constexpr int l2_prefetch_ahead_percent           = 0;
  static constexpr bool dependent_launch                   = false;
};

TEST(NativeDeterminism, PacingPrefetchAndDependentLaunchGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  // 1025 and 2049 float tiles (2049 and 4097 of doubles): more than a GPU holds at once.
  for (const std::int64_t n : {(std::int64_t{1} << 23) + 7, (std::int64_t{1} << 24) + 3}) {
    expect_same_bits<native_lookback_only, native_unpaced>(n, 61);
  }
}

}  // namespace
