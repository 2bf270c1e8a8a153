// The native look-back's staged schedule (tuning/shape.cuh, example_staged_row; dispatch/native_dispatch.cuh):
// when the plan takes it, and that it scans right. Its bits against the ordinary look-back's are
// checked in test/thrust/determinism_test.cu (StagedAndPlainLookbackGiveTheSameBits).

#include <algorithm>
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

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace {

using namespace archscan;
using namespace archscan::test;

//! native, its row_4, row_8 and packed rows staged from every look-back size on every device (row_8
//! past its large tiles for exact operators alone).
using staged_everywhere = staged_from<native_tuning, 0>;

//! The same, never a wave or a cluster: small problems take the staged look-back too.
using staged_lookback_only = staged_from<lookback_only<native_tuning>, 0>;

TEST(NativeStaged, PlanStagesWhereTheRowTheDeviceAndThePointersAllow) {
  ARCHSCAN_REQUIRE_GPU();
  const auto facts     = detail::current_device_facts();
  const std::int64_t n = (std::int64_t{1} << 23) + 7;  // 1025 tiles of 8192 floats: more than a GPU holds
  device_buffer<float> in(n + 1), out(n + 1);
  const auto staged = plan_of<staged_everywhere>(in.get(), out.get(), n);
  EXPECT_EQ(staged.route, dispatch::single_pass_route::lookback);
  EXPECT_TRUE(staged.staged);
  EXPECT_LE(staged.tiles.grid, std::int64_t{facts.sm_count} * native_tuning::row_4::staged_min_blocks_per_sm);
  EXPECT_EQ(staged.first_set, staged.tiles.grid);
  EXPECT_EQ(staged.tiles.tiles, 1025);
  // Off 16-byte alignment, in or out: the ordinary look-back, one block a tile.
  EXPECT_FALSE(plan_of<staged_everywhere>(in.get() + 1, out.get(), n).staged);
  EXPECT_FALSE(plan_of<staged_everywhere>(in.get(), out.get() + 1, n).staged);
  EXPECT_EQ(plan_of<staged_everywhere>(in.get() + 1, out.get(), n).tiles.grid, 1025);
  // The shipped tuning: from its row's size, on memory of 4000 GB/s or more (the plan allocates nothing).
  const bool fast_memory  = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const std::int64_t from = native_tuning::row_4::staged_from_items;
  EXPECT_FALSE(plan_of<native_tuning>(in.get(), out.get(), from - 1).staged);
  EXPECT_EQ(plan_of<native_tuning>(in.get(), out.get(), from).staged, fast_memory)
      << "memory " << facts.memory_gbps << " GB/s";
  RecordProperty("memory_gbps", facts.memory_gbps);
}

TEST(NativeStaged, PackedTilesStageWhereTheirRowSays) {
  ARCHSCAN_REQUIRE_GPU();
  const auto facts     = detail::current_device_facts();
  const std::int64_t n = std::int64_t{16384} * 1025 + 7;
  device_buffer<std::int16_t> in16(n), out16(n);
  device_buffer<std::int8_t> in8(n), out8(n);
  const auto int16_plan = plan_of<staged_lookback_only>(in16.get(), out16.get(), n);
  EXPECT_TRUE(int16_plan.staged);
  EXPECT_EQ(int16_plan.tiles.tiles, 1026);
  EXPECT_TRUE(plan_of<staged_lookback_only>(in8.get(), out8.get(), n).staged);
  EXPECT_FALSE(plan_of<staged_lookback_only>(in16.get() + 1, out16.get(), n).staged);
  // The shipped tuning: packed int16 from its row's size on fast memory; packed int8 never.
  const bool fast_memory  = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const std::int64_t from = native_tuning::packed_rows::row_2::staged_from_items;
  EXPECT_FALSE(plan_of<native_tuning>(in16.get(), out16.get(), from - 1).staged);
  EXPECT_EQ(plan_of<native_tuning>(in16.get(), out16.get(), from).staged, fast_memory);
  EXPECT_FALSE(plan_of<native_tuning>(in8.get(), out8.get(), std::int64_t{1} << 30).staged);
}

//! row_8's large tiles (from 2^24 items) never stage. An operator exact under any association (int64
//! sums), whose bits no tile shape changes, takes the staged full tiles instead where they stage on
//! the device; one that rounds (double sums) keeps the large tiles, whose association the bits follow.
TEST(NativeStaged, ExactOperatorsStageFullTilesWhereLargeOnesWouldRun) {
  ARCHSCAN_REQUIRE_GPU();
  const auto facts         = detail::current_device_facts();
  const std::int64_t large = native_tuning::row_8::large_from_items;
  const std::int64_t n     = large + 5;
  device_buffer<std::int64_t> in64(n + 1), out64(n + 1);
  device_buffer<double> ind(n), outd(n);
  using row_8             = native_tuning::row_8;
  const std::int64_t full = std::int64_t{row_8::block_threads} * row_8::items_per_thread;
  // Staged on every device: the mechanism itself.
  const auto exact = plan_of<staged_everywhere>(in64.get(), out64.get(), n);
  EXPECT_TRUE(exact.staged);
  EXPECT_EQ(exact.tiles.tile_items, full);
  const auto rounding = plan_of<staged_everywhere>(ind.get(), outd.get(), n);
  EXPECT_FALSE(rounding.staged);
  EXPECT_GT(rounding.tiles.tile_items, full) << "double sums keep the large tiles";
  // Pointers off 16 bytes never stage: the large tiles.
  const auto unaligned = plan_of<staged_everywhere>(in64.get() + 1, out64.get(), n);
  EXPECT_FALSE(unaligned.staged);
  EXPECT_EQ(unaligned.tiles.tile_items, rounding.tiles.tile_items);
  // The shipped tuning: int64 sums from the row's staged size on memory of 4000 GB/s or more.
  const bool fast_memory = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const auto shipped     = plan_of<native_tuning>(in64.get(), out64.get(), std::max(n, row_8::staged_from_items));
  EXPECT_EQ(shipped.staged, fast_memory) << "memory " << facts.memory_gbps << " GB/s";
  EXPECT_EQ(shipped.tiles.tile_items == full, fast_memory);
  EXPECT_FALSE(plan_of<native_tuning>(ind.get(), outd.get(), n).staged);
  EXPECT_GT(plan_of<native_tuning>(ind.get(), outd.get(), n).tiles.tile_items, full);
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
}  // namespace
template <>
struct archscan::exactly_associative<declared_max, std::int64_t> : std::true_type {};
namespace {

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

}  // namespace
