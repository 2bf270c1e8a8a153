#pragma once
// Scans under starvation, shared by the look-back tests (tile/lookback_test.cu, tile/segment_lookback_test.cu):
// the hooks that make chosen tiles sleep before they publish, the sizes, and int32 and
// non-commutative scans through the public Thrust API against the host.

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/archscan.cuh>

#include "support/device_buffer.cuh"

namespace archscan::test::starved {

using archscan::test::device_buffer;

//! Every 7th tile sleeps 100 us before publishing its aggregate (a test hook, hooks.cuh).
struct starve_hooks {
  static constexpr int starve_every   = 7;
  static constexpr unsigned starve_ns = 100000;
};

//! The same with a grid of resident blocks looping over tiles (the other schedule of the tile).
struct starve_resident_hooks : starve_hooks {
  static constexpr int resident_blocks_per_sm = 4;
};

//! x -> a * x + b (mod 2^32), plus a count: 12 bytes; composition is associative, not commutative.
struct affine {
  std::uint32_t a, b, count;
};
struct compose {  // apply l first, then r
  __host__ __device__ affine operator()(const affine& l, const affine& r) const {
    return affine{r.a * l.a, r.a * l.b + r.b, l.count + r.count};
  }
};
inline bool operator==(const affine& x, const affine& y) { return x.a == y.a && x.b == y.b && x.count == y.count; }

inline std::vector<std::int64_t> sizes() {
  // one tile, tile edges, and enough tiles that a look-back crosses 32-tile windows
  // (ARCHSCAN_TEST_SHORT, set under compute-sanitizer, drops the largest size)
  std::vector<std::int64_t> s = {1, 1791, 1793, 4095, 4097, 50 * 4096 + 123};
  if (std::getenv("ARCHSCAN_TEST_SHORT") == nullptr) s.push_back(300 * 4096 + 7);
  return s;
}

template <class Tuning>
void check_int32() {
  const archscan::policy<Tuning> policy{};
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (const std::int64_t n : sizes()) {
    std::vector<int> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = dist(rng);
    std::vector<int> expect(h.size());
    device_buffer<int> d_in(h), d_out(n);

    d_out.poison();
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin());
    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    ASSERT_EQ(d_out.to_host(), expect) << "inclusive, n = " << n;

    d_out.poison();
    thrust::exclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), 17);
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), 17);
    ASSERT_EQ(d_out.to_host(), expect) << "exclusive, n = " << n;
  }
}

template <class Tuning>
void check_affine() {
  const archscan::policy<Tuning> policy{};
  std::mt19937 rng(99);
  for (const std::int64_t n : sizes()) {
    std::vector<affine> h(static_cast<std::size_t>(n));
    for (auto& f : h) f = affine{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng()), 1u};
    std::vector<affine> expect(h.size());
    affine run = h[0];
    expect[0]  = run;
    for (std::size_t i = 1; i < h.size(); ++i) expect[i] = run = compose{}(run, h[i]);

    device_buffer<affine> d_in(h), d_out(n);
    d_out.poison();
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), compose{});
    std::vector<affine> got = d_out.to_host();
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(got[i] == expect[i]) << "n = " << n << ", i = " << i;

    // in place, with a seed on the left
    const affine seed{3u, 5u, 0u};
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_in.begin(), seed, compose{});
    run = seed;
    for (std::size_t i = 0; i < h.size(); ++i) expect[i] = run = compose{}(run, h[i]);
    got = d_in.to_host();
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(got[i] == expect[i]) << "seeded, n = " << n << ", i = " << i;
  }
}

}  // namespace archscan::test::starved
