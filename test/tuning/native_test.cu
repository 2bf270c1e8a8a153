// tuning/native.cuh: what its comments state about native's rows and fields, read from the tuning
// itself, so that a retuned row that breaks a stated rule fails here. Host only: compile-time values,
// and native_config (dispatch/native_config.cuh) where a rule is about the tiles as fitted.

#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/dispatch/native_config.cuh>
#include <archscan/tuning.cuh>

namespace native_tuning_test {

using archscan::native_tuning;
namespace d = archscan::detail;

//! The bytes of a row's tile of `Items` per thread, for accumulators of `Bytes`.
template <class Row, int Items, std::size_t Bytes>
constexpr std::size_t tile_bytes = static_cast<std::size_t>(d::tile_threads<Row, Items>) * Items* Bytes;

TEST(NativeTuning, FullTilesHoldSixteenToFortyEightKilobytesLargeOnesAboutSixtyTwo) {
  constexpr std::size_t kib = 1024;
  static_assert(tile_bytes<native_tuning::row_1, native_tuning::row_1::items_per_thread, 1> == 16 * kib);
  static_assert(tile_bytes<native_tuning::row_2, native_tuning::row_2::items_per_thread, 2> == 32 * kib);
  static_assert(tile_bytes<native_tuning::row_4, native_tuning::row_4::items_per_thread, 4> == 32 * kib);
  static_assert(tile_bytes<native_tuning::row_8, native_tuning::row_8::items_per_thread, 8> == 32 * kib);
  static_assert(tile_bytes<native_tuning::row_16, native_tuning::row_16::items_per_thread, 16> == 32 * kib);
  // The large tiles: within the 64 KiB a tile may take, above 60 KiB.
  using row_8  = native_tuning::row_8;
  using row_16 = native_tuning::row_16;
  static_assert(tile_bytes<row_8, row_8::large_items_per_thread, 8> > 60 * kib);
  static_assert(tile_bytes<row_8, row_8::large_items_per_thread, 8> <= 64 * kib);
  static_assert(tile_bytes<row_16, row_16::large_items_per_thread, 16> > 60 * kib);
  static_assert(tile_bytes<row_16, row_16::large_items_per_thread, 16> <= 64 * kib);
  SUCCEED();
}

TEST(NativeTuning, MoreSmallTilesOnlyWhereFullTilesHoldThirtyTwoKilobytes) {
  // A row's own small_tiles_max (264) only where its full tiles hold 32 KiB or more; others take
  // the tuning's 132, and 0 would switch small tiles off.
  static_assert(native_tuning::small_tiles_max == 132);
  static_assert(d::small_tiles_max<native_tuning, native_tuning::row_1>::value == 132);
  static_assert(d::small_tiles_max<native_tuning, native_tuning::row_4>::value == 264);
  static_assert(tile_bytes<native_tuning::row_4, native_tuning::row_4::items_per_thread, 4> >= 32 * 1024);
  static_assert(d::small_tiles_max<native_tuning, native_tuning::row_8>::value == 264);
  static_assert(tile_bytes<native_tuning::row_8, native_tuning::row_8::items_per_thread, 8> >= 32 * 1024);
  using keyed_8 = native_tuning::keyed_rows::row_8;
  static_assert(d::small_tiles_max<native_tuning, keyed_8>::value == 264);
  static_assert(tile_bytes<keyed_8, keyed_8::items_per_thread, 8> >= 32 * 1024);  // its values alone
  SUCCEED();
}

TEST(NativeTuning, AClusterOfAtMostSixteenTilesAndFullTilesFirstUpToOne) {
  // 16: the largest cluster a device may allow; full tiles first up to as many tiles, so that they
  // run as one cluster where small tiles would run as a wave.
  static_assert(native_tuning::cluster_max_tiles > 1 && native_tuning::cluster_max_tiles <= 16);
  static_assert(native_tuning::full_tiles_max == native_tuning::cluster_max_tiles);
  SUCCEED();
}

TEST(NativeTuning, StagedFromTheStatedSizesAndRowEightsForExactOperatorsOnly) {
  static_assert(d::staged_tiles<native_tuning::row_4>::from_items == std::int64_t{1} << 26);
  static_assert(d::staged_tiles<native_tuning::packed_rows::row_2>::from_items == std::int64_t{1} << 28);
  static_assert(d::staged_tiles<native_tuning::row_8>::from_items == std::int64_t{1} << 24);
  static_assert(!d::staged_tiles<native_tuning::row_1>::present && !d::staged_tiles<native_tuning::row_2>::present);
  // row_8 stages from where its large tiles start: only operators exact under any association,
  // whose bits no tile shape changes, take its full tiles staged there (dispatch/native_config.cuh).
  static_assert(d::staged_tiles<native_tuning::row_8>::from_items >= d::large_tiles<native_tuning::row_8>::from_items);
  SUCCEED();
}

//! An inclusive sum of doubles (a type only: nothing is launched) and native's choices for it.
using doubles = d::scan_problem<const double*, double*, double, d::identity_finish, d::identity_finish,
                                d::scan_kind::inclusive, false>;
using config  = archscan::dispatch::native_config<native_tuning, archscan::no_hooks, doubles>;

TEST(NativeTuning, RowEightsLargeTilesTakeThirtyOneItemsAsThirtyTwoWouldBeFittedAnyway) {
  // 32 doubles a thread overflow the tile's 64 KiB (the transpose's padded slots): fitted to 31.
  static_assert(native_tuning::row_8::large_items_per_thread == 31);
  static_assert(config::tile_of<31>::items == 31 && config::tile_of<32>::items == 31);
  SUCCEED();
}

TEST(NativeTuning, KeyedTwoByteLargeTilesAreWholeVectors) {
  // keyed_rows::row_2 is row_4's but for large tiles of 24 items: 48 bytes of values, three 16-byte
  // vectors (28 would split one).
  using keyed_2 = native_tuning::keyed_rows::row_2;
  static_assert(keyed_2::large_items_per_thread * 2 % 16 == 0);
  static_assert(native_tuning::keyed_rows::row_4::large_items_per_thread * 2 % 16 != 0);
  static_assert(keyed_2::items_per_thread == native_tuning::keyed_rows::row_4::items_per_thread);
  SUCCEED();
}

}  // namespace native_tuning_test
