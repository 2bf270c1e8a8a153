// thrust/shuffle.cuh: thrust::shuffle and thrust::shuffle_copy with a policy across ranks shuffle the
// rank's own slice, as every non-scan algorithm does, instead of running the scan inside Thrust's shuffle
// as a collective. Without a GPU the local call reaches the CUDA backend and throws a CUDA error, never
// NCCL's; with one, the permutation is the one Thrust's own backend makes from the same engine.

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <thrust/random.h>
#include <thrust/shuffle.h>

#include <archscan/nccl.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace shuffle_test {

// Thrust's shuffle scans internally with the caller's policy; with a policy across ranks it must shuffle
// the local slice. The communicator here is null: had the scan inside gone across ranks, it would throw
// an NCCL error (as dispatch/rank_dispatch_test.cu's NullCommunicatorThrowsBeforeAnyCudaCall shows). With a GPU the
// shuffle runs and permutes the slice; without one it reaches the CUDA backend and throws a CUDA error.
TEST(CommPolicy, ShuffleStaysLocal) {
  const bool gpu = archscan::test::gpu_available();
  int* d_in      = nullptr;
  int* d_out     = nullptr;
  const int h[5] = {1, 2, 3, 4, 5};
  if (gpu) {
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d_in, sizeof(h)));
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d_out, sizeof(h)));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice));
  }
  const auto policy = archscan::native.across(nullptr);
  // shuffle_copy first: it allocates nothing before its scan, so without a GPU the scan's own first
  // CUDA call is what throws (shuffle in place allocates a copy first, which throws std::bad_alloc).
  for (const bool in_place : {false, true}) {
    try {
      if (in_place) {
        thrust::shuffle(policy, d_in, d_in + 5, thrust::default_random_engine(7));
      } else {
        thrust::shuffle_copy(policy, d_in, d_in + 5, d_out, thrust::default_random_engine(9));
      }
      ASSERT_TRUE(gpu) << "no GPU, yet the shuffle ran";
      int got[5];
      ASSERT_EQ(cudaSuccess, cudaMemcpy(got, in_place ? d_in : d_out, sizeof(got), cudaMemcpyDeviceToHost));
      std::sort(got, got + 5);
      EXPECT_TRUE(std::equal(got, got + 5, h)) << "not a permutation of the slice";
    } catch (const thrust::system_error& e) {
      EXPECT_FALSE(gpu) << e.what();
      EXPECT_STRNE("nccl", e.code().category().name()) << "the shuffle's scan went across ranks: " << e.what();
      EXPECT_FALSE(in_place) << e.what();
    } catch (const std::bad_alloc& e) {
      EXPECT_FALSE(gpu) << e.what();
      EXPECT_TRUE(in_place) << e.what();
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
}

// The same engine state gives Thrust's CUDA backend and the policy across ranks the same permutation
// (the shuffle is a bijection drawn from the engine, then an exact scan), on the policy's own stream,
// non-blocking here: the results are read only after that stream synchronizes. The input of
// shuffle_copy stays as it was.
TEST(Shuffle, AcrossRanksPermutesTheSliceAsThrustDoes) {
  ARCHSCAN_REQUIRE_GPU();
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const auto policy = archscan::native_nosync.on(s).across(nullptr);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{65537}}) {
    std::vector<std::int32_t> h(static_cast<std::size_t>(n));
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    for (auto& x : h) x = static_cast<std::int32_t>(rng());  // distinct with near certainty
    archscan::test::device_buffer<std::int32_t> in(h), out(n), expect(n), in_place(h);
    out.poison();
    expect.poison();
    thrust::shuffle_copy(policy, in.begin(), in.end(), out.begin(), thrust::default_random_engine(11));
    thrust::shuffle(policy, in_place.begin(), in_place.end(), thrust::default_random_engine(11));
    ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
    thrust::shuffle_copy(thrust::cuda::par, in.begin(), in.end(), expect.begin(), thrust::default_random_engine(11));
    const auto got = out.to_host();
    EXPECT_EQ(got, expect.to_host()) << "n = " << n;
    EXPECT_EQ(in_place.to_host(), got) << "n = " << n;
    EXPECT_EQ(in.to_host(), h) << "shuffle_copy changed its input, n = " << n;
    auto sorted = got;
    std::sort(sorted.begin(), sorted.end());
    std::sort(h.begin(), h.end());
    EXPECT_EQ(sorted, h) << "not a permutation, n = " << n;
  }
  ARCHSCAN_CUDA_OK(cudaStreamDestroy(s));
}

}  // namespace shuffle_test
