#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The routes of one tile shape's kernel (the native family): which way a launch finds its
//! tiles' prefixes, chosen at run time from the plan, and the arguments of that launch.
//!
//! Every route loads, folds, scans and stores a tile the same way; they differ only in where a tile's
//! exclusive prefix comes from (none for one tile; the cluster's shared memory; a grid barrier; the
//! look-back over tile states) and in the reset of those states before a look-back. One kernel per
//! tile shape serves them all, so a call site compiles the tile's body once per shape instead of once
//! per route: the route is a kernel argument and uniform over the grid, and the kernel's register
//! budget is the look-back's, the largest of the routes.

#include <cstdint>

namespace archscan::tile {

//! The route of one launch.
enum class route : unsigned {
  single   = 1u << 0,  //!< one block, one tile: no prefix
  cluster  = 1u << 1,  //!< every tile in one thread block cluster (sm_90 on)
  wave     = 1u << 2,  //!< every tile resident at once (a cooperative launch), one grid barrier
  lookback = 1u << 3,  //!< tiles claimed from the counter, prefixes by the look-back
  reset    = 1u << 4,  //!< no tile: the look-back's states zeroed, the look-back launched meanwhile
};

//! A set of routes, as bits: the ones a kernel is compiled for. `wave_in_order` adds the in-order
//! fold of an exact operator's wave (tile/routed_tile.cuh, scan_wave's ExactInOrder).
using route_set                          = unsigned;
inline constexpr route_set wave_in_order = 1u << 5;

__host__ __device__ constexpr route_set operator|(route a, route b) {
  return static_cast<route_set>(a) | static_cast<route_set>(b);
}
__host__ __device__ constexpr route_set operator|(route_set a, route b) { return a | static_cast<route_set>(b); }
__host__ __device__ constexpr bool has_route(route_set set, route r) { return (set & static_cast<route_set>(r)) != 0; }

//! The arguments of one launch of a routed kernel (`State`: the tile's tile_state, `T`: its
//! accumulator). Each route reads its own fields; the others stay value-initialized.
template <class State, class T>
struct routed_launch {
  route path       = route::single;
  int single_items = 0;              //!< single: a tile of this many items a thread, not the kernel's own (0)
  State st{};                        //!< lookback: the tile states (bound to d_temp)
  std::int64_t tiles     = 0;        //!< lookback: tiles to claim
  std::int64_t first_set = 0;        //!< lookback: the tiles the device holds at once (their loads paced)
  T* d_aggregates        = nullptr;  //!< wave: one slot per tile
  bool wave_in_order     = false;    //!< wave: an exact operator's fold in order (needs wave_in_order)
  void* d_temp           = nullptr;  //!< reset: the states' storage
  std::int64_t words     = 0;        //!< reset: its 16-byte words (tile_state_words)
};

}  // namespace archscan::tile
