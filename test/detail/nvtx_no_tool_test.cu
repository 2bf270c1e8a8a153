// Without an NVTX tool (nothing in NVTX_INJECTION64_PATH, as in any run outside a profiler), archscan's
// NVTX domain handle is null. nvtx_scan_range (include/archscan/detail/nvtx.cuh) reads that cached handle
// and returns before formatting a name or pushing a range, which is what its "cost without a tool"
// promise rests on. This program never attaches the probe that detail_nvtx_test uses.

#include <cstdint>
#include <cstdlib>

#include <gtest/gtest.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

namespace {

nvtxDomainHandle_t archscan_domain() {
  return static_cast<nvtxDomainHandle_t>(nvtx3::domain::get<archscan::nvtx_domain>());
}

TEST(NvtxNoTool, ScanCallLeavesTheDomainNull) {
  if (std::getenv("NVTX_INJECTION64_PATH") != nullptr) GTEST_SKIP() << "an NVTX tool is attached";
  int* q                    = nullptr;
  const auto entry          = archscan::instrumentation::entry::exclusive_scan;
  const std::uint64_t calls = archscan::instrumentation::calls(entry);
  EXPECT_EQ(thrust::exclusive_scan(archscan::native.on(cudaStream_t{}), q, q, q), q);
  // The call ran archscan's path, range included, and NVTX gave its domain no handle.
  EXPECT_EQ(archscan::instrumentation::calls(entry), calls + 1);
  EXPECT_EQ(archscan_domain(), nullptr);
  { archscan::detail::scan_range<archscan::native_tuning, false> r(entry, 1 << 20); }
  EXPECT_EQ(archscan_domain(), nullptr);
}

}  // namespace
