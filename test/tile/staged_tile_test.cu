// tile/staged_tile.cuh: the staged look-back's tiles, persistent blocks of the row's workers and one
// look-back warp that keep two tiles in shared memory. Host: the staged block's threads and shared
// memory, which fit three blocks on an sm_90 SM. On the GPU, through the native dispatch with the
// staged look-back forced on (support/policies.cuh, staged_from): that it scans right, plain and packed,
// 4- and 8-byte items, exact operators past row_8's large tiles, more than 2^31 items; every size is
// checked to plan staged. When the plan takes the staged look-back: dispatch/native_staged_test.cu;
// its bits against the ordinary look-back's: thrust/determinism_staged_test.cu.

#include <cstdint>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <cuda/functional>
#include <cuda/std/functional>
#include <thrust/equal.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#include <archscan/archscan.cuh>
#include <archscan/tile/staged_tile.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace staged_tile_test {

using namespace archscan;
using namespace archscan::test;

//! native, its row_4, row_8 and packed rows staged from every look-back size on every device (row_8
//! past its large tiles for exact operators alone).
using staged_everywhere = staged_from<native_tuning, 0>;

//! The same, never a wave or a cluster: small problems take the staged look-back too.
using staged_lookback_only = staged_from<lookback_only<native_tuning>, 0>;

template <class T, class Op>
using problem  = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
using int_plus = ::cuda::std::plus<int>;
//! The tile of `Row` at `Items` a thread, staged: its block and shared memory.
template <class Row, class T, class Op, int Items>
using staged_for = tile::staged_tile<problem<T, Op>, tile_config<native_tuning, Row, Items>>;

// The staged block: the tile's workers and one look-back warp; its two stages and three blocks fit an
// sm_90 SM (227 KiB of shared memory), as the rows' staged_min_blocks_per_sm ask.
TEST(StagedTileShape, WorkersAndALookbackWarpThreeBlocksAnSm) {
  using row_4        = native_tuning::row_4;
  using int32_staged = staged_for<row_4, int, int_plus, row_4::items_per_thread>;
  static_assert(int32_staged::staged_threads == int32_staged::threads + 32);
  static_assert(int32_staged::staged_smem_bytes >= int32_staged::smem_bytes + int32_staged::stage_bytes);
  static_assert(3 * (int32_staged::staged_smem_bytes + 1024) <= 227 * 1024);
  using packed_2     = native_tuning::packed_rows::row_2;
  using int16_staged = staged_for<packed_2, std::int16_t, ::cuda::std::plus<std::int16_t>, packed_2::items_per_thread>;
  static_assert(int16_staged::staged_threads == int16_staged::threads + 32);
  static_assert(3 * (int16_staged::staged_smem_bytes + 1024) <= 227 * 1024);
  SUCCEED();
}

//! Staged scans of `T` under `Tuning` against the host: partial last tiles, exclusive with a seed, a
//! transform, in place. The tile and the blocks resident at once come from the plan. A block starts
//! with two tiles (one a stage) and takes a third into the stage it has stored from; at 5 tiles a
//! block every block refills each of its stages at least once, whatever the device's size; under
//! ARCHSCAN_TEST_SHORT (the sanitizers) that size alone. Besides: 7 and 2 tiles a block, and fewer
//! tiles than blocks where the device allows. Every size is checked to plan staged.
//! (Back-to-back staged calls: test/dispatch/native_launch_test.cu.)
template <class T, class Tuning>
void expect_staged_scans_right(std::uint64_t seed) {
  const policy<Tuning> staged{};
  const ::cuda::std::plus<T> plus{};  // of T: narrow items stay narrow (packed)
  const device_buffer<T> aligned(1);  // the plan reads the pointers' alignment alone
  const auto full                 = plan_of<Tuning>(aligned.get(), aligned.get(), std::int64_t{1} << 34).tiles;
  const std::int64_t tile         = full.tile_items;
  const std::int64_t blocks       = full.grid;
  std::vector<std::int64_t> sizes = {tile * blocks * 5 - 1};
  if (!short_run()) {
    // Fewer tiles than blocks (blocks that find no tile): half as many, or the fewest that stage where
    // the device holds fewer blocks than the row's small tiles reach (those never stage).
    std::int64_t few = blocks / 2;
    while (few < blocks * 5 && !plan_of<Tuning>(aligned.get(), aligned.get(), tile * few + 3).staged) {
      few += blocks / 8 + 1;
    }
    sizes.insert(sizes.end(), {tile * blocks * 7 - 5, tile * blocks * 2 + 3, tile * few + 3});
  }
  for (const std::int64_t n : sizes) {
    ASSERT_TRUE(plan_of<Tuning>(aligned.get(), aligned.get(), n).staged) << n << " items of " << sizeof(T) << " bytes";
    const auto h = random_values<T>(n, seed);
    device_buffer<T> in(h), out(n);
    out.poison();
    thrust::inclusive_scan(staged, in.begin(), in.end(), out.begin(), plus);
    expect_equal(out, host_scan(h, plus, false, false, T{0}), "inclusive", n);
    out.poison();
    thrust::exclusive_scan(staged, in.begin(), in.end(), out.begin(), T{7}, plus);
    expect_equal(out, host_scan(h, plus, true, true, T{7}), "exclusive, seed 7", n);
    out.poison();
    thrust::transform_inclusive_scan(staged, in.begin(), in.end(), out.begin(), ::cuda::std::negate<T>{}, plus);
    std::vector<T> negated(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) negated[i] = static_cast<T>(-h[i]);
    expect_equal(out, host_scan(negated, plus, false, false, T{0}), "transform", n);
    thrust::inclusive_scan(staged, in.begin(), in.end(), in.begin(), plus);  // in place
    expect_equal(in, host_scan(h, plus, false, false, T{0}), "in place", n);
  }
}

TEST(NativeStaged, ScansRight) {
  ARCHSCAN_REQUIRE_GPU();
  expect_staged_scans_right<std::int32_t, staged_lookback_only>(90);
}

//! An operator that folds int64 exactly, declared so (associativity.cuh), and the same operator
//! undeclared.
struct declared_max {
  __host__ __device__ std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? b : a; }
};
struct undeclared_max {
  __host__ __device__ std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? b : a; }
};
}  // namespace staged_tile_test
template <>
struct archscan::exactly_associative<staged_tile_test::declared_max, std::int64_t> : std::true_type {};
namespace staged_tile_test {

//! Past row_8's large tiles, exact operators run staged on full tiles: libcu++'s maximum, xor and
//! wrapping product and a declared operator against the host, a partial last tile, with a seed, in
//! place. The same operator undeclared keeps the large tiles (and is checked too).
TEST(NativeStaged, ExactOperatorsPastTheLargeTilesScanRight) {
  ARCHSCAN_REQUIRE_GPU();
  const policy<staged_everywhere> staged{};
  const std::int64_t n = native_tuning::row_8::large_from_items + 4099;
  const auto h         = random_values<std::int64_t>(n, 95);
  device_buffer<std::int64_t> in(h), out(n);
  ASSERT_TRUE(plan_of<staged_everywhere>(in.get(), out.get(), n, ::cuda::maximum<std::int64_t>{}).staged);
  ASSERT_TRUE(plan_of<staged_everywhere>(in.get(), out.get(), n, declared_max{}).staged);
  ASSERT_FALSE(plan_of<staged_everywhere>(in.get(), out.get(), n, undeclared_max{}).staged);
  out.poison();
  thrust::inclusive_scan(staged, in.begin(), in.end(), out.begin(), ::cuda::maximum<std::int64_t>{});
  expect_equal(out, host_scan(h, ::cuda::maximum<std::int64_t>{}, false, false, std::int64_t{0}), "maximum", n);
  out.poison();
  thrust::exclusive_scan(staged, in.begin(), in.end(), out.begin(), std::int64_t{-3},
                         ::cuda::std::bit_xor<std::int64_t>{});
  expect_equal(out, host_scan(h, ::cuda::std::bit_xor<std::int64_t>{}, true, true, std::int64_t{-3}), "xor, seed -3",
               n);
  out.poison();
  thrust::inclusive_scan(staged, in.begin(), in.end(), out.begin(), declared_max{});
  expect_equal(out, host_scan(h, declared_max{}, false, false, std::int64_t{0}), "declared maximum", n);
  out.poison();
  thrust::inclusive_scan(staged, in.begin(), in.end(), out.begin(), undeclared_max{});
  expect_equal(out, host_scan(h, undeclared_max{}, false, false, std::int64_t{0}), "undeclared maximum", n);
  std::vector<std::uint64_t> u(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) u[i] = static_cast<std::uint64_t>(h[i]) | 1u;  // odd: never 0
  device_buffer<std::uint64_t> uin(u);
  thrust::inclusive_scan(staged, uin.begin(), uin.end(), uin.begin(),
                         ::cuda::std::multiplies<std::uint64_t>{});  // in place
  expect_equal(uin, host_scan(u, ::cuda::std::multiplies<std::uint64_t>{}, false, false, std::uint64_t{0}),
               "wrapping product, in place", n);
}

TEST(NativeStaged, EightByteScansRight) {
  ARCHSCAN_REQUIRE_GPU();
  expect_staged_scans_right<std::int64_t, staged_lookback_only>(93);  // below the large tiles (past them: 2^31)
  expect_staged_scans_right<std::uint64_t, staged_lookback_only>(94);
}

TEST(NativeStaged, PackedScansRight) {
  ARCHSCAN_REQUIRE_GPU();
  expect_staged_scans_right<std::int16_t, staged_lookback_only>(91);
  expect_staged_scans_right<std::int8_t, staged_lookback_only>(92);
}

//! Item i of the large tests: small, so that int32 sums of 2^31 of them stay exact.
struct small_item {
  __host__ __device__ std::int32_t operator()(std::int64_t i) const {
    return static_cast<std::int32_t>((i * 7) % 5) - 2;
  }
};

//! More than 2^31 items of T, staged under `Tuning` (64-bit tile offsets), against thrust::cuda::par on
//! the device, and the last item against the host's sum (wrapping to T).
template <class T, class Tuning>
void expect_staged_beyond_int32_indices() {
  const std::int64_t n   = (std::int64_t{1} << 31) + 4099;
  std::size_t free_bytes = 0, total = 0;
  ARCHSCAN_CUDA_OK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) * 3 * sizeof(T) + (1ull << 30)) {
    GTEST_SKIP() << "the test needs " << 3 * sizeof(T) * n / 1000000000 + 1 << " GB of device memory";
  }
  device_buffer<T> in(n), out(n), ref(n);
  ASSERT_TRUE(plan_of<Tuning>(in.get(), out.get(), n).staged) << sizeof(T) << " bytes";
  thrust::transform(thrust::cuda::par, thrust::counting_iterator<std::int64_t>(0),
                    thrust::counting_iterator<std::int64_t>(n), in.get(), small_item{});
  out.poison();
  const ::cuda::std::plus<T> plus{};
  thrust::exclusive_scan(policy<Tuning>{}, in.begin(), in.end(), out.begin(), T{5}, plus);
  thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), ref.begin(), T{5}, plus);
  EXPECT_TRUE(thrust::equal(thrust::cuda::par, out.begin(), out.end(), ref.begin()))
      << "staged native and thrust::cuda::par differ somewhere in 2^31 + 4099 items of " << sizeof(T) << " bytes";
  T last{};
  ARCHSCAN_CUDA_OK(cudaMemcpy(&last, out.get() + n - 1, sizeof(last), cudaMemcpyDeviceToHost));
  std::int64_t expected = 5;
  for (std::int64_t i = 0; i + 1 < n; ++i) expected += small_item{}(i);
  EXPECT_EQ(last, static_cast<T>(expected));
}

TEST(NativeStaged, MoreThanTwoToTheThirtyOneItems) {
  ARCHSCAN_REQUIRE_GPU();
  expect_staged_beyond_int32_indices<std::int32_t, staged_everywhere>();
}

TEST(NativeStaged, EightByteMoreThanTwoToTheThirtyOneItems) {
  ARCHSCAN_REQUIRE_GPU();
  expect_staged_beyond_int32_indices<std::int64_t, staged_everywhere>();  // full tiles, past the large ones
}

TEST(NativeStaged, PackedMoreThanTwoToTheThirtyOneItems) {
  ARCHSCAN_REQUIRE_GPU();
  expect_staged_beyond_int32_indices<std::int16_t, staged_lookback_only>();
}

}  // namespace staged_tile_test
