#pragma once
// The policies every GPU test runs. A new family joins the whole typed suite by adding its policies here.

#include <climits>
#include <cstddef>
#include <cstdint>

#include <archscan/archscan.cuh>

namespace archscan::test {

template <class... P>
struct policy_list {};

using all_policies =
    policy_list<archscan::policy<archscan::native_tuning>, archscan::policy<archscan::native_tuning, false>,
                archscan::policy<archscan::turing_tuning>, archscan::policy<archscan::turing_tuning, false>,
                archscan::policy<archscan::kepler_tuning>, archscan::policy<archscan::kepler_tuning, false>,
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

//! `Base` (a native tuning) always on the look-back: no wave and no cluster, whatever the problem's size.
template <class Base>
struct lookback_only : Base {
  static constexpr int wave_max_tiles    = 0;
  static constexpr int cluster_max_tiles = 0;
};

//! `Base` (a native tuning) with one look-back walk for every accumulator, plain and by-key
//! (tile/segment_lookback.cuh): the chain of prefixes, or the segment states.
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

//! `Base` (a native tuning) with the staged look-back (tuning/shape.cuh, example_staged_row) for row_4, row_8
//! and the packed rows (int8 and int16 through raw pointers) from `From` items on every device, whatever
//! its memory; the packed rows at `PackedMinBlocks` blocks an SM. row_8's large tiles never stage: past
//! its large_from_items only exact operators stage (on its full tiles).
template <class Base, std::int64_t From, int PackedMinBlocks = 3>
struct staged_from : Base {
  static constexpr int staged_min_memory_gbps = 0;
  struct row_4 : Base::row_4 {
    static constexpr std::int64_t staged_from_items = From;
  };
  struct row_8 : Base::row_8 {  // below its large tiles; past them exact operators alone (tuning.cuh)
    static constexpr std::int64_t staged_from_items = From;
    static constexpr int staged_min_blocks_per_sm   = 3;
  };
  struct packed_rows {
    struct row_1 : Base::packed_rows::row_1 {
      static constexpr std::int64_t staged_from_items = From;
      static constexpr int staged_min_blocks_per_sm   = PackedMinBlocks;
    };
    struct row_2 : Base::packed_rows::row_2 {
      static constexpr std::int64_t staged_from_items = From;
      static constexpr int staged_min_blocks_per_sm   = PackedMinBlocks;
    };
  };
};
//! `Base` never staged, on any device (its rows' staged kernels are still compiled where they state
//! staged_from_items).
template <class Base>
struct never_staged : Base {
  static constexpr int staged_min_memory_gbps = INT_MAX;
};

}  // namespace archscan::test
