// tuning/shape.cuh: the shape every tuning has. Its example rows document the optional fields; here
// each is read by the readers the dispatch uses (tuning/rows.cuh) and by the flat configuration
// (tuning/tile_config.cuh), so that a field the documentation names and the code ignores, or reads
// differently, fails. Host only: all compile-time values.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/tuning.cuh>

namespace shape_test {

namespace d = archscan::detail;
using archscan::example_large_row;
using archscan::example_lookback_row;
using archscan::example_row;
using archscan::example_single_row;
using archscan::example_staged_row;

TEST(TuningShape, APlainRowHasNoOptionalTiles) {
  static_assert(!d::single_tiles<example_row>::present && !d::large_tiles<example_row>::present);
  static_assert(!d::staged_tiles<example_row>::present);
  static_assert(d::tile_threads<example_row, example_row::items_per_thread> == example_row::block_threads);
  static_assert(d::lookback_min_blocks_for<example_row, example_row::items_per_thread> ==
                example_row::min_blocks_per_sm);
  SUCCEED();
}

TEST(TuningShape, TheSingleTilesLadderRunsAsDocumented) {
  using single = d::single_tiles<example_single_row>;
  static_assert(single::present && single::items_per_thread == 4 && single::max_items_per_thread == 16);
  // The ladder's steps (4, 8, 16 here) are tiles of the row; 32 is not.
  static_assert(d::other_tile_of<example_single_row>(8) && !d::other_tile_of<example_single_row>(32));
  SUCCEED();
}

TEST(TuningShape, LargeTilesTakeTheirThreadsBoundsAndWalk) {
  using row   = example_large_row;
  using large = d::large_tiles<row>;
  static_assert(large::present && large::items_per_thread == row::large_items_per_thread);
  static_assert(large::block_threads == row::large_block_threads && large::from_items == row::large_from_items);
  static_assert(d::tile_threads<row, row::large_items_per_thread> == row::large_block_threads);
  static_assert(d::tile_threads<row, row::items_per_thread> == row::block_threads);
  static_assert(d::min_blocks_for<row, row::large_items_per_thread> == row::large_min_blocks_per_sm);
  static_assert(d::large_tiles_chained<row, row::large_items_per_thread>);
  static_assert(!d::large_tiles_chained<row, row::items_per_thread>);
  SUCCEED();
}

// The example's values equal the defaults; a row of its shape with other values tells them apart.
struct lookback_row : example_lookback_row {
  static constexpr int min_blocks_per_sm          = 4;
  static constexpr int lookback_min_blocks_per_sm = 2;
};

TEST(TuningShape, TheLookBacksOwnMinimumHoldsForFullTilesOnly) {
  using row = lookback_row;
  static_assert(d::lookback_min_blocks_for<row, row::items_per_thread> == 2);
  // Any other tile of the row (half the full tile's items here) keeps the row's minimum.
  static_assert(d::lookback_min_blocks_for<row, row::items_per_thread / 2> == 4);
  using c = archscan::tile_config<archscan::native_tuning, row, row::items_per_thread>;
  static_assert(c::lookback_min_blocks_per_sm == 2 && c::min_blocks_per_sm == 4);
  SUCCEED();
}

TEST(TuningShape, TheStagedLookBacksFields) {
  using staged = d::staged_tiles<example_staged_row>;
  static_assert(staged::present && staged::from_items == example_staged_row::staged_from_items);
  static_assert(staged::min_blocks_per_sm == example_staged_row::staged_min_blocks_per_sm);
  using c = archscan::tile_config<archscan::native_tuning, example_staged_row, example_staged_row::items_per_thread>;
  static_assert(c::staged_min_blocks_per_sm == example_staged_row::staged_min_blocks_per_sm);
  SUCCEED();
}

}  // namespace shape_test
