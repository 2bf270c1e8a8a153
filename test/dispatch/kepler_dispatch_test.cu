// The kepler family's dispatch: its plan (tile shape, route, grid, look-back delay, temporary storage) up to 2^40
// items.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/dispatch/kepler_dispatch.cuh>

namespace {

using archscan::dispatch::kepler_plan_input;
using archscan::dispatch::make_kepler_plan;

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
constexpr std::size_t up256(std::size_t b) { return (b + 255) / 256 * 256; }

kepler_plan_input input(std::int64_t n, std::size_t accum_bytes = 4, bool packed = true, bool fill = true,
                        double fill_blocks_per_sm = 4) {
  // 256 threads x 16 items = 4096-item tiles, 4-item small tiles, 132 SMs x 4 blocks to fill.
  return {n, 256, 16, 4, 4, fill, fill_blocks_per_sm, 132, accum_bytes, packed, 1000};
}

TEST(KeplerPlan, OneFullTileNeedsNoTemporaryStorage) {
  for (std::int64_t n : {1, 2, 255, 4095, 4096}) {
    const auto plan = make_kepler_plan(input(n));
    EXPECT_EQ(plan.tiles.tiles, 1) << n;
    EXPECT_EQ(plan.tiles.items_per_thread, 16) << n;
    EXPECT_EQ(plan.temp_bytes, 0u) << n;
    EXPECT_EQ(plan.states.zero_bytes, 0u) << n;
  }
}

TEST(KeplerPlan, SmallProblemsUseSmallTilesToFillTheGpu) {
  // 4097 items: 2 full tiles < 528 blocks, so 1024-item tiles: 5 of them.
  using archscan::dispatch::tile_shape;
  auto plan = make_kepler_plan(input(4097));
  EXPECT_EQ(plan.tiles.items_per_thread, 4);
  EXPECT_EQ(plan.tiles.shape, tile_shape::small);  // what the launch maps to the small tiles' kernel
  EXPECT_EQ(plan.tiles.tile_items, 1024);
  EXPECT_EQ(plan.tiles.tiles, 5);
  EXPECT_EQ(plan.lookback.shape, tile_shape::small);
  // Exactly enough full tiles to fill: keep them.
  plan = make_kepler_plan(input(std::int64_t{4096} * 528));
  EXPECT_EQ(plan.tiles.items_per_thread, 16);
  EXPECT_EQ(plan.tiles.shape, tile_shape::full);
  EXPECT_EQ(plan.tiles.tiles, 528);
  plan = make_kepler_plan(input(std::int64_t{4096} * 527 + 1));
  EXPECT_EQ(plan.tiles.items_per_thread, 16);
  plan = make_kepler_plan(input(std::int64_t{4096} * 527));
  EXPECT_EQ(plan.tiles.items_per_thread, 4);
  EXPECT_EQ(plan.tiles.tiles, 527 * 4);
  // A fraction of a block per SM: 132 / 16 = 8.25, so 8 full tiles shrink and 9 do not.
  plan = make_kepler_plan(input(std::int64_t{4096} * 8, 4, true, true, 1.0 / 16));
  EXPECT_EQ(plan.tiles.items_per_thread, 4);
  EXPECT_EQ(plan.tiles.tiles, 32);
  plan = make_kepler_plan(input(std::int64_t{4096} * 8 + 1, 4, true, true, 1.0 / 16));
  EXPECT_EQ(plan.tiles.items_per_thread, 16);
  EXPECT_EQ(plan.tiles.tiles, 9);
  // Switched off (an ablation): full tiles at every size.
  plan = make_kepler_plan(input(4097, 4, true, false));
  EXPECT_EQ(plan.tiles.items_per_thread, 16);
  EXPECT_EQ(plan.tiles.tiles, 2);
}

TEST(KeplerPlan, TilesAndStorageFromFirstPrinciples) {
  for (int k = 10; k <= 40; ++k) {
    for (std::int64_t delta : {-1, 0, 1}) {
      const std::int64_t n = (std::int64_t{1} << k) + delta;
      for (std::size_t accum : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
        for (bool packed : {true, false}) {
          if (packed && accum > 8) continue;
          const auto plan          = make_kepler_plan(input(n, accum, packed));
          const std::int64_t full  = ceil_div(n, 4096);
          const bool small         = full > 1 && full < 528;
          const std::int64_t tiles = small ? ceil_div(n, 1024) : full;
          EXPECT_EQ(plan.tiles.tiles, tiles) << n;
          EXPECT_EQ(plan.tiles.items_per_thread, small ? 4 : 16) << n;
          EXPECT_GE(plan.tiles.tiles * plan.tiles.tile_items, n);
          EXPECT_LT((plan.tiles.tiles - 1) * plan.tiles.tile_items, n);
          if (tiles == 1) {
            EXPECT_EQ(plan.temp_bytes, 0u);
            continue;
          }
          EXPECT_EQ(plan.route, archscan::dispatch::single_pass_route::lookback);
          EXPECT_EQ(plan.tiles.grid, tiles);  // one block per tile
          const auto t               = static_cast<std::size_t>(tiles);
          const std::size_t statuses = 256 + t * (packed ? (accum <= 4 ? 8 : 16) : 4);
          const std::size_t values   = packed ? 0 : 2 * up256(t * accum);
          EXPECT_EQ(plan.temp_bytes, up256(statuses) + values) << n;
          EXPECT_EQ(plan.states.zero_bytes, packed ? statuses : plan.temp_bytes) << n;
          if (!packed) {
            EXPECT_EQ(plan.states.aggregates_offset % 256, 0u);
            EXPECT_GE(plan.states.aggregates_offset, statuses);
            EXPECT_GE(plan.states.inclusives_offset, plan.states.aggregates_offset + t * accum);
            EXPECT_LE(plan.states.inclusives_offset + t * accum, plan.temp_bytes);
          }
        }
      }
    }
  }
}

TEST(KeplerPlan, TwoToTheFortyInt32) {
  const auto plan = make_kepler_plan(input(std::int64_t{1} << 40));
  EXPECT_EQ(plan.tiles.tiles, std::int64_t{1} << 28);  // 2^40 / 4096
  EXPECT_EQ(plan.states.zero_bytes, 256 + (std::size_t{1} << 31));
  EXPECT_EQ(plan.temp_bytes, 256 + (std::size_t{1} << 31));
}

TEST(KeplerPlan, TwoToTheFortyWideAccumulatorsFlagsAndValues) {
  const auto plan          = make_kepler_plan({std::int64_t{1} << 40, 256, 6, 2, 4, true, 4, 132, 16, false, 1000});
  const std::int64_t tiles = ceil_div(std::int64_t{1} << 40, 1536);
  EXPECT_EQ(plan.tiles.tiles, tiles);
  EXPECT_LE(plan.tiles.tiles, std::int64_t{INT32_MAX});  // still one grid
  const auto t = static_cast<std::size_t>(tiles);
  EXPECT_EQ(plan.temp_bytes, up256(256 + 4 * t) + 2 * up256(16 * t));
}

TEST(KeplerPlan, LookbackDelayOnlyBeyondOneWaveOfResidentBlocks) {
  // The plan's: 132 SMs x 4 blocks (the register cap's minimum), the input's 1000 ns
  // (dispatch/family_test.cu checks lookback_delay itself).
  EXPECT_EQ(make_kepler_plan(input(std::int64_t{4096} * 528)).lookback_delay_ns, 0u);
  EXPECT_EQ(make_kepler_plan(input(std::int64_t{4096} * 529)).lookback_delay_ns, 1000u);
}

}  // namespace
