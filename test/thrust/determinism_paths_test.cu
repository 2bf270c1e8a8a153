// native's bits whatever path a tile's items take (test/thrust/determinism_test.cu says what the policies
// promise): the staged look-back against the plain one; 16-byte vectors, packed or not, off alignment
// or item by item; by key, in a cluster, a wave or the look-back; operators declared exact.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/same_bits.cuh"

namespace {

using namespace archscan::test;

//! A non-associative, non-commutative operator on narrow integers (wrapping): any change in the
//! association or the order of operands changes the bits.
struct affine_mix {
  template <class T>
  __host__ __device__ T operator()(T a, T b) const {
    return static_cast<T>(a * 3 + b);
  }
};

//! The staged look-back (tuning/shape.cuh, example_staged_row: persistent blocks, two tiles each in shared
//! memory) loads, folds and walks as the ordinary one: the same bits, float sums and a float operator
//! that neither associates nor commutes (any other association or operand order changes the bits),
//! out of place and in place; and packed int16 and int8 tiles (a stage read a vector at a time, each
//! vector's items folded, then the vectors' totals) under sums and an operator that neither associates
//! nor commutes; and doubles (row_8's full tiles, below its large ones) as floats. Here staged from
//! every size on every device; floats take row_4.
using native_staged_everywhere = staged_from<native_lookback_only, 0>;
using native_never_staged      = never_staged<native_lookback_only>;
struct damped_then_add {  // a before b
  template <class T>
  __host__ __device__ T operator()(T a, T b) const {
    return static_cast<T>(0.75) * a + b;
  }
};

//! Inclusive (in place too) and exclusive scans of narrow `items`, staged and not, under affine_mix and
//! sums: the same bits.
template <class T>
void expect_same_staged_bits(const std::vector<T>& items, T init) {
  const std::int64_t n = static_cast<std::int64_t>(items.size());
  const archscan::policy<native_staged_everywhere> staged{};
  const archscan::policy<native_never_staged> plain{};
  device_buffer<T> in(items), a(n), b(items);
  ASSERT_TRUE(plan_of<native_staged_everywhere>(in.get(), a.get(), n).staged) << sizeof(T) << " bytes, n=" << n;
  ASSERT_FALSE(plan_of<native_never_staged>(in.get(), a.get(), n).staged) << sizeof(T) << " bytes, n=" << n;
  a.poison();
  thrust::inclusive_scan(plain, in.begin(), in.end(), a.begin(), affine_mix{});
  thrust::inclusive_scan(staged, b.begin(), b.end(), b.begin(), affine_mix{});  // in place
  EXPECT_EQ(bytes_of(a.to_host()), bytes_of(b.to_host())) << "3 a + b, in place, " << sizeof(T) << " bytes, n=" << n;
  a.poison();
  b.poison();
  thrust::exclusive_scan(plain, in.begin(), in.end(), a.begin(), init, affine_mix{});
  thrust::exclusive_scan(staged, in.begin(), in.end(), b.begin(), init, affine_mix{});
  EXPECT_EQ(bytes_of(a.to_host()), bytes_of(b.to_host())) << "3 a + b, exclusive, " << sizeof(T) << " bytes, n=" << n;
  a.poison();
  b.poison();
  thrust::inclusive_scan(plain, in.begin(), in.end(), a.begin(), ::cuda::std::plus<T>{});
  thrust::inclusive_scan(staged, in.begin(), in.end(), b.begin(), ::cuda::std::plus<T>{});
  EXPECT_EQ(bytes_of(a.to_host()), bytes_of(b.to_host())) << "sums, " << sizeof(T) << " bytes, n=" << n;
}

//! Inclusive (in place) and exclusive scans of random `T` (float, double) under 0.75 a + b, staged and
//! not: the same bits.
template <class T>
void expect_same_staged_rounding_bits(std::int64_t n, std::uint64_t seed, T init) {
  const auto v = random_values<T>(n, seed);
  device_buffer<T> in(v), a(n), b(v);
  ASSERT_TRUE(plan_of<native_staged_everywhere>(in.get(), a.get(), n).staged) << sizeof(T) << " bytes, n=" << n;
  ASSERT_FALSE(plan_of<native_never_staged>(in.get(), a.get(), n).staged) << sizeof(T) << " bytes, n=" << n;
  a.poison();
  thrust::inclusive_scan(archscan::policy<native_never_staged>{}, in.begin(), in.end(), a.begin(), damped_then_add{});
  thrust::inclusive_scan(archscan::policy<native_staged_everywhere>{}, b.begin(), b.end(), b.begin(),
                         damped_then_add{});  // in place
  EXPECT_EQ(bytes_of(a.to_host()), bytes_of(b.to_host())) << "0.75 a + b, in place, " << sizeof(T) << " bytes, n=" << n;
  a.poison();
  b.poison();
  thrust::exclusive_scan(archscan::policy<native_never_staged>{}, in.begin(), in.end(), a.begin(), init,
                         damped_then_add{});
  thrust::exclusive_scan(archscan::policy<native_staged_everywhere>{}, in.begin(), in.end(), b.begin(), init,
                         damped_then_add{});
  EXPECT_EQ(bytes_of(a.to_host()), bytes_of(b.to_host()))
      << "0.75 a + b, exclusive, " << sizeof(T) << " bytes, n=" << n;
}

TEST(NativeDeterminism, StagedAndPlainLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  // 1025 and 2049 float tiles (more than a GPU holds at once), 700 full ones, 1200 with a partial last.
  for (const std::int64_t n : {(std::int64_t{1} << 23) + 7, (std::int64_t{1} << 24) + 3, std::int64_t{8192} * 700,
                               std::int64_t{8192} * 1200 - 5}) {
    expect_same_bits<native_staged_everywhere, native_never_staged>(n, 63);
    expect_same_staged_rounding_bits(n, 64, 0.25f);
  }
  // Packed tiles of 16384 items: 1025 (a partial last) and 1200 (full) of them.
  for (const std::int64_t n : {std::int64_t{16384} * 1024 + 7, std::int64_t{16384} * 1200}) {
    expect_same_staged_bits(random_values<std::int16_t>(n, 65), std::int16_t{7});
    expect_same_staged_bits(random_values<std::int8_t>(n, 66), std::int8_t{7});
  }
  // Doubles in row_8's 4096-item tiles, below its large ones: 1025 (a partial last) and 1200 (full).
  for (const std::int64_t n : {std::int64_t{4096} * 1024 + 7, std::int64_t{4096} * 1200}) {
    expect_same_staged_rounding_bits(n, 67, 0.5);
  }
}

struct native_per_item : archscan::native_tuning {  // no vectors: items loaded one by one, one a register
  static constexpr bool vector_access = false;
};

//! `n` values of T at a byte offset of alignof(T) (1, 2 or 4) from a 16-byte boundary: never whole
//! vectors in memory.
template <class T>
struct misaligned {
  device_buffer<unsigned char> raw;
  T* first;
  explicit misaligned(std::int64_t n)
      : raw(static_cast<std::int64_t>((n + 1) * sizeof(T) + 16)),
        first(reinterpret_cast<T*>(raw.begin() + alignof(T))) {}
  void fill(const std::vector<T>& h) {
    check(cudaMemcpy(first, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (misaligned)");
  }
  std::vector<T> to_host(std::int64_t n) const {
    std::vector<T> h(static_cast<std::size_t>(n));
    check(cudaMemcpy(h.data(), first, h.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy (misaligned)");
    return h;
  }
};

//! Inclusive and exclusive (seeded with `init`) scans of `items` under `op` with native through
//! 16-byte vectors (one- and two-byte items packed), with the input and the output off 16-byte
//! alignment (packed one value at a time, or per item), with one of them aligned and the other not,
//! and with a tuning without vectors: the same bits. `exact`: `op` is associative, so the host's
//! left fold gives those bits too.
template <class T, class Op>
void expect_same_bits_on_every_path(const std::vector<T>& items, Op op, T init, bool exact) {
  const std::int64_t n = static_cast<std::int64_t>(items.size());
  device_buffer<T> in(items), out(n), out_per_item(n), out_aligned(n);
  misaligned<T> in_off(n), out_off(n), out_mixed(n);
  in_off.fill(items);
  for (const bool exclusive : {false, true}) {
    const auto run = [&](auto policy, const T* first, T* result) {
      if (exclusive) {
        thrust::exclusive_scan(policy, first, first + n, result, init, op);
      } else {
        thrust::inclusive_scan(policy, first, first + n, result, op);
      }
    };
    out.poison();
    out_off.raw.poison();
    out_mixed.raw.poison();
    out_per_item.poison();
    out_aligned.poison();
    run(archscan::native, in.begin(), out.begin());
    run(archscan::native, in_off.first, out_off.first);
    run(archscan::native, in.begin(), out_mixed.first);
    run(archscan::native, in_off.first, out_aligned.begin());
    run(archscan::policy<native_per_item>{}, in.begin(), out_per_item.begin());
    const auto vectors = out.to_host();
    const char* what   = exclusive ? "exclusive" : "inclusive";
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_off.to_host(n))) << what << ", off 16-byte alignment, n=" << n;
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_mixed.to_host(n))) << what << ", output off alignment, n=" << n;
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_aligned.to_host())) << what << ", input off alignment, n=" << n;
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_per_item.to_host())) << what << ", per item, n=" << n;
    if (!exact) continue;
    T running = init;
    for (std::int64_t i = 0; i < n; ++i) {
      if (!exclusive) running = i == 0 ? items[0] : static_cast<T>(op(running, items[i]));
      ASSERT_TRUE(vectors[i] == running) << what << ", n=" << n << ", i=" << i;
      if (exclusive) running = static_cast<T>(op(running, items[i]));
    }
  }
}

TEST(NativeDeterminism, VectorsPackedOrNotGiveTheSameBitsAsItemByItem) {
  ARCHSCAN_REQUIRE_GPU();
  // One partial tile, a wave of a few tiles, and look-backs over many tiles (16384 items for one-
  // and two-byte items, 3072 for the 16-byte matrices).
  for (const std::int64_t n : {std::int64_t{5000}, std::int64_t{3} * 16384 + 5, std::int64_t{300} * 16384 + 7}) {
    const auto i8  = random_values<std::int8_t>(n, 61);
    const auto u8  = random_values<std::uint8_t>(n, 62);
    const auto i16 = random_values<std::int16_t>(n, 63);
    expect_same_bits_on_every_path(i8, affine_mix{}, std::int8_t{7}, false);
    expect_same_bits_on_every_path(i8, ::cuda::std::plus<std::int8_t>{}, std::int8_t{7}, true);
    expect_same_bits_on_every_path(u8, affine_mix{}, std::uint8_t{7}, false);
    expect_same_bits_on_every_path(i16, affine_mix{}, std::int16_t{7}, false);
    expect_same_bits_on_every_path(i16, ::cuda::std::plus<std::int16_t>{}, std::int16_t{7}, true);
    expect_same_bits_on_every_path(random_values<mat2>(n, 64), mat2_mul{}, mat2{1, 2, 0, 1}, true);
  }
}

//! By-key scans of `values` (inclusive, and exclusive seeded with `init`) under `op` with native on
//! every path a by-key tile takes: keys and values as 16-byte vectors; item by item, with the keys
//! or the values off 16-byte alignment, or with a tuning without vectors; and over the look-back
//! instead of a wave, on the segment states and on the chain of prefixes (whose by-key walks start
//! their folds at different places). The same bits from each. `exact`: `op` is associative, so the
//! host's left fold per segment gives those bits too.
template <class V, class Op>
void expect_same_bits_by_key(const std::vector<V>& values, Op op, V init, bool exact, const std::vector<int>& hkeys) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  device_buffer<int> keys(hkeys);
  device_buffer<V> in(values), out(n), out_keys_off(n), out_values_off(n), out_per_item(n), out_lookback(n),
      out_chain(n);
  misaligned<int> keys_off(n);
  misaligned<V> in_off(n);
  keys_off.fill(hkeys);
  in_off.fill(values);
  for (const bool exclusive : {false, true}) {
    const auto run = [&](auto policy, const int* k, const V* v, V* result) {
      if (exclusive) {
        thrust::exclusive_scan_by_key(policy, k, k + n, v, result, init, thrust::equal_to<int>{}, op);
      } else {
        thrust::inclusive_scan_by_key(policy, k, k + n, v, result, thrust::equal_to<int>{}, op);
      }
    };
    for (auto* b : {&out, &out_keys_off, &out_values_off, &out_per_item, &out_lookback, &out_chain}) b->poison();
    run(archscan::native, keys.begin(), in.begin(), out.begin());
    run(archscan::native, keys_off.first, in.begin(), out_keys_off.begin());
    run(archscan::native, keys.begin(), in_off.first, out_values_off.begin());
    run(archscan::policy<native_per_item>{}, keys.begin(), in.begin(), out_per_item.begin());
    run(archscan::policy<native_lookback_only>{}, keys.begin(), in.begin(), out_lookback.begin());
    run(archscan::policy<on_prefix_chain<native_lookback_only>>{}, keys.begin(), in.begin(), out_chain.begin());
    const auto vectors = bytes_of(out.to_host());
    const char* what   = exclusive ? "exclusive" : "inclusive";
    EXPECT_EQ(vectors, bytes_of(out_keys_off.to_host())) << what << ", keys off 16-byte alignment, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_values_off.to_host())) << what << ", values off 16-byte alignment, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_per_item.to_host())) << what << ", per item, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_lookback.to_host())) << what << ", look-back instead of a wave, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_chain.to_host())) << what << ", the chain of prefixes, n=" << n;
    if (exact) {
      EXPECT_EQ(vectors, bytes_of(host_scan_by_key(hkeys, values, op, thrust::equal_to<int>{}, exclusive, init)))
          << what << ", against the host, n=" << n;
    }
  }
}

TEST(NativeDeterminism, ByKeyVectorsOrItemByItemWaveOrLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  // One partial tile, one cluster of 11 small (1024-item) tiles (a wave where clusters are not),
  // 11 full (4096-item) tiles in one cluster (values of up to 4 bytes: full_tiles_max) or a wave of
  // 41 small ones (doubles), a wave of 132 small tiles, a wave of a few full tiles, and a look-back
  // over many.
  for (const std::int64_t n :
       {std::int64_t{1000}, std::int64_t{10} * 1024 + 5, std::int64_t{40} * 1024 + 3, std::int64_t{132} * 1024 - 1,
        std::int64_t{200} * 4096 + 5, std::int64_t{3000} * 4096 + 7}) {
    const auto keys = random_key_runs(n, static_cast<std::uint64_t>(n) + 91);
    expect_same_bits_by_key(random_values<float>(n, 71), ::cuda::std::plus<float>{}, 0.25f, false, keys);
    expect_same_bits_by_key(random_values<double>(n, 72), ::cuda::std::plus<double>{}, 0.5, false, keys);
    expect_same_bits_by_key(random_values<std::int16_t>(n, 73), affine_mix{}, std::int16_t{7}, false, keys);
    expect_same_bits_by_key(random_values<std::int16_t>(n, 74), ::cuda::std::plus<std::int16_t>{}, std::int16_t{7},
                            true, keys);
  }
}

//! Keys in runs longer than `span` items: a new key about every 1.5 spans, and at every third
//! multiple of `span` (with a span of a tile or a segment of tiles, the one before ends closing its
//! run).
std::vector<int> long_key_runs(std::int64_t n, std::int64_t span, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> keys(static_cast<std::size_t>(n));
  int key = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if ((i % span == 0 && i / span % 3 == 0) || rng() % static_cast<std::uint64_t>(span * 3 / 2) == 0) ++key;
    keys[static_cast<std::size_t>(i)] = key;
  }
  return keys;
}

//! Tile aggregates that do not restart, or whose segment starts only because the tile before ends
//! one: the look-back's by-key folds start at the last segment start (tile/segment_fold.cuh, fold_lanes
//! over a segment's tiles, and the segment states' walk over segment ends), the wave's fold of the
//! same tiles lane by lane. Floating-point sums: the same bits only if both fold exactly the same
//! operands in the same order.
TEST(NativeDeterminism, ByKeyRunsLongerThanTilesGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t tile = 4096, segment = 32 * tile;
  // 11 full (4096-item) tiles in one cluster (doubles: a wave of 41 small, 1024-item tiles), a wave
  // of 132 small tiles, and one of 201 full tiles: 1, 5 and 6 segments; then 94 segments, so that
  // the walk over segment ends starts past the seed, with runs longer than a tile and runs longer
  // than a segment (segments that do not restart, or start only because the one before closes).
  const struct {
    std::int64_t n, span;
  } cases[] = {{40 * 1024 + 3, tile},
               {132 * 1024 - 1, tile},
               {200 * tile + 5, tile},
               {3000 * tile + 7, tile},
               {3000 * tile + 7, segment}};
  for (const auto c : cases) {
    const auto keys = long_key_runs(c.n, c.span, static_cast<std::uint64_t>(c.n + c.span) + 93);
    expect_same_bits_by_key(random_values<float>(c.n, 75), ::cuda::std::plus<float>{}, 0.25f, false, keys);
    expect_same_bits_by_key(random_values<double>(c.n, 76), ::cuda::std::plus<double>{}, 0.5, false, keys);
    expect_same_bits_by_key(random_values<std::int16_t>(c.n, 77), affine_mix{}, std::int16_t{7}, false, keys);
    // Exact against the host: past one wave every route above takes the same look-back.
    expect_same_bits_by_key(random_values<std::int16_t>(c.n, 78), ::cuda::std::plus<std::int16_t>{}, std::int16_t{7},
                            true, keys);
  }
}

//! The tests' matrix product (mod 2^32: it never rounds) under a name of its own, declared exactly
//! associative (associativity.cuh), so that native's waves may fold it as a tree.
struct declared_mat2_mul : mat2_mul {};
//! affine_mix, which does not associate, declared exact all the same: a false declaration, to make
//! visible which folds read it (an ordered fold and a tree then give different bits).
struct declared_affine_mix : affine_mix {};

}  // namespace

template <>
struct archscan::exactly_associative<declared_mat2_mul, archscan::test::mat2> : std::true_type {};
template <>
struct archscan::exactly_associative<declared_affine_mix, std::uint32_t> : std::true_type {};

namespace {

//! A declared operator's results on every route (one cluster, a wave folded as a tree, the
//! look-back in order; by key too) are the host's left fold, bit for bit.
TEST(NativeDeterminism, DeclaredExactOperatorGivesTheHostsBitsOnEveryRoute) {
  ARCHSCAN_REQUIRE_GPU();
  static_assert(archscan::exactly_associative_v<declared_mat2_mul, mat2>);
  const mat2 identity{1, 0, 0, 1};
  // One cluster of 16-byte tiles (a wave without clusters), waves over one and over several
  // segments of 32 tiles, and a look-back. This alone would pass were the declaration ignored (the
  // ordered fold gives the same bits): DeclarationReachesTheWaveAlone shows that it is not.
  // 2^20 + 5 items: 513 tiles, a wave native folds in order (its tree's runs would pass the tuning's limit)
  // where the device holds them all.
  for (const std::int64_t n : {std::int64_t{16} * 1024 + 3, std::int64_t{132} * 1024 - 1, (std::int64_t{1} << 18) + 5,
                               (std::int64_t{1} << 20) + 5, std::int64_t{3000} * 1024 + 7}) {
    const auto items     = random_values<mat2>(n, static_cast<std::uint64_t>(n) + 101);
    const auto inclusive = host_scan(items, mat2_mul{}, false, false, identity);
    const auto exclusive = host_scan(items, mat2_mul{}, true, true, identity);
    device_buffer<mat2> in(items), out(n);
    const auto expect_host_bits = [&](auto policy, const char* route) {
      out.poison();
      thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), declared_mat2_mul{});
      EXPECT_EQ(bytes_of(out.to_host()), bytes_of(inclusive)) << "inclusive, " << route << ", n=" << n;
      out.poison();
      thrust::exclusive_scan(policy, in.begin(), in.end(), out.begin(), identity, declared_mat2_mul{});
      EXPECT_EQ(bytes_of(out.to_host()), bytes_of(exclusive)) << "exclusive, " << route << ", n=" << n;
    };
    expect_host_bits(archscan::native, "native");
    expect_host_bits(archscan::policy<native_no_cluster>{}, "no cluster");
    expect_host_bits(archscan::policy<native_lookback_only>{}, "look-back only");
    expect_host_bits(archscan::policy<native_short_tree_runs>{}, "every wave in order");
    const auto keys = random_key_runs(n, static_cast<std::uint64_t>(n) + 103);
    expect_same_bits_by_key(items, declared_mat2_mul{}, identity, true, keys);
  }
}

//! A transform for transform scans: its result (uint32) is what they accumulate.
struct flip_bits {
  __host__ __device__ std::uint32_t operator()(std::uint32_t x) const { return x ^ 0x5bd1e995u; }
};

//! A declaration changes the association of native's waves alone, at every entry point: declared
//! falsely for an operator that does not associate, a wave's bits differ from the undeclared
//! operator's, while the look-back's and a cluster's stay the same (they fold in order whatever the
//! operator). Assumes the wave's cooperative launch is granted (it is refused under MPS, say).
TEST(NativeDeterminism, DeclarationReachesTheWaveAlone) {
  ARCHSCAN_REQUIRE_GPU();
  struct mixed_items {
    device_buffer<std::uint32_t> in, out;
    device_buffer<int> keys;  // one run: every item folds
    mixed_items(std::int64_t count, std::uint64_t seed)
        : in(random_values<std::uint32_t>(count, seed)),
          out(count),
          keys(std::vector<int>(static_cast<std::size_t>(count), 1)) {}
  };
  const auto run = [](mixed_items& c, const char* entry, auto policy, auto op) {
    c.out.poison();
    if (entry[0] == 'i') {
      thrust::inclusive_scan(policy, c.in.begin(), c.in.end(), c.out.begin(), op);
    } else if (entry[0] == 'e') {
      thrust::exclusive_scan(policy, c.in.begin(), c.in.end(), c.out.begin(), std::uint32_t{7}, op);
    } else if (entry[0] == 't') {
      thrust::transform_inclusive_scan(policy, c.in.begin(), c.in.end(), c.out.begin(), flip_bits{}, op);
    } else {
      thrust::inclusive_scan_by_key(policy, c.keys.begin(), c.keys.end(), c.in.begin(), c.out.begin(),
                                    thrust::equal_to<int>{}, op);
    }
    return bytes_of(c.out.to_host());
  };
  const char* const entries[] = {"inclusive_scan", "exclusive_scan", "transform_inclusive_scan", "by_key"};
  // 8 small (4096-item) tiles of plain items: a wave without clusters, one cluster of portable size
  // on devices with them.
  mixed_items few(std::int64_t{7} * 4096 + 5, 105);
  for (const char* entry : entries) {
    const auto wave     = run(few, entry, archscan::policy<native_no_cluster>{}, affine_mix{});
    const auto lookback = run(few, entry, archscan::policy<native_lookback_only>{}, affine_mix{});
    EXPECT_EQ(wave, lookback) << entry << ", undeclared: the wave folds as the look-back does";
    const auto tree = run(few, entry, archscan::policy<native_no_cluster>{}, declared_affine_mix{});
    EXPECT_NE(tree, wave) << entry << ", declared: the wave folds as a tree";
    EXPECT_EQ(run(few, entry, archscan::policy<native_lookback_only>{}, declared_affine_mix{}), lookback)
        << entry << ", declared: the look-back keeps its order";
    // Past the tree's longest run (tuning/native.cuh, wave_tree_max_run_bytes) the dispatch
    // launches the wave that folds a declared operator in order; these 8 tiles keep the tree.
    EXPECT_EQ(run(few, entry, archscan::policy<native_short_tree_runs>{}, declared_affine_mix{}), tree)
        << entry << ", declared, 8 tiles: the tree";
  }
  // A cluster needs sm_90 on and code for it in the build (this suite builds it for its GPU).
  int device = 0, major = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  if (major >= 9) {
    EXPECT_EQ(run(few, "inclusive_scan", archscan::native, declared_affine_mix{}),
              run(few, "inclusive_scan", archscan::native, affine_mix{}))
        << "declared: one cluster keeps its order";
  }
  // 70 small tiles: runs of 3 aggregates, 12 bytes (by key 24), fold in order, the look-back's bits.
  mixed_items more(std::int64_t{69} * 4096 + 5, 107);
  for (const char* entry : entries) {
    const auto in_order = run(more, entry, archscan::policy<native_short_tree_runs>{}, declared_affine_mix{});
    EXPECT_EQ(in_order, run(more, entry, archscan::policy<native_lookback_only>{}, declared_affine_mix{}))
        << entry << ", declared, 70 tiles: in order, the look-back's bits";
    EXPECT_NE(in_order, run(more, entry, archscan::policy<native_no_cluster>{}, declared_affine_mix{}))
        << entry << ", declared, 70 tiles: native's tree";
  }
}

}  // namespace
