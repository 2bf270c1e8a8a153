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
inline constexpr bool family_ready =
    is_complete<archscan::dispatch::family_dispatch<typename Tuning::family>>::value;

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

//! Variants of native measured beside it (perf/NOTES.md).
//! native with its look-back folded as a tree (not deterministic): what determinism costs.
struct native_tree_hooks {  // the look-back's windows folded as a tree: what determinism costs
  static constexpr bool tree_fold = true;
};
using native_tree = with_hooks<native_tuning, native_tree_hooks>;

//! A tuning row given by its numbers (tuning.cuh, `example_row`), for the shapes that perf programs
//! vary: the probe's list below, perf/sweep.cu.
template <int Threads, int Items, int MinBlocks, int SmallItems = Items>
struct shape_row {
  static constexpr int block_threads          = Threads;
  static constexpr int items_per_thread       = Items;
  static constexpr int small_items_per_thread = SmallItems;
  static constexpr int min_blocks_per_sm      = MinBlocks;
};

//! Shapes and switches measured against native's own (perf/native_probe.sh, archscan-bench built with
//! ARCHSCAN_BENCH_SCANS=probe), each changing one thing.
//! 16-byte accumulators (row_16: the 16-byte struct; by-key items keep keyed_rows) on other shapes:
//! moved as one 16-byte vector an item, they hold 108-128 registers at these shapes, no spills.
template <int Threads, int Items, int MinBlocks>
struct native_wide : native_tuning {
  using row_16 = shape_row<Threads, Items, MinBlocks>;
};

//! Eight-byte accumulators (row_8) on other shapes. Tiles are fitted to shared memory
//! (tile/transposed_tile.cuh): 256x32 of doubles runs as 256x31, item by item (an odd count).
template <int Threads, int Items, int MinBlocks>
struct native_row8 : native_tuning {
  using row_8 = shape_row<Threads, Items, MinBlocks, 4>;
};
//! By-key items of 4- and 8-byte values (keyed_rows' row_4, row_2 and row_8) on another shape, all
//! three the same shape (each probe measures one type), small tiles as native's (4 items).
template <int Threads, int Items, int MinBlocks>
struct native_keyed : native_tuning {
  struct keyed_rows : native_tuning::keyed_rows {
    using row_4 = shape_row<Threads, Items, MinBlocks, 4>;
    using row_2 = row_4;
    using row_8 = row_4;
  };
};
//! native with items moved one by one (warp-striped, through the transpose), not as 16-byte vectors.
struct native_scalar : native_tuning {
  static constexpr bool vector_access = false;
};

//! The probe's lists: native beside its tree walk (what determinism costs), the control for a change
//! to the ordered fold (the A/B of two builds, perf/NOTES.md session 30). Each probe edits these.
inline auto probe_policies() {
  return std::make_tuple(named_policy<policy<native_tuning, false>>{"archscan::native_nosync", {}},
                         named_policy<policy<native_tree, false>>{"archscan::native_tree_nosync", {}});
}
inline auto probe_8byte_policies() { return probe_policies(); }

//! native with other waits in its look-back (tuning fields lookback_delay_ns, backoff_min_ns,
//! backoff_max_ns): what the segmented walk's waiting costs by key.
template <unsigned DelayNs, unsigned BackoffMinNs, unsigned BackoffMaxNs>
struct native_waits : native_tuning {
  static constexpr unsigned lookback_delay_ns = DelayNs;
  static constexpr unsigned backoff_min_ns    = BackoffMinNs;
  static constexpr unsigned backoff_max_ns    = BackoffMaxNs;
};

inline auto probe_keyed_policies() { return probe_policies(); }
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
  static void each(F&& f) { for_each_policy(f); }
};
template <auto List>
struct listed_policies {
  template <class F>
  static void each(F&& f) { std::apply([&](const auto&... p) { (f(p), ...); }, List()); }
};

}  // namespace archscan::perf
