// block/warp_totals_scan.cuh: the block-wide exclusive scan of one value a thread, over one warp, a few
// warps and 32 warps, with a non-commutative operator, and over the first warps of a larger block
// (first_threads_barrier: the other warps never call it). Checked against a sequential host fold.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/block/warp_totals_scan.cuh>

#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"

namespace warp_totals_scan_test {

using archscan::test::device_buffer;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::plus;

//! Blocks of `BlockThreads`, of which the first `Threads` scan; the others write their input back.
template <class T, int Threads, int BlockThreads, class Op>
__global__ void scan_kernel(const T* d_in, T* d_exclusive, T* d_total, Op op) {
  using scan = archscan::block::warp_totals_scan<T, Threads>;
  __shared__ typename scan::storage s;
  const int i = static_cast<int>(blockIdx.x) * BlockThreads + static_cast<int>(threadIdx.x);
  if (threadIdx.x >= Threads) {  // other work, which must not wait for the scan
    d_exclusive[i] = d_in[i];
    d_total[i]     = d_in[i];
    return;
  }
  T exclusive = d_in[i];
  T total;
  if constexpr (Threads == BlockThreads) {
    total = scan::exclusive_scan(d_in[i], exclusive, op, s);
  } else {
    total = scan::exclusive_scan(d_in[i], exclusive, op, s, typename scan::first_threads_barrier{});
  }
  if (threadIdx.x > 0) d_exclusive[i] = exclusive;  // thread 0's is undefined
  d_total[i] = total;
}

template <class T, int Threads, int BlockThreads = Threads, class Op>
void check(Op op) {
  constexpr int blocks   = 5;
  constexpr int n        = blocks * BlockThreads;
  const std::vector<T> h = archscan::test::random_values<T>(n, Threads * 31 + BlockThreads);
  device_buffer<T> d_in(h), d_exclusive(n), d_total(n);
  d_exclusive.poison();
  d_total.poison();
  scan_kernel<T, Threads, BlockThreads><<<blocks, BlockThreads>>>(d_in.get(), d_exclusive.get(), d_total.get(), op);
  archscan::test::check(cudaGetLastError(), "scan_kernel launch");
  const std::vector<T> exclusive = d_exclusive.to_host(), total = d_total.to_host();
  for (int b = 0; b < blocks; ++b) {
    const int first = b * BlockThreads;
    T fold          = h[first];
    for (int t = 1; t < Threads; ++t) {
      ASSERT_TRUE(exclusive[first + t] == fold) << "exclusive, block " << b << ", thread " << t;
      fold = op(fold, h[first + t]);
    }
    for (int t = 0; t < Threads; ++t) ASSERT_TRUE(total[first + t] == fold) << "total, block " << b << ", thread " << t;
    for (int t = Threads; t < BlockThreads; ++t) {
      ASSERT_TRUE(exclusive[first + t] == h[first + t] && total[first + t] == h[first + t])
          << "a thread outside the scan, block " << b << ", thread " << t;
    }
  }
}

TEST(BlockWarpTotalsScan, IntOneWarp) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 32>(plus{});
}
TEST(BlockWarpTotalsScan, IntThreeWarps) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 96>(plus{});
}
TEST(BlockWarpTotalsScan, IntThirtyTwoWarps) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 1024>(plus{});
}
TEST(BlockWarpTotalsScan, MatricesNonCommutative) {
  ARCHSCAN_REQUIRE_GPU();
  check<mat2, 96>(mat2_mul{});
  check<mat2, 1024>(mat2_mul{});
}
TEST(BlockWarpTotalsScan, FirstThreadsOfALargerBlock) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 64, 192>(plus{});
  check<mat2, 256, 288>(mat2_mul{});
}

}  // namespace warp_totals_scan_test
