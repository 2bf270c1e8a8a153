#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The transposed tile on its routes (tile/routes.cuh): where each tile's exclusive prefix comes
//! from, and the bodies of the turing and native kernels (kernel/). A tile (tile/transposed_tile.cuh)
//! takes its prefix from the tiles before it by a warp-wide decoupled look-back (tile/lookback.cuh:
//! turing's window, or native's segmented walk, tile/segment_lookback.cuh, whose association is fixed
//! by tile indices), or in a wave after one grid barrier (tile/wave.cuh), or in one thread block
//! cluster (tile/cluster.cuh).
//!
//! Small problems whose tiles are all resident at once take their prefixes from one grid-wide barrier
//! instead (wave.cuh; the dispatch chooses, and launches that kernel cooperatively).
//!
//! Barriers: two `__syncthreads` per tile (the block scan's, the prefix broadcast; in a wave, the grid
//! barrier as well), all reached by every thread of the block: the loop's exit condition is a tile id
//! read from shared memory after a barrier, so it is uniform. The barrier after the first claim also
//! holds the block while a tile of the look-back's first set waits out its pace (`pace_start`).
//! Warp 0's work is under `warp::uniform(threadIdx.x < 32)`, a condition the compiler knows to be
//! warp-uniform, so that the look-back's intrinsics carry no second, collective copy.

#include <cstdint>

#include <archscan/detail/dependent_launch.cuh>
#include <archscan/detail/exact_fold.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/maybe.cuh>
#include <archscan/tile/cluster.cuh>
#include <archscan/tile/lookback.cuh>
#include <archscan/tile/routes.cuh>
#include <archscan/tile/tile_state.cuh>
#include <archscan/tile/transposed_tile.cuh>
#include <archscan/tile/wave.cuh>

namespace archscan::tile {

//! `Config`: as transposed_tile's (tuning/tile_config.cuh).
template <class Problem, class Config>
struct routed_tile : transposed_tile<Problem, Config> {
  //! The tile (transposed_tile.cuh), its members named here as the routes use them (the dispatch
  //! sizes launches by the tile's own).
  using base = transposed_tile<Problem, Config>;
  using base::cluster_fits;
  using base::cluster_slots_at;
  using base::prefetch_percent;
  using base::staged_aggregates;
  using base::threads;
  using typename base::hooks;
  using typename base::look;
  using typename base::segment_walk;
  using typename base::smem_view;
  using typename base::state_t;
  using typename base::T;

  //! The whole problem in one tile (n <= tile_items): no look-back, no temporary storage.
  __device__ static void scan_single(const Problem& p, unsigned char* raw) {
    const smem_view s(raw);
    run_tile(p, 0, s, [](const T&) {});
  }

  //! Tile blockIdx.x of a grid whose blocks are all resident at once (a cooperative launch): its
  //! prefix from the aggregates of the tiles before it, after one grid barrier (wave.cuh).
  //! `d_aggregates`: one slot per tile, written here before it is read; nothing to reset.
  //! `Ordered`: fold the aggregates as the segmented look-back does (tile/segment_lookback.cuh, bitwise
  //! deterministic), so that a wave and a look-back over the same tiles give the same bits; an
  //! operator exact under any association (detail/exact_fold.cuh) takes the tree's fewer steps in a
  //! row instead, the same bits, unless `ExactInOrder`.
  template <bool Ordered = false, bool ExactInOrder = false>
  __device__ static void scan_wave(const Problem& p, T* d_aggregates, unsigned char* raw) {
    const smem_view s(raw);
    const std::int64_t tile = blockIdx.x;
    run_tile(p, tile, s,
             [&](const T& aggregate) { wave_prefix<Ordered, ExactInOrder>(p, tile, aggregate, s, d_aggregates); });
  }

  //! One launch of a routed kernel (tile/routes.cuh; the native family): `a.path`, one of `Routes`,
  //! uniform over the grid. Every route but the reset runs the same tile body (run_tile) once per
  //! tile; they differ in where the prefix comes from:
  //! - single: the whole problem in one tile (n <= tile_items), block 0; no temporary storage.
  //! - cluster: tile blockIdx.x of a grid that is one thread block cluster (sm_90 on); its prefix
  //!   from the aggregates that the blocks before it write into its shared memory before one
  //!   cluster barrier (cluster_prefix). Shared memory: cluster_smem_bytes.
  //! - wave: tile blockIdx.x of a grid launched cooperatively; its prefix after one grid barrier
  //!   (scan_wave, `Ordered`; an exact operator's in order where `a.wave_in_order`).
  //! - lookback: tiles claimed from the counter, as scan_tiles<Ordered> claims them.
  //! - reset: the look-back's states zeroed by the whole grid, the look-back queued after this
  //!   launch allowed to start meanwhile (detail/dependent_launch.cuh).
  //! The cluster and wave routes fold as the look-back does where `Ordered`: the same bits whichever
  //! route the device allows. `WaveTiles`: the most tiles a wave holds (0: any number).
  template <bool Ordered, route_set Routes, int WaveTiles = 0>
  __device__ static void scan_routed(const Problem& p, const routed_launch<state_t, T>& a, unsigned char* raw) {
    if constexpr (has_route(Routes, route::reset)) {
      if (a.path == route::reset) {
        detail::allow_dependent_launch();
        hooks::delay_reset();
        zero_tile_states(a.d_temp, a.words);
        return;
      }
    }
    const smem_view s(raw);
    constexpr bool resident                      = hooks::resident_blocks_per_sm > 0;
    std::int64_t tile                            = blockIdx.x;
    [[maybe_unused]] std::int64_t prefetch_ahead = 0;
    if (has_route(Routes, route::lookback) && a.path == route::lookback) {
      detail::wait_for_prerequisite_grids();  // as scan_tiles: nothing touched before the reset completes
      if (threadIdx.x == 0) {
        const std::int64_t first = a.st.next_tile();
        s.tile_ids[0]            = first;
        if (first < a.first_set && first < a.tiles) pace_start(first);
      }
      prefetch_ahead = a.first_set * prefetch_percent / 100;
      __syncthreads();
      tile = s.tile_ids[0];
      if (tile >= a.tiles) return;  // uniform: every thread read the same id after a barrier
    }
    T* const slots = reinterpret_cast<T*>(raw + cluster_slots_at);
    if constexpr (has_route(Routes, route::cluster)) {
      static_assert(cluster_fits, "the cluster's slots must fit the tile's shared memory");
      if (a.path == route::cluster) cluster_exchange::arrive_started();
    }
    for (int round = 0;; ++round) {
      // A resident block's next claim (scan_tiles): the other slot, read after this round's last barrier.
      std::int64_t* next_tile_slot = resident ? &s.tile_ids[(round + 1) & 1] : nullptr;
      run_tile(p, tile, s, [&](const T& aggregate) {
        if (has_route(Routes, route::lookback) && a.path == route::lookback) {
          if constexpr (Ordered) {
            segment_prefix(p, tile, a.tiles, aggregate, s, a.st, next_tile_slot, Config::lookback_delay_ns,
                           prefetch_ahead);
          } else {
            lookback_prefix(p, tile, aggregate, s, a.st, next_tile_slot, Config::lookback_delay_ns);
          }
        } else if (has_route(Routes, route::wave) && a.path == route::wave) {
          if constexpr ((Routes & wave_in_order) != 0) {
            if (a.wave_in_order) {
              wave_prefix<Ordered, true, WaveTiles>(p, tile, aggregate, s, a.d_aggregates);
              return;
            }
          }
          wave_prefix<Ordered, false, WaveTiles>(p, tile, aggregate, s, a.d_aggregates);
        } else if (has_route(Routes, route::cluster) && a.path == route::cluster) {
          cluster_prefix(p, tile, aggregate, s, slots);
        }
      });
      if constexpr (!resident) {
        return;
      } else {
        if (a.path != route::lookback) return;
        tile = s.tile_ids[(round + 1) & 1];
        if (tile >= a.tiles) return;  // uniform, as above
      }
    }
  }

  //! Takes tiles from the counter until none is left: one tile per block, or (the hook
  //! resident_blocks_per_sm) a grid of resident blocks each looping over tiles.
  //! A resident block claims its next tile id while warp 0 looks back for the current one, from a
  //! thread of another warp that would only wait at the barrier: the atomic's latency hides behind
  //! the look-back, and the id arrives with the prefix broadcast, so no barrier of its own is needed.
  //! Claiming later keeps a claimed tile from idling (its successors would wait for it); claiming
  //! earlier, during the loads, measured slower (H100, 2^28: 0.65-0.79x CUB). Progress still holds: a block works
  //! on its tiles in increasing order and a tile waits only for smaller ids, whose blocks finish
  //! their current tile (which waits only for smaller ids still) before starting the claimed one.
  //! `lookback_delay_ns`: the sleep before each look-back's first poll (tile/lookback.cuh).
  //! `Ordered`: the segmented look-back (`segment_lookback`, bitwise deterministic) instead of the
  //! windowed tree (`window_lookback`).
  //! `first_set`: the tiles the device holds at once, whose loads `pace_start` spreads (0: none), and
  //! the unit of the L2 prefetch's distance (`prefetch_input`).
  template <bool Ordered = false>
  __device__ static void scan_tiles(const Problem& p, const state_t& st, std::int64_t tiles, unsigned lookback_delay_ns,
                                    unsigned char* raw, std::int64_t first_set = 0) {
    const smem_view s(raw);
    // The look-back may be launched as a programmatic dependent of the reset of its states: no
    // thread touches a state, the counter, the input or the output before the reset has completed.
    // (Launched plainly, this returns at once.)
    detail::wait_for_prerequisite_grids();
    if (threadIdx.x == 0) {
      const std::int64_t first = st.next_tile();
      s.tile_ids[0]            = first;
      if (first < first_set && first < tiles) pace_start(first);
    }
    [[maybe_unused]] const std::int64_t prefetch_ahead = first_set * prefetch_percent / 100;
    __syncthreads();
    for (int round = 0;; ++round) {
      const std::int64_t tile = s.tile_ids[round & 1];
      if (tile >= tiles) return;  // uniform: every thread read the same id after a barrier
      constexpr bool resident = hooks::resident_blocks_per_sm > 0;
      // The other slot was last read before the previous round's barriers; written during this
      // round's look-back, it is read after this round's last barrier.
      std::int64_t* next_tile_slot = resident ? &s.tile_ids[(round + 1) & 1] : nullptr;
      run_tile(p, tile, s, [&](const T& aggregate) {
        if constexpr (Ordered) {
          segment_prefix(p, tile, tiles, aggregate, s, st, next_tile_slot, lookback_delay_ns, prefetch_ahead);
        } else {
          lookback_prefix(p, tile, aggregate, s, st, next_tile_slot, lookback_delay_ns);
        }
      });
      if constexpr (!resident) return;
    }
  }

 protected:
  //! Decoupled look-back (tile/lookback.cuh) by warp 0. A resident block also claims its next tile here, from
  //! the last thread, which would only wait at the barrier: read by every thread after that barrier.
  __device__ static void lookback_prefix(const Problem& p, std::int64_t tile, const T& aggregate, const smem_view& s,
                                         const state_t& st, std::int64_t* next_tile_slot, unsigned lookback_delay_ns) {
    if (next_tile_slot != nullptr && threadIdx.x == threads - 1) *next_tile_slot = st.next_tile();
    const int lane = static_cast<int>(threadIdx.x) % 32;
    if (warp::uniform(threadIdx.x < 32)) {
      hooks::starve(tile);
      if (tile == 0) {
        if (lane == 0) st.publish(0, status_prefix, p.seeded(aggregate));
      } else {
        if (lane == 0) st.publish(tile, status_aggregate, aggregate);
        const T prefix = look::exclusive_prefix(st, tile, p.op, lookback_delay_ns);
        if (lane == 0) {
          st.publish(tile, status_prefix, T(p.op(prefix, aggregate)));
          *s.tile_prefix = prefix;
        }
      }
    }
    __syncthreads();
  }

  //! The segmented look-back (tile/segment_lookback.cuh) by warp 0 over `tiles` tiles:
  //! the aggregate first, then the prefix; a segment's last tile also publishes the prefix of the
  //! segment after it (and, on the segment states, its segment's aggregate first). Meanwhile the
  //! block's last thread asks the L2 for the input `prefetch_ahead` tiles on (0: none; prefetch_input).
  __device__ static void segment_prefix(const Problem& p, std::int64_t tile, std::int64_t tiles, const T& aggregate,
                                        const smem_view& s, const state_t& st, std::int64_t* next_tile_slot,
                                        unsigned lookback_delay_ns, std::int64_t prefetch_ahead = 0) {
    if (next_tile_slot != nullptr && threadIdx.x == threads - 1) *next_tile_slot = st.next_tile();
    if (prefetch_ahead > 0 && threadIdx.x == threads - 1) prefetch_input(p, tile + prefetch_ahead);
    if (warp::uniform(threadIdx.x < 32)) {
      hooks::starve(tile);
      if (threadIdx.x == 0) st.publish(tile, status_aggregate, aggregate);
      const detail::maybe<T> prefix =
          segment_walk::exclusive_prefix(st, tile, tiles, aggregate, p.seed_maybe(), p.op, lookback_delay_ns);
      if (threadIdx.x == 0 && tile > 0) *s.tile_prefix = prefix.value;  // present for every tile > 0
    }
    __syncthreads();
  }

  //! One cluster (tile/cluster.cuh): once every block has started, thread t of warp 0 (tile < t <
  //! tiles) writes this tile's aggregate into slot `tile` of tile t's block; after the cluster
  //! barrier warp 0 folds its own slots 0 .. tile - 1 in the look-back's order. No block reads
  //! another's shared memory, so the one barrier is the last: a block may exit after it.
  __device__ static void cluster_prefix(const Problem& p, std::int64_t tile, const T& aggregate, const smem_view& s,
                                        T* slots) {
    cluster_exchange::wait();  // the phase arrived at when the kernel started: every block runs
    if (warp::uniform(threadIdx.x < 32)) {
      hooks::starve(tile);
      const std::int64_t later = threadIdx.x;
      if (later > tile && later < gridDim.x) {
        cluster_exchange::write(&slots[tile], static_cast<unsigned>(later), aggregate);
      }
    }
    cluster_exchange::barrier();
    if (tile > 0) {
      fold_ordered<cluster_exchange::max_blocks>(p, tile, s, segmented_aggregates<T>{slots, segment_tiles});
    }
    __syncthreads();
  }

  //! One wave (wave.cuh): aggregates stored, one grid barrier, warp 0 folds the predecessors' aggregates.
  //! `WaveTiles`: the most tiles the wave holds (0: any number); the fold leaves out what lies past it.
  template <bool Ordered, bool ExactInOrder, int WaveTiles = 0>
  __device__ static void wave_prefix(const Problem& p, std::int64_t tile, const T& aggregate, const smem_view& s,
                                     T* d_aggregates) {
    if (threadIdx.x == 0) {
      hooks::starve(tile);
      d_aggregates[tile] = aggregate;
    }
    wave<T>::barrier();
    // Integer sums and the like give the same bits in any association: the tree's fold, without the
    // staging, its barrier and the segments' 31 steps in a row, unless the dispatch found its lanes'
    // runs too long (`ExactInOrder`, tuning/native.cuh's wave_tree_max_run_bytes).
    if constexpr (Ordered && (ExactInOrder || !detail::associates_exactly<typename Problem::op_type, T>)) {
      constexpr std::int64_t max_tiles = WaveTiles > 0 ? WaveTiles : INT64_MAX;
      const T* a                       = d_aggregates;
      if (tile > 0 && tile <= staged_aggregates) {  // uniform: the block's tile
        // Folded from global memory, each lane's 31 loads of its segment took several round trips
        // in a row.
        stage_aggregates(tile, s, [&](std::int64_t i) { return a[i]; });
        __syncthreads();
        fold_staged<max_tiles>(p, tile, s);
      } else if (tile > 0) {
        if constexpr (max_tiles - 1 > staged_aggregates) {
          fold_ordered<max_tiles>(p, tile, s, segmented_aggregates<T>{a, segment_tiles});
        }
      }
    } else if (tile > 0 && warp::uniform(threadIdx.x < 32)) {
      const T prefix = wave<T>::exclusive_prefix(d_aggregates, tile, p.op);
      if (threadIdx.x == 0) *s.tile_prefix = p.seeded(prefix);
    }
    __syncthreads();
  }

 protected:
  using base::fold_ordered;
  using base::fold_staged;
  using base::pace_start;
  using base::prefetch_input;
  using base::run_tile;
  using base::stage_aggregates;
};

}  // namespace archscan::tile
