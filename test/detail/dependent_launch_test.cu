// detail/dependent_launch.cuh (GPU): programmatic dependent launch. A producer allows its dependent to
// launch as soon as it starts, then writes random values late (after a spin); the consumer, launched
// with the programmatic stream serialization attribute, waits for its prerequisite and must read every
// value the producer wrote. Launched without the attribute the wait returns at once and the stream's
// order alone makes the values visible. Where the attribute is unsupported (before sm_90) the two
// calls compile to nothing and the launches are ordinary ones.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/dependent_launch.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace dependent_launch_test {

__global__ void producer(const int* in, int* shared, int n, long long spin_ns) {
  archscan::detail::allow_dependent_launch();  // the dependent may start now, before our writes
  const long long start = clock64();
  while (clock64() - start < spin_ns) {
  }
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += gridDim.x * blockDim.x) {
    shared[i] = in[i];
  }
}

__global__ void consumer(const int* shared, int* out, int n) {
  archscan::detail::wait_for_prerequisite_grids();
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += gridDim.x * blockDim.x) {
    out[i] = shared[i];
  }
}

TEST(DependentLaunch, TheDependentSeesEveryWriteOfItsPrerequisite) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr int n = 1 << 20;
  const auto h    = archscan::test::random_values<int>(n, 9);
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const bool programmatic : {true, false}) {
    archscan::test::device_buffer<int> in(h), shared(n), out(n);
    shared.poison();
    out.poison();
    producer<<<64, 256, 0, s>>>(in.get(), shared.get(), n, 2000000);  // some 1-2 ms of spin
    ARCHSCAN_CUDA_OK(cudaGetLastError());
    cudaLaunchAttribute attribute{};
    attribute.id                                         = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim  = dim3(64);
    config.blockDim = dim3(256);
    config.stream   = s;
    config.attrs    = programmatic ? &attribute : nullptr;
    config.numAttrs = programmatic ? 1 : 0;
    const int* from = shared.get();
    int* to         = out.get();
    ARCHSCAN_CUDA_OK(cudaLaunchKernelEx(&config, consumer, from, to, n));
    ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
    EXPECT_EQ(out.to_host(), h) << (programmatic ? "programmatic launch" : "ordinary launch");
  }
  ARCHSCAN_CUDA_OK(cudaStreamDestroy(s));
}

}  // namespace dependent_launch_test
