#pragma once
// What the native determinism tests share (test/thrust/determinism_*_test.cu): tunings that take one
// route away, and the comparison of two tunings' bits over the same tiles.

#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/device_buffer.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace archscan::test {

//! The wave (every tile resident, one grid barrier) folds exactly as the look-back does: the same bits.
using native_lookback_only = lookback_only<archscan::native_tuning>;
//! A wave where native takes one thread block cluster (at most 16 tiles, sm_90 on).
struct native_no_cluster : archscan::native_tuning {
  static constexpr int cluster_max_tiles = 0;
};
//! Its waves of an exact operator folded in order past 8 bytes a lane's run: 4-byte accumulators
//! keep the tree up to 65 tiles, 8-byte ones (by-key uint32) up to 33, wider ones never.
struct native_short_tree_runs : native_no_cluster {
  static constexpr std::size_t wave_tree_max_run_bytes = 8;
};

//! Scans random floats (inclusive) and doubles (exclusive, seeded) of `n` items with tunings `Wave`
//! and `Lookback` (another route over the same tiles: the same tuning without its wave, or the other
//! walk): expects the same bits, and float sums within 1e-5 of the sum of magnitudes so far (float
//! rounding).
template <class Wave, class Lookback>
void expect_same_bits(std::int64_t n, std::uint64_t seed) {
  const auto f = random_values<float>(n, seed);
  const auto d = random_values<double>(n, seed + 1);
  device_buffer<float> fin(f), fa(n), fb(n);
  device_buffer<double> din(d), da(n), db(n);
  fa.poison();
  fb.poison();
  da.poison();
  db.poison();
  thrust::inclusive_scan(archscan::policy<Wave>{}, fin.begin(), fin.end(), fa.begin());
  thrust::inclusive_scan(archscan::policy<Lookback>{}, fin.begin(), fin.end(), fb.begin());
  thrust::exclusive_scan(archscan::policy<Wave>{}, din.begin(), din.end(), da.begin(), 0.5);
  thrust::exclusive_scan(archscan::policy<Lookback>{}, din.begin(), din.end(), db.begin(), 0.5);
  const auto fh = fa.to_host();
  EXPECT_EQ(bytes_of(fh), bytes_of(fb.to_host())) << "float inclusive, n=" << n;
  EXPECT_EQ(bytes_of(da.to_host()), bytes_of(db.to_host())) << "double exclusive with seed, n=" << n;
  double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    exact += f[i];
    magnitude += std::abs(f[i]);
    ASSERT_NEAR(fh[i], exact, 1e-5 * magnitude + 1e-6) << "n=" << n << ", i=" << i;
  }
}

}  // namespace archscan::test
