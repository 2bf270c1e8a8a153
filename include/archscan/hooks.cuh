#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Test and ablation hooks: behaviour that only tests and measurements ask for.
//!
//! A tuning carries no hook. Tests and ablations attach hooks by wrapping a tuning:
//!
//!   struct starve { static constexpr int starve_every = 7; static constexpr unsigned starve_ns = 100000; };
//!   archscan::policy<archscan::with_hooks<archscan::turing_tuning, starve>> p;
//!
//! The dispatch resolves the hooks once (`hooks_of`) and passes them down as a template parameter that
//! defaults to `no_hooks`; every hook reads as "off" there, so the shipped policies compile no hook code.
//! A hooks struct names any subset of these fields:
//!
//!   int starve_every, unsigned starve_ns   single-pass families: a tile whose id % starve_every ==
//!                                          starve_every - 1 sleeps starve_ns before publishing anything
//!   int resident_blocks_per_sm             turing's look-back: a grid of this many blocks per SM (capped
//!                                          at what fits), each looping over tiles, instead of one block
//!                                          per tile (ablation of guide 4.1.3; the other schedule)
//!   bool tree_fold                         native: fold look-back windows as a tree, as turing does
//!                                          (not deterministic; measures what determinism costs), and
//!                                          waves too: no cluster route (whose fold is the ordered one)
//!   unsigned reset_delay_ns                native's look-back on sm_90 on: the reset of its tile states
//!                                          sleeps this long after letting the scan launch, before it
//!                                          zeroes anything, so that a scan which touched a state early
//!                                          would see the previous call's (test/dispatch/native_launch_test.cu)
//!   static __device__ void mark(std::int64_t tile, tile_event e)
//!                                          transposed tiles (the turing and native families): thread 0
//!                                          calls it at each of a tile's events, for timelines
//!                                          (perf/timeline.cu)

#include <archscan/detail/hook_traits.cuh>

namespace archscan {

//! `Tuning` with hooks `Hooks` attached (a tuning in every other respect).
template <class Tuning, class Hooks>
struct with_hooks : Tuning {
  using hooks = Hooks;
};

}  // namespace archscan
