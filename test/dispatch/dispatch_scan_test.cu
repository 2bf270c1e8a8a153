// dispatch/dispatch_scan.cuh: the one entry of every scan. Host: a problem of no items returns before
// anything (no storage asked, no CUDA call: it runs without a GPU); without a GPU a problem of items
// throws thrust::system_error before it asks for storage. GPU: with a user's allocator the storage is
// asked once and given back once, after a blocking policy's synchronization (the stream is idle when
// it comes back), and the scan is right against the host.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <cuda/std/functional>
#include <thrust/system/cuda/execution_policy.h>

#include <archscan/dispatch/dispatch_scan.cuh>
#include <archscan/policy.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace dispatch_scan_test {

namespace d   = archscan::detail;
using plus    = d::callable<::cuda::std::plus<int>>;
using problem = d::scan_problem<const int*, int*, int, plus, d::identity_finish, d::scan_kind::inclusive, false>;

struct calls {
  int allocations = 0, deallocations = 0;
  cudaStream_t stream   = nullptr;
  cudaError_t at_return = cudaErrorUnknown;  //!< the stream's state when the storage came back
};

//! Thrust's allocator shape over device memory (none without a GPU), recording its calls.
struct recording_allocator {
  using value_type = char;
  calls* c;
  char* allocate(std::ptrdiff_t n) {
    ++c->allocations;
    void* p = nullptr;
    return cudaMalloc(&p, static_cast<std::size_t>(n)) == cudaSuccess ? static_cast<char*>(p) : nullptr;
  }
  void deallocate(char* p, std::size_t) {
    ++c->deallocations;
    if (c->stream != nullptr) c->at_return = cudaStreamQuery(c->stream);
    cudaFree(p);
  }
};

TEST(DispatchScan, NoItemsAskNothing) {
  calls c;
  recording_allocator alloc{&c};
  auto policy   = archscan::kepler(alloc);
  const int* in = reinterpret_cast<const int*>(0x1000);  // never dereferenced
  int* out      = reinterpret_cast<int*>(0x2000);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{-5}}) {
    EXPECT_NO_THROW((archscan::dispatch::scan<archscan::kepler_tuning>(policy, problem{in, out, n, {}, {}, 0, {}})));
  }
  EXPECT_EQ(c.allocations, 0);
  EXPECT_EQ(c.deallocations, 0);
}

TEST(DispatchScan, WithoutAGpuItThrowsBeforeAskingForStorage) {
  if (archscan::test::gpu_available()) GTEST_SKIP() << "a GPU is usable: the scan runs (the GPU test)";
  calls c;
  recording_allocator alloc{&c};
  auto policy = archscan::kepler(alloc);
  EXPECT_THROW(
      (archscan::dispatch::scan<archscan::kepler_tuning>(
          policy, problem{reinterpret_cast<const int*>(0x1000), reinterpret_cast<int*>(0x2000), 100, {}, {}, 0, {}})),
      thrust::system_error);
  EXPECT_EQ(c.allocations, 0);
}

TEST(DispatchScan, AUsersStorageComesBackOnceAfterTheSynchronization) {
  ARCHSCAN_REQUIRE_GPU();
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{1} << 22}) {
    const auto h = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n));
    archscan::test::device_buffer<int> in(h), out(n);
    out.poison();
    calls c;
    c.stream = s;
    recording_allocator alloc{&c};
    auto policy = archscan::kepler(alloc).on(s);
    archscan::dispatch::scan<archscan::kepler_tuning>(policy, problem{in.get(), out.get(), n, {}, {}, 0, {}});
    EXPECT_LE(c.allocations, 1) << "n = " << n;
    if (n > (1 << 20)) EXPECT_EQ(c.allocations, 1) << "a look-back over many tiles needs its states, n = " << n;
    EXPECT_EQ(c.deallocations, c.allocations) << "n = " << n;
    if (c.deallocations > 0) EXPECT_EQ(c.at_return, cudaSuccess) << "storage came back before the sync, n = " << n;
    EXPECT_EQ(cudaStreamQuery(s), cudaSuccess) << "a blocking policy returned with work queued, n = " << n;
    const auto got = out.to_host();
    int acc        = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      acc += h[i];
      ASSERT_EQ(got[i], acc) << "item " << i << " of " << n;
    }
  }
  ARCHSCAN_CUDA_OK(cudaStreamDestroy(s));
}

}  // namespace dispatch_scan_test
