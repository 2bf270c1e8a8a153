// The kepler family under every tuning of perf/ablations_kepler.cuh (each ablation must stay correct):
// many tiles with both tile shapes, partial last tiles, in-place scans, a seed on inclusive scans,
// a non-commutative 12-byte accumulator read through a transform iterator, and by-key scans.

#include <cstdint>
#include <vector>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/archscan.cuh>

#include "../../perf/ablations_kepler.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using archscan::test::device_buffer;

template <class T>
struct tuple_to_types;
template <class... T>
struct tuple_to_types<std::tuple<T...>> {
  using type = ::testing::Types<T...>;
};

// Sizes that hit one tile, both tile shapes, partial tiles and hundreds of tiles (8192-item int32 tiles,
// 4096-item 8-byte tiles; the largest sizes queue more tiles than one resident wave: look-back delay on).
const std::vector<std::int64_t> sizes = {1, 31, 4096, 4097, 100'003, 3 * 4096 * 132 * 4 + 77, (1 << 23) + 5};

std::uint32_t mix(std::uint64_t i) {
  i = (i ^ (i >> 31)) * 0x9E3779B97F4A7C15ull;
  return static_cast<std::uint32_t>(i >> 29);
}

// Affine maps x -> a*x + b (mod 2^32) under composition, plus a count: associative, not commutative.
struct affine {
  std::uint32_t a, b, count;
};
struct compose {
  __host__ __device__ affine operator()(const affine& f, const affine& g) const {  // f first, then g
    return {g.a * f.a, g.a * f.b + g.b, f.count + g.count};
  }
};
struct make_affine {
  __host__ __device__ affine operator()(std::int64_t i) const {
    const auto u = static_cast<std::uint32_t>(i * 2654435761u);
    return {(u | 1u) & 0xffu, u >> 7, 1u};
  }
};

template <class Tuning>
class KeplerScanTest : public ::testing::Test {};
TYPED_TEST_SUITE(KeplerScanTest, tuple_to_types<archscan::perf::kepler_ablations>::type);

TYPED_TEST(KeplerScanTest, ExclusiveSumsInt32AndDoubleInPlace) {
  ARCHSCAN_REQUIRE_GPU();
  const archscan::policy<TypeParam> policy{};
  for (const std::int64_t n : sizes) {
    std::vector<int> hi(n);
    std::vector<double> hd(n);
    for (std::int64_t i = 0; i < n; ++i) {
      hi[i] = static_cast<int>(mix(i) % 1000) - 500;
      hd[i] = static_cast<double>(mix(i) % 64);  // small integers: exact in any order
    }
    device_buffer<int> di(hi);
    device_buffer<double> dd(hd);
    thrust::exclusive_scan(policy, di.begin(), di.end(), di.begin(), 7);  // in place
    thrust::exclusive_scan(policy, dd.begin(), dd.end(), dd.begin(), 0.5);
    const auto ri = di.to_host();
    const auto rd = dd.to_host();
    int si        = 7;
    double sd     = 0.5;
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(ri[i], si) << "int32, n = " << n << ", i = " << i;
      ASSERT_EQ(rd[i], sd) << "double, n = " << n << ", i = " << i;
      si += hi[i];
      sd += hd[i];
    }
  }
}

TYPED_TEST(KeplerScanTest, InclusiveInt64WithSeedAndInt8Input) {
  ARCHSCAN_REQUIRE_GPU();
  const archscan::policy<TypeParam> policy{};
  for (const std::int64_t n : sizes) {
    std::vector<signed char> h(n);
    for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<signed char>(mix(i) % 200 - 100);
    device_buffer<signed char> in(h);
    device_buffer<std::int64_t> out(n);
    out.poison();
    const std::int64_t seed = std::int64_t{1} << 40;
    thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), seed, thrust::plus<std::int64_t>{});
    const auto r   = out.to_host();
    std::int64_t s = seed;
    for (std::int64_t i = 0; i < n; ++i) {
      s += h[i];
      ASSERT_EQ(r[i], s) << "n = " << n << ", i = " << i;
    }
  }
}

TYPED_TEST(KeplerScanTest, NonCommutativeTwelveByteAccumulatorFromAnIterator) {
  ARCHSCAN_REQUIRE_GPU();
  const archscan::policy<TypeParam> policy{};
  for (const std::int64_t n : sizes) {
    auto first = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), make_affine{});
    device_buffer<affine> incl(n), excl(n);
    incl.poison();
    excl.poison();
    thrust::inclusive_scan(policy, first, first + n, incl.begin(), compose{});
    const affine init{3u, 5u, 0u};
    thrust::exclusive_scan(policy, first, first + n, excl.begin(), init, compose{});
    const auto ri = incl.to_host();
    const auto re = excl.to_host();
    affine acc{1u, 0u, 0u};  // identity (host reference only)
    affine acc_seeded = init;
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(re[i].a, acc_seeded.a) << "exclusive, n = " << n << ", i = " << i;
      ASSERT_EQ(re[i].b, acc_seeded.b) << "exclusive, n = " << n << ", i = " << i;
      ASSERT_EQ(re[i].count, acc_seeded.count) << "exclusive, n = " << n << ", i = " << i;
      const affine x = make_affine{}(i);
      acc            = compose{}(acc, x);
      acc_seeded     = compose{}(acc_seeded, x);
      ASSERT_EQ(ri[i].a, acc.a) << "inclusive, n = " << n << ", i = " << i;
      ASSERT_EQ(ri[i].b, acc.b) << "inclusive, n = " << n << ", i = " << i;
      ASSERT_EQ(ri[i].count, i + 1) << "inclusive, n = " << n << ", i = " << i;
    }
  }
}

TYPED_TEST(KeplerScanTest, ExclusiveByKey) {
  ARCHSCAN_REQUIRE_GPU();
  const archscan::policy<TypeParam> policy{};
  for (const std::int64_t n : sizes) {
    std::vector<int> keys(n), vals(n);
    for (std::int64_t i = 0; i < n; ++i) {
      keys[i] = static_cast<int>(i / (1 + mix(i / 1000) % 3000));  // runs of varying length
      vals[i] = static_cast<int>(mix(i) % 10);
    }
    device_buffer<int> dk(keys), dv(vals), out(n);
    out.poison();
    thrust::exclusive_scan_by_key(policy, dk.begin(), dk.end(), dv.begin(), out.begin(), 100);
    const auto r = out.to_host();
    int s        = 100;
    for (std::int64_t i = 0; i < n; ++i) {
      if (i > 0 && keys[i] != keys[i - 1]) s = 100;
      ASSERT_EQ(r[i], s) << "n = " << n << ", i = " << i;
      s += vals[i];
    }
  }
}

}  // namespace
