#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The native family's kernels: place shared memory, call the transposed tile with the
//! segmented look-back; and the reset of its tile states that the look-back launches after.

#include <cstdint>

#include <archscan/detail/dependent_launch.cuh>
#include <archscan/hooks.cuh>
#include <archscan/tile/transposed_tile.cuh>

namespace archscan::kernel {

//! `Items`: the row's items_per_thread, its small_items_per_thread for problems of few small tiles, its
//! large_items_per_thread for problems from its large_from_items up, or one of its single tiles' item
//! counts (single_items_per_thread up to single_max_items_per_thread) for problems that one such tile
//! covers (tuning/shape.cuh).
template <class Tuning, class Row, class Hooks, class Problem, int Items = Row::items_per_thread>
using native_tile = tile::transposed_tile<Problem, Tuning, Row, Items, Hooks>;

//! Whether tiles' aggregates are folded strictly in order by the segmented look-back (bitwise
//! deterministic for every operator), or, under the tree_fold hook, as turing's windowed tree: what
//! the order costs. Operators exact under any association (integer sums, minima, maxima, bitwise)
//! take the ordered walk in the look-back and a cluster too (with 8192-item tiles it outran the
//! tree), and in a wave the tree (fewer steps in a row) unless `ExactInOrder` (the dispatch's choice
//! for long runs, tuning/native.cuh's wave_tree_max_run_bytes): the same bits either way.
template <class Hooks>
inline constexpr bool native_ordered_fold = !detail::hook_traits<Hooks>::tree_fold;

//! A problem of at most one tile (of the row's items_per_thread, or of the smallest of its single
//! tiles of few items that covers it): one block, no tile states.
template <class Tuning, class Row, class Hooks, class Problem, int Items = Row::items_per_thread>
__global__ void __launch_bounds__((detail::tile_threads<Row, Items>)) native_scan_single(Problem p) {
  extern __shared__ __align__(16) unsigned char smem[];
  native_tile<Tuning, Row, Hooks, Problem, Items>::scan_single(p, smem);
}

//! Every block resident at once (launched cooperatively): the prefixes after one grid barrier, folded
//! as the segmented look-back folds them; `d_aggregates` holds one accumulator per tile.
//! `ExactInOrder`: an exact operator's aggregates folded in order too, not as a tree.
template <class Tuning, class Row, class Hooks, class Problem, int Items, bool ExactInOrder = false>
__global__ void __launch_bounds__((detail::tile_threads<Row, Items>), detail::min_blocks_for<Row, Items>)
    native_scan_wave(Problem p, typename Problem::accum_type* d_aggregates) {
  extern __shared__ __align__(16) unsigned char smem[];
  native_tile<Tuning, Row, Hooks, Problem, Items>::template scan_wave<native_ordered_fold<Hooks>, ExactInOrder>(
      p, d_aggregates, smem);
}

//! Every tile in one thread block cluster (sm_90 on): the prefixes from the aggregates the blocks write
//! into each other's shared memory before one cluster barrier, folded as the segmented look-back
//! folds them; no temporary storage. Dynamic shared memory: the tile's cluster_smem_bytes.
template <class Tuning, class Row, class Hooks, class Problem, int Items>
__global__ void __launch_bounds__((detail::tile_threads<Row, Items>), detail::min_blocks_for<Row, Items>)
    native_scan_cluster(Problem p) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900  // launched on sm_90 on only: nothing to compile before
  extern __shared__ __align__(16) unsigned char smem[];
  native_tile<Tuning, Row, Hooks, Problem, Items>::scan_cluster(p, smem);
#else
  __trap();
#endif
}

//! Resets the look-back's tile states (tile/tile_state.cuh), first letting the scan queued after it
//! launch: that one waits for this grid before it touches a state (detail/dependent_launch.cuh).
template <int Threads, class Hooks>
__global__ void __launch_bounds__(Threads) native_reset_states(void* d_temp, std::int64_t words) {
  detail::allow_dependent_launch();
  detail::hook_traits<Hooks>::delay_reset();
  tile::zero_tile_states(d_temp, words);
}

//! Tiles taken from the counter of `st`, their prefixes from the segmented look-back. The row's
//! look-back minimum of blocks an SM (tuning/shape.cuh, `example_lookback_row`).
template <class Tuning, class Row, class Hooks, class Problem, int Items>
__global__ void __launch_bounds__((detail::tile_threads<Row, Items>), detail::lookback_min_blocks_for<Row, Items>)
    native_scan_tiles(Problem p, typename native_tile<Tuning, Row, Hooks, Problem, Items>::state_t st,
                      std::int64_t tiles, std::int64_t first_set) {
  extern __shared__ __align__(16) unsigned char smem[];
  native_tile<Tuning, Row, Hooks, Problem, Items>::template scan_tiles<native_ordered_fold<Hooks>>(
      p, st, tiles, Tuning::lookback_delay_ns, smem, first_set);
}

//! The staged look-back (tuning/shape.cuh, `example_staged_row`): persistent blocks of the row's threads and
//! one look-back warp, the row's staged minimum of them an SM, two tiles each in shared memory.
template <class Tuning, class Row, class Hooks, class Problem, int Items>
__global__ void __launch_bounds__((native_tile<Tuning, Row, Hooks, Problem, Items>::staged_threads),
                                  detail::staged_tiles<Row>::min_blocks_per_sm)
    native_scan_tiles_staged(Problem p, typename native_tile<Tuning, Row, Hooks, Problem, Items>::state_t st,
                             std::int64_t tiles, std::int64_t first_set) {
  extern __shared__ __align__(16) unsigned char smem[];
  native_tile<Tuning, Row, Hooks, Problem, Items>::scan_tiles_staged(p, st, tiles, Tuning::lookback_delay_ns, smem,
                                                                     first_set);
}

}  // namespace archscan::kernel
