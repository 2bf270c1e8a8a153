#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file How kernels and tiles read test hooks (hooks.cuh documents the fields): the hooks arrive as a
//! template parameter that defaults to `no_hooks`, resolved once at the top of dispatch (`hooks_of`),
//! and `hook_traits` reads every field, off where a hooks struct leaves it out, so that the shipped
//! policies compile no hook code. Here, below every scope, so that the tiles that call the hooks need
//! not include hooks.cuh, which is above theirs.

#include <cstdint>
#include <type_traits>

namespace archscan {

//! No hooks: what every shipped policy runs with.
struct no_hooks {};

//! A tile's events, in order, for the `mark` hook, as thread 0 sees them: its id known (and, in the
//! look-back's first set, its pace waited out: tile/transposed_tile.cuh), its
//! aggregate known (its input loaded and scanned), its exclusive prefix known (after the look-back
//! or the wave's fold), its own stores issued (the block's other threads may still be storing).
//! Tile ids are those of the launch (under the rank dispatch, of the rank's slice).
enum class tile_event : int { started, aggregated, prefixed, stored, count };

namespace detail {

template <class Tuning, class = void>
struct hooks_of_impl {
  using type = no_hooks;
};
template <class Tuning>
struct hooks_of_impl<Tuning, std::void_t<typename Tuning::hooks>> {
  using type = typename Tuning::hooks;
};

template <class H, class = void>
struct starve_every_of : std::integral_constant<int, 0> {};
template <class H>
struct starve_every_of<H, std::void_t<decltype(H::starve_every)>> : std::integral_constant<int, H::starve_every> {};

template <class H, class = void>
struct starve_ns_of : std::integral_constant<unsigned, 0> {};
template <class H>
struct starve_ns_of<H, std::void_t<decltype(H::starve_ns)>> : std::integral_constant<unsigned, H::starve_ns> {};

template <class H, class = void>
struct resident_blocks_of : std::integral_constant<int, 0> {};
template <class H>
struct resident_blocks_of<H, std::void_t<decltype(H::resident_blocks_per_sm)>>
    : std::integral_constant<int, H::resident_blocks_per_sm> {};

template <class H, class = void>
struct tree_fold_of : std::false_type {};
template <class H>
struct tree_fold_of<H, std::void_t<decltype(H::tree_fold)>> : std::bool_constant<H::tree_fold> {};

template <class H, class = void>
struct reset_delay_ns_of : std::integral_constant<unsigned, 0> {};
template <class H>
struct reset_delay_ns_of<H, std::void_t<decltype(H::reset_delay_ns)>>
    : std::integral_constant<unsigned, H::reset_delay_ns> {};

template <class H, class = void>
struct has_mark : std::false_type {};
template <class H>
struct has_mark<H, std::void_t<decltype(H::mark(std::int64_t{}, tile_event{}))>> : std::true_type {};

//! The hooks a tuning carries, with every field defaulted to off.
template <class Hooks>
struct hook_traits {
  static constexpr int starve_every           = starve_every_of<Hooks>::value;
  static constexpr unsigned starve_ns         = starve_ns_of<Hooks>::value;
  static constexpr int resident_blocks_per_sm = resident_blocks_of<Hooks>::value;
  static constexpr bool tree_fold             = tree_fold_of<Hooks>::value;
  static constexpr unsigned reset_delay_ns    = reset_delay_ns_of<Hooks>::value;
  static_assert(starve_every >= 0 && resident_blocks_per_sm >= 0, "hooks: counts are not negative");

  //! Measuring only: thread 0 reports a tile's event (compiled out without the hook).
  __device__ __forceinline__ static void mark(std::int64_t tile, tile_event e) {
    if constexpr (has_mark<Hooks>::value) {
      if (threadIdx.x == 0) Hooks::mark(tile, e);
    }
  }

  //! Testing only: sleeps about `ns` nanoseconds, in steps of 1 us (one __nanosleep sleeps at most
  //! about 1 ms).
  __device__ __forceinline__ static void sleep_ns(unsigned ns) {
    for (unsigned slept = 0; slept < ns; slept += 1000) __nanosleep(1000);
  }

  //! Testing only: the states' reset sleeps before zeroing (compiled out without the hook).
  __device__ __forceinline__ static void delay_reset() {
    if constexpr (reset_delay_ns > 0) sleep_ns(reset_delay_ns);
  }

  //! Testing only: a chosen tile sleeps before publishing anything (compiled out without the hook).
  __device__ __forceinline__ static void starve(std::int64_t tile) {
    if constexpr (starve_every > 0) {
      if (tile % starve_every == starve_every - 1) sleep_ns(starve_ns);
    }
  }
};

}  // namespace detail

//! The hooks `Tuning` carries (`with_hooks`), or `no_hooks`.
template <class Tuning>
using hooks_of = typename detail::hooks_of_impl<Tuning>::type;

}  // namespace archscan
