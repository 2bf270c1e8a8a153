// The turing family's dispatch: the shared memory of its tiles for large accumulators (its plan is
// dispatch/route_plan.cuh's, tested in dispatch/route_plan_test.cu; the carveout arithmetic the families
// share: dispatch/family_test.cu).

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/dispatch/turing_dispatch.cuh>

#include "support/sized_problem.cuh"

namespace {

// Large accumulators: every tile of the shipped tuning fits the shared memory every CUDA 13 device
// grants a block (64 KiB with the opt-in on sm_75, the smallest), full tiles and a wave's small ones.
using archscan::test::problem_of;

template <int Bytes>
void expect_tiles_fit_sm75() {
  using dispatch = archscan::dispatch::family_dispatch<archscan::turing_family>;
  using tuning   = archscan::turing_tuning;
  EXPECT_LE((dispatch::full_tile<tuning, archscan::no_hooks, problem_of<Bytes>>::smem_bytes), 64 * 1024) << Bytes;
  EXPECT_LE((dispatch::small_tile<tuning, archscan::no_hooks, problem_of<Bytes>>::smem_bytes), 64 * 1024) << Bytes;
}

TEST(TuringDispatch, TilesOfLargeAccumulatorsFitEveryCuda13Device) {
  expect_tiles_fit_sm75<4>();
  expect_tiles_fit_sm75<64>();
  expect_tiles_fit_sm75<160>();
  expect_tiles_fit_sm75<256>();
  expect_tiles_fit_sm75<1024>();
}

}  // namespace
