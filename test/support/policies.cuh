#pragma once
// The policies every GPU test runs. A new family joins the whole typed suite by adding its policies here.

#include <cstddef>

#include <archscan/archscan.cuh>

namespace archscan::test {

template <class... P>
struct policy_list {};

using all_policies = policy_list<
    archscan::policy<archscan::native_tuning>,
    archscan::policy<archscan::native_tuning, false>,
    archscan::policy<archscan::turing_tuning>,
    archscan::policy<archscan::turing_tuning, false>,
    archscan::policy<archscan::kepler_tuning>,
    archscan::policy<archscan::kepler_tuning, false>,
    archscan::policy<archscan::blelloch_tuning>,        // blelloch
    archscan::policy<archscan::blelloch_tuning, false>  // blelloch_nosync
    >;

//! `Base` with tiles of one warp of one item each for items of 4 bytes and more, and for by-key
//! items of every size: many tiles from few items, so that a look-back crosses many segments of 32
//! tiles (tile/lookback.cuh).
struct tiny_tile_row {
  static constexpr int block_threads          = 32;
  static constexpr int items_per_thread       = 1;
  static constexpr int small_items_per_thread = 1;
  static constexpr int min_blocks_per_sm      = 1;
};
template <class Base>
struct with_tiny_tiles : Base {
  using row_4     = tiny_tile_row;
  using row_8     = tiny_tile_row;
  using row_16    = tiny_tile_row;
  using row_large = tiny_tile_row;
  struct keyed_rows {
    using row_1     = tiny_tile_row;
    using row_2     = tiny_tile_row;
    using row_4     = tiny_tile_row;
    using row_8     = tiny_tile_row;
    using row_16    = tiny_tile_row;
    using row_large = tiny_tile_row;
  };
};

//! `Base` (a native tuning) with one look-back walk for every accumulator, plain and by-key
//! (tile/lookback.cuh, `segment_lookback`): the chain of prefixes, or the segment states.
template <class Base>
struct on_prefix_chain : Base {
  static constexpr std::size_t prefix_chain_max_bytes       = ~std::size_t{0};
  static constexpr std::size_t keyed_prefix_chain_max_bytes = ~std::size_t{0};
};
template <class Base>
struct on_segment_states : Base {
  static constexpr std::size_t prefix_chain_max_bytes       = 0;
  static constexpr std::size_t keyed_prefix_chain_max_bytes = 0;
  struct row_16 : Base::row_16 {  // its large tiles too, which native's row_16 puts on the chain
    static constexpr bool large_chained = false;
  };
};

}  // namespace archscan::test
