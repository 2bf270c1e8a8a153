// tuning/rows.cuh: how dispatch reads a tuning. On made-up tunings, so that each rule shows alone: the row
// an accumulator's size chooses (narrow rows or row_4, keyed rows by the value's size, a type's own
// row_bytes), each optional row field's default where a row leaves it out and its value where a row
// states it, and the same for a tuning's optional native fields. Host only: all compile-time values.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/detail/keyed.cuh>
#include <archscan/tuning.cuh>

namespace rows_test {

using archscan::row_for;
using archscan::row_for_accum;
namespace d = archscan::detail;

template <int Id>
struct row {  // a plain row: the fields every row has, and nothing optional
  static constexpr int block_threads          = 128;
  static constexpr int items_per_thread       = 8 + Id;
  static constexpr int small_items_per_thread = 4;
  static constexpr int min_blocks_per_sm      = 2;
};
struct wide_rows {
  using row_4     = row<4>;
  using row_8     = row<8>;
  using row_16    = row<16>;
  using row_large = row<32>;
};
struct narrow_too : wide_rows {
  using row_1 = row<1>;
  using row_2 = row<2>;
};
struct keyed_too : narrow_too {
  struct keyed_rows : wide_rows {
    using row_1 = row<101>;
    using row_2 = row<102>;
    using row_4 = row<104>;
  };
};
template <std::size_t N>
struct bytes {
  unsigned char b[N];
};
struct states_its_registers {
  double a, b;                                 // 16 bytes
  static constexpr std::size_t row_bytes = 4;  // but chooses as 4
};

TEST(TuningRows, TheAccumulatorsSizeChoosesTheRow) {
  EXPECT_TRUE((std::is_same_v<row_for<wide_rows, 1>, row<4>>));  // no narrow rows: row_4 serves
  EXPECT_TRUE((std::is_same_v<row_for<wide_rows, 2>, row<4>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 1>, row<1>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 2>, row<2>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 3>, row<4>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 4>, row<4>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 5>, row<8>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 8>, row<8>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 9>, row<16>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 16>, row<16>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 17>, row<32>>));
  EXPECT_TRUE((std::is_same_v<row_for<narrow_too, 1024>, row<32>>));
}

TEST(TuningRows, ATypeMayStateTheBytesThatChooseItsRow) {
  EXPECT_TRUE((std::is_same_v<row_for_accum<narrow_too, bytes<12>>, row<16>>));
  EXPECT_TRUE((std::is_same_v<row_for_accum<narrow_too, states_its_registers>, row<4>>));
}

TEST(TuningRows, ByKeyItemsTakeKeyedRowsByTheValuesSize) {
  // With keyed_rows: the value's size alone (a keyed<int16> is 2 bytes of value).
  EXPECT_TRUE((std::is_same_v<row_for_accum<keyed_too, d::keyed<std::int16_t>>, row<102>>));
  EXPECT_TRUE((std::is_same_v<row_for_accum<keyed_too, d::keyed<float>>, row<104>>));
  EXPECT_TRUE((std::is_same_v<row_for_accum<keyed_too, d::keyed<double>>, row<8>>));
  // Without: the plain rows by the item's row_bytes (the value's words and one word of flags).
  EXPECT_EQ(d::row_bytes<d::keyed<std::int16_t>>::value, 8u);
  EXPECT_TRUE((std::is_same_v<row_for_accum<narrow_too, d::keyed<std::int16_t>>, row<8>>));
  EXPECT_TRUE((std::is_same_v<row_for_accum<narrow_too, d::keyed<double>>, row<16>>));
  EXPECT_TRUE((std::is_same_v<row_for_accum<narrow_too, d::keyed<bytes<16>>>, row<32>>));
}

struct single_row : row<0> {
  static constexpr int single_items_per_thread = 2;
};
struct ladder_row : single_row {
  static constexpr int single_max_items_per_thread = 16;  // 2, 4, 8, 16: 16 is no other tile's
};
struct large_row : row<0> {
  static constexpr int large_items_per_thread     = 24;
  static constexpr int large_min_blocks_per_sm    = 1;
  static constexpr std::int64_t large_from_items  = std::int64_t{1} << 24;
  static constexpr int lookback_min_blocks_per_sm = 3;
  static constexpr int small_tiles_max            = 7;
  static constexpr std::int64_t staged_from_items = std::int64_t{1} << 27;
  static constexpr int staged_min_blocks_per_sm   = 5;
};
struct own_threads_row : large_row {
  static constexpr int large_block_threads = 192;
  static constexpr bool large_chained      = true;
};

TEST(TuningRows, OptionalTilesDefaultToAbsent) {
  using plain = row<0>;
  EXPECT_FALSE(d::single_tiles<plain>::present);
  EXPECT_EQ(d::single_tiles<plain>::max_items_per_thread, plain::items_per_thread);
  EXPECT_FALSE(d::large_tiles<plain>::present);
  EXPECT_EQ(d::large_tiles<plain>::from_items, INT64_MAX);  // never taken
  EXPECT_FALSE(d::staged_tiles<plain>::present);
  EXPECT_EQ(d::staged_tiles<plain>::from_items, INT64_MAX);
  EXPECT_FALSE((d::is_large_tile<plain, plain::items_per_thread>));
  EXPECT_EQ((d::tile_threads<plain, plain::items_per_thread>), plain::block_threads);
  EXPECT_EQ((d::min_blocks_for<plain, plain::items_per_thread>), plain::min_blocks_per_sm);
  EXPECT_EQ((d::lookback_min_blocks_for<plain, plain::items_per_thread>), plain::min_blocks_per_sm);
  EXPECT_EQ((d::small_tiles_max<archscan::native_tuning, plain>::value), archscan::native_tuning::small_tiles_max);
}

TEST(TuningRows, SingleTilesAndTheirLadder) {
  EXPECT_TRUE(d::single_tiles<single_row>::present);
  EXPECT_EQ(d::single_tiles<single_row>::items_per_thread, 2);
  EXPECT_EQ(d::single_tiles<single_row>::max_items_per_thread, 2);  // no ladder: one step
  EXPECT_EQ(d::single_tiles<ladder_row>::max_items_per_thread, 16);
  EXPECT_TRUE(d::other_tile_of<ladder_row>(16));  // the ladder's top step alone
  EXPECT_TRUE(d::other_tile_of<ladder_row>(2));   // and its first
  EXPECT_FALSE(d::other_tile_of<ladder_row>(32));
  EXPECT_FALSE(d::other_tile_of<single_row>(16));  // no ladder: the single tile of 2 alone
  EXPECT_FALSE(d::other_tile_of<row<0>>(2));       // no single tiles
}

TEST(TuningRows, LargeTilesStatedByTheRow) {
  constexpr int large = large_row::large_items_per_thread, full = large_row::items_per_thread;
  EXPECT_TRUE(d::large_tiles<large_row>::present);
  EXPECT_TRUE((d::is_large_tile<large_row, large>));
  EXPECT_FALSE((d::is_large_tile<large_row, full>));
  EXPECT_EQ((d::tile_threads<large_row, large>), large_row::block_threads);  // no threads of their own
  EXPECT_EQ((d::tile_threads<own_threads_row, large>), 192);
  EXPECT_EQ((d::tile_threads<own_threads_row, full>), own_threads_row::block_threads);
  EXPECT_EQ((d::min_blocks_for<large_row, large>), 1);
  EXPECT_EQ((d::min_blocks_for<large_row, full>), 2);
  EXPECT_EQ((d::lookback_min_blocks_for<large_row, full>), 3);   // the look-back kernel's own minimum
  EXPECT_EQ((d::lookback_min_blocks_for<large_row, large>), 1);  // full tiles only
  EXPECT_FALSE((d::large_tiles_chained<large_row, large>));
  EXPECT_TRUE((d::large_tiles_chained<own_threads_row, large>));
  EXPECT_FALSE((d::large_tiles_chained<own_threads_row, full>));
  EXPECT_TRUE(d::staged_tiles<large_row>::present);
  EXPECT_EQ(d::staged_tiles<large_row>::min_blocks_per_sm, 5);
}

struct no_small_tiles : archscan::native_tuning {
  static constexpr int small_tiles_max = 0;
};
TEST(TuningRows, SmallTilesTheRowsOwnElseTheTuningsAndZeroTurnsThemOff) {
  EXPECT_EQ((d::small_tiles_max<archscan::native_tuning, large_row>::value), 7);
  EXPECT_EQ((d::small_tiles_max<no_small_tiles, large_row>::value), 0);
  EXPECT_EQ((d::small_tiles_max<no_small_tiles, row<0>>::value), 0);
}

struct bare_tuning {};
struct every_native_field {
  static constexpr double first_set_stagger_cycles_per_kib = 0.5;
  static constexpr int l2_prefetch_ahead_percent           = 25;
  static constexpr std::size_t bulk_store_min_bytes        = 4096;
  static constexpr std::size_t wave_tree_max_run_bytes     = 256;
  static constexpr int staged_min_memory_gbps              = 3000;
  static constexpr bool dependent_launch                   = true;
  static constexpr bool packed_dot_sums                    = true;
};
TEST(TuningRows, OptionalTuningFieldsDefaultToOff) {
  EXPECT_EQ(d::stagger_cycles_per_kib<bare_tuning>::value, 0.0);
  EXPECT_EQ(d::l2_prefetch_ahead_percent<bare_tuning>::value, 0);
  EXPECT_EQ(d::bulk_store_min_bytes<bare_tuning>::value, 0u);
  EXPECT_EQ(d::wave_tree_max_run_bytes<bare_tuning>::value, ~std::size_t{0});
  EXPECT_EQ(d::staged_min_memory_gbps<bare_tuning>::value, 0);  // every device
  EXPECT_FALSE(d::dependent_launch<bare_tuning>::value);
  EXPECT_FALSE(d::packed_dot_sums<bare_tuning>::value);
  EXPECT_FALSE(d::packed_dot_sums<archscan::native_tuning>::value) << "shipped off until measured";
  EXPECT_EQ(d::stagger_cycles_per_kib<every_native_field>::value, 0.5);
  EXPECT_EQ(d::l2_prefetch_ahead_percent<every_native_field>::value, 25);
  EXPECT_EQ(d::bulk_store_min_bytes<every_native_field>::value, 4096u);
  EXPECT_EQ(d::wave_tree_max_run_bytes<every_native_field>::value, 256u);
  EXPECT_EQ(d::staged_min_memory_gbps<every_native_field>::value, 3000);
  EXPECT_TRUE(d::dependent_launch<every_native_field>::value);
  EXPECT_TRUE(d::packed_dot_sums<every_native_field>::value);
}

}  // namespace rows_test
