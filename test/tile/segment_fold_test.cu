// tile/segment_fold.cuh: the segmented association's fold of every tile's aggregate
// (`exclusive_prefix_of`, the fold a wave and a cluster take, which the look-back's must equal:
// thrust/determinism_test.cu) against a host model of the documented association, bit for bit, with
// an operator that rounds, so that another association of the same operands would show.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/segment_fold.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace segment_fold_test {

using archscan::test::device_buffer;

//! x -> a x + b on doubles, composed first map first: 16 bytes, not commutative, and rounded, so
//! another association of the same maps changes the bits. One multiplication and one fused
//! multiply-add, each rounded once, on the host as on the device (an unfused b * a + b the device
//! would contract and the host would not).
struct affine16 {
  double a, b;
};
struct affine16_then {
  __host__ __device__ affine16 operator()(const affine16& f, const affine16& g) const {
    return {f.a * g.a, fma(f.b, g.a, g.b)};
  }
};
//! Block b, one warp, writes tile b + 1's exclusive prefix over `d_aggregates` as `Walk` folds it
//! for a wave or a cluster.
template <class Walk>
__global__ void segment_prefixes(const affine16* d_aggregates, affine16 seed, int seeded, affine16* d_prefixes) {
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) + 1;
  const auto aggregate    = [d_aggregates](std::int64_t i) { return d_aggregates[i]; };
  const archscan::detail::maybe<affine16> prefix =
      Walk::exclusive_prefix_of(aggregate, tile, archscan::detail::maybe<affine16>{seed, seeded}, affine16_then{});
  if (threadIdx.x == 0) d_prefixes[tile] = prefix.value;
}

//! The host's model of the documented association (tile/lookback.cuh): a segment's part left to
//! right, the segments' parts chained left to right onto the seed.
affine16 host_part(const std::vector<affine16>& a, std::int64_t first, int count) {
  affine16 acc = a[static_cast<std::size_t>(first)];
  for (int i = 1; i < count; ++i) acc = affine16_then{}(acc, a[static_cast<std::size_t>(first + i)]);
  return acc;
}
//! A model that is not it, to show that the test tells associations apart: each segment's part as
//! pairs, pairs of pairs (lane count - 1 of a warp's Kogge-Stone scan).
affine16 host_tree_part(const std::vector<affine16>& a, std::int64_t first, int count) {
  std::vector<affine16> x(a.begin() + first, a.begin() + first + count);
  for (int d = 1; d < 32; d *= 2) {
    std::vector<affine16> y = x;
    for (int i = d; i < count; ++i) y[i] = affine16_then{}(x[i - d], x[i]);
    x = y;
  }
  return x[count - 1];
}
affine16 host_prefix(const std::vector<affine16>& a, std::int64_t tile, const affine16* seed, bool tree) {
  const std::int64_t s = tile / 32;
  const int j          = static_cast<int>(tile % 32);
  bool have            = seed != nullptr;
  affine16 acc         = have ? *seed : affine16{};
  const auto add       = [&](const affine16& part) {
    acc  = have ? affine16_then{}(acc, part) : part;
    have = true;
  };
  const auto part = [&](std::int64_t first, int count) {
    return tree ? host_tree_part(a, first, count) : host_part(a, first, count);
  };
  for (std::int64_t k = 0; k < s; ++k) add(part(k * 32, 32));
  if (j > 0) add(part(s * 32, j));
  return acc;
}

//! Every tile's prefix over 1100 tiles (34 segments and a partial one: past 32 segments the fold
//! takes another code path), with and without a seed, as native's walk folds a wave's or a
//! cluster's aggregates: the host model's bits, and not those of another association of the same
//! operands (affine16_then rounds, so the test can tell them apart).
TEST(SegmentFold, AssociationAsDocumented) {
  ARCHSCAN_REQUIRE_GPU();
  using walk                   = archscan::tile::segment_fold<affine16>;
  constexpr std::int64_t tiles = 1100;
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> scale(0.5, 1.0), shift(-1.0, 1.0);
  std::vector<affine16> a(tiles);
  for (auto& m : a) m = {scale(rng), shift(rng)};
  const affine16 seed{1.0, 0.25};
  device_buffer<affine16> d_a(a), d_prefixes(tiles);
  for (const bool seeded : {false, true}) {
    d_prefixes.poison();
    segment_prefixes<walk><<<tiles - 1, 32>>>(d_a.get(), seed, seeded ? 1 : 0, d_prefixes.get());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto got      = d_prefixes.to_host();
    std::int64_t differ = 0;
    for (std::int64_t t = 1; t < tiles; ++t) {
      const affine16 want  = host_prefix(a, t, seeded ? &seed : nullptr, false);
      const affine16 other = host_prefix(a, t, seeded ? &seed : nullptr, true);
      ASSERT_EQ(std::memcmp(&got[t], &want, sizeof(affine16)), 0) << "tile " << t << ", seeded " << seeded;
      differ += std::memcmp(&want, &other, sizeof(affine16)) != 0;
    }
    EXPECT_GT(differ, tiles / 2) << "another association should round otherwise, seeded " << seeded;
  }
}

}  // namespace segment_fold_test
