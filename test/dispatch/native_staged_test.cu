// The native look-back's staged schedule (tuning.cuh, example_staged_row; dispatch/native_dispatch.cuh):
// when the plan takes it, and that it scans right. Its bits against the ordinary look-back's are
// checked in test/thrust/determinism_test.cu (StagedAndPlainLookbackGiveTheSameBits).

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

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
#include "support/values.cuh"

namespace {

using namespace archscan;
using namespace archscan::test;

//! native, its row_4 staged from every look-back size on every device.
struct staged_everywhere : native_tuning {
  static constexpr int staged_min_memory_gbps = 0;
  struct row_4 : native_tuning::row_4 {
    static constexpr std::int64_t staged_from_items = 0;
  };
};

//! The same, never a wave or a cluster: small problems take the staged look-back too.
struct staged_lookback_only : staged_everywhere {
  static constexpr int wave_max_tiles    = 0;
  static constexpr int cluster_max_tiles = 0;
};

using float_problem = detail::scan_problem<const float*, float*, float, ::cuda::std::plus<float>,
                                           detail::identity_finish, detail::scan_kind::inclusive, false>;

template <class Tuning>
dispatch::single_pass_plan plan_of(const float* in, float* out, std::int64_t n) {
  return dispatch::family_dispatch<native_family>::plan<Tuning, no_hooks>(float_problem{in, out, n, {}, {}, 0.0f, {}},
                                                                          detail::current_device_facts());
}

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
  const bool fast_memory    = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const std::int64_t from   = native_tuning::row_4::staged_from_items;
  EXPECT_FALSE(plan_of<native_tuning>(in.get(), out.get(), from - 1).staged);
  EXPECT_EQ(plan_of<native_tuning>(in.get(), out.get(), from).staged, fast_memory)
      << "memory " << facts.memory_gbps << " GB/s";
  RecordProperty("memory_gbps", facts.memory_gbps);
}

//! Staged scans against the host: partial last tiles, exclusive with a seed, a transform, in place.
//! 1200 tiles of 8192 items: more than twice the blocks an H100 or H200 holds (3 an SM), so blocks
//! take tiles into stages they have used; under ARCHSCAN_TEST_SHORT (the sanitizers) that size alone.
//! (Back-to-back staged calls on one stream: test/dispatch/native_launch_test.cu.)
TEST(NativeStaged, ScansRight) {
  ARCHSCAN_REQUIRE_GPU();
  const policy<staged_lookback_only> staged{};
  std::vector<std::int64_t> sizes = {std::int64_t{8192} * 1200 - 1};
  if (!short_run()) sizes.insert(sizes.end(), {std::int64_t{8192} * 40 + 3, (std::int64_t{1} << 23) + 7});
  for (const std::int64_t n : sizes) {
    const auto h = random_values<std::int32_t>(n, 90);
    device_buffer<std::int32_t> in(h), out(n);
    out.poison();
    thrust::inclusive_scan(staged, in.begin(), in.end(), out.begin());
    expect_equal(out, host_scan(h, ::cuda::std::plus<>{}, false, false, std::int32_t{0}), "inclusive", n);
    out.poison();
    thrust::exclusive_scan(staged, in.begin(), in.end(), out.begin(), std::int32_t{7});
    expect_equal(out, host_scan(h, ::cuda::std::plus<>{}, true, true, std::int32_t{7}), "exclusive, seed 7", n);
    out.poison();
    thrust::transform_inclusive_scan(staged, in.begin(), in.end(), out.begin(), ::cuda::std::negate<std::int32_t>{},
                                     ::cuda::std::plus<>{});
    std::vector<std::int32_t> negated(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) negated[i] = -h[i];
    expect_equal(out, host_scan(negated, ::cuda::std::plus<>{}, false, false, std::int32_t{0}), "transform", n);
    thrust::inclusive_scan(staged, in.begin(), in.end(), in.begin());  // in place
    expect_equal(in, host_scan(h, ::cuda::std::plus<>{}, false, false, std::int32_t{0}), "in place", n);
  }
}

//! Item i of the large test: small, so that int32 sums of 2^31 of them stay exact.
struct small_item {
  __host__ __device__ std::int32_t operator()(std::int64_t i) const {
    return static_cast<std::int32_t>((i * 7) % 5) - 2;
  }
};

//! More than 2^31 items, staged (64-bit tile offsets), against thrust::cuda::par on the device.
TEST(NativeStaged, MoreThanTwoToTheThirtyOneItems) {
  ARCHSCAN_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t{1} << 31) + 4099;
  std::size_t free_bytes = 0, total = 0;
  ARCHSCAN_CUDA_OK(cudaMemGetInfo(&free_bytes, &total));
  ASSERT_GT(free_bytes, static_cast<std::size_t>(n) * 12 + (1ull << 30)) << "the test needs ~27 GB of device memory";
  device_buffer<std::int32_t> in(n), out(n), ref(n);
  thrust::transform(thrust::cuda::par, thrust::counting_iterator<std::int64_t>(0),
                    thrust::counting_iterator<std::int64_t>(n), in.get(), small_item{});
  out.poison();
  thrust::exclusive_scan(policy<staged_everywhere>{}, in.begin(), in.end(), out.begin(), std::int32_t{5});
  thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), ref.begin(), std::int32_t{5});
  EXPECT_TRUE(thrust::equal(thrust::cuda::par, out.begin(), out.end(), ref.begin()))
      << "staged native and thrust::cuda::par differ somewhere in 2^31 + 4099 items";
  std::int32_t last = 0;
  ARCHSCAN_CUDA_OK(cudaMemcpy(&last, out.get() + n - 1, sizeof(last), cudaMemcpyDeviceToHost));
  std::int64_t expected = 5;
  for (std::int64_t i = 0; i + 1 < n; ++i) expected += small_item{}(i);
  EXPECT_EQ(last, expected);
}

}  // namespace
