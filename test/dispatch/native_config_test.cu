// The native family's dispatch: its plan (route, tiles, grid, tile-state storage) up to 2^40 items.
// Nothing in it depends on the device except the grid of the resident-blocks test hook.

#include <cstdint>

#include <gtest/gtest.h>

#include <cuda/std/functional>

#include <archscan/detail/keyed.cuh>
#include <archscan/dispatch/native_dispatch.cuh>

#include "support/policies.cuh"

namespace {

//! native's compile-time choices for problem type `P` under `Tuning` (dispatch/native_config.cuh).
template <class Tuning, class P>
using cfg = archscan::dispatch::native_config<Tuning, archscan::no_hooks, P>;

using archscan::dispatch::make_native_plan;
using archscan::dispatch::native_plan_input;
using archscan::dispatch::single_pass_route;

std::size_t up256(std::size_t b) { return (b + 255) / 256 * 256; }

native_plan_input input(std::int64_t n, std::size_t bytes = 4, bool packed = true, bool prefix_chain = false) {
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
    const auto plan = make_native_plan(input(n));
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
          const auto plan   = make_native_plan(input(n, bytes, packed, chain));
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
          EXPECT_GE(plan.temp_bytes, plan.states.bytes) << n;   // a wave's fallback fits
          EXPECT_GE(plan.temp_bytes, aggregates * bytes) << n;  // and so do its aggregates
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
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::wave);
  EXPECT_FALSE(make_native_plan(in).wave_in_order);
  in.wave_tree_max_run_bytes = 128;
  EXPECT_TRUE(make_native_plan(in).wave_in_order);
  EXPECT_TRUE(native_wave_in_order(in));  // what the dispatch asks the wave kernel's occupancy of
  in.sm_count = 1000;
  EXPECT_TRUE(make_native_plan(in).wave_in_order);
  in.n = std::int64_t{257} * 5120;
  EXPECT_FALSE(make_native_plan(in).wave_in_order);
  EXPECT_FALSE(native_wave_in_order(in));
  in.cooperative = false;  // the look-back: nothing to choose
  EXPECT_FALSE(make_native_plan(in).wave_in_order);
}

TEST(NativePlan, TheSamePlanOnEveryDevice) {
  // What the association depends on (tiles and their size) is the same on a GPU of any size.
  auto small = input(std::int64_t{1} << 28), large = input(std::int64_t{1} << 28);
  small.sm_count      = 20;
  small.blocks_per_sm = 2;
  large.sm_count      = 148;
  const auto a = make_native_plan(small), b = make_native_plan(large);
  EXPECT_EQ(a.tiles.tiles, b.tiles.tiles);
  EXPECT_EQ(a.tiles.tile_items, b.tiles.tile_items);
  EXPECT_EQ(a.tiles.grid, b.tiles.grid);
  EXPECT_EQ(a.temp_bytes, b.temp_bytes);
}

TEST(NativePlan, WaveWhileEveryTileFitsAndNeverWithTheResidentHook) {
  EXPECT_EQ(make_native_plan(input(std::int64_t{1056} * 5120)).route, single_pass_route::wave);
  EXPECT_EQ(make_native_plan(input(std::int64_t{1056} * 5120 + 1)).route, single_pass_route::lookback);
  auto in        = input(20000);
  in.cooperative = false;
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::lookback);
  in                        = input(20000);
  in.resident_blocks_per_sm = 2;
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::lookback);
  // The tiles are the same whichever route: that is what keeps the bits the same.
  auto no_wave           = input(20000);
  no_wave.wave_max_tiles = 0;
  EXPECT_EQ(make_native_plan(no_wave).tiles.tile_items, make_native_plan(input(20000)).tiles.tile_items);
}

TEST(NativePlan, OneClusterUpToItsSizeWithoutStorage) {
  using archscan::dispatch::native_cluster_candidate;
  auto in              = input(16 * 5120);
  in.cluster_max_tiles = 16;
  const auto plan      = make_native_plan(in);
  EXPECT_EQ(plan.route, single_pass_route::cluster);
  EXPECT_EQ(plan.tiles.tiles, 16);
  EXPECT_EQ(plan.tiles.grid, 16);
  EXPECT_EQ(plan.temp_bytes, 0u);
  in.n = 5121;  // two tiles
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::cluster);
  in.n = 16 * 5120 + 1;  // 17 tiles: a wave
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::wave);
  in.n = 5120;  // one tile
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::single_tile);
  in.n                      = 8 * 5120;
  in.resident_blocks_per_sm = 2;  // the hook asks for the look-back
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::lookback);
  EXPECT_EQ(make_native_plan(input(8 * 5120)).route, single_pass_route::wave);  // no cluster fits: a wave
  // The tiles are the wave's: the same bits.
  EXPECT_EQ(plan.tiles.tile_items, make_native_plan(input(16 * 5120)).tiles.tile_items);
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
  EXPECT_EQ(make_native_plan(in).tiles.tile_items, 2048);
  in.cooperative = false;
  EXPECT_EQ(make_native_plan(in).tiles.tile_items, 2048);
  EXPECT_EQ(make_native_plan(in).route, single_pass_route::lookback);
}

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
TEST(NativePlan, ClustersOnlyWhereTheirSlotsFit) {
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

TEST(NativePlan, LargeTilesByNAlone) {
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

TEST(NativePlan, SingleTilesOfFewItemsByNAlone) {
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

TEST(NativePlan, FirstSetIsWhatTheDeviceHoldsAtOnce) {
  // The look-back paces the loads of the tiles the device holds at once (132 SMs x 8 blocks here):
  // timing only, so the tiles do not change with it.
  EXPECT_EQ(make_native_plan(input(std::int64_t{1} << 30)).first_set, 132 * 8);
  auto small          = input(std::int64_t{1} << 30);
  small.sm_count      = 20;
  small.blocks_per_sm = 2;
  EXPECT_EQ(make_native_plan(small).first_set, 40);
  EXPECT_EQ(make_native_plan(small).tiles.tile_items, make_native_plan(input(std::int64_t{1} << 30)).tiles.tile_items);
  EXPECT_EQ(make_native_plan(input(3 * 5120)).first_set, 3);                      // never more than the tiles
  EXPECT_FALSE(make_native_plan(input(std::int64_t{1} << 30)).dependent_launch);  // the dispatch's call, not the plan's
}

TEST(NativePlan, ResidentBlocksHookCapsTheGrid) {
  auto in                   = input(std::int64_t{1} << 30);
  in.resident_blocks_per_sm = 2;
  EXPECT_EQ(make_native_plan(in).tiles.grid, 132 * 2);
  in.resident_blocks_per_sm = 100;
  EXPECT_EQ(make_native_plan(in).tiles.grid, 132 * 8);
}

}  // namespace
