#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The kepler family's tuning: the advice of *Tuning CUDA Applications for Kepler* (section 1.4)
//! as named data. Each field carries one recommendation; a tuning derived from `kepler_tuning` that
//! overrides a field switches that recommendation off (perf/ablations_kepler.cuh), with no code edit.
//! perf/kepler/TRACEABILITY.md maps every section of 1.4 to these fields.

#include <cstdint>

#include <archscan/tuning/shape.cuh>

namespace archscan {

//! How the lanes of a warp exchange values inside a tile.
enum class warp_exchange_kind {
  shuffle,        //!< `__shfl_*_sync` register exchange (guide 1.4.3.3)
  shared_memory,  //!< through a per-warp shared-memory buffer, ordered by `__syncwarp` (the pre-Kepler way)
};

struct kepler_tuning {
  using family = kepler_family;

  //! Rows: `items_per_thread` items live in registers (ILP, guide 1.4.1 and 1.4.4.1); tiles of
  //! `small_items_per_thread` spread small problems over more SMs (1.4.1, `fill_grid`). A minimum
  //! of 4 blocks of 256 threads caps registers at 64 per thread (Fermi's 63, the guide's own limit)
  //! and the 32-item row still fits without spills (1.4.4.1).
  struct row_4 {  // H100, int32 exclusive sum, 2^28: 2423 GB/s (0.99x CUB)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 32;
    static constexpr int small_items_per_thread = 8;  //!< H100, int32 2^14: 1.10x CUB (1.00x with full tiles)
    static constexpr int min_blocks_per_sm      = 4;
  };
  struct row_8 {  // H100, double exclusive sum, 2^28: 2574 GB/s (0.95x CUB)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 16;
    static constexpr int small_items_per_thread = 4;  //!< H100, double 2^14: 1.06x CUB (1.00x with full tiles)
    static constexpr int min_blocks_per_sm      = 4;
  };
  struct row_16 {  // 9..16-byte accumulators (by-key pairs, user structs): not measured
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 6;
    static constexpr int small_items_per_thread = 2;
    static constexpr int min_blocks_per_sm      = 4;
  };
  using row_large = row_16;  // not measured

  //! Input loads through the read-only data path (`__ldg`) where the input allows it (1.4.4.3).
  static constexpr load_kind load = load_kind::read_only;
  //! Intra-warp exchange by shuffles rather than shared memory (1.4.3.3).
  static constexpr warp_exchange_kind warp_exchange = warp_exchange_kind::shuffle;
  //! Shared-memory word for accumulators whose size is a multiple of 8: one 64-bit access per 8 bytes
  //! (1.4.3.1); 4 splits them into 32-bit words.
  static constexpr int smem_word_bytes = 8;
  //! Shrink tiles when n is small so that more SMs get blocks (1.4.1): below `fill_blocks_per_sm`
  //! full tiles per SM. Every shrunk tile adds a step to the serial look-back, so shrinking pays only
  //! where tiles are far fewer than SMs (H100, int32: a threshold of 4 cost 1.5x at 2^20; 1/16 gains
  //! 1.07-1.10x at 2^14..2^15 and costs nothing above).
  static constexpr bool fill_grid            = true;
  static constexpr double fill_blocks_per_sm = 1.0 / 16;
  //! Tile state published by one atomic word where the accumulator fits (1.4.4.4).
  static constexpr tile_status_kind tile_status = tile_status_kind::packed_word;

  // --- the serial look-back (tile/lookback.cuh) -----------------------------------------------------
  //! Nanoseconds a tile sleeps after publishing its aggregate, before its serial look-back: the
  //! tiles just before it publish their inclusive prefixes meanwhile, so the walk (one dependent L2
  //! round trip per step) stops sooner. Applied only when tiles outnumber one wave of resident
  //! blocks. 0: walk at once.
  static constexpr unsigned lookback_delay_ns = 1000;
  static constexpr unsigned backoff_min_ns    = 0;  //!< a waiting walk spins (one thread polls; nothing to yield to)
  static constexpr unsigned backoff_max_ns    = 0;
  //! 0: the walk polls until its predecessor publishes, with no count and no __trap. Counting polls
  //! made the 8-byte rows (by-key pairs) spill at their 64-register cap, 7% slower at 2^28.
  static constexpr std::uint64_t spin_limit = 0;
};

}  // namespace archscan
