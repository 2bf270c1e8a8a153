// block/warp_totals_scan.cuh: the block-wide exclusive scan of one value a thread, over one warp, a few
// warps and 32 warps, with a non-commutative operator, and over the first warps of a larger block
// (first_threads_barrier: the other warps never call it, and wait for the scan to finish, which a
// whole-block barrier would deadlock until they give up). Checked against a sequential host fold.

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

//! About 40 ms at 1.7 GHz: far longer than a scan of one block, short enough for a failing test.
constexpr long long wait_cycles = 1ll << 26;

//! Blocks of `BlockThreads`, of which the first `Threads` scan. The others wait until thread 0 has the
//! scan's result (or give up after wait_cycles), note in `d_saw_scan` whether it came, and write their
//! input back: were the scan's barrier the whole block's, it would wait for them while they wait for it.
template <class T, int Threads, int BlockThreads, class Op>
__global__ void __launch_bounds__(BlockThreads)
    scan_kernel(const T* d_in, T* d_exclusive, T* d_total, int* d_saw_scan, Op op) {
  using scan = archscan::block::warp_totals_scan<T, Threads>;
  __shared__ typename scan::storage s;
  __shared__ int scanned;
  const int i = static_cast<int>(blockIdx.x) * BlockThreads + static_cast<int>(threadIdx.x);
  if (threadIdx.x == 0) scanned = 0;
  __syncthreads();  // every thread, before any takes its branch
  if (threadIdx.x >= Threads) {
    const long long start = clock64();
    while (atomicAdd(&scanned, 0) == 0 && clock64() - start < wait_cycles) {
    }
    if (threadIdx.x == Threads) d_saw_scan[blockIdx.x] = atomicAdd(&scanned, 0);
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
  if (threadIdx.x == 0) atomicExch(&scanned, 1);
  if (threadIdx.x > 0) d_exclusive[i] = exclusive;  // thread 0's is undefined
  d_total[i] = total;
}

template <class T, int Threads, int BlockThreads = Threads, class Op>
void check(Op op) {
  constexpr int blocks   = 5;
  constexpr int n        = blocks * BlockThreads;
  const std::vector<T> h = archscan::test::random_values<T>(n, Threads * 31 + BlockThreads);
  device_buffer<T> d_in(h), d_exclusive(n), d_total(n);
  device_buffer<int> d_saw_scan(blocks);
  d_exclusive.poison();
  d_total.poison();
  d_saw_scan.poison();
  scan_kernel<T, Threads, BlockThreads>
      <<<blocks, BlockThreads>>>(d_in.get(), d_exclusive.get(), d_total.get(), d_saw_scan.get(), op);
  archscan::test::check(cudaGetLastError(), "scan_kernel launch");
  const std::vector<T> exclusive = d_exclusive.to_host(), total = d_total.to_host();
  const std::vector<int> saw_scan = d_saw_scan.to_host();
  for (int b = 0; b < blocks; ++b) {
    const int first = b * BlockThreads;
    T fold          = h[first];
    for (int t = 1; t < Threads; ++t) {
      ASSERT_TRUE(exclusive[first + t] == fold) << "exclusive, block " << b << ", thread " << t;
      fold = op(fold, h[first + t]);
    }
    for (int t = 0; t < Threads; ++t) ASSERT_TRUE(total[first + t] == fold) << "total, block " << b << ", thread " << t;
    if (Threads < BlockThreads) {
      ASSERT_EQ(saw_scan[b], 1) << "the other warps of block " << b << " waited in vain: the scan waited for them";
    }
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
