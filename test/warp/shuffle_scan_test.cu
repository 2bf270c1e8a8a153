// warp/shuffle_scan.cuh: the warp's inclusive scan and its tree reduction, bit for bit against the
// host's own evaluation of the same association (floats, whose results tell associations apart), and
// against left folds for a non-commutative exact operator (so that operands stay in lane order). The
// native family relies on tree_reduce giving every lane what inclusive_scan's lane 31 holds
// (tile/lookback.cuh: a segment's total is folded either way).

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/warp/shuffle_scan.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace {

using archscan::test::device_buffer;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::random_values;

struct float_plus {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

//! Warp w scans and reduces values [32w, 32w + 32): scans[i] and totals[i] for lane i % 32.
template <class T, class Op>
__global__ void scan_and_reduce(const T* d_in, T* d_scans, T* d_totals, Op op) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  d_scans[i]  = archscan::warp::inclusive_scan(d_in[i], op);
  d_totals[i] = archscan::warp::tree_reduce(d_in[i], op);
}

//! The host's Kogge-Stone scan of 32 values: step d adds lane i - d's value on the left of lane i's.
template <class T, class Op>
std::vector<T> host_scan(const T* v, Op op) {
  std::vector<T> x(v, v + 32);
  for (int d = 1; d < 32; d *= 2) {
    const std::vector<T> before = x;
    for (int i = d; i < 32; ++i) x[i] = op(before[i - d], before[i]);
  }
  return x;
}

//! The host's balanced tree of [first, first + count), count a power of two.
template <class T, class Op>
T host_tree(const T* v, int count, Op op) {
  if (count == 1) return v[0];
  return op(host_tree(v, count / 2, op), host_tree(v + count / 2, count / 2, op));
}

template <class T, class Op>
void run(const std::vector<T>& h, Op op, std::vector<T>& scans, std::vector<T>& totals) {
  const int n = static_cast<int>(h.size());
  device_buffer<T> in(h), d_scans(n), d_totals(n);
  d_scans.poison();
  d_totals.poison();
  scan_and_reduce<<<n / 128, 128>>>(in.get(), d_scans.get(), d_totals.get(), op);
  archscan::test::check(cudaDeviceSynchronize(), "scan_and_reduce");
  scans  = d_scans.to_host();
  totals = d_totals.to_host();
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

TEST(WarpShuffleScan, FloatScanAndTreeAreTheHostsAssociationsBitForBit) {
  ARCHSCAN_REQUIRE_GPU();
  const auto h = random_values<float>(64 * 32, 7);
  std::vector<float> scans, totals;
  run(h, float_plus{}, scans, totals);
  int left_fold_differs = 0;
  for (int w = 0; w < 64; ++w) {
    const float* v        = h.data() + 32 * w;
    const auto expect     = host_scan(v, float_plus{});
    const float tree      = host_tree(v, 32, float_plus{});
    float left            = v[0];
    for (int i = 1; i < 32; ++i) left += v[i];
    left_fold_differs += !same_bits(left, tree);
    ASSERT_TRUE(same_bits(expect[31], tree)) << "the host's scan ends in its tree, warp " << w;
    for (int i = 0; i < 32; ++i) {
      EXPECT_TRUE(same_bits(scans[32 * w + i], expect[i])) << "scan, warp " << w << ", lane " << i;
      EXPECT_TRUE(same_bits(totals[32 * w + i], tree)) << "tree, warp " << w << ", lane " << i;
    }
  }
  // The inputs tell the associations apart: a left fold differs from the tree somewhere.
  EXPECT_GT(left_fold_differs, 0);
}

TEST(WarpShuffleScan, NonCommutativeOperandsStayInLaneOrder) {
  ARCHSCAN_REQUIRE_GPU();
  const auto h = random_values<mat2>(8 * 32, 11);
  std::vector<mat2> scans, totals;
  run(h, mat2_mul{}, scans, totals);
  for (int w = 0; w < 8; ++w) {
    mat2 left = h[32 * w];
    for (int i = 0; i < 32; ++i) {
      if (i > 0) left = mat2_mul{}(left, h[32 * w + i]);
      EXPECT_EQ(scans[32 * w + i], left) << "scan, warp " << w << ", lane " << i;
    }
    for (int i = 0; i < 32; ++i) EXPECT_EQ(totals[32 * w + i], left) << "tree, warp " << w << ", lane " << i;
  }
}

}  // namespace
