// The transposed tile's shape (tile/transposed_io.cuh, seen through tile/transposed_tile.cuh), host:
// which full tiles store by the bulk copy unit (the tuning's bulk_store_min_bytes): only segments of
// unpacked items in an odd count of 16-byte vectors a lane, whose blocked items are already the
// memory's order, of at least that many bytes a warp; and which tiles the staged look-back takes.
// What the stores write is checked on the GPU by the scan tests (thrust/scan_test.cu's
// NativeLargeTiles; the determinism test compares these tiles' bits with the item-by-item stores of a
// misaligned output).

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/tile/staged_tile.cuh>
#include <archscan/tile/transposed_tile.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <archscan/tuning/turing.cuh>
#include <cuda/std/functional>

#include "support/values.cuh"

namespace {

namespace detail = archscan::detail;
using archscan::native_tuning;

using archscan::test::mat2;
using archscan::test::mat2_mul;
using int_plus  = ::cuda::std::plus<int>;
using int8_plus = ::cuda::std::plus<std::int8_t>;

template <class Tuning, class Row, int Items>
using config = archscan::tile_config<Tuning, Row, Items>;
template <class T, class Op>
using problem = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
template <class Tuning, class Row, class T, class Op, int Items>
constexpr bool bulk_fit = archscan::tile::transposed_tile<problem<T, Op>, config<Tuning, Row, Items>>::bulk_store_fit;

struct native_without_bulk_stores : native_tuning {
  static constexpr std::size_t bulk_store_min_bytes = 0;
};
struct native_bulk_from_2k : native_tuning {
  static constexpr std::size_t bulk_store_min_bytes = 2048;
};
struct native_bulk_from_256 : native_tuning {
  static constexpr std::size_t bulk_store_min_bytes = 256;
};

TEST(TransposedTileBulkStores, OnlyLargeSegmentsOfAnOddVectorCount) {
  using row_16        = native_tuning::row_16;
  using row_4         = native_tuning::row_4;
  constexpr int large = detail::large_tiles<row_16>::items_per_thread;
  static_assert(large % 2 == 1, "the product's large tiles: an odd count of vectors a lane");
  // The product's large tiles: 21 vectors a lane, 10.5 KB a warp.
  static_assert(bulk_fit<native_tuning, row_16, mat2, mat2_mul, large>);
  // Its other tiles: 16 vectors a lane (even).
  static_assert(!bulk_fit<native_tuning, row_16, mat2, mat2_mul, row_16::items_per_thread>);
  // int32 256x32: 8 vectors a lane (even).
  static_assert(!bulk_fit<native_tuning, row_4, int, int_plus, 32>);
  // 5 vectors a lane, 2.5 KB a warp: under 8 KB, over 2 KB.
  static_assert(!bulk_fit<native_tuning, row_4, int, int_plus, 20>);
  static_assert(bulk_fit<native_bulk_from_2k, row_4, int, int_plus, 20>);
  // Packed one-byte items (16 a lane: one vector, 512 B a warp) store through their own path: never,
  // whatever the threshold.
  using packed_1 = native_tuning::packed_rows::row_1;
  static_assert(archscan::tile::transposed_tile<problem<std::int8_t, int8_plus>,
                                                config<native_bulk_from_256, packed_1, 16>>::packs_items);
  static_assert(!bulk_fit<native_bulk_from_256, packed_1, std::int8_t, int8_plus, 16>);
  // 0, or no such field (turing): never.
  static_assert(!bulk_fit<native_without_bulk_stores, row_16, mat2, mat2_mul, large>);
  static_assert(!bulk_fit<archscan::turing_tuning, archscan::turing_tuning::row_16, mat2, mat2_mul, large>);
  SUCCEED();
}

// The staged look-back (tuning/shape.cuh, example_staged_row) takes full tiles of 16-byte vectors of one width
// in and out, packed or not, items not split by key; its two stages and three blocks fit an sm_90 SM
// (227 KiB of shared memory).
template <class Row, class T, class Op, int Items>
using tile_for = archscan::tile::transposed_tile<problem<T, Op>, config<native_tuning, Row, Items>>;
//! The same tile, staged (tile/staged_tile.cuh): its block and shared memory.
template <class Row, class T, class Op, int Items>
using staged_for = archscan::tile::staged_tile<problem<T, Op>, config<native_tuning, Row, Items>>;

TEST(TransposedTileStages, FullVectorTilesOfOneWidth) {
  using row_4      = native_tuning::row_4;
  using int32_tile = tile_for<row_4, int, int_plus, row_4::items_per_thread>;
  static_assert(int32_tile::stages_fit);
  static_assert(int32_tile::stage_bytes == int32_tile::tile_items * 4);
  using int32_staged = staged_for<row_4, int, int_plus, row_4::items_per_thread>;
  static_assert(int32_staged::staged_threads == int32_tile::threads + 32);
  static_assert(3 * (int32_staged::staged_smem_bytes + 1024) <= 227 * 1024);
  // Packed one- and two-byte items (a stage is read a vector at a time): their full tiles, 16 and 32 KiB.
  using packed_1   = native_tuning::packed_rows::row_1;
  using packed_2   = native_tuning::packed_rows::row_2;
  using int8_tile  = tile_for<packed_1, std::int8_t, int8_plus, packed_1::items_per_thread>;
  using int16_tile = tile_for<packed_2, std::int16_t, ::cuda::std::plus<std::int16_t>, packed_2::items_per_thread>;
  static_assert(int8_tile::packs_items && int8_tile::stages_fit && int8_tile::stage_bytes == int8_tile::tile_items);
  static_assert(int16_tile::packs_items && int16_tile::stages_fit &&
                int16_tile::stage_bytes == int16_tile::tile_items * 2);
  using int16_staged = staged_for<packed_2, std::int16_t, ::cuda::std::plus<std::int16_t>, packed_2::items_per_thread>;
  static_assert(3 * (int16_staged::staged_smem_bytes + 1024) <= 227 * 1024);
  // Packed two-byte items in a four-byte accumulator (row_4's tiles): not staged, never measured so.
  using int16_into_int = detail::scan_problem<const std::int16_t*, std::int16_t*, int, detail::callable<int_plus>,
                                              detail::identity_finish, detail::scan_kind::inclusive, false>;
  using row_4_packed =
      archscan::tile::transposed_tile<int16_into_int, config<native_tuning, row_4, row_4::items_per_thread>>;
  static_assert(row_4_packed::packs_items && !row_4_packed::stages_fit);
  // Items read one by one (an odd count of 8-byte items does not split into vectors): never.
  using row_8 = native_tuning::row_8;
  static_assert(
      !tile_for<row_8, double, ::cuda::std::plus<double>, detail::large_tiles<row_8>::items_per_thread>::stages_fit);
  SUCCEED();
}

}  // namespace
