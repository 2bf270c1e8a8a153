// Accumulators large enough that a tile needs more than the 48 KiB of shared memory every block may use
// without asking: the blelloch and turing dispatches opt in (dispatch/family.cuh, opt_in_dynamic_smem)
// and the scan must still be right, or, on a device that cannot give that much, throw
// thrust::system_error naming shared memory. kepler keeps its tiles in registers and never opts in.
// The accumulator, `wide`, is in shared_memory_wide.cuh.
//
// KernelCopiesOfTwoUnits: this program has a second translation unit, shared_memory_other_unit.cu,
// linked first. Both units scan `wide` with blelloch, with different problems that share the
// kernel of blelloch's block-sums level. Each unit holds its own copy of that kernel (nvcc 13's
// internal stubs for __global__ templates), while the linker keeps the other unit's copy of the host
// function that launches it. A dispatch that sets the shared-memory attribute in its plan, not
// where it launches, sets it on this unit's copy and launches the other's: cudaErrorInvalidValue.
//
// PlanHereLaunchThere_*: the same at dispatch scope, for each family that sets attributes. This unit
// makes the plan (and configures its copies of the kernels), the other unit launches it (its
// copies). turing's tiles of `wide` need the shared-memory opt-in on every route (one tile, a wave, the
// look-back); blelloch's blocks too; native's cluster of more than 8 blocks needs
// cudaFuncAttributeNonPortableClusterSizeAllowed, and its wave all the shared memory as carveout.

#include <cstdint>
#include <string>
#include <vector>

#include <thrust/scan.h>
#include <thrust/system_error.h>

#include <archscan/archscan.cuh>

#include "dispatch/shared_memory_wide.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using archscan::test::device_buffer;
using namespace archscan::test::shared_memory;

int smem_optin_limit() {
  int device = 0, bytes = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), cudaSuccess);
  return bytes;
}

template <class Policy>
void check_inclusive_scan(const Policy& policy, const char* name, int tile_smem_estimate) {
  for (const std::int64_t n : {1, 383, 384, 385, 5000, 100'003}) {
    const std::vector<wide> h = items(n);
    device_buffer<wide> in(h);
    device_buffer<wide> out(n);
    out.poison();
    try {
      thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), combine{});
    } catch (const thrust::system_error& e) {
      // Only a device that cannot give the tile its shared memory may refuse, and it must say why.
      EXPECT_LT(smem_optin_limit(), tile_smem_estimate) << name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
      return;
    }
    ASSERT_EQ(first_wrong(h, out.to_host()), -1) << name << ", n = " << n;
  }
}

TEST(SharedMemoryOptIn, TuringTilesAbove48KiB) {
  ARCHSCAN_REQUIRE_GPU();
  check_inclusive_scan(archscan::turing, "turing", 64 * 1024);
  check_inclusive_scan(archscan::turing_nosync, "turing_nosync", 64 * 1024);
}

TEST(SharedMemoryOptIn, BlellochBlocksAbove48KiB) {
  ARCHSCAN_REQUIRE_GPU();
  check_inclusive_scan(archscan::blelloch, "blelloch", 168 * 1024);
}

TEST(SharedMemoryOptIn, KernelCopiesOfTwoUnits) {
  ARCHSCAN_REQUIRE_GPU();
  if (smem_optin_limit() < 168 * 1024) GTEST_SKIP() << "the device cannot give a blelloch block of wide items";
  constexpr std::int64_t n  = 5000;  // 5 blelloch blocks, then one of their sums: the shared kernel
  const std::vector<wide> h = items(n);
  device_buffer<wide> in(h);
  device_buffer<wide> out(n);
  out.poison();
  thrust::inclusive_scan(archscan::blelloch, in.begin(), in.end(), out.begin(), combine{});  // this unit first
  EXPECT_EQ(first_wrong(h, out.to_host()), -1) << "this unit: blelloch inclusive";
  const std::vector<std::vector<wide>> there = scan_in_other_unit(h);
  ASSERT_EQ(there.size(), 2u);
  const wide seed = item(-1);
  EXPECT_EQ(first_wrong(h, there[0], &seed), -1) << "other unit: blelloch exclusive";
  EXPECT_EQ(first_wrong(h, there[1]), -1) << "other unit: turing inclusive";
}

//! Plans `p` here with `Family`'s dispatch, launches it in the other unit, and returns the output.
template <class Family, class Tuning, class Problem, class T>
std::vector<T> plan_here_launch_there(Problem p, device_buffer<T>& out) {
  using dispatch  = archscan::dispatch::family_dispatch<Family>;
  const auto plan = dispatch::template plan<Tuning, archscan::no_hooks>(p, archscan::detail::current_device_facts());
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(plan.temp_bytes));
  out.poison();
  p.out = out.get();
  launch_in_other_unit(p, plan, temp.get());
  return out.to_host();
}

template <class Family, class Tuning>
void check_wide_plan_here_launch_there(const char* name) {
  for (const std::int64_t n : {300, 5000, 300'007}) {  // turing: one tile, a wave, the look-back
    const std::vector<wide> h = items(n);
    device_buffer<wide> in(h);
    device_buffer<wide> out(n);
    const std::vector<wide> r =
        plan_here_launch_there<Family, Tuning>(wide_problem{in.get(), nullptr, n, combine{}, {}, wide{}, {}}, out);
    ASSERT_EQ(first_wrong(h, r), -1) << name << ", n = " << n;
  }
}

TEST(SharedMemoryOptIn, PlanHereLaunchThere_Turing) {
  ARCHSCAN_REQUIRE_GPU();
  if (smem_optin_limit() < 64 * 1024) GTEST_SKIP() << "the device cannot give a turing tile of wide items";
  check_wide_plan_here_launch_there<archscan::turing_family, archscan::turing_tuning>("turing");
}

TEST(SharedMemoryOptIn, PlanHereLaunchThere_Blelloch) {
  ARCHSCAN_REQUIRE_GPU();
  if (smem_optin_limit() < 168 * 1024) GTEST_SKIP() << "the device cannot give a blelloch block of wide items";
  check_wide_plan_here_launch_there<archscan::blelloch_family, archscan::blelloch_tuning>("blelloch");
}

TEST(SharedMemoryOptIn, PlanHereLaunchThere_Native) {
  ARCHSCAN_REQUIRE_GPU();
  // native's double tiles hold 4096 items: one tile, clusters of 9 and 16 tiles (sm_90 on), a wave, the
  // look-back. Integer-valued items: every association gives the same bits.
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{9 * 4096 - 5}, std::int64_t{16 * 4096},
                               std::int64_t{200 * 4096 + 3}, std::int64_t{1} << 23}) {
    std::vector<double> h(n);
    for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<double>((i * 7919) % 1013) - 500.0;
    device_buffer<double> in(h);
    device_buffer<double> out(n);
    const std::vector<double> r = plan_here_launch_there<archscan::native_family, archscan::native_tuning>(
        double_problem{in.get(), nullptr, n, {}, {}, 0.0, {}}, out);
    double acc = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
      acc += h[i];
      ASSERT_EQ(r[i], acc) << "native, n = " << n << ", i = " << i;
    }
  }
}

}  // namespace
