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

//! The words of a warp's segment of `Vectors` 16-byte vectors a lane.
template <int Vectors>
constexpr int region_words = 32 * Vectors * 4;

//! One warp: word w of the region is w * 2654435761 + 1; the region goes to `d_out + offset` words
//! (a 16-byte multiple), then is overwritten at once with other values. `d_ran` says whether the
//! pass had the unit.
template <int Vectors>
__global__ void store_region(std::uint32_t* d_out, int offset, int* d_ran) {
  constexpr int words = region_words<Vectors>;
  __shared__ uint4 vectors[words / 4];  // 16-byte aligned, as the unit needs
  auto* region   = reinterpret_cast<std::uint32_t*>(vectors);
  const int lane = static_cast<int>(threadIdx.x);
  if constexpr (archscan::detail::has_bulk_copy) {
    for (int w = lane; w < words; w += 32) region[w] = static_cast<std::uint32_t>(w) * 2654435761u + 1u;
    archscan::detail::warp_bulk_store(d_out + offset, region, sizeof(vectors));
    for (int w = lane; w < words; w += 32) region[w] = 0xdeadbeefu;  // after the unit has read it
    __syncwarp(0xffffffffu);
    if (lane == 0) *d_ran = 1;
  } else {
    if (lane == 0) *d_ran = 0;
  }
}

//! Copies a region of `Vectors` vectors a lane to three aligned offsets; false where the build has no
//! sm_90 code for the device (the caller skips).
template <int Vectors>
bool check_region() {
  constexpr int words = region_words<Vectors>;
  for (const int offset : {0, 4, 1000}) {  // 16-byte aligned destinations, at and past the start
    const int n = offset + words + 64;
    device_buffer<std::uint32_t> d_out(n);
    device_buffer<int> d_ran(1);
    d_out.poison();
    d_ran.poison();
    store_region<Vectors><<<1, 32>>>(d_out.get(), offset, d_ran.get());
    const cudaError_t ran = cudaDeviceSynchronize();
    EXPECT_EQ(cudaSuccess, ran) << cudaGetErrorString(ran);
    if (ran != cudaSuccess) return true;  // failed, not skipped
    if (d_ran.to_host()[0] != 1) return false;
    const auto out = d_out.to_host();
    for (int i = 0; i < n; ++i) {
      const bool inside = i >= offset && i < offset + words;
      const std::uint32_t want =
          inside ? static_cast<std::uint32_t>(i - offset) * 2654435761u + 1u : 0xA5A5A5A5u;  // device_buffer's poison
      EXPECT_EQ(out[i], want) << "word " << i << ", offset " << offset << ", " << Vectors << " vectors a lane";
      if (out[i] != want) return true;  // one message per region
    }
  }
  return true;
}

TEST(WarpBulkStore, CopiesTheRegionAndLeavesTheRestAlone) {
  ARCHSCAN_REQUIRE_GPU();
  int device = 0, major = 0;
  ARCHSCAN_CUDA_OK(cudaGetDevice(&device));
  ARCHSCAN_CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) GTEST_SKIP() << "no bulk copy unit before sm_90 (this device: sm_" << major << "x)";
  // 21 vectors a lane (10.5 KB): a warp of the product's large tiles (192x21); 31 (15.9 KB): the
  // most a 64 KiB tile of 128 threads holds.
  if (!check_region<21>() || !check_region<31>()) GTEST_SKIP() << "the build has no sm_90 code for this device";
}

}  // namespace
