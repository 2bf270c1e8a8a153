#pragma once
//! \file The one list of archscan policies that every perf program measures.
//!
//! A policy joins the list only when its family's dispatch is a complete type, i.e. once the family
//! has landed (dispatch/<family>.cuh specializes `family_dispatch`). No edit is needed here when
//! kepler or turing land: the next build picks them up.

#include <tuple>
#include <type_traits>

#include <archscan/archscan.cuh>

namespace archscan::perf {

//! True when `T` is a complete type in this translation unit.
template <class T, class = void>
struct is_complete : std::false_type {};
template <class T>
struct is_complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};

//! True when the family that runs `Tuning` is implemented.
template <class Tuning>
inline constexpr bool family_ready = is_complete<archscan::dispatch::family_dispatch<typename Tuning::family>>::value;

//! One measured policy: its type and its printed name.
template <class Policy>
struct named_policy {
  using policy_type = Policy;
  const char* name;
  Policy policy;
};

namespace detail {
template <class Tuning, bool Blocking>
constexpr auto entry_if_ready(const char* name) {
  if constexpr (family_ready<Tuning>)
    return std::tuple<named_policy<archscan::policy<Tuning, Blocking>>>{{name, archscan::policy<Tuning, Blocking>{}}};
  else
    return std::tuple<>{};
}
}  // namespace detail

//! Variants of native measured beside it (docs/design-notes.md).
//! native with its look-back folded as a tree (not deterministic): what determinism costs.
struct native_tree_hooks {  // the look-back's windows folded as a tree: what determinism costs
  static constexpr bool tree_fold = true;
};
using native_tree = with_hooks<native_tuning, native_tree_hooks>;

//! A tuning row given by its numbers (tuning/shape.cuh, `example_row`), for the shapes that perf programs
//! vary: perf/sweep.cu, and a probe's list when it tries other rows.
template <int Threads, int Items, int MinBlocks, int SmallItems = Items>
struct shape_row {
  static constexpr int block_threads          = Threads;
  static constexpr int items_per_thread       = Items;
  static constexpr int small_items_per_thread = SmallItems;
  static constexpr int min_blocks_per_sm      = MinBlocks;
};

//! native with its int32 row (row_4) of one shape, `Threads` x `Items` at `MinBlocks` an SM for its full,
//! small and single tiles alike, and its look-back's first poll and L2 prefetch as given: a user's
//! tuning, for the programs that ask what a tile's shape or a wait costs (perf/floor.cu, perf/roof.cu).
//! `StagedFrom`, `StagedMinBlocks`: the staged look-back's row fields (tuning/shape.cuh, example_staged_row;
//! INT64_MAX: never staged), taken on devices where native takes it.
template <int Threads, int Items, int MinBlocks = native_tuning::row_4::min_blocks_per_sm,
          unsigned DelayNs        = native_tuning::lookback_delay_ns,
          int PrefetchPercent     = native_tuning::l2_prefetch_ahead_percent,
          std::int64_t StagedFrom = native_tuning::row_4::staged_from_items,
          int StagedMinBlocks     = native_tuning::row_4::staged_min_blocks_per_sm>
struct native_int32_shaped : native_tuning {
  struct row_4 : native_tuning::row_4 {
    static constexpr int block_threads              = Threads;
    static constexpr int items_per_thread           = Items;
    static constexpr int small_items_per_thread     = Items;
    static constexpr int single_items_per_thread    = Items;
    static constexpr int min_blocks_per_sm          = MinBlocks;
    static constexpr std::int64_t staged_from_items = StagedFrom;
    static constexpr int staged_min_blocks_per_sm   = StagedMinBlocks;
  };
  static constexpr unsigned lookback_delay_ns    = DelayNs;
  static constexpr int l2_prefetch_ahead_percent = PrefetchPercent;
};

//! native with its packed rows (one- and two-byte items: tuning/native.cuh, packed_rows) staged from
//! `StagedFrom` items at `StagedMinBlocks` an SM (tuning/shape.cuh, example_staged_row; INT64_MAX: never
//! staged), taken on devices where native takes it: for perf/roof.cu's narrow cases.
template <std::int64_t StagedFrom, int StagedMinBlocks = 3>
struct native_packed_staged : native_tuning {
  struct packed_rows {
    struct row_1 : native_tuning::packed_rows::row_1 {
      static constexpr std::int64_t staged_from_items = StagedFrom;
      static constexpr int staged_min_blocks_per_sm   = StagedMinBlocks;
    };
    struct row_2 : native_tuning::packed_rows::row_2 {
      static constexpr std::int64_t staged_from_items = StagedFrom;
      static constexpr int staged_min_blocks_per_sm   = StagedMinBlocks;
    };
  };
};

//! native with its 8-byte row (row_8) staged from `StagedFrom` items at `StagedMinBlocks` an SM (tuning/shape.cuh,
//! example_staged_row; INT64_MAX: never staged) and its large tiles from `LargeFrom` (INT64_MAX: never, so
//! that the full tiles, the only ones that stage, run every look-back size): for perf/roof.cu's 8-byte cases.
template <std::int64_t StagedFrom, int StagedMinBlocks = 3,
          std::int64_t LargeFrom = native_tuning::row_8::large_from_items>
struct native_row8_staged : native_tuning {
  struct row_8 : native_tuning::row_8 {
    static constexpr std::int64_t staged_from_items = StagedFrom;
    static constexpr int staged_min_blocks_per_sm   = StagedMinBlocks;
    static constexpr std::int64_t large_from_items  = LargeFrom;
  };
};

//! A tuning as a policy that does not synchronize (a user's own, or a probe's variant).
template <class Tuning>
inline const policy<Tuning, false> nosync_policy{};

//! The probe's list (perf/native_probe.sh, perf/binary_ab.sh; archscan-bench built with
//! ARCHSCAN_BENCH_SCANS=probe): native beside its variants. Each probe edits it; earlier probes' lists
//! (the tree walk, other rows through `shape_row`, scalar access, look-back waits, the routes that cost
//! the most machine code) are in git's history and docs/design-notes.md.
//! Last: native beside the same tuning with its narrow sums (int8, int16, and uint8 flags into int32)
//! scanned a word at a time (tuning/native.cuh, packed_dot_sums; detail/packed_sums.cuh), at 4 and at 5 blocks an
//! SM for int8; and
//! (probe_walk_policies) the look-back's two walks for plain accumulators, and row_8 without large tiles.
struct native_dot_sums : native_tuning {
  static constexpr bool packed_dot_sums = true;
};
//! The same at 5 blocks an SM for int8's packed tiles (48 registers: the word-at-a-time sums fit them
//! without spills, sm_90 ptxas; the item-by-item scan spills 4 bytes there). The same tiles, the same bits.
struct native_dot_sums_5 : native_dot_sums {
  struct packed_rows {
    struct row_1 : native_tuning::packed_rows::row_1 {
      static constexpr int min_blocks_per_sm = 5;
    };
    using row_2 = native_tuning::packed_rows::row_2;
  };
};
inline auto probe_policies() {
  return std::make_tuple(named_policy<policy<native_tuning, false>>{"archscan::native_nosync", {}},
                         named_policy<policy<native_dot_sums, false>>{"archscan::native_dot_sums_nosync", {}},
                         named_policy<policy<native_dot_sums_5, false>>{"archscan::native_dot_sums_5_nosync", {}});
}
//! A second list, for 4- and 8-byte sums at every size: native beside the same tuning on the segment
//! states for plain accumulators too (prefix_chain_max_bytes 0; tile/segment_lookback.cuh), whose
//! prefixes wait on no one segment before them, where the chain of prefixes takes a round trip a
//! segment: what that costs where the problem is one or two waves of tiles (2^20..2^24). The same bits.
struct native_segment_states : native_tuning {
  static constexpr std::size_t prefix_chain_max_bytes = 0;
};
//! And row_8 without its large tiles, so that rounding operators' 8-byte sums take the full tiles, which
//! stage on the H200 from 2^24 (double 0.890 -> 0.934 of a copy at 2^28, other bits; the H100 lost
//! 2.4-2.9% without them).
using native_no_large_row8 = native_row8_staged<native_tuning::row_8::staged_from_items,
                                                native_tuning::row_8::staged_min_blocks_per_sm, INT64_MAX>;
inline auto probe_walk_policies() {
  return std::make_tuple(named_policy<policy<native_tuning, false>>{"archscan::native_nosync", {}},
                         named_policy<policy<native_segment_states, false>>{"archscan::native_states_nosync", {}},
                         named_policy<policy<native_no_large_row8, false>>{"archscan::native_no_large8_nosync", {}});
}

//! Every archscan policy whose family is implemented, in a fixed order.
inline auto all_policies() {
  return std::tuple_cat(detail::entry_if_ready<native_tuning, true>("archscan::native"),
                        detail::entry_if_ready<native_tuning, false>("archscan::native_nosync"),
                        detail::entry_if_ready<native_tree, false>("archscan::native_tree_nosync"),
                        detail::entry_if_ready<blelloch_tuning, true>("archscan::blelloch"),
                        detail::entry_if_ready<blelloch_tuning, false>("archscan::blelloch_nosync"),
                        detail::entry_if_ready<kepler_tuning, true>("archscan::kepler"),
                        detail::entry_if_ready<kepler_tuning, false>("archscan::kepler_nosync"),
                        detail::entry_if_ready<turing_tuning, true>("archscan::turing"),
                        detail::entry_if_ready<turing_tuning, false>("archscan::turing_nosync"));
}

//! Calls `f(named_policy)` for each entry of all_policies().
template <class F>
void for_each_policy(F&& f) {
  std::apply([&](const auto&... p) { (f(p), ...); }, all_policies());
}

//! Which policies a benchmark registers: all_policies(), or one of the probe's lists.
struct every_policy {
  template <class F>
  static void each(F&& f) {
    for_each_policy(f);
  }
};
template <auto List>
struct listed_policies {
  template <class F>
  static void each(F&& f) {
    std::apply([&](const auto&... p) { (f(p), ...); }, List());
  }
};

}  // namespace archscan::perf
