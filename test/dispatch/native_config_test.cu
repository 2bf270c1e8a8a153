// native_config (dispatch/native_config.cuh): the tile shapes, routes and kernels it resolves for a
// problem type and tuning, checked at compile time. Nothing in it runs on the device.

#include <cstdint>

#include <gtest/gtest.h>

#include <cuda/std/functional>

#include <archscan/detail/keyed.cuh>
#include <archscan/dispatch/native_config.cuh>

#include "support/policies.cuh"

namespace {

//! native's compile-time choices for problem type `P` under `Tuning` (dispatch/native_config.cuh).
template <class Tuning, class P>
using cfg = archscan::dispatch::native_config<Tuning, archscan::no_hooks, P>;

}  // namespace

// Outside the unnamed namespace: the plans below name the operator's type and never call it, which
// nvcc reports for a function of internal linkage.
namespace native_plan_types {
//! An inclusive sum of doubles into `Out` items, as the Thrust overloads form it (plan types only).
struct wide_item {  // 16 bytes, made from a double
  double value, pad;
  __host__ __device__ wide_item(double v = 0) : value(v), pad(0) {}
};
struct wide_sum {
  __host__ __device__ wide_item operator()(const wide_item& a, const wide_item& b) const { return a.value + b.value; }
};
struct four_kib {  // an accumulator whose 16 cluster slots (64 KiB) cannot fit beside any tile
  double values[512];
};
}  // namespace native_plan_types

namespace {
using native_plan_types::wide_item;
using native_plan_types::wide_sum;
//! An exclusive sum by int keys of `V` values, as the Thrust overloads form it (plan types only).
template <class V>
using keyed_problem = archscan::detail::scan_problem<
    decltype(archscan::detail::make_keyed_input<V>(static_cast<const int*>(nullptr), static_cast<const V*>(nullptr),
                                                   ::cuda::std::equal_to<>{}, 0)),
    V*, archscan::detail::keyed<V>, archscan::detail::segmented_op<archscan::detail::callable<::cuda::std::plus<>>>,
    archscan::detail::keyed_exclusive_finish<V, ::cuda::std::plus<>>, archscan::detail::scan_kind::exclusive, true>;
template <class Out>
using double_problem =
    archscan::detail::scan_problem<const double*, Out*, double, archscan::detail::identity_finish,
                                   archscan::detail::identity_finish, archscan::detail::scan_kind::inclusive, false>;

//! A cluster's kernel is compiled (so the route planned) only where its 16 slots fit beside the tile
//! within the tile's shared memory limit; a 4 KiB accumulator takes a wave (policy.cuh's promise).
TEST(NativeConfig, ClustersOnlyWhereTheirSlotsFit) {
  using archscan::native_tuning;
  using doubles = double_problem<double>;
  using blobs =
      archscan::detail::scan_problem<const native_plan_types::four_kib*, native_plan_types::four_kib*,
                                     native_plan_types::four_kib, archscan::detail::identity_finish,
                                     archscan::detail::identity_finish, archscan::detail::scan_kind::inclusive, false>;
  using double_tile = cfg<native_tuning, doubles>::full_tile;
  using blob_tile   = cfg<native_tuning, blobs>::full_tile;
  static_assert(double_tile::cluster_fits && double_tile::cluster_smem_bytes > double_tile::smem_bytes);
  static_assert(cfg<native_tuning, doubles>::clusters<cfg<native_tuning, doubles>::full_items>);
  static_assert(!blob_tile::cluster_fits);
  static_assert(!cfg<native_tuning, blobs>::clusters<cfg<native_tuning, blobs>::full_items>);
  SUCCEED() << "checked at compile time";
}

//! A wave holds at most 1024 tiles (the tiles one pass of the warp's lanes folds, 32 segments of 32),
//! the small tiles' at most small_tiles_max (the plan takes them for no more), and the kernels' wave
//! folds leave out what more tiles would reach: the plan's limit must say the same. Rows whose small
//! tiles are their full ones (row_16) have no small shape. Large tiles, taken for thousands of them,
//! never run as a wave.
TEST(NativeConfig, WavesBoundedAsTheirFoldsAre) {
  using archscan::native_tuning;
  using doubles = cfg<native_tuning, double_problem<double>>;
  using wides   = cfg<native_tuning, archscan::detail::scan_problem<const wide_item*, wide_item*, wide_item, wide_sum,
                                                                  archscan::detail::identity_finish,
                                                                  archscan::detail::scan_kind::inclusive, false>>;
  static_assert(doubles::wave_fold_tiles == 1024);
  static_assert(doubles::has_small_tiles && doubles::wave_tiles_max<doubles::small_items> ==
                                                archscan::detail::small_tiles_max<native_tuning, doubles::row>::value);
  static_assert(doubles::wave_tiles_max<doubles::small_items> > 0 &&
                doubles::wave_limit<doubles::small_items> == doubles::wave_tiles_max<doubles::small_items>);
  static_assert(doubles::wave_tiles_max<doubles::full_items> == 1024 &&
                doubles::wave_limit<doubles::full_items> == 1024);
  static_assert(!wides::has_small_tiles && wides::wave_limit<wides::full_items> == 1024);
  static_assert(doubles::has_large_tiles && !doubles::waves<doubles::large_items>);
  static_assert(doubles::wave_limit<doubles::large_items> == 0);
  static_assert(!archscan::tile::has_route(doubles::routes<doubles::large_items>, archscan::tile::route::wave));
  static_assert(archscan::tile::has_route(doubles::routes<doubles::small_items>, archscan::tile::route::wave));
  SUCCEED() << "checked at compile time";
}

//! The full tiles' waves run in the full tiles' kernel where they fold as a tree (an operator exact
//! under any association, on a row whose look-back keeps the tile's bound on blocks an SM): a plain
//! int sum compiles no wave kernel of its own. A rounding operator's ordered fold, and row_8, whose
//! look-back takes fewer blocks an SM than a wave must keep, still have one.
template <class T>
using sum_problem =
    archscan::detail::scan_problem<const T*, T*, T, archscan::detail::callable<::cuda::std::plus<>>,
                                   archscan::detail::identity_finish, archscan::detail::scan_kind::inclusive, false>;
TEST(NativeConfig, FullTilesWavesApartOnlyWhereTheyKeepMoreBlocks) {
  using archscan::native_tuning;
  using archscan::tile::has_route;
  using archscan::tile::route;
  using ints   = cfg<native_tuning, sum_problem<int>>;
  using floats = cfg<native_tuning, sum_problem<float>>;
  using int64s = cfg<native_tuning, sum_problem<long long>>;
  static_assert(!ints::wave_apart<ints::full_items>);
  static_assert(has_route(ints::routes<ints::full_items>, route::wave));
  static_assert(ints::wave_kernel<ints::full_items> == ints::routed_kernel<ints::full_items>);
  // An ordered fold joins the full tiles' kernel too: one kernel fewer for a rounding operator.
  static_assert(!floats::wave_apart<floats::full_items>);
  static_assert(has_route(floats::routes<floats::full_items>, route::wave));
  static_assert(floats::wave_kernel<floats::full_items> == floats::routed_kernel<floats::full_items>);
  // row_8's look-back keeps 3 blocks an SM, its wave 4: a kernel each.
  static_assert(int64s::wave_apart<int64s::full_items>);
  static_assert(int64s::wave_kernel<int64s::full_items> != int64s::routed_kernel<int64s::full_items>);
  // Small tiles keep their waves in their own routed kernel whatever the fold.
  static_assert(!floats::wave_apart<floats::small_items> &&
                has_route(floats::routes<floats::small_items>, route::wave));
  SUCCEED() << "checked at compile time";
}

TEST(NativeConfig, LargeTilesByNAlone) {
  using archscan::dispatch::native_large_tiles;
  const std::int64_t from = std::int64_t{1} << 24;
  EXPECT_FALSE(native_large_tiles(from - 1, 8192, from));
  EXPECT_TRUE(native_large_tiles(from, 8192, from));
  EXPECT_TRUE(native_large_tiles(std::int64_t{1} << 40, 8192, from));
  EXPECT_FALSE(native_large_tiles(8192, 8192, 1));  // one tile: the single-tile route, whatever the threshold
  EXPECT_TRUE(native_large_tiles(8193, 8192, 1));
  // native's row_8 takes 7936-item tiles from 2^24 items, 4096-item ones below (the tiles as fitted to
  // shared memory, what the plan and the launch see); no other row has them.
  using row   = archscan::native_tuning::row_8;
  using large = archscan::detail::large_tiles<row>;
  static_assert(large::present && large::from_items == from);
  static_assert(archscan::detail::min_blocks_for<row, large::items_per_thread> == row::large_min_blocks_per_sm);
  static_assert(archscan::detail::min_blocks_for<row, row::items_per_thread> == row::min_blocks_per_sm);
  // The look-back kernel's own minimum for row_8's full tiles (the wave's and the cluster's stay
  // min_blocks_per_sm); large and small tiles keep theirs.
  static_assert(archscan::detail::lookback_min_blocks_for<row, row::items_per_thread> == 3 &&
                row::min_blocks_per_sm == 4);
  static_assert(archscan::detail::lookback_min_blocks_for<row, large::items_per_thread> ==
                row::large_min_blocks_per_sm);
  static_assert(archscan::detail::lookback_min_blocks_for<row, row::small_items_per_thread> == row::min_blocks_per_sm);
  using row4 = archscan::native_tuning::row_4;
  static_assert(archscan::detail::lookback_min_blocks_for<row4, row4::items_per_thread> == row4::min_blocks_per_sm);
  static_assert(!archscan::detail::large_tiles<archscan::native_tuning::row_4>::present);
  using archscan::native_tuning;
  using doubles = double_problem<double>;
  static_assert(cfg<native_tuning, doubles>::has_large_tiles);
  static_assert(cfg<native_tuning, doubles>::large_tile::tile_items == 7936);
  static_assert(cfg<native_tuning, doubles>::full_tile::tile_items == 4096);
  // The shapes the plan names for the launch: large, full and small tiles of row_8.
  using archscan::dispatch::tile_shape;
  static_assert(cfg<native_tuning, doubles>::shape_of<31> == tile_shape::large);
  static_assert(cfg<native_tuning, doubles>::shape_of<16> == tile_shape::full);
  static_assert(cfg<native_tuning, doubles>::shape_of<4> == tile_shape::small);
  // Output items wider than the row's fit both tiles to the same size: no large tiles for that
  // problem type (and no error).
  static_assert(!cfg<native_tuning, double_problem<wide_item>>::has_large_tiles);
  // row_16's large tiles: 192x21 (16-byte items; threads of their own), against 128x16.
  using wides =
      archscan::detail::scan_problem<const wide_item*, wide_item*, wide_item, wide_sum,
                                     archscan::detail::identity_finish, archscan::detail::scan_kind::inclusive, false>;
  static_assert(cfg<native_tuning, wides>::large_tile::tile_items == 192 * 21);
  static_assert(cfg<native_tuning, wides>::large_tile::threads == 192);
  static_assert(cfg<native_tuning, wides>::full_tile::threads == 128);
  // Only the large tiles take large_block_threads; rows without it keep block_threads for them too.
  using row16 = native_tuning::row_16;
  static_assert(archscan::detail::tile_threads<row16, row16::large_items_per_thread> == 192);
  static_assert(archscan::detail::tile_threads<row16, row16::items_per_thread> == row16::block_threads);
  static_assert(archscan::detail::tile_threads<row16, row16::single_items_per_thread> == row16::block_threads);
  static_assert(archscan::detail::tile_threads<row, large::items_per_thread> == row::block_threads);
  static_assert(!archscan::detail::other_tile_of<row16>(row16::large_items_per_thread));
  static_assert(archscan::detail::other_tile_of<row16>(row16::single_items_per_thread));
  // row_16's large tiles walk the chain of prefixes (large_chained), its full tiles the segment
  // states (16 bytes > prefix_chain_max_bytes); 8-byte items take the chain by their size.
  static_assert(cfg<native_tuning, wides>::large_tile::segment_walk::chained);
  static_assert(!cfg<native_tuning, wides>::full_tile::segment_walk::chained);
  static_assert(cfg<native_tuning, doubles>::full_tile::segment_walk::chained);
  // The tests' on_segment_states keeps every tile on the segment states, large tiles too.
  using states = archscan::test::on_segment_states<native_tuning>;
  static_assert(!cfg<states, wides>::large_tile::segment_walk::chained);
  static_assert(!cfg<states, doubles>::full_tile::segment_walk::chained);
  static_assert(cfg<native_tuning, wides>::full_tile::tile_items == 128 * 16);
  // by-key rows: 256x28 large tiles of int and double values, against 256x16 (split items: the
  // exchanges hold values, not whole by-key items, so nothing is fitted down).
  static_assert(cfg<native_tuning, keyed_problem<int>>::large_tile::tile_items == 256 * 28);
  static_assert(cfg<native_tuning, keyed_problem<int>>::full_tile::tile_items == 256 * 16);
  static_assert(cfg<native_tuning, keyed_problem<double>>::large_tile::tile_items == 256 * 28);
  static_assert(cfg<native_tuning, keyed_problem<double>>::full_tile::tile_items == 256 * 16);
  SUCCEED();
}

//! native with 4-item full tiles for 8-byte items: as many as its single tile holds.
struct four_item_tiles : archscan::native_tuning {
  struct row_8 : archscan::native_tuning::row_8 {
    static constexpr int items_per_thread = 4;
  };
};

//! The first single tile of native's row for problem type `P`: the ladder's smallest.
template <class P>
using first_single_tile = typename cfg<archscan::native_tuning,
                                       P>::template tile_of<cfg<archscan::native_tuning, P>::single::items_per_thread>;

TEST(NativeConfig, SingleTilesOfFewItemsByNAlone) {
  // Problems of at most 1024 items run as one tile of 4 items a thread (8 for 16-byte items, 128
  // threads), larger ones as the next step of the ladder that covers them (float: 256x8, 256x16;
  // double and by-key items: 256x8), larger ones up to a full tile as one full tile: the shipped
  // rows' single tiles.
  using archscan::native_tuning;
  using doubles = double_problem<double>;
  using wides =
      archscan::detail::scan_problem<const wide_item*, wide_item*, wide_item, wide_sum,
                                     archscan::detail::identity_finish, archscan::detail::scan_kind::inclusive, false>;
  static_assert(cfg<native_tuning, doubles>::has_single_tiles);
  static_assert(first_single_tile<doubles>::tile_items == 1024);
  static_assert(cfg<native_tuning, wides>::has_single_tiles);
  static_assert(first_single_tile<wides>::tile_items == 1024);
  static_assert(cfg<native_tuning, keyed_problem<int>>::has_single_tiles);
  static_assert(first_single_tile<keyed_problem<int>>::tile_items == 1024);
  // The ladders: every step below the full tile, none at or past it.
  using floats =
      archscan::detail::scan_problem<const float*, float*, float, archscan::detail::identity_finish,
                                     archscan::detail::identity_finish, archscan::detail::scan_kind::inclusive, false>;
  static_assert(cfg<native_tuning, floats>::single_step<4>() && cfg<native_tuning, floats>::single_step<8>() &&
                cfg<native_tuning, floats>::single_step<16>() && !cfg<native_tuning, floats>::single_step<32>());
  static_assert(cfg<native_tuning, floats>::tile_of<16>::tile_items == 4096);
  static_assert(cfg<native_tuning, floats>::full_tile::tile_items == 8192);
  static_assert(cfg<native_tuning, doubles>::single_step<8>() && !cfg<native_tuning, doubles>::single_step<16>());
  static_assert(cfg<native_tuning, keyed_problem<double>>::single_step<8>() &&
                !cfg<native_tuning, keyed_problem<double>>::single_step<16>());
  static_assert(!cfg<native_tuning, wides>::single_step<16>());
  // A single tile only where it is smaller than the full one; rows without the field have none.
  static_assert(!cfg<four_item_tiles, doubles>::has_single_tiles);
  static_assert(!archscan::detail::single_tiles<native_tuning::row_large>::present);
  SUCCEED();
}

}  // namespace
