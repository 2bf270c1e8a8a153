// native's bits whatever path a tile's items take: the staged look-back against the plain one.

#include "thrust/determinism_paths.cuh"

namespace {

using namespace archscan::test;

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

}  // namespace
