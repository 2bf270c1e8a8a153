// Accumulators large enough that a tile needs more than the 48 KiB of shared memory every block may use
// without asking: the blelloch and turing dispatches opt in (dispatch/family.cuh, opt_in_dynamic_smem)
// and the scan must still be right, or, on a device that cannot give that much, throw
// thrust::system_error naming shared memory. kepler keeps its tiles in registers and never opts in.
//
// The accumulator is 160 bytes: 39 running sums and a "first item" field, so the operator is
// associative and not commutative. turing tiles of it take ~62 KiB (128 threads x 3 items), blelloch
// blocks ~160 KiB (1024 items).

#include <cstdint>
#include <string>
#include <vector>

#include <thrust/scan.h>
#include <thrust/system_error.h>

#include <archscan/archscan.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using archscan::test::device_buffer;

constexpr int sums = 39;

struct wide {
  std::uint32_t sum[sums];
  std::uint32_t first;  //!< the first item's id in the range: order-sensitive
};

struct combine {  // a before b
  __host__ __device__ wide operator()(const wide& a, const wide& b) const {
    wide r;
    for (int k = 0; k < sums; ++k) r.sum[k] = a.sum[k] + b.sum[k];
    r.first = a.first;
    return r;
  }
};

wide item(std::int64_t i) {
  wide w;
  for (int k = 0; k < sums; ++k) w.sum[k] = static_cast<std::uint32_t>((i * 2654435761u) >> (k % 24)) + k;
  w.first = static_cast<std::uint32_t>(i) + 1;
  return w;
}

bool same(const wide& x, const wide& y) {
  for (int k = 0; k < sums; ++k)
    if (x.sum[k] != y.sum[k]) return false;
  return x.first == y.first;
}

int smem_optin_limit() {
  int device = 0, bytes = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), cudaSuccess);
  return bytes;
}

template <class Policy>
void check_inclusive_scan(const Policy& policy, const char* name, int tile_smem_estimate) {
  for (const std::int64_t n : {1, 383, 384, 385, 5000, 100'003}) {
    std::vector<wide> h(n);
    for (std::int64_t i = 0; i < n; ++i) h[i] = item(i);
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
    const std::vector<wide> r = out.to_host();
    wide acc = h[0];
    for (std::int64_t i = 0; i < n; ++i) {
      if (i > 0) acc = combine{}(acc, h[i]);
      ASSERT_TRUE(same(r[i], acc)) << name << ", n = " << n << ", i = " << i;
    }
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

}  // namespace
