// native's bits for operators declared exactly associative: the host's on every route, and the
// declaration read by the waves alone.

#include "thrust/determinism_paths.cuh"

namespace {

using namespace archscan::test;

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
