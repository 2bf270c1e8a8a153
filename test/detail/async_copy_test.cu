// detail/async_copy.cuh (GPU): 16-byte copies from global to shared memory in committed groups. Random
// vectors, three groups a thread: after waiting with one group still allowed in flight, and a barrier,
// the two older groups are in shared memory for every thread to read; after waiting for all, the newest
// too. Each thread reads vectors another thread copied, so the barrier's visibility is what is tested,
// on whichever pass runs (cp.async from sm_80, plain loads and stores before).

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/async_copy.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace async_copy_test {

constexpr int threads = 128, groups = 3;

//! Thread t copies vector g * threads + t in group g. The older groups are read back (by the thread
//! across the block, threads - 1 - t) after wait_copies<1>, the newest after wait_copies<0>.
__global__ void copy_groups(const uint4* in, uint4* out) {
  __shared__ uint4 staged[groups * threads];
  const int t        = static_cast<int>(threadIdx.x);
  const uint4* block = in + blockIdx.x * groups * threads;
  uint4* result      = out + blockIdx.x * groups * threads;
  for (int g = 0; g < groups; ++g) {
    archscan::detail::copy_16_async(&staged[g * threads + t], &block[g * threads + t]);
    archscan::detail::commit_copies();
  }
  archscan::detail::wait_copies<1>();
  __syncthreads();
  const int other = threads - 1 - t;
  for (int g = 0; g < groups - 1; ++g) result[g * threads + other] = staged[g * threads + other];
  archscan::detail::wait_copies<0>();
  __syncthreads();
  result[(groups - 1) * threads + other] = staged[(groups - 1) * threads + other];
}

TEST(AsyncCopy, GroupsAreInSharedMemoryAfterTheirWaitAndABarrier) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr int blocks = 5;
  constexpr int n      = blocks * groups * threads;
  std::mt19937 rng(31);
  const auto word = [&] { return static_cast<unsigned>(rng()); };
  std::vector<uint4> h(n);
  for (auto& v : h) v = uint4{word() | 1u, word(), word(), word()};
  archscan::test::device_buffer<uint4> in(h), out(n);
  out.poison();
  copy_groups<<<blocks, threads>>>(in.get(), out.get());
  ASSERT_EQ(cudaSuccess, cudaGetLastError());
  const auto got = out.to_host();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(0, std::memcmp(&got[i], &h[i], sizeof(uint4))) << "vector " << i << ", group " << (i / threads) % groups;
  }
}

}  // namespace async_copy_test
