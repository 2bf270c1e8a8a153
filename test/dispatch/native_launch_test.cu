// The native look-back's launch (dispatch/native_dispatch.cuh): on sm_90 on, a kernel of its own
// resets the tile states and the scan launches as its programmatic dependent, which may start
// while the reset runs and must touch no state, the tile counter included, before the reset has
// completed. Calls queued back to back on one stream take the same temporary storage from
// archscan's stream-ordered pool, where the call before left its counter at its tile count and its
// states published: a scan that claimed a tile before its reset completed would start past its
// first tiles (their outputs keep the poison) or fold the previous call's prefixes. The reset is
// short and a launch is not, so left alone a scan's blocks mostly start after it has finished
// anyway (on an H100, a build without the scan's wait passed the plain queue); the hook
// `reset_delay_ns` holds the reset 50 us after it lets the scan launch, so that the scan's blocks
// are running before anything is zeroed (a build without the wait fails that queue).
// Elsewhere (before sm_90) the reset is a cudaMemsetAsync and the queues check plain stream order.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace {

using namespace archscan::test;

//! A reset that sleeps 50 us after letting the scan launch (hooks.cuh).
struct slow_reset {
  static constexpr unsigned reset_delay_ns = 50000;
};

//! Queues `calls` inclusive int32 sums with `Tuning` on one stream, alternating two look-back sizes,
//! and checks each against the host.
template <class Tuning>
void expect_back_to_back_calls_right() {
  // More tiles than any GPU holds at once (8192-item int32 tiles): the look-back, not a wave. The two
  // sizes alternate, so that each call finds the other's counter (1025 or 641 tiles) in the storage.
  const std::int64_t sizes[] = {(std::int64_t{1} << 23) + 7, (std::int64_t{5} << 20) + 3};
  const int calls            = short_run() ? 4 : 12;
  cudaStream_t stream;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<std::vector<std::int32_t>> inputs;
  std::vector<std::unique_ptr<device_buffer<std::int32_t>>> ins, outs;
  for (int c = 0; c < calls; ++c) {
    inputs.push_back(random_values<std::int32_t>(sizes[c % 2], 70 + c));
    ins.push_back(std::make_unique<device_buffer<std::int32_t>>(inputs.back()));
    outs.push_back(std::make_unique<device_buffer<std::int32_t>>(sizes[c % 2]));
    outs.back()->poison();
  }
  for (int c = 0; c < calls; ++c) {  // queued with no synchronization in between
    thrust::inclusive_scan(archscan::policy<Tuning, false>{}.on(stream), ins[c]->begin(), ins[c]->end(),
                           outs[c]->begin(), ::cuda::std::plus<>{});
  }
  ARCHSCAN_CUDA_OK(cudaStreamSynchronize(stream));
  for (int c = 0; c < calls; ++c) {
    // random_values' items (|x| <= 100) keep these int32 sums exact.
    const auto expected = host_scan(inputs[c], ::cuda::std::plus<>{}, false, false, std::int32_t{0});
    expect_equal(*outs[c], expected, ("call " + std::to_string(c)).c_str(), sizes[c % 2]);
  }
  ARCHSCAN_CUDA_OK(cudaStreamDestroy(stream));
}

TEST(NativeLaunch, BackToBackCallsEachWaitForTheirReset) {
  ARCHSCAN_REQUIRE_GPU();
  expect_back_to_back_calls_right<archscan::native_tuning>();
}

TEST(NativeLaunch, BackToBackCallsWaitForASlowReset) {
  ARCHSCAN_REQUIRE_GPU();
  expect_back_to_back_calls_right<archscan::with_hooks<archscan::native_tuning, slow_reset>>();
}

//! The staged look-back (tuning/shape.cuh, example_staged_row) waits for its reset the same way.
using staged_everywhere = staged_from<archscan::native_tuning, 0>;

TEST(NativeLaunch, StagedBackToBackCallsWaitForASlowReset) {
  ARCHSCAN_REQUIRE_GPU();
  const device_buffer<std::int32_t> aligned(1);
  ASSERT_TRUE(plan_of<staged_everywhere>(aligned.get(), aligned.get(), std::int64_t{5} << 20).staged);
  expect_back_to_back_calls_right<staged_everywhere>();
  expect_back_to_back_calls_right<archscan::with_hooks<staged_everywhere, slow_reset>>();
}

}  // namespace
