// The turing family's planning arithmetic: tiles, tile-state storage, grid and carveout, up to 2^40 items.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/dispatch/turing.cuh>

#include "support/sized_problem.cuh"

namespace {

using archscan::dispatch::make_turing_plan;
using archscan::dispatch::turing_fit_carveout;
using archscan::dispatch::turing_grid;
using archscan::dispatch::lookback_delay;

std::size_t up256(std::size_t b) { return (b + 255) / 256 * 256; }

TEST(TuringPlan, OneTileNeedsNoTemporaryStorage) {
  for (std::int64_t n : {1, 2, 4095, 4096}) {
    for (std::size_t bytes : {1u, 4u, 8u, 16u, 40u}) {
      const auto plan = make_turing_plan(n, 4096, bytes, false);
      EXPECT_EQ(plan.tiles, 1) << n;
      EXPECT_EQ(plan.temp_bytes, 0u) << n;
    }
  }
  EXPECT_EQ(make_turing_plan(0, 4096, 4, true).tiles, 0);
}

TEST(TuringPlan, PackedStatesUpToTwoToTheForty) {
  for (int k = 12; k <= 40; ++k) {
    for (std::int64_t delta : {-1, 0, 1}) {
      const std::int64_t n = (std::int64_t{1} << k) + delta;
      const int tile       = 4096;
      const auto plan      = make_turing_plan(n, tile, 4, true);
      const std::int64_t tiles = (n + tile - 1) / tile;
      ASSERT_EQ(plan.tiles, tiles) << n;
      if (tiles == 1) {
        EXPECT_EQ(plan.temp_bytes, 0u);
        continue;
      }
      EXPECT_TRUE(plan.packed);
      EXPECT_EQ(plan.counter_offset, 0u);
      EXPECT_EQ(plan.status_offset, 256u);
      EXPECT_EQ(plan.temp_bytes, 256 + up256(8 * static_cast<std::size_t>(tiles))) << n;
    }
  }
}

TEST(TuringPlan, WideWordsForEightByteAccumulators) {
  const std::int64_t n = (std::int64_t{1} << 30) + 5;
  const auto plan      = make_turing_plan(n, 2048, 8, true);
  const auto tiles     = static_cast<std::size_t>((n + 2047) / 2048);
  EXPECT_TRUE(plan.packed);
  EXPECT_EQ(plan.word_bytes, 16u);
  EXPECT_EQ(plan.status_offset, 256u);
  EXPECT_EQ(plan.temp_bytes, 256 + up256(16 * tiles));
}

TEST(TuringPlan, FlaggedStatesForLargerAccumulators) {
  for (std::size_t bytes : {5u, 8u, 12u, 16u, 40u}) {  // 5 and 8: as for a type that is not trivially copyable
    const std::int64_t n = (std::int64_t{1} << 40) + 3;
    const int tile       = 2048;
    const auto plan      = make_turing_plan(n, tile, bytes, false);
    const auto tiles     = static_cast<std::size_t>((n + tile - 1) / tile);
    EXPECT_FALSE(plan.packed);
    EXPECT_EQ(plan.tiles, static_cast<std::int64_t>(tiles));
    // counter | status flags | aggregates | inclusive prefixes, each 256-byte aligned and disjoint
    EXPECT_EQ(plan.status_offset, 256u);
    EXPECT_EQ(plan.aggregates_offset, plan.status_offset + up256(4 * tiles));
    EXPECT_EQ(plan.inclusives_offset, plan.aggregates_offset + up256(bytes * tiles));
    EXPECT_EQ(plan.temp_bytes, plan.inclusives_offset + up256(bytes * tiles));
    EXPECT_EQ(plan.aggregates_offset % 256, 0u);
    EXPECT_EQ(plan.inclusives_offset % 256, 0u);
  }
}

TEST(TuringPlan, WaveAggregatesFitInTheStatesBytes) {
  // A wave (tile/wave.cuh) keeps one accumulator per tile where the look-back keeps its states.
  for (std::size_t bytes : {1u, 4u, 8u, 12u, 16u, 40u}) {
    for (const bool packed : {true, false}) {
      if (packed && bytes > 8) continue;
      for (std::int64_t tiles : {2, 3, 33, 1056, 1057, 100000}) {
        const auto plan = make_turing_plan(tiles * 4096 - 1, 4096, bytes, packed);
        ASSERT_EQ(plan.tiles, tiles);
        EXPECT_EQ(plan.wave_offset, packed ? plan.status_offset : plan.aggregates_offset);
        EXPECT_EQ(plan.wave_offset % 256, 0u);
        EXPECT_LE(plan.wave_offset + static_cast<std::size_t>(tiles) * bytes, plan.temp_bytes)
            << bytes << "-byte accumulators, " << tiles << " tiles";
      }
    }
  }
}

TEST(TuringPlan, SmallTilesOnlyForAWaveOfAtMostOnePerSm) {
  using archscan::dispatch::turing_tile_items;
  // 5120-item full tiles, 2048-item small tiles, at most 132 small tiles.
  EXPECT_EQ(turing_tile_items(5120, 5120, 2048, 132), 5120);  // one full tile: the single-block kernel
  EXPECT_EQ(turing_tile_items(5121, 5120, 2048, 132), 2048);  // 3 small tiles
  EXPECT_EQ(turing_tile_items(132 * 2048, 5120, 2048, 132), 2048);
  EXPECT_EQ(turing_tile_items(132 * 2048 + 1, 5120, 2048, 132), 5120);  // 133 small tiles: full ones
  EXPECT_EQ(turing_tile_items(std::int64_t{1} << 40, 5120, 2048, 132), 5120);
  EXPECT_EQ(turing_tile_items(20000, 5120, 2048, 0), 5120);     // no wave (or small tiles switched off)
  EXPECT_EQ(turing_tile_items(20000, 1792, 1792, 132), 1792);   // a row without smaller tiles
}

TEST(TuringPlan, FullTileStatesFitInASmallWavesBytes) {
  // A small wave the driver refuses falls back to the look-back over full tiles in the same storage.
  for (std::size_t bytes : {4u, 8u, 16u}) {
    for (std::int64_t n = 5121; n <= 132 * 2048; n += 997) {
      const auto small = make_turing_plan(n, 2048, bytes, bytes <= 8);
      const auto full  = make_turing_plan(n, 5120, bytes, bytes <= 8);
      ASSERT_LE(full.temp_bytes, small.temp_bytes) << n;
      ASSERT_LE(full.zero_bytes, small.temp_bytes) << n;
    }
  }
}

TEST(TuringPlan, TwoToTheFortyInt32) {
  constexpr auto plan = make_turing_plan(std::int64_t{1} << 40, 4096, 4, true);  // constexpr: pure arithmetic
  static_assert(plan.tiles == (std::int64_t{1} << 28));
  EXPECT_EQ(plan.temp_bytes, 256 + (std::size_t{1} << 31));  // 2^28 words of 8 bytes
}

TEST(TuringPlan, GridIsResidentBlocksOrTiles) {
  using archscan::tile_schedule;
  EXPECT_EQ(turing_grid(1000000, tile_schedule::resident, 132, 5), 660);
  EXPECT_EQ(turing_grid(100, tile_schedule::resident, 132, 5), 100);
  EXPECT_EQ(turing_grid(std::int64_t{1} << 28, tile_schedule::one_per_block, 132, 5), std::int64_t{1} << 28);
}

TEST(TuringPlan, LookbackDelayOnlyBeyondOneWaveOfResidentBlocks) {
  // 132 SMs x 8 blocks: 1056 tiles run at once; the 1057th queues.
  EXPECT_EQ(lookback_delay(2, 132 * 8, 1500), 0u);
  EXPECT_EQ(lookback_delay(1056, 132 * 8, 1500), 0u);
  EXPECT_EQ(lookback_delay(1057, 132 * 8, 1500), 1500u);
  EXPECT_EQ(lookback_delay(std::int64_t{1} << 30, 132 * 8, 1500), 1500u);
  EXPECT_EQ(lookback_delay(std::int64_t{1} << 30, 132 * 8, 0), 0u);
}

TEST(TuringPlan, CarveoutFitsTheResidentBlocks) {
  // H100: 228 KiB per SM; 5 blocks of 16.6 KiB + 1 KiB reserved each need 88 KiB: 39 %.
  const int smem = 16 * 1024 + 640;
  const int pct  = turing_fit_carveout(5, smem, 1024, 228 * 1024);
  EXPECT_GE(pct * 228 * 1024, 100 * 5 * (smem + 1024));
  EXPECT_LT((pct - 1) * 228 * 1024, 100 * 5 * (smem + 1024));
  EXPECT_EQ(turing_fit_carveout(64, 64 * 1024, 0, 64 * 1024), 100);  // clamped
  EXPECT_EQ(turing_fit_carveout(0, 1024, 0, 64 * 1024), 1);
}

// Large accumulators: every tile of the shipped tuning fits the shared memory every CUDA 13 device
// grants a block (64 KiB with the opt-in on sm_75, the smallest), full tiles and a wave's small ones.
using archscan::test::problem_of;

template <int Bytes>
void expect_tiles_fit_sm75() {
  using dispatch = archscan::dispatch::family_dispatch<archscan::turing_family>;
  EXPECT_LE((dispatch::tile_of<archscan::turing_tuning, problem_of<Bytes>>::smem_bytes), 64 * 1024) << Bytes;
  EXPECT_LE((dispatch::small_tile_of<archscan::turing_tuning, problem_of<Bytes>>::smem_bytes), 64 * 1024) << Bytes;
}

TEST(TuringPlan, TilesOfLargeAccumulatorsFitEveryCuda13Device) {
  expect_tiles_fit_sm75<4>();
  expect_tiles_fit_sm75<64>();
  expect_tiles_fit_sm75<160>();
  expect_tiles_fit_sm75<256>();
  expect_tiles_fit_sm75<1024>();
}

}  // namespace
