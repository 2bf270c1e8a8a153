#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The turing family's tuning: every recommendation of the *Turing Tuning Guide* (chapter 4)
//! that the single-pass scan follows is a named field here, so that a tuning derived from
//! `turing_tuning` can switch each one off (perf/ablations_turing.cuh) without touching code.

#include <cstdint>

#include <archscan/tuning/shape.cuh>

namespace archscan {

struct turing_tuning {
  using family = turing_family;

  //! Rows. Throughput follows the items resident per SM (guide 4.1.3): 128 threads at 64 registers
  //! (8 blocks per SM) hold 40 items each, 40960 per SM; 40 independent loads per thread go far beyond
  //! the four-way ILP that hides dependent-issue latency (4.1.1). Small tiles: a wave of at most one
  //! tile per SM spreads its items over more SMs.
  struct row_4 {  // H100, int32 exclusive sum, 2^28: 2632 GB/s (1.07x CUB)
    static constexpr int block_threads          = 128;
    static constexpr int items_per_thread       = 40;  //!< tile: 5120 items, 20 KiB
    static constexpr int small_items_per_thread = 16;  //!< H100, int32 2^14..2^18: 6.9-7.3 us a call (7.7-7.9 full)
    static constexpr int min_blocks_per_sm      = 8;   //!< at most 64 registers
  };
  struct row_8 {  // H100, double exclusive sum, 2^28: 2791 GB/s (1.03x CUB)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 16;  //!< tile: 4096 items, 32 KiB
    static constexpr int small_items_per_thread = 4;   //!< H100, double 2^14..2^17: 6.8-7.5 us a call (7.7-8.0 full)
    static constexpr int min_blocks_per_sm      = 4;   //!< at most 64 registers
  };
  struct row_16 {  // 9..16-byte accumulators (user structs, keyed<double>): not measured
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 7;  //!< odd: the blocked shared-memory reads need no padding
    static constexpr int small_items_per_thread = 7;
    static constexpr int min_blocks_per_sm      = 1;
  };
  struct row_large {  // larger accumulators: not measured
    static constexpr int block_threads          = 128;
    static constexpr int items_per_thread       = 3;
    static constexpr int small_items_per_thread = 3;
    static constexpr int min_blocks_per_sm      = 1;
  };

  //! Carveout values other than a percentage.
  static constexpr int carveout_fit   = -1;  //!< just enough shared memory for the resident blocks
  static constexpr int carveout_unset = -2;  //!< leave the driver's choice (no cudaFuncSetAttribute)

  // --- guide 4.3.1: unified shared memory / L1 / texture cache ---------------------------------------
  //! Loads and stores are warp-striped (each warp instruction touches consecutive addresses) and
  //! transposed to a blocked arrangement through shared memory. false: each thread reads its own
  //! consecutive items directly, leaving coalescing to the L1 "coalescing buffer".
  static constexpr bool warp_transpose = true;
  //! Preferred shared-memory carveout set on every kernel: a percentage, carveout_fit or carveout_unset.
  static constexpr int carveout_percent = carveout_fit;
  //! Opt into dynamic shared memory above 48 KiB where a row's tile needs it. false: tiles of such
  //! rows shrink (fewer items per thread) until they fit in 48 KiB.
  static constexpr bool opt_in_large_smem = true;
  //! direct: ordinary loads; read_only: `__ldg`. On Turing the texture and L1 caches are one, so the
  //! read-only path buys nothing by default.
  static constexpr load_kind load = load_kind::direct;
  //! Tile state in one word where the accumulator fits (8 bytes, or 16 for 5..8-byte values).
  static constexpr tile_status_kind tile_status = tile_status_kind::packed_word;

  // --- small problems: one wave ---------------------------------------------------------------------
  //! Problems of at most this many tiles, when all their blocks fit on the device at once, run as one
  //! cooperative launch (tile/wave.cuh): each tile stores its aggregate, one grid barrier, each tile
  //! folds its predecessors' aggregates. Nothing to reset first, so one launch instead of two (the
  //! look-back's states are reset by a cudaMemsetAsync before its kernel). 0: always the look-back.
  static constexpr int wave_max_tiles = 1 << 30;
  //! A wave whose tiles of the row's small_items_per_thread number at most one per SM takes those
  //! small tiles (when they are smaller), so that its items spread over more SMs (guide 4.1.3).
  static constexpr bool wave_small_tiles = true;

  // --- guide 4.1.4: integer arithmetic --------------------------------------------------------------
  //! true: a tile advances its iterators once (64-bit) and addresses items by 32-bit offsets, cheap
  //! INT32 work that issues alongside the value arithmetic. false: every access forms a 64-bit index.
  static constexpr bool narrow_index_arithmetic = true;
  //! true: full tiles whose input (output) is a 16-byte-aligned raw pointer to an arithmetic type move
  //! 16 bytes per lane instead of one item (block/vector_transpose.cuh), the same instructions per byte
  //! for every width. false: one item per lane and access.
  static constexpr bool vector_access = false;

  // --- guide 4.1.1: instruction scheduling (the look-back, tile/lookback.cuh) ------------------------
  //! Predecessors inspected at once by the look-back warp (1..32, a power of two): 32 independent
  //! state loads in flight instead of one dependent chain.
  static constexpr int lookback_window = 32;
  //! Sleep before the first poll, so that the tiles just before have published their inclusive
  //! prefixes and the walk ends in its first window more often (without it an H100 profile showed
  //! 2.5 to 4 windows walked per tile). Applied only when tiles outnumber one wave of resident
  //! blocks. 0: poll at once.
  static constexpr unsigned lookback_delay_ns = 1500;
  static constexpr unsigned backoff_min_ns    = 200;  //!< first __nanosleep after a failed poll; 0: spin
  static constexpr unsigned backoff_max_ns    = 512;  //!< doubling stops here
  //! Polls before a waiting warp gives up with __trap(): with the sleeps above, tens of seconds.
  //! Only a broken forward-progress guarantee (or a kernel preempted that long) can reach it.
  static constexpr std::uint64_t spin_limit = std::uint64_t{1} << 26;
};

}  // namespace archscan
