#pragma once
//! \file The kepler family's dispatch: one single-pass chained scan kernel over tiles.
//!
//! Why single pass: a scan must read n items and write n results (2n words). Reduce-then-scan reads
//! the input twice (3n words, at best 2/3 of the copy rate unless the second read hits L2), and a chain
//! in which each tile waits for its predecessor's inclusive prefix is latency-bound (one L2 round trip
//! per tile, in sequence). Here each tile publishes its aggregate first, so a tile's serial look-back
//! rarely walks more than a few tiles, and 2n words move (plus 8 bytes of status per tile).
//!
//! Temporary storage: none for a single tile. Otherwise 256 bytes for the tile counter, then per tile
//! either one status word (8 bytes for accumulators <= 4 bytes, 16 for <= 8 bytes) or a 32-bit flag plus two
//! accumulators (aggregate, inclusive prefix), each array 256-byte aligned. The counter and the flags
//! are zeroed by one `cudaMemsetAsync` on the stream. Example: 2^28 int32 in tiles of 8192: 32768
//! tiles, 256 B + 256 KiB. Synchronization: none (enqueue only). Determinism: a tile's prefix combines
//! aggregates and one inclusive prefix of earlier tiles; which mix it sees depends on timing, so
//! results are run-to-run deterministic for associative exact operators (integers) and may differ in
//! the last bits for floating point.

#include <climits>
#include <cstdint>
#include <type_traits>

#include <archscan/dispatch/family.cuh>
#include <archscan/kernel/kepler.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

//! The planning arithmetic, pure host code (tested for n up to 2^40).
struct kepler_plan {
  int items_per_thread     = 0;  //!< the tile shape chosen (full or small)
  std::int64_t tile_items  = 0;
  std::int64_t tiles       = 0;
  bool packed              = false;
  std::size_t counter_offset    = 0;  //!< when tiles > 1
  std::size_t flags_offset      = 0;  //!< status words (packed) or flags (split)
  std::size_t zero_bytes        = 0;  //!< bytes from offset 0 zeroed before the kernel
  std::size_t aggregates_offset = 0;  //!< split status only
  std::size_t inclusives_offset = 0;
  std::size_t temp_bytes        = 0;
};

struct kepler_plan_input {
  std::int64_t n;
  int block_threads;
  int items_per_thread;
  int small_items_per_thread;
  bool fill_grid;
  double fill_blocks_per_sm;
  int sm_count;
  std::size_t accum_bytes;
  bool packed;  //!< packed status words (tile/status_word.cuh: 8 bytes, or 16 for 5..8-byte values)
};

constexpr std::size_t kepler_align256(std::size_t b) { return (b + 255) / 256 * 256; }

constexpr std::int64_t kepler_ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

//! Tile shape: full tiles, unless they give more than one tile but fewer than `fill_blocks_per_sm`
//! blocks per SM, in which case the small shape spreads the work over more blocks (guide 1.4.1). A
//! problem that fits one full tile stays one block: it needs no temporary storage and no memset, and
//! at that size launch latency, not SM count, bounds the time.
constexpr kepler_plan make_kepler_plan(const kepler_plan_input& in) {
  kepler_plan plan{};
  plan.items_per_thread = in.items_per_thread;
  plan.tile_items       = static_cast<std::int64_t>(in.block_threads) * in.items_per_thread;
  plan.tiles            = kepler_ceil_div(in.n, plan.tile_items);
  const double fill = static_cast<double>(in.sm_count) * in.fill_blocks_per_sm;
  if (in.fill_grid && plan.tiles > 1 && static_cast<double>(plan.tiles) < fill &&
      in.small_items_per_thread < in.items_per_thread) {
    plan.items_per_thread = in.small_items_per_thread;
    plan.tile_items       = static_cast<std::int64_t>(in.block_threads) * in.small_items_per_thread;
    plan.tiles            = kepler_ceil_div(in.n, plan.tile_items);
  }
  plan.packed = in.packed;
  if (plan.tiles <= 1) return plan;
  const auto tiles    = static_cast<std::size_t>(plan.tiles);
  plan.counter_offset = 0;
  plan.flags_offset   = 256;
  plan.zero_bytes     = plan.flags_offset + tiles * (in.packed ? (in.accum_bytes <= 4 ? 8 : 16) : 4);
  std::size_t bytes   = kepler_align256(plan.zero_bytes);
  if (!in.packed) {
    plan.aggregates_offset = bytes;
    bytes += kepler_align256(tiles * in.accum_bytes);
    plan.inclusives_offset = bytes;
    bytes += kepler_align256(tiles * in.accum_bytes);
  }
  plan.temp_bytes = bytes;
  return plan;
}

template <>
struct family_dispatch<kepler_family> {
  template <class Tuning, class Problem>
  static kepler_plan plan(const Problem& p, const detail::device_facts& facts) {
    using T   = typename Problem::accum_type;
    using row = kernel::kepler_row<Tuning, sizeof(T)>;
    return make_kepler_plan({p.n, row::block_threads, row::items_per_thread, row::small_items_per_thread,
                             Tuning::fill_grid, Tuning::fill_blocks_per_sm, facts.sm_count, sizeof(T),
                             kernel::kepler_packed_status<Tuning, T>});
  }

  template <class Tuning, class Problem>
  static std::size_t temp_bytes(const Problem& p, const detail::device_facts& facts) {
    return plan<Tuning>(p, facts).temp_bytes;
  }

  template <class Tuning, class Problem>
  static void launch(const Problem& p, void* d_temp, std::size_t, const detail::device_facts& facts,
                     cudaStream_t stream) {
    using T   = typename Problem::accum_type;
    using row = kernel::kepler_row<Tuning, sizeof(T)>;
    const kepler_plan pl = plan<Tuning>(p, facts);
    if (pl.tiles > INT_MAX) {
      detail::throw_on_error(cudaErrorInvalidValue, "archscan::kepler: too many tiles for one grid");
    }
    auto* temp = static_cast<unsigned char*>(d_temp);
    using status_t = kernel::kepler_status<Tuning, T>;
    status_t status{};
    unsigned* d_counter = nullptr;
    if (pl.tiles > 1) {
      d_counter = reinterpret_cast<unsigned*>(temp + pl.counter_offset);
      if constexpr (kernel::kepler_packed_status<Tuning, T>) {
        status.d_words = reinterpret_cast<typename decltype(status)::word::storage*>(temp + pl.flags_offset);
      } else {
        status.d_flags      = reinterpret_cast<unsigned*>(temp + pl.flags_offset);
        status.d_aggregates = reinterpret_cast<T*>(temp + pl.aggregates_offset);
        status.d_inclusives = reinterpret_cast<T*>(temp + pl.inclusives_offset);
      }
      detail::throw_on_error(cudaMemsetAsync(temp, 0, pl.zero_bytes, stream),
                             "archscan::kepler: zeroing tile status");
    }
    const auto blocks   = static_cast<unsigned>(pl.tiles);
    // One wave: the blocks that the register cap (`__launch_bounds__` minimum) keeps on every SM.
    const unsigned delay = lookback_delay(
        pl.tiles, static_cast<std::int64_t>(facts.sm_count) * Tuning::min_blocks_per_sm, Tuning::lookback_delay_ns);
    if (pl.items_per_thread == row::items_per_thread) {
      kernel::kepler_chained_scan<Tuning, Problem, row::items_per_thread, status_t>
          <<<blocks, row::block_threads, 0, stream>>>(p, status, d_counter, pl.tiles, delay);
    } else {
      kernel::kepler_chained_scan<Tuning, Problem, row::small_items_per_thread, status_t>
          <<<blocks, row::block_threads, 0, stream>>>(p, status, d_counter, pl.tiles, delay);
    }
    detail::throw_on_launch_error("archscan::kepler: chained_scan");
  }
};

}  // namespace archscan::dispatch
