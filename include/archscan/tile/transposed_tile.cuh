#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The transposed tile (the turing and native families): load, scan and store one tile of its
//! threads (`detail::tile_threads`: the row's block_threads, or its large tiles' own) times its items
//! a thread, taking its exclusive prefix from the tiles before it by a warp-wide decoupled look-back
//! (tile/lookback.cuh: turing's window, or native's segmented walk, whose association is fixed by
//! tile indices), or in a wave after one grid barrier (tile/wave.cuh), or in one thread block cluster
//! (tile/cluster.cuh).
//!
//! Per tile: the loads into registers, blocked (tile/transposed_io.cuh: the tile's shape, its shared
//! memory and the moves of its items; tile/packed_io.cuh, tile/keyed_loads.cuh: those of packed and
//! by-key items), a thread-local reduction, a block-wide exclusive scan of the thread totals
//! (block/warp_totals_scan.cuh), the look-back by warp 0, a thread-local rescan from the thread's
//! prefix, and the stores. DRAM traffic: n items read, n written, plus one state per tile.
//!
//! Small problems whose tiles are all resident at once take their prefixes from one grid-wide barrier
//! instead (wave.cuh; the dispatch chooses, and launches that kernel cooperatively).
//!
//! Barriers: two `__syncthreads` per tile (the block scan's, the prefix broadcast; in a wave, the grid
//! barrier as well), all reached by every thread of the block: the loop's exit condition is a tile id
//! read from shared memory after a barrier, so it is uniform. The barrier after the first claim also
//! holds the block while a tile of the look-back's first set waits out its pace (`pace_start`).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <archscan/detail/dependent_launch.cuh>
#include <archscan/detail/exact_fold.cuh>
#include <archscan/detail/l2_prefetch.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/maybe.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/hooks.cuh>
#include <archscan/tile/cluster.cuh>
#include <archscan/tile/keyed_loads.cuh>
#include <archscan/tile/lookback.cuh>
#include <archscan/tile/packed_io.cuh>
#include <archscan/tile/routes.cuh>
#include <archscan/tile/tile_state.cuh>
#include <archscan/tile/transposed_io.cuh>
#include <archscan/tile/wave.cuh>
#include <archscan/tuning.cuh>

namespace archscan::tile {

//! `Row`, `ItemsPerThread`: as transposed_io's (the tile's shape); `Hooks`: test hooks (hooks.cuh).
template <class Problem, class Tuning, class Row, int ItemsPerThread, class Hooks = no_hooks>
struct transposed_tile : transposed_io<Problem, Tuning, Row, ItemsPerThread> {
  //! The tile's shape, shared memory and moves (transposed_io.cuh), named here as the scan uses them;
  //! every member of transposed_io is a public member of the tile too (the dispatch sizes launches by them).
  using io = transposed_io<Problem, Tuning, Row, ItemsPerThread>;
  using typename io::T;
  using typename io::finished;
  using typename io::split_value;
  using typename io::keyed_in;
  using typename io::out_element;
  using typename io::packed_vectors;
  using typename io::stage_vectors;
  using typename io::scan;
  using typename io::smem_view;
  using io::threads;
  using io::items;
  using io::tile_items;
  using io::smem_bytes;
  using io::smem_limit;
  using io::transposes;
  using io::region_bytes;
  using io::splits_keyed;
  using io::packs_items;
  using io::stages_fit;
  using io::stage_bytes;

  //! The moves of packed and of by-key items (tile/packed_io.cuh, tile/keyed_loads.cuh).
  using packed = packed_io<Problem, Tuning, Row, ItemsPerThread>;
  using keyed  = keyed_loads<Problem, Tuning, Row, ItemsPerThread>;

  //! The cluster kernel's shared memory (scan_cluster): the tile's, then a slot for the aggregate of
  //! each tile before it in the cluster, which that tile's block writes (tile/cluster.cuh). Where the
  //! slots would pass the limit (accumulators of kilobytes), the dispatch runs no cluster.
  static constexpr std::size_t cluster_slots_at = detail::align_up(static_cast<std::size_t>(smem_bytes), 16);
  static constexpr std::size_t cluster_smem =
      cluster_slots_at + detail::align_up(cluster_exchange::max_blocks * sizeof(T), 16);
  static constexpr bool cluster_fits      = cluster_smem <= smem_limit;
  static constexpr int cluster_smem_bytes = static_cast<int>(cluster_smem);
  static_assert(cluster_exchange::max_blocks <= segment_tiles, "a cluster's tiles fold as one segment");

  using state_t   = tile_state<T, packs_state<Tuning, T>>;
  using look      = window_lookback<T, Tuning>;
  //! native's walk (tile/lookback.cuh): the tuning's by the accumulator's size, or the chain of
  //! prefixes for a row's large tiles that ask for it (`large_chained`, tuning/shape.cuh). The same bits.
  using segment_walk = segment_lookback<T, Tuning,
                                        detail::large_tiles_chained<Row, ItemsPerThread> || chained_by_size<T, Tuning>>;
  using hooks     = detail::hook_traits<Hooks>;

  //! An ordered wave (wave_prefix) stages the aggregates of the segments before a tile and of its own
  //! (to its end) in the exchange regions when they fit: aggregate i in
  //! slot i + i / 32, so that lane l reading item i of segment l meets a bank of its own. A multiple
  //! of 32; 0 without exchange regions.
  static constexpr std::int64_t staged_aggregates =
      transposes ? static_cast<std::int64_t>((threads / 32) * region_bytes / sizeof(T)) / (segment_tiles + 1) *
                       segment_tiles
                 : 0;
  __device__ static std::int64_t staged_slot(std::int64_t i) { return i + i / segment_tiles; }

  //! The whole problem in one tile (n <= tile_items): no look-back, no temporary storage.
  __device__ static void scan_single(const Problem& p, unsigned char* raw) {
    const smem_view s(raw);
    run_tile(p, 0, s, [](const T&) {});
  }

  //! Tile blockIdx.x of a grid whose blocks are all resident at once (a cooperative launch): its
  //! prefix from the aggregates of the tiles before it, after one grid barrier (wave.cuh).
  //! `d_aggregates`: one slot per tile, written here before it is read; nothing to reset.
  //! `Ordered`: fold the aggregates as the segmented look-back does (tile/lookback.cuh, bitwise
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
  //! route the device allows.
  template <bool Ordered, route_set Routes>
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
    constexpr bool resident = hooks::resident_blocks_per_sm > 0;
    std::int64_t tile       = blockIdx.x;
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
            segment_prefix(p, tile, a.tiles, aggregate, s, a.st, next_tile_slot, Tuning::lookback_delay_ns,
                           prefetch_ahead);
          } else {
            lookback_prefix(p, tile, aggregate, s, a.st, next_tile_slot, Tuning::lookback_delay_ns);
          }
        } else if (has_route(Routes, route::wave) && a.path == route::wave) {
          if constexpr ((Routes & wave_in_order) != 0) {
            if (a.wave_in_order) {
              wave_prefix<Ordered, true>(p, tile, aggregate, s, a.d_aggregates);
              return;
            }
          }
          wave_prefix<Ordered, false>(p, tile, aggregate, s, a.d_aggregates);
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

  //! The look-back's first set of tiles (the first `first_set` claimed: those the device holds at
  //! once) start together and, left alone, load together: each has its aggregate only once the whole
  //! set's input has arrived, so the chain of prefixes starts late and the memory then idles. Paced,
  //! the block of tile t of the set waits t x `stagger_cycles` SM cycles from its claim before it
  //! loads, so that the first tiles' inputs arrive first and the chain starts while the rest still
  //! load. Timing alone: the same tiles, the same folds, the same bits. The wait is bounded (t is less
  //! than the blocks the device holds), and a tile waits for nobody while it sleeps.
  static constexpr long long stagger_cycles =
      static_cast<long long>(detail::stagger_cycles_per_kib<Tuning>::value * tile_items * sizeof(T) / 1024);
  __device__ static void pace_start(std::int64_t tile) {
    if constexpr (stagger_cycles > 0) {
      const long long until = clock64() + tile * stagger_cycles;
      while (clock64() < until) __nanosleep(32);
    }
  }

  //! While warp 0 looks back, the block's last thread (in blocks of more than one warp, one that would
  //! only wait at the barrier) asks the L2 for the input of the tile `prefetch_ahead` (= first_set x
  //! l2_prefetch_ahead_percent / 100) after this one, which a block claims about half a tile's life
  //! later at 50: the memory fetches during the waits what that tile would otherwise load itself
  //! (tuning/native.cuh). Full tiles of contiguous inputs alone (detail::contiguous_source: pointers,
  //! device_vector iterators, transforms of them; by key the keys and values), so the range lies
  //! inside the input. Timing alone: the same loads follow, the same bits. Native's ordered look-back
  //! alone (segment_prefix): under the tree_fold hook the field does nothing.
  static constexpr int prefetch_percent = detail::l2_prefetch_ahead_percent<Tuning>::value;
  __device__ static void prefetch_input(const Problem& p, std::int64_t tile) {
    if constexpr (prefetch_percent > 0) {
      using source            = detail::contiguous_source<typename Problem::input_iterator>;
      using keys              = detail::contiguous_source<typename keyed_in::key_iterator>;
      using values            = detail::contiguous_source<typename keyed_in::value_iterator>;
      const std::int64_t base = tile * tile_items;
      if (base + tile_items > p.n) return;  // a partial tile, or past the last
      if constexpr (source::value) {
        detail::prefetch_elements_l2<tile_items>(source::pointer(p.in) + base);
      } else if constexpr (keys::value && values::value) {
        const auto item          = keyed_in::item(p.in);
        const std::int64_t start = keyed_in::index(p.in) + base;
        detail::prefetch_elements_l2<tile_items>(keys::pointer(item.keys) + start);
        detail::prefetch_elements_l2<tile_items>(values::pointer(item.values) + start);
      }
    }
  }

  //! The fold, in order, of the `count` (>= 1) full tiles from `first_tile` on, returned to every
  //! thread: a rank's first pass, for its total alone (dispatch/rank_dispatch.cuh). Loads and folds
  //! as run_tile does, then no prefix and no stores; no tile states. The association depends on the
  //! tile shape and `first_tile`, `count` alone.
  __device__ static T reduce_tiles(const Problem& p, std::int64_t first_tile, std::int64_t count, unsigned char* raw) {
    const smem_view s(raw);
    auto aggregate_of = [&](std::int64_t tile) {
      T thread_total;
      if constexpr (splits_keyed) {
        split_value v[items];
        unsigned closes;
        keyed::load_split(p, tile * tile_items, tile_items, s, v, closes);
        thread_total = reduce([&](int j) { return T::split(v[j], closes, j); }, p.op);
      } else {
        T x[items];
        load_items(p, tile * tile_items, tile_items, s, x);
        thread_total = reduce([&](int j) { return x[j]; }, p.op);
      }
      T unused;
      const T aggregate = scan::exclusive_scan(thread_total, unused, p.op, *s.scan_storage);
      __syncthreads();  // the next tile's block scan reuses its storage
      return aggregate;
    };
    T total = aggregate_of(first_tile);
    for (std::int64_t t = 1; t < count; ++t) total = static_cast<T>(p.op(total, aggregate_of(first_tile + t)));
    return total;
  }

 protected:
  //! One tile. `find_prefix(aggregate)`, called by every thread once the tile's aggregate is known,
  //! leaves the exclusive prefix of a tile > 0 in `*s.tile_prefix`, visible to the block when it returns.
  template <class FindPrefix>
  __device__ static void run_tile(const Problem& p, std::int64_t tile, const smem_view& s, FindPrefix find_prefix) {
    hooks::mark(tile, tile_event::started);
    const std::int64_t base = tile * tile_items;
    const std::int64_t left = p.n - base;
    const int rest          = left < tile_items ? static_cast<int>(left) : tile_items;
    if constexpr (packs_items) {
      typename packed_vectors::packed x;
      packed::load_packed(p, base, rest, s, x);
      scan_items(
          p, tile, s, find_prefix, [&](int j) { return static_cast<T>(x.get(j)); },
          [&](int j, const T& scanned) { x.set(j, static_cast<out_element>(p.finish(scanned))); });
      packed::store_packed(p, base, rest, s, x);
      hooks::mark(tile, tile_event::stored);
      return;
    }
    finished y[items];
    auto put = [&](int j, const T& scanned) { y[j] = p.finish(scanned); };
    if constexpr (splits_keyed) {
      split_value v[items];
      unsigned closes;
      keyed::load_split(p, base, rest, s, v, closes);
      scan_items(p, tile, s, find_prefix, [&](int j) { return T::split(v[j], closes, j); }, put);
    } else {
      T x[items];
      load_items(p, base, rest, s, x);
      scan_items(p, tile, s, find_prefix, [&](int j) { return x[j]; }, put);
    }
    store_items(p, base, rest, s, y);
    hooks::mark(tile, tile_event::stored);
  }

  //! The tile's items, read by `item(j)` (item j of this thread, blocked), scanned: `put(j, scanned)`
  //! receives item j's inclusive or exclusive prefix after item(j) was read for the last time.
  template <class FindPrefix, class Item, class Put>
  __device__ static void scan_items(const Problem& p, std::int64_t tile, const smem_view& s, FindPrefix find_prefix,
                                    Item item, Put put) {
    // Thread total by pairwise reduction (independent operations, guide 4.1.1), operands in order.
    const T thread_total = reduce(item, p.op);
    T thread_exclusive;
    const T aggregate = scan::exclusive_scan(thread_total, thread_exclusive, p.op, *s.scan_storage);
    hooks::mark(tile, tile_event::aggregated);
    // The tile's exclusive prefix: the seed for tile 0 (if any), else what find_prefix left.
    find_prefix(aggregate);
    hooks::mark(tile, tile_event::prefixed);
    const detail::maybe<T> tile_prefix = tile > 0 ? detail::maybe<T>{*s.tile_prefix, 1} : p.seed_maybe();

    rescan_items(p, thread_prefix(p, tile_prefix, thread_exclusive), item, put);
  }

  //! This thread's items, read by `item(j)`, rescanned in order from `start` (thread_prefix): `put(j,
  //! scanned)` receives item j's inclusive or exclusive prefix after item(j) was read for the last time.
  template <class Item, class Put>
  __device__ static void rescan_items(const Problem& p, const detail::maybe<T>& start, Item item, Put put) {
    T running          = start.value;
    bool running_valid = start.valid;
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const T x         = item(j);
      const T inclusive = running_valid ? T(p.op(running, x)) : x;
      put(j, Problem::exclusive ? running : inclusive);  // exclusive: always seeded
      running       = inclusive;
      running_valid = true;
    }
  }

  //! This thread's prefix before its first item: the tile's (absent for tile 0 without a seed), then
  //! the items of the threads before it (`thread_exclusive`, from the block scan; none for thread 0).
  __device__ static detail::maybe<T> thread_prefix(const Problem& p, const detail::maybe<T>& tile_prefix,
                                                   const T& thread_exclusive) {
    if (threadIdx.x == 0) return tile_prefix;
    return {tile_prefix.valid ? T(p.op(tile_prefix.value, thread_exclusive)) : thread_exclusive, 1};
  }

  //! Decoupled look-back (tile/lookback.cuh) by warp 0. A resident block also claims its next tile here, from
  //! the last thread, which would only wait at the barrier: read by every thread after that barrier.
  __device__ static void lookback_prefix(const Problem& p, std::int64_t tile, const T& aggregate, const smem_view& s,
                                         const state_t& st, std::int64_t* next_tile_slot, unsigned lookback_delay_ns) {
    if (next_tile_slot != nullptr && threadIdx.x == threads - 1) *next_tile_slot = st.next_tile();
    const int lane = static_cast<int>(threadIdx.x) % 32;
    if (threadIdx.x < 32) {
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

  //! The segmented look-back (tile/lookback.cuh, `segment_lookback`) by warp 0 over `tiles` tiles:
  //! the aggregate first, then the prefix; a segment's last tile also publishes the prefix of the
  //! segment after it (and, on the segment states, its segment's aggregate first). Meanwhile the
  //! block's last thread asks the L2 for the input `prefetch_ahead` tiles on (0: none; prefetch_input).
  __device__ static void segment_prefix(const Problem& p, std::int64_t tile, std::int64_t tiles, const T& aggregate,
                                        const smem_view& s, const state_t& st, std::int64_t* next_tile_slot,
                                        unsigned lookback_delay_ns, std::int64_t prefetch_ahead = 0) {
    if (next_tile_slot != nullptr && threadIdx.x == threads - 1) *next_tile_slot = st.next_tile();
    if (prefetch_ahead > 0 && threadIdx.x == threads - 1) prefetch_input(p, tile + prefetch_ahead);
    if (threadIdx.x < 32) {
      hooks::starve(tile);
      if (threadIdx.x == 0) st.publish(tile, status_aggregate, aggregate);
      const detail::maybe<T> prefix = segment_walk::exclusive_prefix(
          st, tile, tiles, aggregate, p.seed_maybe(), p.op, lookback_delay_ns);
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
    if (threadIdx.x < 32) {
      hooks::starve(tile);
      const std::int64_t later = threadIdx.x;
      if (later > tile && later < gridDim.x) {
        cluster_exchange::write(&slots[tile], static_cast<unsigned>(later), aggregate);
      }
    }
    cluster_exchange::barrier();
    if (tile > 0) fold_ordered(p, tile, s, segmented_aggregates<T>{slots, segment_tiles});
    __syncthreads();
  }

  //! One wave (wave.cuh): aggregates stored, one grid barrier, warp 0 folds the predecessors' aggregates.
  template <bool Ordered, bool ExactInOrder>
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
      const T* a = d_aggregates;
      if (tile > 0 && tile <= staged_aggregates) {  // uniform: the block's tile
        // Folded from global memory, each lane's 31 loads of its segment took several round trips
        // in a row.
        stage_aggregates(tile, s, [&](std::int64_t i) { return a[i]; });
        __syncthreads();
        fold_staged(p, tile, s);
      } else if (tile > 0) {
        fold_ordered(p, tile, s, segmented_aggregates<T>{a, segment_tiles});
      }
    } else if (tile > 0 && threadIdx.x < 32) {
      const T prefix = wave<T>::exclusive_prefix(d_aggregates, tile, p.op);
      if (threadIdx.x == 0) *s.tile_prefix = p.seeded(prefix);
    }
    __syncthreads();
  }

  //! Copies the aggregates the fold reads (`aggregate(i)`, tile <= staged_aggregates) into the
  //! exchange regions: those of the tiles before `tile`, and past the first segment those of its own
  //! segment to its end, which its lane folds whole (tile/lookback.cuh; past the grid's last tile,
  //! that tile's again: every slot a real aggregate). Free from the loads' last exchange to the
  //! stores' first (behind the block scan's barriers): one load a thread or a few, all in flight at
  //! once. A barrier must follow before fold_staged.
  template <class Aggregate>
  __device__ static void stage_aggregates(std::int64_t tile, const smem_view& s, Aggregate aggregate) {
    T* staged = s.template regions<T>();
    const std::int64_t end =
        tile < segment_tiles ? tile : (tile + segment_tiles - 1) / segment_tiles * segment_tiles;
    const std::int64_t tiles = gridDim.x;
    for (std::int64_t i = threadIdx.x; i < end; i += threads) {
      staged[staged_slot(i)] = aggregate(i < tiles ? i : tiles - 1);
    }
  }

  //! Warp 0 folds the staged aggregates in the look-back's order into `*s.tile_prefix` (tile > 0).
  __device__ static void fold_staged(const Problem& p, std::int64_t tile, const smem_view& s) {
    fold_ordered(p, tile, s, segmented_aggregates<T, true>{s.template regions<T>(), segment_tiles + 1});
  }

  //! Warp 0 folds the aggregates of the tiles before `tile` (`aggregate(i)`; tile > 0) in the
  //! look-back's order into `*s.tile_prefix`.
  template <class Aggregate>
  __device__ static void fold_ordered(const Problem& p, std::int64_t tile, const smem_view& s, Aggregate aggregate) {
    if (threadIdx.x >= 32) return;
    const detail::maybe<T> prefix =
        segment_walk::exclusive_prefix_of(aggregate, tile, p.seed_maybe(), p.op);
    if (threadIdx.x == 0) *s.tile_prefix = prefix.value;
  }

  //! The fold of item(0) ... item(Count - 1), pairwise, operands in order.
  template <int Count = items, class Item, class Op>
  __device__ __forceinline__ static T reduce(Item item, Op op) {
    T level[Count];
#pragma unroll
    for (int j = 0; j < Count; ++j) level[j] = item(j);
#pragma unroll
    for (int width = 1; width < Count; width *= 2) {
#pragma unroll
      for (int j = 0; j + width < Count; j += 2 * width) level[j] = op(level[j], level[j + width]);
    }
    return level[0];
  }

 protected:
  using io::load_items;
  using io::store_items;
  using io::warp_first;
  using io::warp_rest;
};

}  // namespace archscan::tile
