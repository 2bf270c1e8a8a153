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
//! native with small tiles for problems of at most 132 of them (turing's small rows): deterministic
//! still (a choice by n alone); measured before it becomes the default (perf/NOTES.md).
struct native_small_tiles : native_tuning {
  static constexpr int small_tiles_max = 132;
  struct row_4 : native_tuning::row_4 {
    static constexpr int small_items_per_thread = 16;
  };
  struct row_8 : native_tuning::row_8 {
    static constexpr int small_items_per_thread = 4;
  };
};

//! Every archscan policy whose family is implemented, in a fixed order.
inline auto all_policies() {
  return std::tuple_cat(detail::entry_if_ready<native_tuning, true>("archscan::native"),
                        detail::entry_if_ready<native_tuning, false>("archscan::native_nosync"),
                        detail::entry_if_ready<native_tree, false>("archscan::native_tree_nosync"),
                        detail::entry_if_ready<native_small_tiles, false>("archscan::native_small_tiles_nosync"),
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

}  // namespace archscan::perf
