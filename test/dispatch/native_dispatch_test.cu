// native's dispatch (dispatch/native_dispatch.cuh): the plan names the shape of its tiles (the row's
// full, small or large tiles, or a step of its ladder of single tiles of few items) and the launch
// maps that name to the shape's kernel. A launch that ran another shape's kernel would cover the
// problem with tiles of another size than the plan counted: items unscanned (still poisoned) or
// prefixes folded from the wrong tiles. So each case checks the plan's shape and then the scan of
// the same problem against the host's.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/values.cuh"

namespace {

using namespace archscan::test;
using archscan::dispatch::tile_shape;

//! An inclusive sum of `n` items of T under native: the plan names `shape` (and `step`, for a single
//! tile) over tiles of `tile_items`, and the scan matches the host's. T's items are small integers,
//! so doubles sum exactly too.
template <class T>
void expect_shape_runs(std::int64_t n, tile_shape shape, int step, std::int64_t tile_items) {
  std::vector<T> items;
  for (const std::int32_t v : random_values<std::int32_t>(n, static_cast<std::uint64_t>(n))) {
    items.push_back(static_cast<T>(v));
  }
  device_buffer<T> in(items), out(n);
  out.poison();
  const auto plan = plan_of<archscan::native_tuning>(in.get(), out.get(), n);
  EXPECT_EQ(plan.tiles.shape, shape) << n;
  EXPECT_EQ(plan.tiles.single_step, step) << n;
  EXPECT_EQ(plan.tiles.tile_items, tile_items) << n;
  thrust::inclusive_scan(archscan::native, in.begin(), in.begin() + n, out.begin(), ::cuda::std::plus<T>{});
  expect_equal(out, host_scan(items, ::cuda::std::plus<T>{}, false, false, T{}), "native", n);
}

TEST(NativeDispatch, EachShapeOfTheInt32RowRunsItsKernel) {
  ARCHSCAN_REQUIRE_GPU();
  // row_4: single tiles of 256 x 4, 8 and 16 items (the last the small tiles' kernel), full tiles of
  // 256 x 32, small tiles of 256 x 16 for problems of at most 16 of them, or past 16 full tiles up to
  // 132 small ones (tuning/native.cuh).
  expect_shape_runs<std::int32_t>(1000, tile_shape::single, 0, 1024);
  expect_shape_runs<std::int32_t>(1025, tile_shape::single, 1, 2048);
  expect_shape_runs<std::int32_t>(4096, tile_shape::single, 2, 4096);
  expect_shape_runs<std::int32_t>(4097, tile_shape::full, 0, 8192);  // one full tile
  expect_shape_runs<std::int32_t>(20000, tile_shape::small, 0, 4096);
  expect_shape_runs<std::int32_t>(100000, tile_shape::full, 0, 8192);  // 13 full tiles before 25 small
  expect_shape_runs<std::int32_t>(std::int64_t{1} << 20, tile_shape::small, 0, 4096);
  expect_shape_runs<std::int32_t>((std::int64_t{1} << 21) + 1, tile_shape::full, 0, 8192);
}

TEST(NativeDispatch, EachShapeOfTheDoubleRowRunsItsKernel) {
  ARCHSCAN_REQUIRE_GPU();
  // row_8: single tiles of 256 x 4 and 8 items, full tiles of 256 x 16, small ones of 256 x 4, large
  // ones of 256 x 31 from 2^24 items (a double sum is not exact under any association, so it never
  // takes the full tiles staged instead).
  expect_shape_runs<double>(1, tile_shape::single, 0, 1024);
  expect_shape_runs<double>(2048, tile_shape::single, 1, 2048);
  expect_shape_runs<double>(2049, tile_shape::full, 0, 4096);
  expect_shape_runs<double>(5000, tile_shape::small, 0, 1024);
  expect_shape_runs<double>((std::int64_t{1} << 24) - 1, tile_shape::full, 0, 4096);
  expect_shape_runs<double>((std::int64_t{1} << 24) + 3, tile_shape::large, 0, 7936);
}

}  // namespace
