#pragma once
//! \file Ablations of the turing tuning: each struct switches one recommendation of the *Turing Tuning
//! Guide* (chapter 4) off by overriding fields of `turing_tuning`, so that a benchmark can report its
//! throughput as a ratio to the baseline in the same run. perf/turing/TRACEABILITY.md maps them to 4.x.

#include <cstddef>
#include <tuple>
#include <type_traits>

#include <archscan/hooks.cuh>
#include <archscan/tuning.cuh>

namespace archscan::perf {

//! 4.1.1: one item per thread (no instruction-level parallelism from registers); 256-item tiles.
struct turing_one_item : turing_tuning {
  static constexpr const char* ablation = "one item per thread, no ILP (4.1.1)";
  struct row_4 {
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 1;
    static constexpr int small_items_per_thread = 1;
    static constexpr int min_blocks_per_sm      = 1;
  };
  using row_8     = row_4;
  using row_16    = row_4;
  using row_large = row_4;
};

//! 4.1.1: the look-back inspects one predecessor per step (a dependent chain of loads).
struct turing_serial_lookback : turing_tuning {
  static constexpr const char* ablation = "look-back one predecessor at a time, not 32 (4.1.1)";
  static constexpr int lookback_window  = 1;
};

//! 4.1.3: a grid of the blocks that fit at once (occupancy read at run time), each looping over tiles,
//! instead of one block per tile placed by the hardware scheduler (the baseline since the H100 runs).
//! Not a tuning field: the schedule is a hook (hooks.cuh), so shipped tiles compile no loop.
struct all_resident_blocks {
  static constexpr int resident_blocks_per_sm = 32;  // capped at what fits
};
struct turing_resident_blocks : with_hooks<turing_tuning, all_resident_blocks> {
  static constexpr const char* ablation = "resident blocks loop over tiles, grid from run-time occupancy (4.1.3)";
};

//! 4.1.3: the first tuning's rows: 256 x 20 (4-byte) and 128 x 12 (8-byte) with registers up to 128
//! and 64, half the items resident per SM.
struct turing_first_rows : turing_tuning {
  static constexpr const char* ablation = "first tile rows: 256x20 / 128x12, fewer items resident per SM (4.1.3)";
  struct row_4 {
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 20;
    static constexpr int small_items_per_thread = 20;
    static constexpr int min_blocks_per_sm      = 2;
  };
  struct row_8 {
    static constexpr int block_threads          = 128;
    static constexpr int items_per_thread       = 12;
    static constexpr int small_items_per_thread = 12;
    static constexpr int min_blocks_per_sm      = 4;
  };
};

//! Look-back: the first poll right after the aggregate is published (no delay).
struct turing_no_lookback_delay : turing_tuning {
  static constexpr const char* ablation       = "look-back polls at once, no first-poll delay";
  static constexpr unsigned lookback_delay_ns = 0;
};

//! 4.1.4: every load and store forms its own 64-bit index.
struct turing_wide_index : turing_tuning {
  static constexpr const char* ablation         = "64-bit index per access, not 32-bit offsets (4.1.4)";
  static constexpr bool narrow_index_arithmetic = false;
};

//! 4.3.1: no warp-striped transpose; each thread reads its consecutive items, L1 coalesces.
struct turing_no_transpose : turing_tuning {
  static constexpr const char* ablation = "blocked loads/stores, no shared-memory transpose (4.3.1)";
  static constexpr bool warp_transpose  = false;
};

//! 4.3.1: the shared-memory carveout is left to the driver.
struct turing_carveout_unset : turing_tuning {
  static constexpr const char* ablation = "carveout not set, driver's choice (4.3.1)";
  static constexpr int carveout_percent = carveout_unset;
};

//! 4.3.1: the read-only (texture) path; Turing unifies it with L1, so little change is expected.
struct turing_read_only_loads : turing_tuning {
  static constexpr const char* ablation = "__ldg read-only loads (4.3.1, unified L1/texture)";
  static constexpr load_kind load       = load_kind::read_only;
};

//! Look-back waiting: pure spinning, no __nanosleep backoff.
struct turing_spin_wait : turing_tuning {
  static constexpr const char* ablation    = "look-back spins without __nanosleep backoff";
  static constexpr unsigned backoff_min_ns = 0;
};

//! 4.3.1: no opt-in above 48 KiB (tiles shrink to fit). Changes only rows whose tile exceeds 48 KiB,
//! none of the benchmarked int32/float/int64/double rows, so it is not in the tuple below; run it
//! with an accumulator of >= 128 bytes (row_large: 128 threads x 3 items) to measure it.
struct turing_no_smem_optin : turing_tuning {
  static constexpr const char* ablation   = "no dynamic shared memory above 48 KiB (4.3.1)";
  static constexpr bool opt_in_large_smem = false;
};

//! No wave: every multi-tile problem takes the look-back (reset memset, then the look-back kernel).
struct turing_no_wave : turing_tuning {
  static constexpr const char* ablation = "no one-wave path: look-back at every size";
  static constexpr int wave_max_tiles   = 0;
};

//! 4.1.3: a wave of few tiles keeps the full tiles instead of spreading small ones over more SMs.
struct turing_wave_full_tiles : turing_tuning {
  static constexpr const char* ablation  = "a wave of few tiles keeps full tiles, not small ones (4.1.3)";
  static constexpr bool wave_small_tiles = false;
};

using turing_ablations =
    std::tuple<turing_tuning, turing_one_item, turing_serial_lookback, turing_resident_blocks, turing_first_rows,
               turing_no_lookback_delay, turing_wide_index, turing_no_transpose, turing_carveout_unset,
               turing_read_only_loads, turing_spin_wait, turing_no_wave, turing_wave_full_tiles>;

}  // namespace archscan::perf
