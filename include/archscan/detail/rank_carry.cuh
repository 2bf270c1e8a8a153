#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The carry of a scan across ranks: what each rank tells the others, and how a rank folds what
//! the lower ranks told it into the seed of its own scan.
//!
//! Each rank publishes one record: a header (the call's signature, the rank's item count and how many
//! totals follow), its first and last key (by-key scans), and its slice's total as a short sequence of
//! partial totals, in item order: one per chunk of its first pass where they fit the record (a small
//! slice then needs no second kernel to fold them), else the one total they fold to. Associations are
//! fixed by n and the tile shape; with a rounding operator the totals need not be the bits the rank's
//! own scan ends with. The records of all ranks are gathered into equal slots, one per rank, in rank
//! order. Rank r's seed is then the left fold, in rank order, of its own seed (init, if any) and the
//! totals of the non-empty ranks below it, an order fixed by the slices alone. By-key scans first let a
//! run of equal keys cross a boundary: the fold before a rank closes only where its last key and the
//! next non-empty rank's first key differ.
//!
//! The fold is host and device code, so host tests check it. On the device it is the scan's seed
//! source (gathered_seed): each tile that needs the seed folds it from the gathered slots, so no kernel
//! runs between the gather and the scan.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <thrust/iterator/iterator_traits.h>

#include <archscan/detail/callable.cuh>
#include <archscan/detail/keyed.cuh>
#include <archscan/detail/math.cuh>
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

//! Where a by-key scan's slice meets its neighbours': its first and last keys, and whether a run
//! crosses from one slice into the next.
template <class KeyIt, class Pred>
struct keyed_boundary {
  using key_type  = typename thrust::iterator_traits<KeyIt>::value_type;
  using pred_type = Pred;
  KeyIt keys;
  callable<Pred> pred;
  //! `before` ends with key `last`; the next slice begins with key `first`.
  template <class V>
  __host__ __device__ void operator()(keyed<V>& before, const key_type& last, const key_type& first) const {
    before.set_closes(!pred(last, first));
  }
  __device__ key_type first_key() const { return keys[0]; }
  __device__ key_type last_key(std::int64_t n) const { return keys[n - 1]; }
};

//! The boundary of a scan's input: keyed_boundary for by-key scans (keyed_item inputs), else none.
template <class InIt, class Source = keyed_source<InIt>, bool Keyed = !std::is_void_v<typename Source::key_iterator>>
struct boundary_of {
  using type = no_boundary;
  static type get(const InIt&) { return {}; }
};
template <class InIt, class Source>
struct boundary_of<InIt, Source, true> {
  using type = keyed_boundary<typename Source::key_iterator, typename Source::pred_type>;
  static type get(const InIt& in) {
    const auto item = Source::item(in);
    return {item.keys, item.pred};
  }
};

struct rank_header {
  std::uint64_t signature;  //!< the same on every rank of one call (rank_signature)
  std::int64_t n;           //!< the rank's item count; its totals and keys are present only when n > 0
  std::int32_t totals;      //!< how many partial totals the record holds (0 when n == 0)
};

//! The part of a record before its totals.
template <class Key>
struct rank_record_fixed_part {
  rank_header header;
  Key first_key;
  Key last_key;
};

//! The most partial totals a record holds: as many as fit a 256-byte slot, at least one, at most 32
//! (each tile that reads the seed unrolls a loop over them).
template <class Accum, class Key>
__host__ __device__ constexpr int rank_record_capacity() {
  const std::size_t offset = align_up(sizeof(rank_record_fixed_part<Key>), alignof(Accum));
  const std::size_t fit    = offset + sizeof(Accum) <= 256 ? (256 - offset) / sizeof(Accum) : 1;
  return fit < 32 ? static_cast<int>(fit) : 32;
}

//! What one rank publishes. Travels as bytes: any accumulator and key type.
template <class Accum, class Key>
struct rank_record {
  rank_header header;
  Key first_key;
  Key last_key;
  Accum totals[rank_record_capacity<Accum, Key>()];  //!< [0, header.totals) in item order
};

//! The slot of one rank in the gathered records: the record rounded up to 256 bytes, so that ranks
//! whose records are up to 256 bytes always gather equal slots, and a disagreement about the call
//! (which the signature then shows) cannot make NCCL gather unequal sizes. Records over 256 bytes
//! (accumulators of about 220 bytes and more) give no such guarantee: ranks that disagree on such a
//! type gather unequal sizes, which NCCL leaves undefined.
template <class Accum, class Key>
__host__ __device__ constexpr std::size_t rank_slot_bytes() {
  return align_up(sizeof(rank_record<Accum, Key>), 256);
}

//! The name of `Parts` as the host compiler spells it in a function's signature (no RTTI needed).
template <class... Parts>
constexpr std::string_view signature_text() {
#if defined(_MSC_VER)
  return __FUNCSIG__;
#else
  return __PRETTY_FUNCTION__;
#endif
}

//! A hash of what every rank of one call must agree on: the form, the accumulator, operator, key and
//! predicate types (`Parts`). FNV-1a over the types' names: equal in every process of one program,
//! and of programs built with the same compiler.
template <class... Parts>
std::uint64_t rank_signature() {
  // Hashed once per instantiation: the text runs to hundreds of characters, and every call of a scan
  // across ranks needs the hash.
  static const std::uint64_t hash = [] {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : signature_text<Parts...>()) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return h;
  }();
  return hash;
}

//! Rank `rank`'s seed: `seed` (its own, possibly absent) folded with the totals of the non-empty ranks
//! below it, in rank order; `boundary` joins by-key runs across ranks. `slots` holds `ranks` records of
//! `rank_slot_bytes<Accum, Key>()` bytes each.
template <class Accum, class Key, class Op, class Boundary>
__host__ __device__ maybe<Accum> fold_lower_ranks(const unsigned char* slots, int rank, maybe<Accum> seed, Op op,
                                                  const Boundary& boundary) {
  using record                = rank_record<Accum, Key>;
  constexpr std::size_t bytes = rank_slot_bytes<Accum, Key>();
  constexpr int capacity      = rank_record_capacity<Accum, Key>();
  const auto at = [&](int r) { return reinterpret_cast<const record*>(slots + static_cast<std::size_t>(r) * bytes); };
  const record* previous = nullptr;  // the last non-empty rank folded in
  for (int r = 0; r < rank; ++r) {
    const record* rec = at(r);
    if (rec->header.n <= 0) continue;
    if (previous != nullptr) boundary(seed.value, previous->last_key, rec->first_key);
    const int count = rec->header.totals;
    // Unrolled with a predicate rather than a loop to `count`: the loads are independent and issue
    // together, so a tile pays one memory latency per rank, not one per total. (Host compilers do not
    // know the pragma; the host tests run the same loop rolled.)
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < capacity; ++i) {
      if (i < count) {
        seed = seed.valid ? maybe<Accum>{static_cast<Accum>(op(seed.value, rec->totals[i])), 1}
                          : maybe<Accum>{rec->totals[i], 1};
      }
    }
    previous = rec;
  }
  if (previous != nullptr && at(rank)->header.n > 0) boundary(seed.value, previous->last_key, at(rank)->first_key);
  return seed;
}

//! A scan problem's seed source (detail/problem.cuh) for a scan across ranks: the rank's seed folded
//! from the gathered slots wherever a tile asks for it (fold_lower_ranks). `own_seed` says whether the
//! problem's own seed (an exclusive scan's init, entering before rank 0) is present.
template <class Accum, class Key, class Op, class Boundary>
struct gathered_seed {
  const unsigned char* d_slots;
  int rank;
  int own_seed;
  Op op;
  Boundary boundary;
  __device__ __forceinline__ maybe<Accum> operator()(const Accum& seed) const {
    Op fold = op;  // a copy: the operator's call need not be const
    return fold_lower_ranks<Accum, Key>(d_slots, rank, maybe<Accum>{seed, own_seed}, fold, boundary);
  }
};

//! The rank (if any) whose record's signature differs from `signature`, else -1. `slots` as above.
template <class Accum, class Key>
int rank_disagreeing(const unsigned char* slots, int ranks, std::uint64_t signature) {
  for (int r = 0; r < ranks; ++r) {
    const auto* rec = reinterpret_cast<const rank_record<Accum, Key>*>(slots + static_cast<std::size_t>(r) *
                                                                                   rank_slot_bytes<Accum, Key>());
    if (rec->header.signature != signature) return r;
  }
  return -1;
}

}  // namespace archscan::detail
