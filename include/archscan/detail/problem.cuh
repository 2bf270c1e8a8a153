#pragma once
//! \file
//! The one description of a scan that every kernel family receives.
//!
//! The Thrust overloads (thrust/) reduce all sixteen scan-family calls to a `scan_problem`: an input
//! iterator whose values convert to the accumulator type, an associative operator on accumulators,
//! an optional seed folded in on the left, and a `finish` functor that maps each scanned accumulator
//! (inclusive or exclusive, by `kind`) to the value written to `out`.
//! By-key scans arrive here as ordinary scans over (value, segment flags) items with a segmented operator.

#include <cstdint>

namespace archscan::detail {

enum class scan_kind { inclusive, exclusive };

//! `finish` that writes the scanned accumulator unchanged (plain and transform scans).
struct identity_finish {
  template <class Accum>
  __host__ __device__ const Accum& operator()(const Accum& scanned) const { return scanned; }
};

//! Everything a family needs to run one scan.
//! Exclusive problems always carry a seed (Thrust's exclusive forms always have an initial value).
template <class InIt, class OutIt, class Accum, class Op, class Finish, scan_kind Kind, bool HasSeed>
struct scan_problem {
  static_assert(Kind == scan_kind::inclusive || HasSeed, "an exclusive scan needs a seed");
  using input_iterator  = InIt;
  using output_iterator = OutIt;
  using accum_type      = Accum;
  using op_type         = Op;
  using finish_type     = Finish;
  static constexpr bool has_seed      = HasSeed;
  static constexpr bool exclusive     = Kind == scan_kind::exclusive;

  InIt in;
  OutIt out;
  std::int64_t n;
  Op op;
  Finish finish;
  Accum seed;

  __device__ __forceinline__ Accum load(std::int64_t i) const { return static_cast<Accum>(in[i]); }
  //! `scanned` is the inclusive or exclusive prefix of item i (by `kind`).
  __device__ __forceinline__ void store(std::int64_t i, const Accum& scanned) const { out[i] = finish(scanned); }
};

}  // namespace archscan::detail
