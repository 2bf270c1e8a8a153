#pragma once
//! \file The carry of a scan across ranks: what each rank tells the others, and how a rank folds what
//! the lower ranks told it into the seed of its own scan.
//!
//! Each rank publishes one record: a header (the call's signature and the rank's item count), the
//! rank's total (the inclusive scan of its slice, as its own scan would end) and, for by-key scans,
//! its first and last key. The records of all ranks are gathered into equal slots, one per rank, in
//! rank order. Rank r's seed is then the left fold, in rank order, of its own seed (init, if any) and
//! the totals of the non-empty ranks below it: fixed by the slices alone, so every run associates
//! alike. By-key scans first let a run of equal keys cross a boundary: the fold before a rank closes
//! only where its last key and the next non-empty rank's first key differ.
//!
//! The fold is host and device code, so host tests check it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>

#include <archscan/detail/maybe.cuh>

namespace archscan::detail {

//! The key part of a record for scans that are not by key.
struct no_key {};

//! The boundary of scans that are not by key: totals fold as they are.
struct no_boundary {
  using key_type  = no_key;
  using pred_type = void;
  template <class Accum>
  __host__ __device__ void operator()(Accum&, const no_key&, const no_key&) const {}
  __device__ no_key first_key() const { return {}; }
  __device__ no_key last_key(std::int64_t) const { return {}; }
};

struct rank_header {
  std::uint64_t signature;  //!< the same on every rank of one call (rank_signature)
  std::int64_t n;           //!< the rank's item count; its total and keys are present only when n > 0
};

//! What one rank publishes. Travels as bytes: any accumulator and key type.
template <class Accum, class Key>
struct rank_record {
  rank_header header;
  Accum total;
  Key first_key;
  Key last_key;
};

//! The slot of one rank in the gathered records: the record rounded up to 256 bytes, so that ranks
//! whose records are up to 256 bytes always gather equal slots, and a disagreement about the call
//! (which the signature then shows) can never make NCCL gather unequal sizes.
template <class Accum, class Key>
__host__ __device__ constexpr std::size_t rank_slot_bytes() {
  return (sizeof(rank_record<Accum, Key>) + 255) / 256 * 256;
}

//! A hash of what every rank of one call must agree on: the form, the accumulator, operator, key and
//! predicate types (`Parts`). FNV-1a over the types' names: equal in every process of one program,
//! and of programs built with the same compiler.
template <class... Parts>
struct signature_parts {};

template <class... Parts>
std::uint64_t rank_signature() {
  const std::string name = typeid(signature_parts<Parts...>).name();
  std::uint64_t h        = 0xcbf29ce484222325ull;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

//! Rank `rank`'s seed: `seed` (its own, possibly absent) folded with the totals of the non-empty ranks
//! below it, in rank order; `boundary` joins by-key runs across ranks. `slots` holds `ranks` records of
//! `rank_slot_bytes<Accum, Key>()` bytes each.
template <class Accum, class Key, class Op, class Boundary>
__host__ __device__ maybe<Accum> fold_lower_ranks(const unsigned char* slots, int rank, maybe<Accum> seed, Op op,
                                                  const Boundary& boundary) {
  using record                = rank_record<Accum, Key>;
  constexpr std::size_t bytes = rank_slot_bytes<Accum, Key>();
  const auto at = [&](int r) { return reinterpret_cast<const record*>(slots + static_cast<std::size_t>(r) * bytes); };
  const record* previous = nullptr;  // the last non-empty rank folded in
  for (int r = 0; r < rank; ++r) {
    const record* rec = at(r);
    if (rec->header.n <= 0) continue;
    if (previous != nullptr) boundary(seed.value, previous->last_key, rec->first_key);
    seed     = seed.valid ? maybe<Accum>{static_cast<Accum>(op(seed.value, rec->total)), 1} : maybe<Accum>{rec->total, 1};
    previous = rec;
  }
  if (previous != nullptr && at(rank)->header.n > 0) boundary(seed.value, previous->last_key, at(rank)->first_key);
  return seed;
}

//! The rank (if any) whose record's signature differs from `signature`, else -1. `slots` as above.
template <class Accum, class Key>
int rank_disagreeing(const unsigned char* slots, int ranks, std::uint64_t signature) {
  for (int r = 0; r < ranks; ++r) {
    const auto* rec = reinterpret_cast<const rank_record<Accum, Key>*>(slots + static_cast<std::size_t>(r) * rank_slot_bytes<Accum, Key>());
    if (rec->header.signature != signature) return r;
  }
  return -1;
}

}  // namespace archscan::detail
