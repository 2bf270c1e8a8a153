#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file One tile shape of a tuning resolved into the flat configuration that its kernels and tiles read:
//! the shape, how items move, how tiles wait for each other, and the hooks. One configuration for each
//! kind of tile: `tile_config` for the transposed tiles (tile/transposed_io.cuh and the tiles built on
//! it: turing, native and the first pass across ranks), `striped_config` for kepler's striped tiles,
//! `sweep_config` for blelloch's. Each dispatch resolves every tile shape it launches once, at its
//! top; the tuning's optional fields arrive with their defaults applied (tuning/rows.cuh), so nothing
//! below the dispatch reads a tuning, a row or a hooks struct: a tile asks its configuration.

#include <cstddef>
#include <cstdint>

#include <archscan/detail/hook_traits.cuh>
#include <archscan/tuning/kepler.cuh>
#include <archscan/tuning/rows.cuh>
#include <archscan/tuning/shape.cuh>

namespace archscan {

//! The tiles of `Items` items a thread (before fitting them to shared memory: the tile's `items`) of
//! `Tuning`'s row `Row`, with the test hooks `Hooks` (no_hooks for every shipped policy).
template <class Tuning, class Row, int Items, class Hooks = no_hooks>
struct tile_config {
  using hooks = Hooks;

  //! ---- The shape (tuning/shape.cuh) ----
  static constexpr int items_per_thread = Items;
  //! The row's block_threads, or its large tiles' own large_block_threads.
  static constexpr int threads = detail::tile_threads<Row, Items>;
  //! `__launch_bounds__` minimums: the tile's own, its look-back kernel's (a row's
  //! lookback_min_blocks_per_sm, full tiles only), and the staged look-back's.
  static constexpr int min_blocks_per_sm          = detail::min_blocks_for<Row, Items>;
  static constexpr int lookback_min_blocks_per_sm = detail::lookback_min_blocks_for<Row, Items>;
  static constexpr int staged_min_blocks_per_sm   = detail::staged_tiles<Row>::min_blocks_per_sm;
  //! The smallest of the row's single tiles of few items (native; the row's items_per_thread without them).
  static constexpr int single_items_per_thread = detail::single_tiles<Row>::items_per_thread;
  //! The same tuning, row and hooks at another tile size (the single tiles' ladder in one kernel).
  template <int OtherItems>
  using with_items = tile_config<Tuning, Row, OtherItems, Hooks>;

  //! ---- How items move (tuning/turing.cuh documents each) ----
  static constexpr bool warp_transpose              = Tuning::warp_transpose;
  static constexpr bool opt_in_large_smem           = Tuning::opt_in_large_smem;
  static constexpr bool narrow_index_arithmetic     = Tuning::narrow_index_arithmetic;
  static constexpr bool vector_access               = Tuning::vector_access;
  static constexpr bool read_only_loads             = Tuning::load == load_kind::read_only;
  static constexpr std::size_t bulk_store_min_bytes = detail::bulk_store_min_bytes<Tuning>::value;
  static constexpr bool packed_dot_sums             = detail::packed_dot_sums<Tuning>::value;

  //! ---- How tiles meet (tile/tile_state.cuh, tile/lookback.cuh, tile/segment_lookback.cuh) ----
  static constexpr bool packed_status         = Tuning::tile_status == tile_status_kind::packed_word;
  static constexpr int lookback_window        = Tuning::lookback_window;
  static constexpr unsigned lookback_delay_ns = Tuning::lookback_delay_ns;
  static constexpr unsigned backoff_min_ns    = Tuning::backoff_min_ns;
  static constexpr unsigned backoff_max_ns    = Tuning::backoff_max_ns;
  static constexpr std::uint64_t spin_limit   = Tuning::spin_limit;
  //! Accumulators (by-key items) of at most these bytes walk the chain of prefixes; 0: none.
  static constexpr std::size_t prefix_chain_max_bytes       = detail::prefix_chain_max_bytes<Tuning>::plain;
  static constexpr std::size_t keyed_prefix_chain_max_bytes = detail::prefix_chain_max_bytes<Tuning>::keyed;
  //! The row's large tiles walk the chain of prefixes whatever their size (`large_chained`).
  static constexpr bool large_chained            = detail::large_tiles_chained<Row, Items>;
  static constexpr double stagger_cycles_per_kib = detail::stagger_cycles_per_kib<Tuning>::value;
  static constexpr int l2_prefetch_ahead_percent = detail::l2_prefetch_ahead_percent<Tuning>::value;
};

//! The same for kepler's striped tiles (tile/striped_tile.cuh), whose tuning has fields of its own
//! (tuning/kepler.cuh) and none of the transposed tiles' moves.
template <class Tuning, class Row, int Items, class Hooks = no_hooks>
struct striped_config {
  using hooks                                 = Hooks;
  static constexpr int items_per_thread       = Items;
  static constexpr int threads                = Row::block_threads;
  static constexpr int min_blocks_per_sm      = Row::min_blocks_per_sm;
  static constexpr bool shuffle_exchange      = Tuning::warp_exchange == warp_exchange_kind::shuffle;
  static constexpr int smem_word_bytes        = Tuning::smem_word_bytes;
  static constexpr bool read_only_loads       = Tuning::load == load_kind::read_only;
  static constexpr bool packed_status         = Tuning::tile_status == tile_status_kind::packed_word;
  static constexpr unsigned lookback_delay_ns = Tuning::lookback_delay_ns;
  static constexpr unsigned backoff_min_ns    = Tuning::backoff_min_ns;
  static constexpr unsigned backoff_max_ns    = Tuning::backoff_max_ns;
  static constexpr std::uint64_t spin_limit   = Tuning::spin_limit;
};

//! The same for blelloch's sweep tiles (tile/sweep_tile.cuh): a row's threads (narrowed by the dispatch
//! where its block does not fit) and the paper's padding.
template <class Tuning, class Row>
struct sweep_config {
  static constexpr int threads           = Row::block_threads;
  static constexpr int min_blocks_per_sm = Row::min_blocks_per_sm;
  static constexpr bool conflict_free    = Tuning::conflict_free;
};

}  // namespace archscan
