#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The transposed tile (the turing and native families): load, scan and store one tile of its
//! threads (`detail::tile_threads`: the row's block_threads, or its large tiles' own) times its items
//! a thread; its routes (tile/routed_tile.cuh) give it its exclusive prefix from the tiles before it.
//!
//! Per tile: the loads into registers, blocked (tile/transposed_io.cuh: the tile's shape, its shared
//! memory and the moves of its items; tile/packed_io.cuh, tile/keyed_loads.cuh: those of packed and
//! by-key items), a thread-local reduction, a block-wide exclusive scan of the thread totals
//! (block/warp_totals_scan.cuh), the look-back (or another route's prefix) by warp 0, a thread-local
//! rescan from the thread's prefix, and the stores. DRAM traffic: n items read, n written, plus one
//! state per tile.

#include <cstdint>
#include <type_traits>

#include <archscan/detail/hook_traits.cuh>
#include <archscan/detail/l2_prefetch.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/maybe.cuh>
#include <archscan/detail/packed_sums.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/tile/cluster.cuh>
#include <archscan/tile/keyed_loads.cuh>
#include <archscan/tile/lookback.cuh>
#include <archscan/tile/packed_io.cuh>
#include <archscan/tile/segment_lookback.cuh>
#include <archscan/tile/tile_state.cuh>
#include <archscan/tile/transposed_io.cuh>

namespace archscan::tile {

//! `Config`: as transposed_io's (tuning/tile_config.cuh: the tile's shape, its moves, its look-back's
//! waits and its test hooks, hooks.cuh).
template <class Problem, class Config>
struct transposed_tile : transposed_io<Problem, Config> {
  //! The tile's shape, shared memory and moves (transposed_io.cuh), named here as the scan uses them;
  //! every member of transposed_io is a public member of the tile too (the dispatch sizes launches by them).
  using io = transposed_io<Problem, Config>;
  using io::items;
  using io::packs_items;
  using io::region_bytes;
  using io::smem_bytes;
  using io::smem_limit;
  using io::splits_keyed;
  using io::stage_bytes;
  using io::stages_fit;
  using io::threads;
  using io::tile_items;
  using io::transposes;
  using typename io::finished;
  using typename io::keyed_in;
  using typename io::out_element;
  using typename io::packed_vectors;
  using typename io::scan;
  using typename io::smem_view;
  using typename io::split_value;
  using typename io::stage_vectors;
  using typename io::T;

  //! The moves of packed and of by-key items (tile/packed_io.cuh, tile/keyed_loads.cuh).
  using packed = packed_io<Problem, Config>;
  using keyed  = keyed_loads<Problem, Config>;

  //! The cluster kernel's shared memory (scan_cluster): the tile's, then a slot for the aggregate of
  //! each tile before it in the cluster, which that tile's block writes (tile/cluster.cuh). Where the
  //! slots would pass the limit (accumulators of kilobytes), the dispatch runs no cluster.
  static constexpr std::size_t cluster_slots_at = detail::align_up(static_cast<std::size_t>(smem_bytes), 16);
  static constexpr std::size_t cluster_smem =
      cluster_slots_at + detail::align_up(cluster_exchange::max_blocks * sizeof(T), 16);
  static constexpr bool cluster_fits      = cluster_smem <= smem_limit;
  static constexpr int cluster_smem_bytes = static_cast<int>(cluster_smem);
  static_assert(cluster_exchange::max_blocks <= segment_tiles, "a cluster's tiles fold as one segment");

  //! Packed one- and two-byte sums scan a word at a time where the tuning asks (`packed_dot_sums`,
  //! detail/packed_sums.cuh): fewer instructions, and a chain of one a word. Only where an item's bits
  //! are its accumulator's and an output's bits its sum's: integers of the accumulator's width (not
  //! bool), no finishing step.
  static constexpr bool sums_words = packs_items && Config::packed_dot_sums &&
                                     detail::sums_packed<typename Problem::op_type, T>::value &&
                                     detail::is_narrow_integer<typename io::in_element, sizeof(T)>::value &&
                                     detail::is_narrow_integer<out_element, sizeof(T)>::value &&
                                     std::is_same_v<typename Problem::finish_type, detail::identity_finish>;
  //! The same tuning's one-byte integer inputs summed into four-byte integers (a flag array's offsets):
  //! their full and small tiles keep the items packed from the load to the rescan, which writes each
  //! item's 32-bit sum from a dot product of its word (detail/packed_sums.cuh). Arrays read as they are.
  static constexpr bool widens_words = !packs_items && !splits_keyed && io::vector_loads && Config::packed_dot_sums &&
                                       !io::in_source::transforms && detail::byte_integer<typename io::in_element> &&
                                       detail::widens_bytes<typename Problem::op_type, T>::value &&
                                       std::is_same_v<typename Problem::finish_type, detail::identity_finish>;

  using state_t = tile_state<T, packs_state<Config::packed_status, T>>;
  using look    = window_lookback<T, Config>;
  //! native's walk (tile/segment_lookback.cuh): the tuning's by the accumulator's size, or the chain of
  //! prefixes for a row's large tiles that ask for it (`large_chained`, tuning/shape.cuh). The same bits.
  using segment_walk = segment_lookback<T, Config, Config::large_chained || chained_by_size<T, Config>>;
  using hooks        = detail::hook_traits<typename Config::hooks>;

  //! An ordered wave (wave_prefix) stages the aggregates of the segments before a tile and of its own
  //! (to its end) in the exchange regions when they fit: aggregate i in
  //! slot i + i / 32, so that lane l reading item i of segment l meets a bank of its own. A multiple
  //! of 32; 0 without exchange regions.
  static constexpr std::int64_t staged_aggregates =
      transposes
          ? static_cast<std::int64_t>((threads / 32) * region_bytes / sizeof(T)) / (segment_tiles + 1) * segment_tiles
          : 0;
  __device__ static std::int64_t staged_slot(std::int64_t i) { return i + i / segment_tiles; }

  //! The look-back's first set of tiles (the first `first_set` claimed: those the device holds at
  //! once) start together and, left alone, load together: each has its aggregate only once the whole
  //! set's input has arrived, so the chain of prefixes starts late and the memory then idles. Paced,
  //! the block of tile t of the set waits t x `stagger_cycles` SM cycles from its claim before it
  //! loads, so that the first tiles' inputs arrive first and the chain starts while the rest still
  //! load. Timing alone: the same tiles, the same folds, the same bits. The wait is bounded (t is less
  //! than the blocks the device holds), and a tile waits for nobody while it sleeps.
  static constexpr long long stagger_cycles =
      static_cast<long long>(Config::stagger_cycles_per_kib * tile_items * sizeof(T) / 1024);
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
  static constexpr int prefetch_percent = Config::l2_prefetch_ahead_percent;
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
      if constexpr (sums_words) {  // a word of items at a time (detail/packed_sums.cuh), the same bits
        const unsigned total = detail::words_packed_sum<sizeof(T)>(x.words);
        detail::words_packed_scan<sizeof(T), Problem::exclusive>(x.words, start_word(p, tile, s, find_prefix, total));
      } else {
        scan_items(
            p, tile, s, find_prefix, [&](int j) { return static_cast<T>(x.get(j)); },
            [&](int j, const T& scanned) { x.set(j, static_cast<out_element>(p.finish(scanned))); });
      }
      packed::store_packed(p, base, rest, s, x);
      hooks::mark(tile, tile_event::stored);
      return;
    }
    finished y[items];
    if constexpr (widens_words) {  // the items packed until each one's 32-bit sum is written to y
      typename packed_vectors::packed x;
      packed::load_packed(p, base, rest, s, x);
      constexpr bool is_signed = std::is_signed_v<typename io::in_element>;
      const unsigned start     = start_word(p, tile, s, find_prefix, detail::words_byte_sum<is_signed>(x.words));
      detail::words_byte_prefixes<is_signed, Problem::exclusive>(
          x.words, start, [&](int j, unsigned sum) { y[j] = static_cast<T>(sum); });
      store_items(p, base, rest, s, y);
      hooks::mark(tile, tile_event::stored);
      return;
    }
    auto put = [&](int j, const T& scanned) { y[j] = p.finish(scanned); };
    if constexpr (splits_keyed) {
      split_value v[items];
      unsigned closes;
      keyed::load_split(p, base, rest, s, v, closes);
      scan_items(
          p, tile, s, find_prefix, [&](int j) { return T::split(v[j], closes, j); }, put);
    } else {
      T x[items];
      load_items(p, base, rest, s, x);
      scan_items(
          p, tile, s, find_prefix, [&](int j) { return x[j]; }, put);
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

  //! scan_items' steps between the thread's total and its rescan, for the word-at-a-time sums
  //! (`sums_words`, `widens_words`): the block scan, the tile's prefix, and this thread's start as a
  //! word (0 where it has none, tile 0's first thread without a seed: sums from zero, the same bits;
  //! for packed sums its low byte or half counts). scan_items keeps its own copy: through this helper, the
  //! 16-byte product's kernels compiled to other SASS (tools/same_sass.sh).
  template <class FindPrefix>
  __device__ static unsigned start_word(const Problem& p, std::int64_t tile, const smem_view& s, FindPrefix find_prefix,
                                        unsigned thread_total) {
    T thread_exclusive;
    const T aggregate = scan::exclusive_scan(static_cast<T>(thread_total), thread_exclusive, p.op, *s.scan_storage);
    hooks::mark(tile, tile_event::aggregated);
    find_prefix(aggregate);
    hooks::mark(tile, tile_event::prefixed);
    const detail::maybe<T> tile_prefix = tile > 0 ? detail::maybe<T>{*s.tile_prefix, 1} : p.seed_maybe();
    const detail::maybe<T> start       = thread_prefix(p, tile_prefix, thread_exclusive);
    return start.valid ? static_cast<unsigned>(start.value) : 0u;
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

  //! Copies the aggregates the fold reads (`aggregate(i)`, tile <= staged_aggregates) into the
  //! exchange regions: those of the tiles before `tile`, and past the first segment those of its own
  //! segment to its end, which its lane folds whole (tile/segment_fold.cuh; past the grid's last tile,
  //! that tile's again: every slot a real aggregate). Free from the loads' last exchange to the
  //! stores' first (behind the block scan's barriers): one load a thread or a few, all in flight at
  //! once. A barrier must follow before fold_staged.
  template <class Aggregate>
  __device__ static void stage_aggregates(std::int64_t tile, const smem_view& s, Aggregate aggregate) {
    T* staged                = s.template regions<T>();
    const std::int64_t end   = tile < segment_tiles ? tile : (tile + segment_tiles - 1) / segment_tiles * segment_tiles;
    const std::int64_t tiles = gridDim.x;
    for (std::int64_t i = threadIdx.x; i < end; i += threads) {
      staged[staged_slot(i)] = aggregate(i < tiles ? i : tiles - 1);
    }
  }

  //! Warp 0 folds the staged aggregates in the look-back's order into `*s.tile_prefix` (tile > 0).
  template <std::int64_t MaxTiles = INT64_MAX>
  __device__ static void fold_staged(const Problem& p, std::int64_t tile, const smem_view& s) {
    fold_ordered<MaxTiles>(p, tile, s, segmented_aggregates<T, true>{s.template regions<T>(), segment_tiles + 1});
  }

  //! Warp 0 folds the aggregates of the tiles before `tile` (`aggregate(i)`; tile > 0) in the
  //! look-back's order into `*s.tile_prefix`. `MaxTiles`: a bound on the grid's tiles, if any
  //! (segment_fold::exclusive_prefix_of).
  template <std::int64_t MaxTiles = INT64_MAX, class Aggregate>
  __device__ static void fold_ordered(const Problem& p, std::int64_t tile, const smem_view& s, Aggregate aggregate) {
    if (!warp::uniform(threadIdx.x < 32)) return;  // warp 0 folds, provably whole (warp::uniform)
    const detail::maybe<T> prefix =
        segment_walk::template exclusive_prefix_of<MaxTiles>(aggregate, tile, p.seed_maybe(), p.op);
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
