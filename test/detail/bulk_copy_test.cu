// detail/bulk_copy.cuh (GPU, sm_90 on): a warp's region of shared memory copied to global memory by
// the bulk copy unit; on return the region may be written again without changing what arrives.
// Where the device or the build's code for it has no bulk copy unit, the test is skipped.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/bulk_copy.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using archscan::test::device_buffer;

constexpr int region_words = 32 * 31 * 4;  // a 15.9 KB region: a warp's segment of 31 16-byte vectors a lane

//! One warp: word w of the region is w * 2654435761 + round; the region goes to `d_out + offset`
//! words (a 16-byte multiple), then is overwritten at once with other values. `d_ran` says whether
//! the pass had the unit.
__global__ void store_region(std::uint32_t* d_out, int offset, int* d_ran) {
  __shared__ uint4 vectors[region_words / 4];  // 16-byte aligned, as the unit needs
  auto* region   = reinterpret_cast<std::uint32_t*>(vectors);
  const int lane = static_cast<int>(threadIdx.x);
  if constexpr (archscan::detail::has_bulk_copy) {
    for (int w = lane; w < region_words; w += 32) region[w] = static_cast<std::uint32_t>(w) * 2654435761u + 1u;
    archscan::detail::warp_bulk_store(d_out + offset, region, sizeof(vectors));
    for (int w = lane; w < region_words; w += 32) region[w] = 0xdeadbeefu;  // after the unit has read it
    __syncwarp(0xffffffffu);
    if (lane == 0) *d_ran = 1;
  } else {
    if (lane == 0) *d_ran = 0;
  }
}

TEST(WarpBulkStore, CopiesTheRegionAndLeavesTheRestAlone) {
  ARCHSCAN_REQUIRE_GPU();
  int device = 0, major = 0;
  ARCHSCAN_CUDA_OK(cudaGetDevice(&device));
  ARCHSCAN_CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) GTEST_SKIP() << "no bulk copy unit before sm_90 (this device: sm_" << major << "x)";
  for (const int offset : {0, 4, 1000}) {  // 16-byte aligned destinations, at and past the start
    const int n = offset + region_words + 64;
    device_buffer<std::uint32_t> d_out(n);
    device_buffer<int> d_ran(1);
    d_out.poison();
    d_ran.poison();
    store_region<<<1, 32>>>(d_out.get(), offset, d_ran.get());
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    if (d_ran.to_host()[0] != 1) GTEST_SKIP() << "the build has no sm_90 code for this device";
    const auto out = d_out.to_host();
    for (int i = 0; i < n; ++i) {
      const bool inside = i >= offset && i < offset + region_words;
      const std::uint32_t want =
          inside ? static_cast<std::uint32_t>(i - offset) * 2654435761u + 1u : 0xA5A5A5A5u;  // device_buffer's poison
      ASSERT_EQ(out[i], want) << "word " << i << ", offset " << offset;
    }
  }
}

}  // namespace
