#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file
//! The one description of a scan that every kernel family receives.
//!
//! The Thrust overloads (thrust/) reduce all sixteen scan-family calls to a `scan_problem`: an input
//! iterator whose values convert to the accumulator type, an associative operator on accumulators,
//! an optional seed folded in on the left, and a `finish` functor that maps each scanned accumulator
//! (inclusive or exclusive, by `kind`) to the value written to `out`.
//! By-key scans arrive here as ordinary scans over (value, segment flags) items with a segmented operator.

#include <cstdint>
#include <type_traits>

#include <archscan/detail/maybe.cuh>

namespace archscan::detail {

enum class scan_kind { inclusive, exclusive };

//! `finish` that writes the scanned accumulator unchanged (plain and transform scans).
struct identity_finish {
  template <class Accum>
  __host__ __device__ const Accum& operator()(const Accum& scanned) const {
    return scanned;
  }
};

//! The seed of a problem is its `seed` member (when HasSeed).
struct host_seed {};

//! Everything a family needs to run one scan.
//! Exclusive problems always carry a seed (Thrust's exclusive forms always have an initial value).
//! `SeedSource` other than host_seed gives the seed on the device, from `seed`, when a tile asks for
//! it: `seed_source(seed)` returns a `maybe<Accum>`, which may be absent for an inclusive problem
//! (detail::gathered_seed: a scan across ranks folds the lower ranks' totals there,
//! dispatch/rank_dispatch.cuh). Tiles may ask more than once; a source must give the same bits each
//! time.
template <class InIt, class OutIt, class Accum, class Op, class Finish, scan_kind Kind, bool HasSeed,
          class SeedSource = host_seed>
struct scan_problem {
  static_assert(Kind == scan_kind::inclusive || HasSeed, "an exclusive scan needs a seed");
  static constexpr bool host_seeded = std::is_same_v<SeedSource, host_seed>;
  static_assert(HasSeed || host_seeded, "a seed source is a seed");
  using input_iterator            = InIt;
  using output_iterator           = OutIt;
  using accum_type                = Accum;
  using op_type                   = Op;
  using finish_type               = Finish;
  static constexpr bool has_seed  = HasSeed;
  static constexpr bool exclusive = Kind == scan_kind::exclusive;

  InIt in;
  OutIt out;
  std::int64_t n;
  Op op;
  Finish finish;
  Accum seed;
  SeedSource seed_source;

  //! The seed folded in before item 0; `valid` is a constant unless a seed source computes it.
  __device__ __forceinline__ maybe<Accum> seed_maybe() const {
    if constexpr (!host_seeded) return seed_source(seed);
    return maybe<Accum>{seed, HasSeed ? 1 : 0};
  }
  //! `seed op x` where there is a seed, else `x`.
  __device__ __forceinline__ Accum seeded(const Accum& x) const {
    if constexpr (!HasSeed) return x;
    const maybe<Accum> s = seed_maybe();
    return s.valid ? static_cast<Accum>(op(s.value, x)) : x;
  }

  __device__ __forceinline__ Accum load(std::int64_t i) const { return static_cast<Accum>(in[i]); }
  //! `scanned` is the inclusive or exclusive prefix of item i (by `kind`).
  __device__ __forceinline__ void store(std::int64_t i, const Accum& scanned) const { out[i] = finish(scanned); }
  //! Writes a value `finish` already made of item i's prefix.
  template <class Finished>
  __device__ __forceinline__ void put(std::int64_t i, const Finished& y) const {
    out[i] = y;
  }
};

}  // namespace archscan::detail
