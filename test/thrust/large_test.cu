// One scan of more than 2^31 items with every policy: 64-bit sizes end to end. Items are 0/1 bytes
// made on the device; the int32 exclusive sums are compared with CUB's on the device, and with a
// sequential host reference at every 4099th index and over the last 100,000.

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

__host__ __device__ inline std::uint8_t bit_of(std::int64_t i) {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return static_cast<std::uint8_t>((x >> 17) & 1u);
}
struct make_bit {
  __host__ __device__ std::uint8_t operator()(std::int64_t i) const { return bit_of(i); }
};

template <class C>
class LargeTest : public ::testing::Test {};
TYPED_TEST_SUITE(LargeTest, policy_cases, case_names);

//! Holds an exclusive file lock: the large tests of all policies (separate processes under ctest)
//! take turns, since each needs ~22 GB of device memory.
class large_test_lock {
 public:
  large_test_lock() : fd_(open("/tmp/archscan_large_test.lock", O_CREAT | O_RDWR, 0666)) {
    if (fd_ >= 0) flock(fd_, LOCK_EX);
  }
  ~large_test_lock() {
    if (fd_ >= 0) close(fd_);
  }

 private:
  int fd_;
};

TYPED_TEST(LargeTest, MoreThanTwoToTheThirtyOneItems) {
  ARCHSCAN_REQUIRE_GPU();
  const large_test_lock lock;
  const std::int64_t n   = (std::int64_t{1} << 31) + 4099;
  std::size_t free_bytes = 0, total = 0;
  ARCHSCAN_CUDA_OK(cudaMemGetInfo(&free_bytes, &total));
  ASSERT_GT(free_bytes, static_cast<std::size_t>(n) * 10 + (1ull << 30)) << "the test needs ~22 GB of device memory";

  device_buffer<std::uint8_t> in(n);
  thrust::transform(thrust::cuda::par, thrust::counting_iterator<std::int64_t>(0),
                    thrust::counting_iterator<std::int64_t>(n), in.get(), make_bit{});
  device_buffer<int> out(n);
  out.poison();
  const typename TypeParam::policy policy{};
  int* end = thrust::exclusive_scan(policy, in.begin(), in.end(), out.begin(), 5);
  ASSERT_EQ(end - out.get(), n);
  ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());

  {  // CUB (through Thrust's CUDA backend) on the same items, compared on the device.
    device_buffer<int> ref(n);
    ref.poison();
    thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), ref.begin(), 5);
    EXPECT_TRUE(thrust::equal(thrust::cuda::par, out.begin(), out.end(), ref.begin()))
        << "archscan and thrust::cuda::par differ somewhere in 2^31 + 4099 items";
  }

  std::vector<int> tail(100000);
  ARCHSCAN_CUDA_OK(cudaMemcpy(tail.data(), out.get() + n - 100000, sizeof(int) * 100000, cudaMemcpyDeviceToHost));
  int acc = 5;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i % 4099 == 0) {
      int got = 0;
      ARCHSCAN_CUDA_OK(cudaMemcpy(&got, out.get() + i, sizeof(int), cudaMemcpyDeviceToHost));
      ASSERT_EQ(got, acc) << "index " << i;
    }
    if (i >= n - 100000) ASSERT_EQ(tail[i - (n - 100000)], acc) << "index " << i;
    acc += bit_of(i);
  }
}

}  // namespace
