#pragma once
//! \file The turing family's tuning: every recommendation of the *Turing Tuning Guide* (chapter 4)
//! that the single-pass scan follows is a named field here, so that a tuning derived from
//! `turing_tuning` can switch each one off (perf/ablations_turing.cuh) without touching code.
//!
//! Rows are chosen by the accumulator's size (`row<sizeof(Accum)>`). A derived tuning that changes
//! a row redefines the `row` alias template (aliases do not follow redefined nested structs).

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace archscan {

//! How tiles are handed to thread blocks (guide 4.1.3).
enum class tile_schedule {
  resident,       //!< grid = blocks that fit on the device at once (occupancy read at run time);
                  //!< every block loops, taking tile ids from the atomic counter
  one_per_block,  //!< grid = tile count; the hardware block scheduler places blocks (no occupancy query)
};

struct turing_tuning {
  using family = turing_family;

  //! 4-byte accumulators (int32, float). H100, int32 exclusive sum, 2^28: 2632 GB/s (1.07x CUB in the
  //! same run; the best shape of sweeps H2-H4, perf/NOTES.md). Throughput follows the items resident
  //! per SM (guide 4.1.3): 64 registers (8 blocks per SM) hold 40 items per thread, 40960 per SM,
  //! against 20480 for the 256 x 20 tiles first chosen (0.81x). 40 independent loads per thread
  //! (guide 4.1.1: far beyond the four-way ILP that hides the dependent-issue latency).
  //! Small tiles: a wave of at most one tile per SM spreads its items over more SMs; H100, int32,
  //! 2^14..2^18: 6.9-7.3 us per call against 7.7-7.9 us with full tiles (run K).
  struct row_4 {
    static constexpr int block_threads          = 128;
    static constexpr int items_per_thread       = 40;  //!< tile: 5120 items, 20 KiB
    static constexpr int small_items_per_thread = 16;  //!< tile: 2048 items
    static constexpr int min_blocks_per_sm      = 8;   //!< __launch_bounds__: at most 64 registers
  };
  //! 8-byte accumulators (int64, double, keyed<int>). H100, double exclusive sum, 2^28: 2791 GB/s
  //! (1.03x CUB; perf/NOTES.md run H): 4 blocks of 256 x 16 at 63 registers, 16384 items per SM.
  //! Small tiles: H100, double, 2^14..2^17: 6.8-7.5 us per call against 7.7-8.0 us (run K).
  struct row_8 {
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 16;  //!< tile: 4096 items, 32 KiB
    static constexpr int small_items_per_thread = 4;   //!< tile: 1024 items
    static constexpr int min_blocks_per_sm      = 4;   //!< at most 64 registers
  };
  //! 9..16-byte accumulators (user structs, keyed<double>). H100: not yet measured (no small tiles).
  struct row_16 {
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 7;  //!< odd: the blocked shared-memory reads need no padding
    static constexpr int small_items_per_thread = 7;
    static constexpr int min_blocks_per_sm      = 1;
  };
  //! Larger accumulators. H100: not yet measured (no small tiles).
  struct row_large {
    static constexpr int block_threads          = 128;
    static constexpr int items_per_thread       = 3;
    static constexpr int small_items_per_thread = 3;
    static constexpr int min_blocks_per_sm      = 1;
  };
  template <std::size_t AccumBytes>
  using row = std::conditional_t<(AccumBytes <= 4), row_4,
                                 std::conditional_t<(AccumBytes <= 8), row_8,
                                                    std::conditional_t<(AccumBytes <= 16), row_16, row_large>>>;

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
  //! direct: ordinary loads; read_only: `__ldg` for raw pointers of arithmetic types. On Turing the
  //! texture and L1 caches are one, so the read-only path buys nothing by default.
  static constexpr load_kind load = load_kind::direct;

  // --- small problems: one wave ---------------------------------------------------------------------
  //! Problems of at most this many tiles, when all their blocks fit on the device at once, run as one
  //! cooperative launch (tile/wave.cuh): each tile stores its aggregate, one grid barrier, each tile
  //! folds its predecessors' aggregates. Nothing to reset first, so one launch instead of two (the
  //! look-back's states are reset by a cudaMemsetAsync before its kernel). 0: always the look-back.
  static constexpr int wave_max_tiles = 1 << 30;
  //! A wave whose tiles of the row's small_items_per_thread number at most one per SM takes those
  //! small tiles (when they are smaller), so that its items spread over more SMs (guide 4.1.3).
  static constexpr bool wave_small_tiles = true;

  // --- guide 4.1.3: occupancy -----------------------------------------------------------------------
  //! Measured on the H100 (perf/NOTES.md): one block per tile is 1.46x (int32) to 1.65x (double)
  //! faster at 2^28 than resident blocks looping over tiles (run B), and still ~2x with the tile id
  //! claimed during the look-back (run H): a claimed tile waits for its block's current tile, and
  //! the tiles after it wait for it. Occupancy is still read at run time, to size the carveout
  //! (carveout_fit) and to decide the look-back delay.
  static constexpr tile_schedule schedule = tile_schedule::one_per_block;

  // --- guide 4.1.4: integer arithmetic --------------------------------------------------------------
  //! true: a tile advances its iterators once (64-bit) and addresses items by 32-bit offsets, cheap
  //! INT32 work that issues alongside the value arithmetic. false: every access forms a 64-bit index.
  static constexpr bool narrow_index_arithmetic = true;

  // --- guide 4.1.1: instruction scheduling (look-back) ----------------------------------------------
  //! Predecessors inspected at once by the look-back warp (1..32, a power of two): 32 independent
  //! state loads in flight instead of one dependent chain.
  static constexpr int lookback_window = 32;

  // --- look-back waiting (see tile/lookback.cuh) ----------------------------------------------------
  //! Sleep before the first poll, so that the tiles just before have published their inclusive
  //! prefixes: without it the H100 profile showed 2.5 (int32) to 4 (double) windows of 32 walked per
  //! tile, each an L2 round trip, while the block's other warps wait at the barrier. Applied only
  //! when tiles outnumber one wave of resident blocks (dispatch/turing.cuh). 0: poll at once.
  static constexpr unsigned lookback_delay_ns = 1500;
  static constexpr unsigned backoff_min_ns = 200;   //!< first __nanosleep after a failed poll; 0: spin
  static constexpr unsigned backoff_max_ns = 512;   //!< doubling stops here
  //! Polls before a waiting warp gives up with __trap(): with the sleeps above, tens of seconds.
  //! Only a broken forward-progress guarantee (or a kernel preempted that long) can reach it.
  static constexpr std::uint64_t spin_limit = std::uint64_t{1} << 26;

  // --- testing only ---------------------------------------------------------------------------------
  //! When > 0, every tile whose id % starve_every == starve_every - 1 sleeps `starve_ns` before
  //! publishing anything (tile/lookback starvation test). 0: compiled out.
  static constexpr int starve_every     = 0;
  static constexpr unsigned starve_ns   = 0;
};

}  // namespace archscan
