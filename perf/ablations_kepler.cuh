#pragma once
//! \file Ablations of the kepler tuning: each struct switches one recommendation of the Kepler tuning
//! guide off (by overriding one field of `kepler_tuning`) so that a benchmark, in the same run, can
//! report its throughput as a ratio to the baseline. perf/kepler/TRACEABILITY.md maps them to 1.4.

#include <tuple>

#include <archscan/tuning.cuh>

namespace archscan::perf {

//! 1.4.3.3: warps exchange through shared memory (ordered by __syncwarp) instead of shuffles.
struct kepler_smem_exchange : kepler_tuning {
  static constexpr const char* ablation             = "shared-memory warp exchange instead of __shfl_*_sync (1.4.3.3)";
  static constexpr warp_exchange_kind warp_exchange = warp_exchange_kind::shared_memory;
};

//! 1.4.3.1, measured where shared memory carries the traffic: the previous ablation with 64-bit
//! values split into two 32-bit words. Compare with kepler_smem_exchange (its ratio to the baseline).
struct kepler_smem_exchange_split_words : kepler_smem_exchange {
  static constexpr const char* ablation = "shared-memory exchange with 64-bit values as 32-bit words (1.4.3.1)";
  static constexpr int smem_word_bytes  = 4;
};

//! 1.4.3.1 in the baseline (only warp totals pass through shared memory there).
struct kepler_split_smem_words : kepler_tuning {
  static constexpr const char* ablation = "64-bit shared-memory values as 32-bit words (1.4.3.1)";
  static constexpr int smem_word_bytes  = 4;
};

//! 1.4.4.3: ordinary global loads instead of the read-only data path.
struct kepler_plain_loads : kepler_tuning {
  static constexpr const char* ablation = "plain loads instead of __ldg (1.4.4.3)";
  static constexpr load_kind load       = load_kind::direct;
};

//! 1.4.1 / 1.4.4.1: one item per thread (no ILP from registers); tiles of 256 items.
struct kepler_one_item : kepler_tuning {
  static constexpr const char* ablation = "one item per thread, no ILP (1.4.1, 1.4.4.1)";
  struct row_4 : kepler_tuning::row_4 {
    static constexpr int items_per_thread       = 1;
    static constexpr int small_items_per_thread = 1;
  };
  struct row_8 : kepler_tuning::row_8 {
    static constexpr int items_per_thread       = 1;
    static constexpr int small_items_per_thread = 1;
  };
  struct row_16 : kepler_tuning::row_16 {
    static constexpr int items_per_thread       = 1;
    static constexpr int small_items_per_thread = 1;
  };
  using row_large = row_16;
};

//! 1.4.1: full tiles at every size, even when they leave SMs idle.
struct kepler_no_grid_fill : kepler_tuning {
  static constexpr const char* ablation = "no grid-filling tile shrink for small n (1.4.1)";
  static constexpr bool fill_grid       = false;
};

//! Every row of kepler_tuning with a `__launch_bounds__` minimum of `MinBlocks` blocks per SM.
template <int MinBlocks>
struct kepler_min_blocks : kepler_tuning {
  struct row_4 : kepler_tuning::row_4 {
    static constexpr int min_blocks_per_sm = MinBlocks;
  };
  struct row_8 : kepler_tuning::row_8 {
    static constexpr int min_blocks_per_sm = MinBlocks;
  };
  struct row_16 : kepler_tuning::row_16 {
    static constexpr int min_blocks_per_sm = MinBlocks;
  };
  using row_large = row_16;
};

//! 1.4.4.1: "experiment with the balance of spilling vs. occupancy". The baseline is capped at 64
//! registers (4 blocks of 256 threads), near Fermi's 63, so the 255-register limit is not what it
//! relies on; this ablation forces full occupancy instead (256 threads x 8 blocks: at most 32
//! registers, spilling).
struct kepler_register_cap : kepler_min_blocks<8> {
  static constexpr const char* ablation = "registers capped at 32 for full occupancy, spilling (1.4.4.1)";
};

//! 1.4.4.4: tile status as a released flag plus separate values instead of one atomic 64-bit word.
struct kepler_flag_and_values : kepler_tuning {
  static constexpr const char* ablation = "tile status as fenced flag + value, not one 64-bit atomic word (1.4.4.4)";
  static constexpr tile_status_kind tile_status = tile_status_kind::flag_and_values;
};

//! 1.4.4.1: the register budget left to the compiler up to 128 (2 blocks of 256), the first tuning's
//! choice: fewer items resident per SM.
struct kepler_register_budget_128 : kepler_min_blocks<2> {
  static constexpr const char* ablation = "registers up to 128, 2 blocks per SM resident (1.4.4.1)";
};

//! Look-back: the serial walk starts right after the aggregate is published (no delay).
struct kepler_no_lookback_delay : kepler_tuning {
  static constexpr const char* ablation       = "serial look-back starts at once, no delay";
  static constexpr unsigned lookback_delay_ns = 0;
};

using kepler_ablations =
    std::tuple<kepler_tuning, kepler_smem_exchange, kepler_smem_exchange_split_words, kepler_split_smem_words,
               kepler_plain_loads, kepler_one_item, kepler_no_grid_fill, kepler_register_cap,
               kepler_register_budget_128, kepler_flag_and_values, kepler_no_lookback_delay>;

}  // namespace archscan::perf
