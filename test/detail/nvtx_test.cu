// NVTX ranges of archscan's scan calls (include/archscan/detail/nvtx.cuh), seen by a real NVTX tool: the
// probe library (nvtx_probe.cpp) that NVTX attaches through NVTX_INJECTION64_PATH, as it attaches Nsight
// Systems. Runs without a GPU: an empty scan returns before any CUDA call, and a scan of three items
// throws thrust::system_error from its first CUDA call there (with a GPU it completes); either way the
// range must have been pushed once with its name and popped once.

#include <cstdint>
#include <limits>
#include <type_traits>

#include <thrust/scan.h>
#include <thrust/transform_scan.h>

#include <archscan/archscan.cuh>

#include "detail/nvtx_probe.cuh"
#include "support/gpu.cuh"

#ifdef ARCHSCAN_DISABLE_NVTX
#error "this unit tests the ranges: nvtx_disabled_test.cu tests ARCHSCAN_DISABLE_NVTX"
#endif

namespace {

using archscan::instrumentation::entry;
using archscan::test::nvtx_probe;

struct negate_op {
  __host__ __device__ int operator()(int x) const { return -x; }
};

// The probe's counts around one call.
struct seen {
  long pushes = 0;
  long pops   = 0;
  std::string message;
};

template <class F>
seen around(F&& call) {
  const nvtx_probe& p = nvtx_probe::get();
  const long pushes   = p.pushes();
  const long pops     = p.pops();
  call();
  return {p.pushes() - pushes, p.pops() - pops, p.last_message()};
}

std::string formatted(entry e, const char* family, std::int64_t n, bool across) {
  char buf[archscan::detail::scan_range_name_capacity];
  const char* algorithm = archscan::instrumentation::algorithm_name(e);
  const std::size_t len = archscan::detail::format_scan_range_name(buf, algorithm, family, n, across);
  EXPECT_EQ(len, std::string(buf).size());
  return buf;
}

TEST(NvtxName, FormatsAlgorithmFamilyAndCount) {
  EXPECT_EQ(formatted(entry::exclusive_scan, "native", 1048576, false), "archscan::exclusive_scan native n=1048576");
  EXPECT_EQ(formatted(entry::exclusive_scan_init_op, "native", 0, false), "archscan::exclusive_scan native n=0");
  EXPECT_EQ(formatted(entry::inclusive_scan_op, "kepler", 7, true), "archscan::inclusive_scan kepler n=7 across_ranks");
  EXPECT_EQ(formatted(entry::exclusive_scan_by_key_init_pred_op, "turing", 10, false),
            "archscan::exclusive_scan_by_key turing n=10");
  EXPECT_EQ(formatted(entry::transform_inclusive_scan_init, "blelloch", std::numeric_limits<std::int64_t>::max(), true),
            "archscan::transform_inclusive_scan blelloch n=9223372036854775807 across_ranks");
  EXPECT_EQ(formatted(entry::transform_exclusive_scan, "custom", std::numeric_limits<std::int64_t>::min(), false),
            "archscan::transform_exclusive_scan custom n=-9223372036854775808");
}

TEST(NvtxRange, ProbeIsAttached) {
  const nvtx_probe& p = nvtx_probe::get();
  static_assert(!std::is_empty_v<archscan::detail::scan_range<archscan::native_tuning, false>>);
  // The first NVTX call attaches the tool: open one range, then the probe must say so.
  const seen s =
      around([] { archscan::detail::scan_range<archscan::native_tuning, false> r(entry::exclusive_scan, 1); });
  EXPECT_TRUE(p.attached());
  EXPECT_EQ(s.pushes, 1);
  EXPECT_EQ(s.pops, 1);
  EXPECT_EQ(s.message, "archscan::exclusive_scan native n=1");
}

// The name a policy across ranks gets: run_scan passes across_ranks<comm_policy<...>> (true) to the range.
TEST(NvtxRange, AcrossRanksIsNamed) {
  nvtx_probe::get();
  using comm = archscan::comm_policy<archscan::native_tuning, true>;
  static_assert(archscan::detail::across_ranks<comm>);
  static_assert(!archscan::detail::across_ranks<archscan::stream_policy<archscan::native_tuning, true>>);
  const seen s = around([] {
    archscan::detail::scan_range<archscan::native_tuning, archscan::detail::across_ranks<comm>> r(
        entry::inclusive_scan_by_key, 4096);
  });
  EXPECT_EQ(s.pushes, 1);
  EXPECT_EQ(s.pops, 1);
  EXPECT_EQ(s.message, "archscan::inclusive_scan_by_key native n=4096 across_ranks");
}

// The real call path: thrust::exclusive_scan with archscan::native on a stream, nothing to scan.
TEST(NvtxRange, EmptyExclusiveScanOpensOneNamedRange) {
  nvtx_probe::get();
  int* in                   = nullptr;
  int* out                  = nullptr;
  int* returned             = reinterpret_cast<int*>(1);
  const std::uint64_t calls = archscan::instrumentation::calls(entry::exclusive_scan);
  const seen s = around([&] { returned = thrust::exclusive_scan(archscan::native.on(cudaStream_t{}), in, in, out); });
  EXPECT_EQ(returned, out);
  EXPECT_EQ(archscan::instrumentation::calls(entry::exclusive_scan), calls + 1);
  EXPECT_EQ(s.pushes, 1);
  EXPECT_EQ(s.pops, 1);
  EXPECT_EQ(s.message, "archscan::exclusive_scan native n=0");
}

// Three items: completes with a GPU (results checked); without one the call throws from its first CUDA
// call and the range is closed all the same.
TEST(NvtxRange, RangeClosesWhenTheCallReturnsOrThrows) {
  nvtx_probe::get();
  const bool gpu = archscan::test::gpu_available();
  int host[3]    = {1, 2, 3};
  int* in        = host;  // never dereferenced without a GPU: the call throws before any kernel
  int* out       = host;
  if (gpu) {
    ASSERT_EQ(cudaMalloc(&in, sizeof(host)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, sizeof(host)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice), cudaSuccess);
  }
  const seen s = around([&] {
    auto call = [&] { thrust::exclusive_scan(archscan::native.on(cudaStream_t{}), in, in + 3, out, 10); };
    if (gpu) {
      call();
    } else {
      EXPECT_THROW(call(), thrust::system_error);
    }
  });
  EXPECT_EQ(s.pushes, 1);
  EXPECT_EQ(s.pops, 1);
  EXPECT_EQ(s.message, "archscan::exclusive_scan native n=3");
  if (gpu) {
    int result[3] = {};
    ASSERT_EQ(cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(result[0], 10);
    EXPECT_EQ(result[1], 11);
    EXPECT_EQ(result[2], 13);
    cudaFree(in);
    cudaFree(out);
  }
}

// Another entry point through the same step: a transform scan, named as such.
TEST(NvtxRange, TransformScanIsNamedAfterItsAlgorithm) {
  nvtx_probe::get();
  int* p       = nullptr;
  const seen s = around([&] {
    thrust::transform_inclusive_scan(archscan::native.on(cudaStream_t{}), p, p, p, negate_op{}, ::cuda::std::plus<>{});
  });
  EXPECT_EQ(s.pushes, 1);
  EXPECT_EQ(s.pops, 1);
  EXPECT_EQ(s.message, "archscan::transform_inclusive_scan native n=0");
}

// Several calls: one range each, every one closed (none leaks into the next call's).
TEST(NvtxRange, CallsOpenOneRangeEach) {
  const nvtx_probe& p = nvtx_probe::get();
  int* q              = nullptr;
  const seen s        = around([&] {
    for (int i = 0; i < 5; ++i) thrust::exclusive_scan(archscan::native.on(cudaStream_t{}), q, q, q);
  });
  EXPECT_EQ(s.pushes, 5);
  EXPECT_EQ(s.pops, 5);
  EXPECT_EQ(p.starts(), 0);  // push/pop ranges only
}

}  // namespace
