// tuning/tile_config.cuh: one tile shape of a tuning resolved into the flat configuration that tiles and
// kernels read. Each field against the tuning and row it comes from, on the shipped tunings (native's
// optional fields stated, turing's left out: their defaults), on a user's tuning derived from native,
// and kepler's and blelloch's configurations. Host only: all compile-time values.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/tuning.cuh>

namespace tile_config_test {

using archscan::blelloch_tuning;
using archscan::kepler_tuning;
using archscan::native_tuning;
using archscan::no_hooks;
using archscan::tile_config;
using archscan::turing_tuning;

struct some_hooks {
  static constexpr bool tree_fold = true;
};

// A user's tuning: native with other waits and loads, and without bulk stores.
struct user_tuning : native_tuning {
  static constexpr archscan::load_kind load                 = archscan::load_kind::read_only;
  static constexpr archscan::tile_status_kind tile_status   = archscan::tile_status_kind::flag_and_values;
  static constexpr unsigned lookback_delay_ns               = 700;
  static constexpr std::uint64_t spin_limit                 = 0;
  static constexpr std::size_t bulk_store_min_bytes         = 0;
  static constexpr std::size_t prefix_chain_max_bytes       = 16;
  static constexpr std::size_t keyed_prefix_chain_max_bytes = 4;
};

TEST(TileConfig, NativeFullTilesCarryTheTuningAndTheRow) {
  using row = native_tuning::row_8;
  using c   = tile_config<native_tuning, row, row::items_per_thread>;
  static_assert(std::is_same_v<c::hooks, no_hooks>);
  static_assert(c::items_per_thread == 16 && c::threads == 256);
  static_assert(c::min_blocks_per_sm == 4);
  // row_8 states a look-back minimum of its own for its full tiles, and staged tiles.
  static_assert(c::lookback_min_blocks_per_sm == row::lookback_min_blocks_per_sm &&
                row::lookback_min_blocks_per_sm != row::min_blocks_per_sm);
  static_assert(c::staged_min_blocks_per_sm == row::staged_min_blocks_per_sm);
  static_assert(c::single_items_per_thread == row::single_items_per_thread);
  static_assert(c::vector_access && c::warp_transpose && c::opt_in_large_smem && c::narrow_index_arithmetic);
  static_assert(!c::read_only_loads && c::packed_status);
  static_assert(c::bulk_store_min_bytes == native_tuning::bulk_store_min_bytes);
  static_assert(c::lookback_window == 32 && c::lookback_delay_ns == native_tuning::lookback_delay_ns);
  static_assert(c::backoff_min_ns == native_tuning::backoff_min_ns &&
                c::backoff_max_ns == native_tuning::backoff_max_ns);
  static_assert(c::spin_limit == native_tuning::spin_limit);
  static_assert(c::prefix_chain_max_bytes == native_tuning::prefix_chain_max_bytes);
  static_assert(c::keyed_prefix_chain_max_bytes == native_tuning::keyed_prefix_chain_max_bytes);
  static_assert(c::stagger_cycles_per_kib == native_tuning::first_set_stagger_cycles_per_kib);
  static_assert(c::l2_prefetch_ahead_percent == native_tuning::l2_prefetch_ahead_percent);
  static_assert(!c::large_chained);
  SUCCEED();
}

TEST(TileConfig, LargeTilesTakeTheirOwnThreadsBoundsAndWalk) {
  using row   = native_tuning::row_16;
  using large = tile_config<native_tuning, row, row::large_items_per_thread>;
  static_assert(large::threads == row::large_block_threads && large::threads != row::block_threads);
  static_assert(large::min_blocks_per_sm == row::large_min_blocks_per_sm);
  static_assert(large::lookback_min_blocks_per_sm == row::large_min_blocks_per_sm);
  static_assert(large::large_chained);
  using full = tile_config<native_tuning, row, row::items_per_thread>;
  static_assert(full::threads == row::block_threads && !full::large_chained);
  // Another size of the same tuning, row and hooks: the single tiles' ladder in one kernel.
  static_assert(std::is_same_v<full::with_items<row::large_items_per_thread>, large>);
  using hooked = tile_config<native_tuning, row, 4, some_hooks>;
  static_assert(std::is_same_v<hooked::hooks, some_hooks>);
  static_assert(std::is_same_v<hooked::with_items<8>, tile_config<native_tuning, row, 8, some_hooks>>);
  SUCCEED();
}

TEST(TileConfig, OptionalFieldsTakeTheirDefaults) {
  // turing states none of native's optional fields: no bulk stores, no pacing, no prefetch, no chain,
  // and its rows no single, staged or look-back fields of their own.
  using row = turing_tuning::row_4;
  using c   = tile_config<turing_tuning, row, row::items_per_thread>;
  static_assert(c::bulk_store_min_bytes == 0 && c::stagger_cycles_per_kib == 0 && c::l2_prefetch_ahead_percent == 0);
  static_assert(!c::packed_dot_sums);
  static_assert(c::prefix_chain_max_bytes == 0 && c::keyed_prefix_chain_max_bytes == 0);
  static_assert(c::lookback_min_blocks_per_sm == row::min_blocks_per_sm &&
                c::min_blocks_per_sm == row::min_blocks_per_sm);
  static_assert(c::single_items_per_thread == row::items_per_thread);
  static_assert(!c::vector_access && c::threads == row::block_threads);
  SUCCEED();
}

TEST(TileConfig, AUsersTuningIsReadNotTheOneItDerivesFrom) {
  using row = user_tuning::row_4;
  using c   = tile_config<user_tuning, row, row::items_per_thread>;
  static_assert(c::read_only_loads && !c::packed_status);
  static_assert(c::lookback_delay_ns == 700 && c::spin_limit == 0 && c::bulk_store_min_bytes == 0);
  static_assert(c::prefix_chain_max_bytes == 16 && c::keyed_prefix_chain_max_bytes == 4);
  SUCCEED();
}

TEST(TileConfig, KeplersStripedTiles) {
  using row = kepler_tuning::row_4;
  using c   = archscan::striped_config<kepler_tuning, row, row::small_items_per_thread, some_hooks>;
  static_assert(std::is_same_v<c::hooks, some_hooks>);
  static_assert(c::items_per_thread == row::small_items_per_thread && c::threads == row::block_threads);
  static_assert(c::min_blocks_per_sm == row::min_blocks_per_sm);
  static_assert(c::shuffle_exchange == (kepler_tuning::warp_exchange == archscan::warp_exchange_kind::shuffle));
  static_assert(c::smem_word_bytes == kepler_tuning::smem_word_bytes);
  static_assert(c::read_only_loads == (kepler_tuning::load == archscan::load_kind::read_only));
  static_assert(c::packed_status && c::lookback_delay_ns == kepler_tuning::lookback_delay_ns);
  static_assert(c::backoff_min_ns == kepler_tuning::backoff_min_ns && c::spin_limit == kepler_tuning::spin_limit);
  SUCCEED();
}

TEST(TileConfig, BlellochsSweepTiles) {
  using row = blelloch_tuning::row_8;
  using c   = archscan::sweep_config<blelloch_tuning, row>;
  static_assert(c::threads == row::block_threads && c::min_blocks_per_sm == row::min_blocks_per_sm);
  static_assert(c::conflict_free == blelloch_tuning::conflict_free);
  SUCCEED();
}

}  // namespace tile_config_test
