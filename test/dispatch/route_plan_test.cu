// The plan of the families that look back (turing and native) as host arithmetic
// (dispatch/route_plan.cuh): route, tiles, grid, look-back delay and tile-state storage up to 2^40
// items, from a plan input that names the device's facts as numbers; and native's choices of tiles.

#include <cstddef>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <archscan/dispatch/route_plan.cuh>

namespace {

using archscan::dispatch::make_single_pass_plan;
using archscan::dispatch::single_pass_plan_input;
using archscan::dispatch::single_pass_route;

std::size_t up256(std::size_t b) { return (b + 255) / 256 * 256; }

single_pass_plan_input input(std::int64_t n, std::size_t bytes = 4, bool packed = true, bool prefix_chain = false) {
  return {n, bytes, packed, 40, 5120, 132, 8, 0, true, 1 << 30, 8, prefix_chain};
}

TEST(NativePlan, StagedFromItsSizeOnFastMemory) {
  using archscan::dispatch::native_staged;
  constexpr std::int64_t from = std::int64_t{1} << 27;
  EXPECT_TRUE(native_staged(from, from, 4917, 4000));  // H200: 3201 MHz x 6144 bits
  EXPECT_FALSE(native_staged(from - 1, from, 4917, 4000));
  EXPECT_FALSE(native_staged(from, from, 3352, 4000));  // H100: 2619 MHz x 5120 bits
  EXPECT_TRUE(native_staged(from, from, 3352, 0));      // 0: every device
  EXPECT_FALSE(native_staged(std::int64_t{1} << 40, INT64_MAX, 4917, 0));
}

TEST(NativePlan, OneTileNeedsNoTemporaryStorage) {
  for (std::int64_t n : {1, 2, 5119, 5120}) {
    const auto plan = make_single_pass_plan(input(n));
    EXPECT_EQ(plan.route, single_pass_route::single_tile) << n;
    EXPECT_EQ(plan.temp_bytes, 0u) << n;
  }
}

TEST(NativePlan, OneBlockPerTileAndTheStatesUpToTwoToTheForty) {
  for (int k = 13; k <= 40; ++k) {
    for (std::int64_t delta : {-1, 0, 1}) {
      const std::int64_t n     = (std::int64_t{1} << k) + delta;
      const std::int64_t tiles = (n + 5119) / 5120;
      for (std::size_t bytes : {4u, 8u, 16u}) {
        for (const bool chain : {false, true}) {
          const bool packed = bytes <= 8;
          const auto plan   = make_single_pass_plan(input(n, bytes, packed, chain));
          ASSERT_NE(plan.route, single_pass_route::single_tile) << n;
          EXPECT_EQ(plan.route, tiles <= 132 * 8 ? single_pass_route::wave : single_pass_route::lookback) << n;
          EXPECT_EQ(plan.tiles.tiles, tiles) << n;
          EXPECT_EQ(plan.tiles.grid, tiles) << n;
          // The tiles' states, then the segments' unless the look-back takes the chain of prefixes.
          const auto t               = static_cast<std::size_t>(tiles + (chain ? 0 : (tiles + 31) / 32));
          const auto aggregates      = static_cast<std::size_t>(tiles);
          const std::size_t statuses = 256 + t * (packed ? (bytes <= 4 ? 8 : 16) : 4);
          const std::size_t slots    = packed ? 0 : 2 * up256(t * bytes);
          EXPECT_EQ(plan.states.bytes, up256(statuses) + slots) << n;
          // The most either path needs, no more: a wave's aggregates, or the look-back's states (a
          // wave's fallback where the driver refuses its cooperative launch runs in the same storage).
          const std::size_t wave_bytes = plan.route == single_pass_route::wave ? up256(aggregates * bytes) : 0;
          EXPECT_EQ(plan.temp_bytes, std::max(plan.states.bytes, wave_bytes)) << n;
        }
      }
    }
  }
}

TEST(NativePlan, ExactWavesFoldInOrderPastTheTreesLongestRun) {
  using archscan::dispatch::native_wave_in_order;
  // The last tile's lanes fold ceil((tiles - 1) / 32) aggregates each: 16-byte ones up to 128 bytes
  // for 257 tiles.
  EXPECT_FALSE(native_wave_in_order(257, 16, 128));
  EXPECT_TRUE(native_wave_in_order(258, 16, 128));
  EXPECT_FALSE(native_wave_in_order(1025, 4, 128));
  EXPECT_TRUE(native_wave_in_order(1026, 4, 128));
  EXPECT_FALSE(native_wave_in_order(65, 4, 8));  // determinism_test.cu's native_short_tree_runs
  EXPECT_TRUE(native_wave_in_order(66, 4, 8));
  EXPECT_FALSE(native_wave_in_order(33, 8, 8));
  EXPECT_TRUE(native_wave_in_order(34, 8, 8));
  EXPECT_TRUE(native_wave_in_order(2, 1, 0));
  EXPECT_FALSE(native_wave_in_order(std::int64_t{1} << 40, 1024, ~std::size_t{0}));
  // The plan carries the choice for its wave, a function of n and the tuning alone; by default (an
  // operator that folds in order anyway, or a tuning without the limit) it is never taken.
  auto in = input(std::int64_t{258} * 5120, 16, false);
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::wave);
  EXPECT_FALSE(make_single_pass_plan(in).wave_in_order);
  in.wave_tree_max_run_bytes = 128;
  EXPECT_TRUE(make_single_pass_plan(in).wave_in_order);
  EXPECT_EQ(make_single_pass_plan(in).wave_in_order, native_wave_in_order(258, 16, 128));  // its 258 tiles
  in.sm_count = 1000;
  EXPECT_TRUE(make_single_pass_plan(in).wave_in_order);
  in.n = std::int64_t{257} * 5120;
  EXPECT_FALSE(make_single_pass_plan(in).wave_in_order);
  EXPECT_EQ(make_single_pass_plan(in).wave_in_order, native_wave_in_order(257, 16, 128));
  in.cooperative = false;  // the look-back: nothing to choose
  EXPECT_FALSE(make_single_pass_plan(in).wave_in_order);
  // Whatever the shape of the tiles: native's small tiles fold their waves by the same rule
  // (thrust/determinism_exact_test.cu: 70 small tiles of a short-run tuning, in order).
  in                         = input(std::int64_t{69} * 4096 + 5, 4, true);
  in.items_per_thread        = 16;
  in.tile_items              = 4096;
  in.shape                   = archscan::dispatch::tile_shape::small;
  in.wave_tree_max_run_bytes = 8;
  const auto small_wave      = make_single_pass_plan(in);
  EXPECT_EQ(small_wave.route, single_pass_route::wave);
  EXPECT_EQ(small_wave.tiles.shape, archscan::dispatch::tile_shape::small);
  EXPECT_TRUE(small_wave.wave_in_order);  // 70 tiles: a lane's run of 3 aggregates, 12 bytes > 8
}

TEST(NativePlan, TheSamePlanOnEveryDevice) {
  // What the association depends on (tiles and their size) is the same on a GPU of any size.
  auto small = input(std::int64_t{1} << 28), large = input(std::int64_t{1} << 28);
  small.sm_count      = 20;
  small.blocks_per_sm = 2;
  large.sm_count      = 148;
  const auto a = make_single_pass_plan(small), b = make_single_pass_plan(large);
  EXPECT_EQ(a.tiles.tiles, b.tiles.tiles);
  EXPECT_EQ(a.tiles.tile_items, b.tiles.tile_items);
  EXPECT_EQ(a.tiles.grid, b.tiles.grid);
  EXPECT_EQ(a.temp_bytes, b.temp_bytes);
}

TEST(NativePlan, WaveWhileEveryTileFitsAndNeverWithTheResidentHook) {
  EXPECT_EQ(make_single_pass_plan(input(std::int64_t{1056} * 5120)).route, single_pass_route::wave);
  EXPECT_EQ(make_single_pass_plan(input(std::int64_t{1056} * 5120 + 1)).route, single_pass_route::lookback);
  auto in        = input(20000);
  in.cooperative = false;
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
  in                        = input(20000);
  in.resident_blocks_per_sm = 2;
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
  // The tiles are the same whichever route: that is what keeps the bits the same.
  auto no_wave           = input(20000);
  no_wave.wave_max_tiles = 0;
  EXPECT_EQ(make_single_pass_plan(no_wave).tiles.tile_items, make_single_pass_plan(input(20000)).tiles.tile_items);
}

TEST(NativePlan, OneClusterUpToItsSizeWithoutStorage) {
  using archscan::dispatch::native_cluster_candidate;
  auto in              = input(16 * 5120);
  in.cluster_max_tiles = 16;
  const auto plan      = make_single_pass_plan(in);
  EXPECT_EQ(plan.route, single_pass_route::cluster);
  EXPECT_EQ(plan.tiles.tiles, 16);
  EXPECT_EQ(plan.tiles.grid, 16);
  EXPECT_EQ(plan.temp_bytes, 0u);
  in.n = 5121;  // two tiles
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::cluster);
  in.n = 16 * 5120 + 1;  // 17 tiles: a wave
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::wave);
  in.n = 5120;  // one tile
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::single_tile);
  in.n                      = 8 * 5120;
  in.resident_blocks_per_sm = 2;  // the hook asks for the look-back
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
  EXPECT_EQ(make_single_pass_plan(input(8 * 5120)).route, single_pass_route::wave);  // no cluster fits: a wave
  // The tiles are the wave's: the same bits.
  EXPECT_EQ(plan.tiles.tile_items, make_single_pass_plan(input(16 * 5120)).tiles.tile_items);
  // Asked about only where the tuning allows it, on sm_90 on, for 2..max tiles, without the hook.
  EXPECT_TRUE(native_cluster_candidate(2, 16, 9, 0));
  EXPECT_TRUE(native_cluster_candidate(16, 16, 10, 0));
  EXPECT_FALSE(native_cluster_candidate(17, 16, 9, 0));
  EXPECT_FALSE(native_cluster_candidate(1, 16, 9, 0));
  EXPECT_FALSE(native_cluster_candidate(8, 16, 8, 0));
  EXPECT_FALSE(native_cluster_candidate(8, 0, 9, 0));
  EXPECT_FALSE(native_cluster_candidate(8, 16, 9, 2));
}

TEST(NativePlan, SmallTilesByNAlone) {
  using archscan::dispatch::native_small_tiles;
  // 2048-item small tiles against 5120-item full ones, at most 132 of them.
  EXPECT_FALSE(native_small_tiles(5120, 5120, 2048, 132));  // one full tile: the single-tile route
  EXPECT_TRUE(native_small_tiles(5121, 5120, 2048, 132));
  EXPECT_TRUE(native_small_tiles(132 * 2048, 5120, 2048, 132));
  EXPECT_FALSE(native_small_tiles(132 * 2048 + 1, 5120, 2048, 132));
  EXPECT_FALSE(native_small_tiles(20000, 5120, 2048, 0));    // off
  EXPECT_FALSE(native_small_tiles(20000, 5120, 5120, 132));  // no smaller tiles
}

TEST(NativePlan, FullTilesFirstByNAlone) {
  using archscan::dispatch::native_full_tiles_first;
  // Up to 16 full tiles of 4096 items against 1024-item small tiles, 8-byte accumulators (24 KiB
  // more a full tile): full tiles while at most 16 of them cover n and small ones number more.
  EXPECT_FALSE(native_full_tiles_first(16 * 1024, 4096, 1024, 16, 8, 24 * 1024));
  EXPECT_TRUE(native_full_tiles_first(16 * 1024 + 1, 4096, 1024, 16, 8, 24 * 1024));
  EXPECT_TRUE(native_full_tiles_first(16 * 4096, 4096, 1024, 16, 8, 24 * 1024));
  EXPECT_FALSE(native_full_tiles_first(16 * 4096 + 1, 4096, 1024, 16, 8, 24 * 1024));
  EXPECT_FALSE(native_full_tiles_first(16 * 1024 + 1, 4096, 1024, 0, 8, 24 * 1024));    // off
  EXPECT_FALSE(native_full_tiles_first(16 * 1024 + 1, 4096, 1024, 16, 16, 24 * 1024));  // 48 KiB more
  EXPECT_FALSE(native_full_tiles_first(16 * 1024 + 1, 4096, 1024, 16, 8, 0));
  EXPECT_FALSE(native_full_tiles_first(16 * 1024 + 1, 4096, 1024, 16, 8, -1));       // no byte limit
  EXPECT_FALSE(native_full_tiles_first(16 * 1024 + 1, 1024, 4096, 16, 8, 1 << 30));  // not smaller
}

TEST(NativePlan, SmallTilesKeepTheirShape) {
  // the plan over the chosen shape keeps it, whichever route the device allows
  auto in             = input(20000);
  in.items_per_thread = 16;
  in.tile_items       = 2048;
  EXPECT_EQ(make_single_pass_plan(in).tiles.tile_items, 2048);
  in.cooperative = false;
  EXPECT_EQ(make_single_pass_plan(in).tiles.tile_items, 2048);
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
}

TEST(NativePlan, TheTilesNameTheirShapeOnEveryRoute) {
  // The launch maps the shape (and a single tile's step of the ladder) to its kernel: the plan keeps
  // what the dispatch chose, in the route's tiles and in the look-back's that a refused wave takes.
  using archscan::dispatch::tile_shape;
  for (const tile_shape shape : {tile_shape::full, tile_shape::small, tile_shape::large, tile_shape::single}) {
    for (std::int64_t n : {std::int64_t{100}, std::int64_t{3} * 5120, std::int64_t{1} << 30}) {
      for (const bool cooperative : {true, false}) {
        auto in              = input(n);
        in.shape             = shape;
        in.single_step       = shape == tile_shape::single ? 2 : 0;
        in.cooperative       = cooperative;
        in.cluster_max_tiles = cooperative ? 4 : 0;
        const auto plan      = make_single_pass_plan(in);
        EXPECT_EQ(plan.tiles.shape, shape) << n;
        EXPECT_EQ(plan.tiles.single_step, in.single_step) << n;
        if (plan.route != single_pass_route::single_tile) {
          EXPECT_EQ(plan.lookback.shape, shape) << n;
          EXPECT_EQ(plan.lookback.single_step, in.single_step) << n;
        }
      }
    }
  }
  EXPECT_EQ(make_single_pass_plan(input(20000)).tiles.shape, tile_shape::full);  // the input's default
}

TEST(NativePlan, FirstSetIsWhatTheDeviceHoldsAtOnce) {
  // The look-back paces the loads of the tiles the device holds at once (132 SMs x 8 blocks here):
  // timing only, so the tiles do not change with it.
  EXPECT_EQ(make_single_pass_plan(input(std::int64_t{1} << 30)).first_set, 132 * 8);
  auto small          = input(std::int64_t{1} << 30);
  small.sm_count      = 20;
  small.blocks_per_sm = 2;
  EXPECT_EQ(make_single_pass_plan(small).first_set, 40);
  EXPECT_EQ(make_single_pass_plan(small).tiles.tile_items,
            make_single_pass_plan(input(std::int64_t{1} << 30)).tiles.tile_items);
  EXPECT_EQ(make_single_pass_plan(input(3 * 5120)).first_set, 3);  // never more than the tiles
  EXPECT_FALSE(
      make_single_pass_plan(input(std::int64_t{1} << 30)).dependent_launch);  // the dispatch's call, not the plan's
}

TEST(NativePlan, ResidentBlocksHookCapsTheGrid) {
  auto in                   = input(std::int64_t{1} << 30);
  in.resident_blocks_per_sm = 2;
  EXPECT_EQ(make_single_pass_plan(in).tiles.grid, 132 * 2);
  in.resident_blocks_per_sm = 100;
  EXPECT_EQ(make_single_pass_plan(in).tiles.grid, 132 * 8);
}

//! turing's int32 row on an H100-like device: 5120-item tiles whose look-back walks one state a tile
//! (the chain) with a 1500 ns delay, a wave of 2048-item small tiles, 8 blocks an SM of every kernel.
single_pass_plan_input turing_input(std::int64_t n, std::size_t accum_bytes = 4, bool packed = true) {
  auto in                     = input(n, accum_bytes, packed, true);
  in.lookback_delay_ns        = 1500;
  in.small_items_per_thread   = 16;
  in.small_tile_items         = 2048;
  in.small_wave_blocks_per_sm = 8;
  return in;
}
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
using archscan::dispatch::tile_shape;

TEST(TuringPlan, OneTileNeedsNoTemporaryStorage) {
  for (std::int64_t n : {1, 2, 4095, 5120}) {
    for (std::size_t bytes : {1u, 4u, 8u, 16u, 40u}) {
      const auto plan = make_single_pass_plan(turing_input(n, bytes, bytes <= 8));
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
    const auto plan = make_single_pass_plan(turing_input(n));
    EXPECT_EQ(plan.route, single_pass_route::wave) << n;
    EXPECT_EQ(plan.tiles.items_per_thread, 16) << n;
    EXPECT_EQ(plan.tiles.shape, tile_shape::small) << n;  // what the launch maps to the small kernel
    EXPECT_EQ(plan.tiles.tiles, ceil_div(n, 2048)) << n;
    EXPECT_EQ(plan.lookback.shape, tile_shape::full) << n;  // a refused wave's fallback: full tiles
  }
  auto plan = make_single_pass_plan(turing_input(std::int64_t{132} * 2048 + 1));
  EXPECT_EQ(plan.route, single_pass_route::wave);
  EXPECT_EQ(plan.tiles.items_per_thread, 40);
  EXPECT_EQ(plan.tiles.shape, tile_shape::full);
  EXPECT_EQ(plan.tiles.tiles, ceil_div(132 * 2048 + 1, 5120));
  // Small tiles switched off, or a row without smaller ones: full tiles.
  auto in             = turing_input(20000);
  in.small_tile_items = 0;
  EXPECT_EQ(make_single_pass_plan(in).tiles.items_per_thread, 40);
  in                        = turing_input(20000);
  in.small_items_per_thread = 40;
  in.small_tile_items       = 5120;
  EXPECT_EQ(make_single_pass_plan(in).tiles.items_per_thread, 40);
}

TEST(TuringPlan, WaveWhileEveryTileFitsOnTheDevice) {
  // 132 SMs x 8 blocks: 1056 full tiles fit at once, 1057 do not.
  EXPECT_EQ(make_single_pass_plan(turing_input(std::int64_t{1056} * 5120)).route, single_pass_route::wave);
  EXPECT_EQ(make_single_pass_plan(turing_input(std::int64_t{1056} * 5120 + 1)).route, single_pass_route::lookback);
  // No cooperative launch, no wave at all, or a wave kernel that fits fewer blocks.
  auto in        = turing_input(20000);
  in.cooperative = false;
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
  in                = turing_input(20000);
  in.wave_max_tiles = 0;
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
  in                    = turing_input(std::int64_t{600} * 5120);
  in.wave_blocks_per_sm = 4;  // 528 fit
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
  in.small_wave_blocks_per_sm = 0;  // a small wave that does not fit falls back to full tiles
  in.n                        = 20000;
  const auto plan             = make_single_pass_plan(in);
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
        const auto plan = make_single_pass_plan(turing_input(n, bytes, packed));
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
        const auto plan   = make_single_pass_plan(turing_input(n, bytes, packed));
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
  constexpr auto plan = make_single_pass_plan(  // constexpr: pure arithmetic
      {std::int64_t{1} << 40, 4, true, 16, 4096, 132, 8, 0, true, 1 << 30, 8, true});
  static_assert(plan.tiles.tiles == (std::int64_t{1} << 28));
  EXPECT_EQ(plan.temp_bytes, 256 + (std::size_t{1} << 31));  // 2^28 words of 8 bytes
}

TEST(TuringPlan, ResidentBlocksHookCapsTheGridAndTakesNoWave) {
  auto in                   = turing_input(std::int64_t{1} << 30);
  in.resident_blocks_per_sm = 5;
  EXPECT_EQ(make_single_pass_plan(in).tiles.grid, 132 * 5);
  in.resident_blocks_per_sm = 100;  // no more than fit
  EXPECT_EQ(make_single_pass_plan(in).tiles.grid, 132 * 8);
  in.n = std::int64_t{500} * 5120;  // more blocks than tiles: one per tile
  EXPECT_EQ(make_single_pass_plan(in).tiles.grid, 500);
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);  // the hook asks for it: no wave
  in.n = 20000;                                                             // nor a wave of small tiles
  EXPECT_EQ(make_single_pass_plan(in).route, single_pass_route::lookback);
}

TEST(TuringPlan, LookbackDelayOnlyBeyondOneWaveOfResidentBlocks) {
  // 132 SMs x 8 blocks: 1056 tiles run at once; the 1057th queues (and a wave takes the problem).
  auto in           = turing_input(std::int64_t{1057} * 5120);
  in.wave_max_tiles = 0;
  EXPECT_EQ(make_single_pass_plan(in).lookback_delay_ns, 1500u);
  in.n = std::int64_t{1056} * 5120;
  EXPECT_EQ(make_single_pass_plan(in).lookback_delay_ns, 0u);
  in.n                 = std::int64_t{1} << 30;
  in.lookback_delay_ns = 0;
  EXPECT_EQ(make_single_pass_plan(in).lookback_delay_ns, 0u);
}

// run_route: the launch side of a plan, with callables that record what ran.
TEST(RunRoute, EachRouteRunsItsOwnLauncherAndARefusedWaveTheLookBack) {
  using archscan::dispatch::run_route;
  using archscan::dispatch::single_pass_plan;
  const auto ran = [](single_pass_route route, bool wave_launched) {
    single_pass_plan pl{};
    pl.route = route;
    std::string log;
    run_route(
        pl, [&] { log += "single "; }, [&] { log += "cluster "; },
        [&] {
          log += "wave ";
          return wave_launched;
        },
        [&] { log += "lookback "; });
    return log;
  };
  EXPECT_EQ(ran(single_pass_route::single_tile, true), "single ");
  EXPECT_EQ(ran(single_pass_route::cluster, true), "cluster ");
  EXPECT_EQ(ran(single_pass_route::wave, true), "wave ");
  EXPECT_EQ(ran(single_pass_route::wave, false), "wave lookback ");  // refused: the plan's fallback
  EXPECT_EQ(ran(single_pass_route::lookback, true), "lookback ");
}

}  // namespace
