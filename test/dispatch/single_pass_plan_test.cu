// dispatch/single_pass_plan.cuh: the plan of the single-pass families is a value. It is made once by a
// family's plan and read by its launch, so it must copy as plain bytes (no owner, no pointer into the
// dispatch), default to the route that needs nothing (one tile, no temporary storage), and be usable
// in constant expressions, where the plan's arithmetic (dispatch/route_plan.cuh) builds it. Host only.

#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/dispatch/single_pass_plan.cuh>

namespace {

using archscan::dispatch::single_pass_plan;
using archscan::dispatch::single_pass_route;
using archscan::dispatch::tile_grid;

static_assert(std::is_trivially_copyable_v<single_pass_plan> && std::is_trivially_copyable_v<tile_grid>);
static_assert(std::is_standard_layout_v<single_pass_plan>);

constexpr single_pass_plan staged_plan() {
  single_pass_plan pl{};
  pl.route      = single_pass_route::lookback;
  pl.tiles      = tile_grid{32, 8192, 1 << 17, 396};
  pl.lookback   = pl.tiles;
  pl.first_set  = 396;
  pl.staged     = true;
  pl.states     = archscan::tile::make_tile_state_layout(pl.lookback.tiles, 4, true);
  pl.temp_bytes = pl.states.bytes;
  return pl;
}

// The look-back's first-poll delay: only beyond one wave of resident blocks.
TEST(SinglePassPlan, LookbackDelayOnlyBeyondOneWaveOfResidentBlocks) {
  EXPECT_EQ(archscan::dispatch::lookback_delay(5, 132 * 4, 1000), 0u);
  EXPECT_EQ(archscan::dispatch::lookback_delay(528, 132 * 4, 1000), 0u);
  EXPECT_EQ(archscan::dispatch::lookback_delay(529, 132 * 4, 1000), 1000u);
  EXPECT_EQ(archscan::dispatch::lookback_delay(std::int64_t{1} << 30, 132 * 4, 0), 0u);
}

TEST(SinglePassPlan, DefaultsToOneTileAndNoStorage) {
  constexpr single_pass_plan pl{};
  static_assert(pl.route == single_pass_route::single_tile);
  static_assert(pl.temp_bytes == 0 && pl.states.bytes == 0);
  static_assert(pl.tiles.tiles == 0 && pl.lookback.grid == 0 && pl.first_set == 0);
  static_assert(!pl.dependent_launch && !pl.staged && !pl.wave_in_order && pl.lookback_delay_ns == 0);
  SUCCEED();
}

TEST(SinglePassPlan, IsAValueBuiltInConstantExpressions) {
  constexpr single_pass_plan made = staged_plan();
  static_assert(made.route == single_pass_route::lookback && made.staged);
  static_assert(made.temp_bytes > 0 && made.temp_bytes == made.states.bytes);
  // A copy is the plan: changing it leaves the original as it was.
  single_pass_plan copy = made;
  copy.route            = single_pass_route::wave;
  copy.tiles.grid       = 1;
  EXPECT_EQ(made.route, single_pass_route::lookback);
  EXPECT_EQ(made.tiles.grid, 396);
  EXPECT_EQ(copy.lookback.grid, 396);
  EXPECT_EQ(copy.states.bytes, made.states.bytes);
}

}  // namespace
