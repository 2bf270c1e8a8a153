// detail/device.cuh: the device facts that dispatch decisions read. Host: the defaults describe the
// smallest device archscan supports (no opt-in above 48 KiB, no cooperative launch), and a failed
// query throws thrust::system_error naming the call (an invalid device; without a GPU, the current one
// too, every time: a failed read is not cached). GPU: every device's facts are its properties, as
// cudaGetDeviceProperties reports them, and the current device's are read once and follow
// cudaSetDevice.

#include <string>

#include <gtest/gtest.h>

#include <thrust/system_error.h>

#include <archscan/detail/device.cuh>

#include "support/gpu.cuh"

namespace device_test {

using archscan::detail::device_facts;

TEST(DeviceFacts, DefaultsAreTheSmallestSupportedDevice) {
  const device_facts f;
  EXPECT_EQ(f.device, 0);
  EXPECT_GE(f.sm_count, 1);
  EXPECT_LE(f.max_smem_optin, 48 * 1024) << "the default must not promise an opt-in";
  EXPECT_GE(f.smem_per_sm, f.max_smem_optin);
  EXPECT_FALSE(f.cooperative_launch);
  EXPECT_EQ(f.memory_gbps, 0);
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const thrust::system_error& e) {
    EXPECT_STREQ(e.code().category().name(), thrust::cuda_category().name());
    return e.what();
  }
  return {};
}

TEST(DeviceFacts, AnInvalidDeviceThrowsNamingTheQuery) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  cudaGetLastError();
  for (const int device : {count, count + 7, -1}) {
    const std::string what = error_of([&] { (void)archscan::detail::read_device_facts(device); });
    EXPECT_NE(what.find("cudaDeviceGetAttribute"), std::string::npos) << "device " << device << ": " << what;
  }
  // An invalid device is no sticky error: the next call starts clean (without a GPU every call fails).
  if (archscan::test::gpu_available()) {
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the error was left behind for the next call";
  }
}

TEST(DeviceFacts, WithoutAGpuTheCurrentDeviceThrowsEveryTime) {
  if (archscan::test::gpu_available()) GTEST_SKIP() << "a GPU is usable: its facts are read (the GPU test)";
  for (int i = 0; i < 2; ++i) {
    const std::string what = error_of([] { (void)archscan::detail::current_device_facts(); });
    EXPECT_NE(what.find("archscan: cuda"), std::string::npos) << "call " << i << ": " << what;
  }
}

TEST(DeviceFacts, EveryDevicesFactsAreItsProperties) {
  ARCHSCAN_REQUIRE_GPU();
  int count = 0, current = 0;
  ARCHSCAN_CUDA_OK(cudaGetDeviceCount(&count));
  ARCHSCAN_CUDA_OK(cudaGetDevice(&current));
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp p{};
    ARCHSCAN_CUDA_OK(cudaGetDeviceProperties(&p, device));
    const device_facts f = archscan::detail::read_device_facts(device);
    EXPECT_EQ(f.device, device);
    EXPECT_EQ(f.sm_count, p.multiProcessorCount);
    EXPECT_EQ(f.cc_major, p.major);
    EXPECT_EQ(f.max_smem_optin, static_cast<int>(p.sharedMemPerBlockOptin));
    EXPECT_EQ(f.smem_per_sm, static_cast<int>(p.sharedMemPerMultiprocessor));
    EXPECT_EQ(f.cooperative_launch, p.cooperativeLaunch != 0);
    // Peak bandwidth: two transfers a clock over the bus (the clock from its attribute: CUDA 13's
    // cudaDeviceProp no longer has it), to within the rounding down to whole GB/s.
    int khz = 0;
    ARCHSCAN_CUDA_OK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
    const double gbps = 2.0 * khz * 1e3 * (p.memoryBusWidth / 8) / 1e9;
    EXPECT_GT(f.memory_gbps, 0);
    EXPECT_LE(f.memory_gbps, gbps);
    EXPECT_GT(f.memory_gbps, gbps - 1.0);

    ARCHSCAN_CUDA_OK(cudaSetDevice(device));
    const device_facts c = archscan::detail::current_device_facts();
    EXPECT_EQ(c.device, device) << "the current device's facts follow cudaSetDevice";
    EXPECT_EQ(c.sm_count, f.sm_count);
    EXPECT_EQ(c.max_smem_optin, f.max_smem_optin);
    EXPECT_EQ(archscan::detail::current_device_facts().memory_gbps, f.memory_gbps);
  }
  ARCHSCAN_CUDA_OK(cudaSetDevice(current));
}

}  // namespace device_test
