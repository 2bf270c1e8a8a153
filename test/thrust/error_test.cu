// CUDA failures surface as thrust::system_error, as in Thrust's CUDA backend. Its own binary: a
// faulting kernel leaves the CUDA context unusable for the rest of the process.

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/gpu.cuh"

namespace {

TEST(Errors, FaultingScanThrowsSystemError) {
  ARCHSCAN_REQUIRE_GPU();
  int* bogus           = reinterpret_cast<int*>(0x100);  // not device memory: the kernel faults
  const std::int64_t n = 1 << 20;
  EXPECT_THROW(thrust::inclusive_scan(archscan::blelloch, bogus, bogus + n, bogus), thrust::system_error);
}

}  // namespace
