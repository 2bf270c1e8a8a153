// The turing family's dispatch: its plan (route, tiles, grid, look-back delay, tile-state storage) up to
// 2^40 items, and the shared memory of its tiles for large accumulators (the carveout arithmetic the
// families share: dispatch/family_test.cu).

#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/dispatch/turing_dispatch.cuh>

#include "support/sized_problem.cuh"

namespace {

using archscan::dispatch::make_turing_plan;
using archscan::dispatch::single_pass_route;
using archscan::dispatch::tile_shape;
using archscan::dispatch::turing_plan_input;

std::size_t up256(std::size_t b) { return (b + 255) / 256 * 256; }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

//! An H100-like device (132 SMs, cooperative) and the int32 row: 5120-item tiles, 2048-item small
//! tiles, 8 blocks per SM of every kernel.
turing_plan_input input(std::int64_t n, std::size_t accum_bytes = 4, bool packed = true) {
  return {n, accum_bytes, packed, 40, 5120, 16, 2048, 132, true, 1 << 30, true, 8, 8, 8, 0, 1500};
}

TEST(TuringPlan, OneTileNeedsNoTemporaryStorage) {
  for (std::int64_t n : {1, 2, 4095, 5120}) {
    for (std::size_t bytes : {1u, 4u, 8u, 16u, 40u}) {
      const auto plan = make_turing_plan(input(n, bytes, bytes <= 8));
      EXPECT_EQ(plan.route, single_pass_route::single_tile) << n;
      EXPECT_EQ(plan.tiles.tiles, 1) << n;
      EXPECT_EQ(plan.tiles.items_per_thread, 40) << n;
      EXPECT_EQ(plan.temp_bytes, 0u) << n;
    }
  }
}

TEST(TuringPlan, SmallTilesOnlyForAWaveOfAtMostOnePerSm) {
  // 5121 items: 3 small tiles; 132 * 2048: 132 small tiles; one more item: full tiles.
  for (std::int64_t n : {std::int64_t{5121}, std::int64_t{132} * 2048}) {
    const auto plan = make_turing_plan(input(n));
    EXPECT_EQ(plan.route, single_pass_route::wave) << n;
    EXPECT_EQ(plan.tiles.items_per_thread, 16) << n;
    EXPECT_EQ(plan.tiles.shape, tile_shape::small) << n;  // what the launch maps to the small kernel
    EXPECT_EQ(plan.tiles.tiles, ceil_div(n, 2048)) << n;
    EXPECT_EQ(plan.lookback.shape, tile_shape::full) << n;  // a refused wave's fallback: full tiles
  }
  auto plan = make_turing_plan(input(std::int64_t{132} * 2048 + 1));
  EXPECT_EQ(plan.route, single_pass_route::wave);
  EXPECT_EQ(plan.tiles.items_per_thread, 40);
  EXPECT_EQ(plan.tiles.shape, tile_shape::full);
  EXPECT_EQ(plan.tiles.tiles, ceil_div(132 * 2048 + 1, 5120));
  // Small tiles switched off, or a row without smaller ones: full tiles.
  auto in             = input(20000);
  in.wave_small_tiles = false;
  EXPECT_EQ(make_turing_plan(in).tiles.items_per_thread, 40);
  in                        = input(20000);
  in.small_items_per_thread = 40;
  in.small_tile_items       = 5120;
  EXPECT_EQ(make_turing_plan(in).tiles.items_per_thread, 40);
}

TEST(TuringPlan, WaveWhileEveryTileFitsOnTheDevice) {
  // 132 SMs x 8 blocks: 1056 full tiles fit at once, 1057 do not.
  EXPECT_EQ(make_turing_plan(input(std::int64_t{1056} * 5120)).route, single_pass_route::wave);
  EXPECT_EQ(make_turing_plan(input(std::int64_t{1056} * 5120 + 1)).route, single_pass_route::lookback);
  // No cooperative launch, no wave at all, or a wave kernel that fits fewer blocks.
  auto in        = input(20000);
  in.cooperative = false;
  EXPECT_EQ(make_turing_plan(in).route, single_pass_route::lookback);
  in                = input(20000);
  in.wave_max_tiles = 0;
  EXPECT_EQ(make_turing_plan(in).route, single_pass_route::lookback);
  in                    = input(std::int64_t{600} * 5120);
  in.wave_blocks_per_sm = 4;  // 528 fit
  EXPECT_EQ(make_turing_plan(in).route, single_pass_route::lookback);
  in.small_wave_blocks_per_sm = 0;  // a small wave that does not fit falls back to full tiles
  in.n                        = 20000;
  const auto plan             = make_turing_plan(in);
  EXPECT_EQ(plan.route, single_pass_route::wave);
  EXPECT_EQ(plan.tiles.items_per_thread, 40);
}

TEST(TuringPlan, EveryRouteFitsTheStoragePlanned) {
  // A wave keeps one accumulator per tile in the storage; if the driver refuses its cooperative launch,
  // the look-back over full tiles (the plan's fallback) runs in the same storage.
  for (std::size_t bytes : {1u, 4u, 8u, 12u, 16u, 40u}) {
    for (const bool packed : {true, false}) {
      if (packed && bytes > 8) continue;
      for (std::int64_t n = 5121; n <= std::int64_t{1100} * 5120; n = n * 3 / 2 + 997) {
        const auto plan = make_turing_plan(input(n, bytes, packed));
        ASSERT_NE(plan.route, single_pass_route::single_tile);
        EXPECT_EQ(plan.lookback.tiles, ceil_div(n, 5120)) << n;
        EXPECT_EQ(plan.lookback.items_per_thread, 40) << n;
        EXPECT_LE(plan.states.bytes, plan.temp_bytes) << n;
        if (plan.route == single_pass_route::wave) {
          EXPECT_LE(static_cast<std::size_t>(plan.tiles.tiles) * bytes, plan.temp_bytes) << n;
        } else {
          EXPECT_EQ(plan.temp_bytes, plan.states.bytes) << n;
        }
      }
    }
  }
}

TEST(TuringPlan, StatesUpToTwoToTheForty) {
  for (int k = 13; k <= 40; ++k) {
    for (std::int64_t delta : {-1, 0, 1}) {
      const std::int64_t n     = (std::int64_t{1} << k) + delta;
      const std::int64_t tiles = ceil_div(n, 5120);
      for (std::size_t bytes : {4u, 8u, 16u}) {
        const bool packed = bytes <= 8;
        const auto plan   = make_turing_plan(input(n, bytes, packed));
        if (plan.route != single_pass_route::lookback) continue;
        const auto t = static_cast<std::size_t>(tiles);
        ASSERT_EQ(plan.tiles.tiles, tiles) << n;
        EXPECT_EQ(plan.tiles.grid, tiles) << n;  // one block per tile
        EXPECT_EQ(plan.states.status_offset, 256u);
        const std::size_t statuses = 256 + t * (packed ? (bytes <= 4 ? 8 : 16) : 4);
        const std::size_t slots    = packed ? 0 : 2 * up256(t * bytes);
        EXPECT_EQ(plan.temp_bytes, up256(statuses) + slots) << n;
        EXPECT_EQ(plan.states.zero_bytes, packed ? statuses : plan.temp_bytes) << n;
      }
    }
  }
}

TEST(TuringPlan, TwoToTheFortyInt32) {
  constexpr auto plan = make_turing_plan(  // constexpr: pure arithmetic
      {std::int64_t{1} << 40, 4, true, 16, 4096, 16, 4096, 132, true, 1 << 30, true, 8, 8, 8, 0, 1500});
  static_assert(plan.tiles.tiles == (std::int64_t{1} << 28));
  EXPECT_EQ(plan.temp_bytes, 256 + (std::size_t{1} << 31));  // 2^28 words of 8 bytes
}

TEST(TuringPlan, ResidentBlocksHookCapsTheGrid) {
  auto in                   = input(std::int64_t{1} << 30);
  in.resident_blocks_per_sm = 5;
  EXPECT_EQ(make_turing_plan(in).tiles.grid, 132 * 5);
  in.resident_blocks_per_sm = 100;  // no more than fit
  EXPECT_EQ(make_turing_plan(in).tiles.grid, 132 * 8);
  in.n              = std::int64_t{500} * 5120;  // more blocks than tiles: one per tile
  in.wave_max_tiles = 0;
  EXPECT_EQ(make_turing_plan(in).tiles.grid, 500);
}

TEST(TuringPlan, LookbackDelayOnlyBeyondOneWaveOfResidentBlocks) {
  // 132 SMs x 8 blocks: 1056 tiles run at once; the 1057th queues (and a wave takes the problem).
  auto in           = input(std::int64_t{1057} * 5120);
  in.wave_max_tiles = 0;
  EXPECT_EQ(make_turing_plan(in).lookback_delay_ns, 1500u);
  in.n = std::int64_t{1056} * 5120;
  EXPECT_EQ(make_turing_plan(in).lookback_delay_ns, 0u);
  in.n                 = std::int64_t{1} << 30;
  in.lookback_delay_ns = 0;
  EXPECT_EQ(make_turing_plan(in).lookback_delay_ns, 0u);
}

// Large accumulators: every tile of the shipped tuning fits the shared memory every CUDA 13 device
// grants a block (64 KiB with the opt-in on sm_75, the smallest), full tiles and a wave's small ones.
using archscan::test::problem_of;

template <int Bytes>
void expect_tiles_fit_sm75() {
  using dispatch = archscan::dispatch::family_dispatch<archscan::turing_family>;
  using tuning   = archscan::turing_tuning;
  EXPECT_LE((dispatch::full_tile<tuning, archscan::no_hooks, problem_of<Bytes>>::smem_bytes), 64 * 1024) << Bytes;
  EXPECT_LE((dispatch::small_tile<tuning, archscan::no_hooks, problem_of<Bytes>>::smem_bytes), 64 * 1024) << Bytes;
}

TEST(TuringPlan, TilesOfLargeAccumulatorsFitEveryCuda13Device) {
  expect_tiles_fit_sm75<4>();
  expect_tiles_fit_sm75<64>();
  expect_tiles_fit_sm75<160>();
  expect_tiles_fit_sm75<256>();
  expect_tiles_fit_sm75<1024>();
}

}  // namespace
