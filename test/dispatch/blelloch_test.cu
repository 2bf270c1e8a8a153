// The blelloch family's dispatch on the GPU: temporary storage it cannot have is a std::bad_alloc
// (a 2^40-item scan into a write-only output needs 4 TiB of scratch), and nothing is left broken.

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/gpu.cuh"

namespace {

TEST(BlellochDispatch, UnavailableTemporaryStorageThrowsBadAlloc) {
  ARCHSCAN_REQUIRE_GPU();
  const std::int64_t n = std::int64_t{1} << 40;
  thrust::counting_iterator<std::int64_t> first(0);
  EXPECT_THROW(thrust::inclusive_scan(archscan::blelloch, first, first + n, thrust::make_discard_iterator()),
               std::bad_alloc);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  // The library still works afterwards.
  int* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, sizeof(int) * 3000), cudaSuccess);
  thrust::inclusive_scan(archscan::blelloch, first, first + 3000, d);
  int last = 0;
  ASSERT_EQ(cudaMemcpy(&last, d + 2999, sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(last, 2999 * 3000 / 2);
  cudaFree(d);
}

}  // namespace
