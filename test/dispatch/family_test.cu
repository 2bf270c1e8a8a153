// dispatch/family.cuh: what the families share on the host. The carveout that fits the resident blocks,
// and the clear errors for a grid or a block the device cannot take (thrust::system_error, nothing
// launched).
// Host only: the checks below throw before any CUDA call.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <thrust/system_error.h>

#include <archscan/dispatch/family.cuh>

namespace {

using archscan::dispatch::check_grid;
using archscan::dispatch::fit_carveout;

TEST(Family, CarveoutFitsTheResidentBlocks) {
  // H100: 228 KiB per SM; 5 blocks of 16.6 KiB + 1 KiB reserved each need 88 KiB: 39 %.
  const int smem = 16 * 1024 + 640;
  const int pct  = fit_carveout(5, smem, 1024, 228 * 1024);
  EXPECT_GE(pct * 228 * 1024, 100 * 5 * (smem + 1024));
  EXPECT_LT((pct - 1) * 228 * 1024, 100 * 5 * (smem + 1024));
  EXPECT_EQ(fit_carveout(64, 64 * 1024, 0, 64 * 1024), 100);  // clamped
  EXPECT_EQ(fit_carveout(0, 1024, 0, 64 * 1024), 1);
}

//! The error `f` throws: a thrust::system_error whose message names `what`, or a failure.
template <class F>
void expect_system_error(F f, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "no error for " << what;
  } catch (const thrust::system_error& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(Family, AGridOfMoreThanTwoToTheThirtyOneBlocksThrows) {
  EXPECT_NO_THROW(check_grid(0x7fffffff, "grid"));
  expect_system_error([] { check_grid(std::int64_t{0x7fffffff} + 1, "too many tiles"); }, "too many tiles");
}

TEST(Family, ABlockBeyondTheDevicesSharedMemoryThrowsBeforeAnyCall) {
  archscan::detail::device_facts facts{};
  facts.max_smem_optin = 99 * 1024;  // an H100's opt-in is 227 KiB, a Turing's 64 KiB
  void (*no_kernel)()  = nullptr;    // never reached: within 48 KiB nothing is asked, past the device it throws
  EXPECT_NO_THROW(archscan::dispatch::opt_in_dynamic_smem(no_kernel, 48 * 1024, facts, "family_test"));
  expect_system_error([&] { archscan::dispatch::opt_in_dynamic_smem(no_kernel, 100 * 1024, facts, "family_test"); },
                      "family_test: accumulator too large for a block's shared memory");
}

}  // namespace
