#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The plan of a single-pass scan (the kepler, turing and native families): which path, which tiles,
//! how many blocks, and where the tile states live.

#include <cstddef>
#include <cstdint>

#include <archscan/tile/tile_state.cuh>

namespace archscan::dispatch {

enum class single_pass_route {
  single_tile,  //!< n fits one tile: one block, no temporary storage
  wave,         //!< every tile resident at once: one cooperative launch, one grid barrier (turing)
  lookback,     //!< tile states reset, then tiles look back on their predecessors
  cluster,      //!< every tile in one thread block cluster (native, sm_90 on): no temporary storage
};

//! Which of a row's tile shapes (tuning/shape.cuh) a launch takes: with `single_step`, all that a
//! launch needs to name its kernel, so that it re-derives nothing from sizes.
enum class tile_shape : unsigned char {
  full,    //!< the row's full tiles
  small,   //!< its small tiles (turing's small waves, native's problems of few small tiles)
  large,   //!< its large tiles (native)
  single,  //!< one of its single tiles of few items (native): the ladder's step `single_step`
};

//! Tiles of one launch.
struct tile_grid {
  int items_per_thread    = 0;
  std::int64_t tile_items = 0;
  std::int64_t tiles      = 0;
  std::int64_t grid       = 0;  //!< blocks launched: one per tile, or fewer that loop over tiles
  tile_shape shape        = tile_shape::full;
  //! shape single: the tile of the row's single_items_per_thread << single_step items a thread
  int single_step = 0;
};

struct single_pass_plan {
  single_pass_route route = single_pass_route::single_tile;
  tile_grid tiles;  //!< the route's tiles
  //! The look-back's tiles: the route's own, or, for a wave, what runs if the driver refuses the
  //! cooperative launch (a grid that fits on the device but not in what MPS grants this process).
  tile_grid lookback;
  unsigned lookback_delay_ns = 0;
  //! The look-back's first set: the tiles claimed first, one per block the device (or the grid, under
  //! the resident-blocks hook) holds at once, which pace their loads (tile/transposed_tile.cuh).
  std::int64_t first_set = 0;
  //! The look-back launches as a programmatic dependent of its own reset kernel (native, sm_90 on).
  bool dependent_launch = false;
  //! The look-back runs staged: persistent blocks with two tiles each in shared memory (native;
  //! tiles.grid the blocks that fit, first_set as many).
  bool staged = false;
  //! A wave of an operator exact under any association folds its aggregates in order rather than as
  //! a tree (native: the tree's runs a lane would be long; the same bits either way).
  bool wave_in_order = false;
  tile::tile_state_layout states{};  //!< of `lookback`
  std::size_t temp_bytes = 0;        //!< the most any path of the plan needs
};

//! The look-back delay of a launch: `delay_ns` when more tiles than one wave of resident blocks
//! (`resident_blocks` on the whole device) queue behind each other, else 0: within one wave the
//! delay only adds latency (turing, H100, 2^16: 0.86x -> 0.78x CUB).
constexpr unsigned lookback_delay(std::int64_t tiles, std::int64_t resident_blocks, unsigned delay_ns) {
  return tiles > resident_blocks ? delay_ns : 0u;
}

}  // namespace archscan::dispatch
