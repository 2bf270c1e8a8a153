#pragma once
//! \file The kepler family's tuning: the advice of *Tuning CUDA Applications for Kepler* (section 1.4)
//! as named data. Each field carries one recommendation; a tuning derived from `kepler_tuning` that
//! overrides one field switches that recommendation off (perf/ablations_kepler.cuh), with no code edit.
//! perf/kepler/TRACEABILITY.md maps every section of 1.4 to these fields.

namespace archscan {

//! How the lanes of a warp exchange values inside a tile.
enum class warp_exchange_kind {
  shuffle,        //!< `__shfl_*_sync` register exchange (guide 1.4.3.3)
  shared_memory,  //!< through a per-warp shared-memory buffer, ordered by `__syncwarp` (the pre-Kepler way)
};

//! How a tile publishes its status (aggregate or inclusive prefix) to the tiles after it.
enum class tile_status_kind {
  packed_word,      //!< flag and value in one 64-bit word, one relaxed atomic store (accumulators <= 4 bytes)
  flag_and_values,  //!< a 32-bit flag released after the value is written (any accumulator)
};

struct kepler_tuning {
  using family = kepler_family;
  static constexpr const char* ablation = "none (baseline: every recommendation on)";

  //! Tile shape by accumulator size (the kernel picks the first row whose size fits).
  //! `items_per_thread` items live in registers (ILP, guide 1.4.1 and 1.4.4.1); when full tiles would
  //! give fewer than `fill_blocks_per_sm` blocks per SM, tiles of `small_items_per_thread` are used
  //! instead (guide 1.4.1: enough blocks to fill the GPU).
  struct row_4_bytes {  // H100, int32 exclusive sum, 2^28: 2423 GB/s (0.99x CUB; perf/NOTES.md run H)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 32;
    static constexpr int small_items_per_thread = 8;  //!< H100, int32 2^14: 1.10x CUB, 1.00x with full tiles (run L)
  };
  struct row_8_bytes {  // H100, double exclusive sum, 2^28: 2574 GB/s (0.95x CUB; perf/NOTES.md run H)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 16;
    static constexpr int small_items_per_thread = 4;  //!< H100, double 2^14: 1.06x CUB, 1.00x with full tiles (run L)
  };
  struct row_wide {  // H100, 12- and 16-byte accumulators (by-key pairs, user structs): not yet measured
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 6;
    static constexpr int small_items_per_thread = 2;
  };

  //! Input loads through the read-only data path (`__ldg`) when the input is a raw pointer (1.4.4.3).
  static constexpr load_kind load = load_kind::read_only;
  //! Intra-warp exchange by shuffles rather than shared memory (1.4.3.3).
  static constexpr warp_exchange_kind warp_exchange = warp_exchange_kind::shuffle;
  //! Shared-memory word for accumulators whose size is a multiple of 8: one 64-bit access per 8 bytes
  //! (1.4.3.1); 4 splits them into 32-bit words.
  static constexpr int smem_word_bytes = 8;
  //! Shrink tiles when n is small so that more SMs get blocks (1.4.1): below `fill_blocks_per_sm`
  //! full tiles per SM (on an H100, fewer than 8.25 tiles). Every shrunk tile adds a step to the
  //! serial look-back, so shrinking only pays where tiles are far fewer than SMs: H100, int32, with
  //! the threshold at 4 blocks per SM the shrink cost 1.5x at 2^20 (0.58x CUB against 0.89x without
  //! it) and at 1/16 it gains 1.07-1.10x at 2^14..2^15 and costs nothing above (run L).
  static constexpr bool fill_grid             = true;
  static constexpr double fill_blocks_per_sm  = 1.0 / 16;
  //! Tile status published by one 64-bit atomic word where the accumulator fits (1.4.4.4).
  static constexpr tile_status_kind tile_status = tile_status_kind::packed_word;
  //! Nanoseconds a tile sleeps after publishing its aggregate, before its serial look-back: the
  //! tiles just before it publish their inclusive prefixes meanwhile, so the walk (one dependent L2
  //! round trip per step) stops after fewer steps. Applied only when tiles outnumber one wave of
  //! resident blocks (dispatch/kepler.cuh). 0: walk at once.
  static constexpr unsigned lookback_delay_ns = 1000;
  //! `__launch_bounds__` minimum blocks per SM (1.4.4.1): 1 leaves the register count to the compiler
  //! (up to 255 per thread); 4 at 256 threads caps it at 64 (Fermi's 63, the guide's own limit), and
  //! the 32-item row still fits without spills: 4 blocks, 32768 items resident per SM. Measured on
  //! the H100: 2 (128 registers, 3 blocks of 24 items) 0.73x CUB; 4 with 32 items 0.91x; plus the
  //! look-back delay 0.99x (perf/NOTES.md run H).
  static constexpr int min_blocks_per_sm = 4;
};

}  // namespace archscan
