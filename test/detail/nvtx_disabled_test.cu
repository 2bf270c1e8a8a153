// ARCHSCAN_DISABLE_NVTX (set for this unit by test/CMakeLists.txt) compiles archscan's NVTX ranges out:
// with the probe tool attached (nvtx_probe.cpp, through NVTX_INJECTION64_PATH), a scan call pushes no
// range in the archscan domain, while a range this test pushes itself is seen (so the probe works here).

#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "detail/nvtx_probe.cuh"

#if !defined(ARCHSCAN_DISABLE_NVTX) || !defined(CCCL_DISABLE_NVTX)
#error "this unit tests ARCHSCAN_DISABLE_NVTX (with CUB's NVTX off too): test/CMakeLists.txt defines both"
#endif
// Compiled out, archscan includes no NVTX header (CUB's would, unless CCCL_DISABLE_NVTX).
#if defined(NVTX3_CPP_VERSION_MAJOR) || defined(NVTX_VERSION)
#error "ARCHSCAN_DISABLE_NVTX: archscan's headers still include NVTX"
#endif

// The test's own range (archscan itself includes no NVTX header here).
#include <nvtx3/nvtx3.hpp>

namespace {

using archscan::test::nvtx_probe;

TEST(NvtxDisabled, RangeIsAnEmptyType) {
  static_assert(std::is_empty_v<archscan::detail::scan_range<archscan::native_tuning, false>>);
  static_assert(std::is_empty_v<archscan::detail::scan_range<archscan::native_tuning, true>>);
}

TEST(NvtxDisabled, ScanOpensNoRange) {
  const nvtx_probe& p       = nvtx_probe::get();
  int* q                    = nullptr;
  const std::uint64_t calls = archscan::instrumentation::calls(archscan::instrumentation::entry::exclusive_scan);
  const long before         = p.pushes();
  EXPECT_EQ(thrust::exclusive_scan(archscan::native.on(cudaStream_t{}), q, q, q), q);
  {
    archscan::detail::scan_range<archscan::native_tuning, false> r(archscan::instrumentation::entry::exclusive_scan, 1);
  }
  // The call did run archscan's path.
  EXPECT_EQ(archscan::instrumentation::calls(archscan::instrumentation::entry::exclusive_scan), calls + 1);
  EXPECT_EQ(p.pushes(), before);
  EXPECT_EQ(p.pops(), 0);

  // Control: a range of the test's own in the archscan domain reaches the probe.
  { nvtx3::scoped_range_in<archscan::nvtx_domain> r{"control"}; }
  EXPECT_TRUE(p.attached());
  EXPECT_EQ(p.pushes(), before + 1);
  EXPECT_EQ(p.pops(), 1);
  EXPECT_EQ(p.last_message(), "control");
}

}  // namespace
