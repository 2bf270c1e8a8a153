#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The staged look-back (native rows with staged_from_items: tuning/shape.cuh,
//! example_staged_row): the transposed tile's loads, folds, block scan and segmented walk
//! (tile/transposed_tile.cuh), with each block's tiles staged in shared memory by the copy unit
//! instead of held in registers while their prefixes are walked for. The same bits as the look-back.

#include <cstdint>
#include <cstring>

#include <archscan/detail/async_copy.cuh>
#include <archscan/detail/dependent_launch.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/maybe.cuh>
#include <archscan/tile/transposed_tile.cuh>

namespace archscan::tile {

template <class Problem, class Config>
struct staged_tile : transposed_tile<Problem, Config> {
  using base = transposed_tile<Problem, Config>;
  using base::items;
  using base::prefetch_percent;
  using base::smem_bytes;
  using base::stage_bytes;
  using base::stages_fit;
  using base::threads;
  using base::tile_items;
  using typename base::hooks;
  using typename base::in_element;
  using typename base::in_reader;
  using typename base::in_source;
  using typename base::out_element;
  using typename base::scan;
  using typename base::segment_walk;
  using typename base::smem_view;
  using typename base::stage_vectors;
  using typename base::state_t;
  using typename base::T;

  //! The staged kernel's block: the workers and one look-back warp.
  static constexpr int staged_threads = threads + 32;
  //! Its shared memory: the tile's own (whose exchange regions are the first stage), a second stage, and
  //! each stage's tile's prefix (the look-back warp's, for the workers).
  static constexpr int prefix_slot_bytes = static_cast<int>(detail::align_up(sizeof(T), 16));
  static constexpr int staged_smem_bytes =
      static_cast<int>(detail::align_up(static_cast<std::size_t>(smem_bytes), 16)) + stage_bytes +
      2 * prefix_slot_bytes;

  //! Persistent blocks of `threads` workers and one look-back warp (staged_threads), each keeping two
  //! tiles in shared memory: the current one, whose aggregate is published and whose prefix the
  //! look-back warp walks for (segment_lookback, as scan_tiles<true>), and the next, which the copy
  //! unit loads meanwhile (detail/async_copy.cuh) and the workers then fold and publish. Once the
  //! current tile's prefix is known, the workers read it from its stage again, rescan it, write the
  //! outputs back into the same slots and store them from there, and the stage takes the tile after
  //! the next (claimed by the look-back warp meanwhile). No tile's items stay in registers while it
  //! waits, so a block's registers serve two tiles. The same loads, folds, block scan and walk as
  //! scan_tiles<true>: the same bits. Full tiles of 16-byte aligned input and output (stages_fit; the
  //! dispatch checks the pointers); a partial last tile's missing items repeat its first item, as
  //! load_items pads. Every claimed tile's aggregate is published within one round of its claim without
  //! waiting for any prefix, so every walk ends (tiles are claimed in order, as scan_tiles claims them).
  //! The look-back warp reads a tile's aggregate from its published state, which the barrier after
  //! its fold makes visible, so shared memory hands only prefixes from the look-back warp to the workers.
  //! Barriers: one `__syncthreads` after the first claims and one after the first fold (its aggregate
  //! published); per round two (the prefix known; the stage read) and, among the workers alone, the
  //! block scan's (named barrier 1) and one before it (the copy visible to every worker).
  __device__ static void scan_staged(const Problem& p, const state_t& st, std::int64_t tiles,
                                     unsigned lookback_delay_ns, unsigned char* raw, std::int64_t first_set) {
    static_assert(stages_fit, "the staged look-back takes full tiles of 16-byte vectors in and out");
    using workers_barrier = typename scan::first_threads_barrier;
    const smem_view s(raw);
    unsigned char* const extra = raw + detail::align_up(static_cast<std::size_t>(smem_bytes), 16);
    uint4* const stage_a       = s.template regions<uint4>();
    uint4* const stage_b       = reinterpret_cast<uint4*>(extra);
    const auto stage           = [&](int b) { return b == 0 ? stage_a : stage_b; };
    const auto prefix_slot = [&](int b) { return reinterpret_cast<T*>(extra + stage_bytes + b * prefix_slot_bytes); };
    const bool worker      = threadIdx.x < threads;
    const std::int64_t prefetch_ahead = first_set * prefetch_percent / 100;
    detail::wait_for_prerequisite_grids();  // as scan_tiles: nothing touched before the reset completes
    if (threadIdx.x == 0) {
      const std::int64_t first = st.next_tile();
      s.tile_ids[0]            = first;
      s.tile_ids[1]            = first < tiles ? st.next_tile() : tiles;
      if (first < first_set && first < tiles) pace_start(first);
    }
    __syncthreads();
    std::int64_t current = s.tile_ids[0];
    std::int64_t next    = s.tile_ids[1];
    if (current >= tiles) return;  // uniform
    T thread_exclusive;
    if (worker) {
      hooks::mark(current, tile_event::started);
      copy_tile(p, current, stage_a);
      if (next < tiles) {
        copy_tile(p, next, stage_b);
        detail::wait_copies<1>();  // the current tile's (the next one's may still be in flight)
      } else {
        detail::wait_copies<0>();
      }
      workers_barrier{}();
      fold_stage(p, st, s, current, stage_a, thread_exclusive);
    }
    __syncthreads();            // the first tile's aggregate published before the look-back warp reads it
    for (int b = 0;; b ^= 1) {  // the current tile in stage b, the next in stage b ^ 1
      T next_exclusive;
      if (warp::uniform(!worker)) {  // the look-back warp, provably whole (warp::uniform)
        if (prefetch_ahead > 0 && threadIdx.x == staged_threads - 1) prefetch_input(p, next + prefetch_ahead);
        hooks::starve(current);
        T aggregate;
        st.poll(current, aggregate);  // published by the workers before the last barrier
        const detail::maybe<T> prefix =
            segment_walk::exclusive_prefix(st, current, tiles, aggregate, p.seed_maybe(), p.op, lookback_delay_ns);
        if (threadIdx.x == threads && current > 0) *prefix_slot(b) = prefix.value;  // for every tile > 0
      } else if (next < tiles) {
        hooks::mark(next, tile_event::started);
        detail::wait_copies<0>();
        workers_barrier{}();
        fold_stage(p, st, s, next, stage(b ^ 1), next_exclusive);
      }
      __syncthreads();  // the current tile's prefix known, the next one's aggregate published
      if (!worker) {
        if (threadIdx.x == threads) s.tile_ids[b] = next < tiles ? st.next_tile() : tiles;
      } else {
        hooks::mark(current, tile_event::prefixed);
        store_stage(p, current, stage(b), *prefix_slot(b), thread_exclusive);
        hooks::mark(current, tile_event::stored);
      }
      __syncthreads();            // stage b read by every worker; the claim visible
      if (next >= tiles) return;  // uniform
      const std::int64_t after = s.tile_ids[b];
      if (worker && after < tiles) copy_tile(p, after, stage(b));
      current          = next;
      next             = after;
      thread_exclusive = next_exclusive;
    }
  }

 private:
  //! ---- What the staged look-back moves: a tile's input into a stage, its items out of it ----
  //! The staged look-back's copy of tile `tile`'s input into `stage`: every worker its vectors (warp-
  //! striped, so each warp's copies are coalesced) at their exchange slots, by the copy unit, one group.
  //! A partial tile's vector that crosses its end is read element by element (a partial copy would
  //! still address the whole 16 bytes past the input's end), and it and every later vector are padded
  //! with the tile's first element, as load_items pads: a stage then holds whole vectors of elements,
  //! read alike in every tile. That path runs in the last tile alone, so it loops rather than unrolls
  //! (unrolled for each of a lane's vectors, with the reads' padding, it took half of the staged
  //! kernel's instructions).
  __device__ static void copy_tile(const Problem& p, std::int64_t tile, uint4* stage) {
    constexpr int vector_items = stage_vectors::vector_items;
    const in_element* in       = in_source::pointer(p.in);
    const std::int64_t base    = tile * tile_items;
    const std::int64_t left    = p.n - base;
    const int segment_rest     = warp_rest(left < tile_items ? static_cast<int>(left) : tile_items);
    const auto* src            = reinterpret_cast<const uint4*>(in + warp_first(base));
    uint4* region              = stage + threadIdx.x / 32 * stage_vectors::warp_vectors;
    const int lane             = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
    for (int k = 0; k < stage_vectors::lane_vectors; ++k) {
      const int v = k * 32 + lane;
      if (segment_rest - v * vector_items >= vector_items) {
        detail::copy_16_async(region + stage_vectors::slot(v), src + v);
      }
    }
    if (segment_rest < stage_vectors::warp_vectors * vector_items) {  // uniform over the warp
      const in_element fill = in[base];
#pragma unroll 1
      for (int k = 0; k < stage_vectors::lane_vectors; ++k) {
        const int v    = k * 32 + lane;
        const int real = segment_rest - v * vector_items;  // real elements from this vector's first on
        if (real >= vector_items) continue;
        const in_element* from = in + warp_first(base) + v * vector_items;
        in_element u[vector_items];
#pragma unroll
        for (int i = 0; i < vector_items; ++i) u[i] = i < real ? from[i] : fill;
        std::memcpy(region + stage_vectors::slot(v), u, sizeof(uint4));
      }
    }
    detail::commit_copies();
  }

  //! Vector j of this worker's blocked items of the tile in `stage` into `x` (x[i]: item j *
  //! vector_items + i), as load_items gives them: each element made an item by the input's reader
  //! (past the end of a partial tile, copy_tile's padding: its first item). One vector's items at a
  //! time, so that tiles of many narrow items (packed rows) stage without holding all of them in
  //! registers.
  __device__ static void read_stage_vector(const Problem& p, const uint4* stage, int j,
                                           T (&x)[stage_vectors::vector_items]) {
    constexpr int vector_items = stage_vectors::vector_items;
    const int lane             = static_cast<int>(threadIdx.x) % 32;
    const uint4 w              = stage[threadIdx.x / 32 * stage_vectors::warp_vectors +
                          stage_vectors::slot(lane * stage_vectors::lane_vectors + j)];
    in_element u[vector_items];
    std::memcpy(u, &w, sizeof(w));
    in_reader read(p.in);
#pragma unroll
    for (int i = 0; i < vector_items; ++i) x[i] = read(u[i]);
  }

  //! The workers' fold of the tile in `stage` (scan_items' thread totals and block scan): its
  //! aggregate published, this worker's exclusive prefix in `thread_exclusive`. The
  //! thread total folds each vector's items pairwise, then the vectors' totals pairwise: reduce's
  //! association, since a vector's items are a power of two that divides the thread's.
  __device__ static void fold_stage(const Problem& p, const state_t& st, const smem_view& s, std::int64_t tile,
                                    const uint4* stage, T& thread_exclusive) {
    constexpr int vector_items = stage_vectors::vector_items;
    static_assert(stage_vectors::lane_vectors * vector_items == items && (vector_items & (vector_items - 1)) == 0,
                  "a lane's items split into vectors of a power of two items");
    T vector_totals[stage_vectors::lane_vectors];
#pragma unroll
    for (int j = 0; j < stage_vectors::lane_vectors; ++j) {
      T x[vector_items];
      read_stage_vector(p, stage, j, x);
      vector_totals[j] = reduce<vector_items>([&](int i) { return x[i]; }, p.op);
    }
    const T thread_total = reduce<stage_vectors::lane_vectors>([&](int j) { return vector_totals[j]; }, p.op);
    const T aggregate    = scan::exclusive_scan(thread_total, thread_exclusive, p.op, *s.scan_storage,
                                                typename scan::first_threads_barrier{});
    if (threadIdx.x == 0) st.publish(tile, status_aggregate, aggregate);
    hooks::mark(tile, tile_event::aggregated);
  }

  //! The workers' rescan of the tile in `stage` from its `prefix` (read for tiles > 0; scan_items'
  //! rescan), the outputs written back into the same slots (each lane its own, a vector once read),
  //! then stored from there as striped vectors (a partial tile's vector that crosses its end item by item).
  __device__ static void store_stage(const Problem& p, std::int64_t tile, uint4* stage, const T& prefix,
                                     const T& thread_exclusive) {
    constexpr int vector_items         = stage_vectors::vector_items;
    uint4* region                      = stage + threadIdx.x / 32 * stage_vectors::warp_vectors;
    const int lane                     = static_cast<int>(threadIdx.x) % 32;
    const std::int64_t base            = tile * tile_items;
    const std::int64_t left            = p.n - base;
    const int rest                     = left < tile_items ? static_cast<int>(left) : tile_items;
    const detail::maybe<T> tile_prefix = tile > 0 ? detail::maybe<T>{prefix, 1} : p.seed_maybe();
    T x[vector_items];            // the vector being rescanned
    out_element u[vector_items];  // its outputs, written to its slot once whole
    rescan_items(
        p, thread_prefix(p, tile_prefix, thread_exclusive),
        [&](int j) {
          if (j % vector_items == 0) read_stage_vector(p, stage, j / vector_items, x);
          return x[j % vector_items];
        },
        [&](int j, const T& scanned) {
          u[j % vector_items] = static_cast<out_element>(p.finish(scanned));
          if (j % vector_items == vector_items - 1) {
            std::memcpy(&region[stage_vectors::slot(lane * stage_vectors::lane_vectors + j / vector_items)], u,
                        sizeof(uint4));
          }
        });
    __syncwarp(0xffffffffu);
    if (rest == tile_items) {
      uint4 v[stage_vectors::lane_vectors];
#pragma unroll
      for (int k = 0; k < stage_vectors::lane_vectors; ++k) v[k] = region[stage_vectors::slot(k * 32 + lane)];
      block::store_vectors(p.out + warp_first(base), v);
    } else {  // the last tile alone: rolled, as copy_tile's padding
#pragma unroll 1
      for (int k = 0; k < stage_vectors::lane_vectors; ++k) {
        block::store_vector(p.out + warp_first(base), warp_rest(rest), k, region[stage_vectors::slot(k * 32 + lane)]);
      }
    }
  }

 private:
  using base::pace_start;
  using base::prefetch_input;
  using base::reduce;
  using base::rescan_items;
  using base::thread_prefix;
  using base::warp_first;
  using base::warp_rest;
};

}  // namespace archscan::tile
