#pragma once
// Comparison of archscan's results with CUB's, Thrust's and a host reference. Integers and user types
// compare bitwise; floating point within a stated tolerance relative to the running sum of magnitudes.
// A disagreement names the index and which implementation departs from the host reference.

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "support/device_buffer.cuh"
#include "support/values.cuh"

namespace archscan::test {

//! `got` (on the device) holds `want` item for item (operator==); the first difference fails.
template <class T>
void expect_equal(const device_buffer<T>& got, const std::vector<T>& want, const char* what, std::int64_t n) {
  const std::vector<T> h = got.to_host();
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(h[i] == want[i]) << what << ", n = " << n << ", first difference at " << i;
  }
}

//! Relative tolerance of a floating-point result: |x - ref| <= tol * (sum_{j<=i} |item_j| + |init| + 1).
template <class T>
constexpr double tolerance() {
  if constexpr (std::is_same_v<T, float>) return 2e-5;
  if constexpr (std::is_same_v<T, double>) return 1e-11;
  return 0.0;
}

template <class T>
bool close(const T& x, const T& ref, double scale) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(static_cast<double>(x))) return false;
    return std::fabs(static_cast<double>(x) - static_cast<double>(ref)) <= tolerance<T>() * scale;
  } else {
    return std::memcmp(&x, &ref, sizeof(T)) == 0 || x == ref;
  }
}

//! `scale[i]` bounds the magnitude of result i (ignored for exact types).
template <class T>
::testing::AssertionResult agree(const std::string& what, const std::vector<T>& archscan, const std::vector<T>& cub,
                                 const std::vector<T>& thrust_par, const std::vector<T>& reference,
                                 const std::vector<double>& scale) {
  const std::size_t n = reference.size();
  if (archscan.size() != n || cub.size() != n || thrust_par.size() != n) {
    return ::testing::AssertionFailure() << what << ": size mismatch";
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double s  = scale.empty() ? 1.0 : scale[i];
    const bool a_ok = close(archscan[i], reference[i], s);
    const bool c_ok = close(cub[i], reference[i], s);
    const bool t_ok = close(thrust_par[i], reference[i], s);
    if (a_ok && c_ok && t_ok) continue;
    auto f = ::testing::AssertionFailure();
    f << what << ": first disagreement at index " << i << " of " << n << ": archscan=" << show(archscan[i])
      << " cub=" << show(cub[i]) << " thrust::cuda::par=" << show(thrust_par[i])
      << " host reference=" << show(reference[i]) << ". Departing from the host reference:" << (a_ok ? "" : " archscan")
      << (c_ok ? "" : " CUB") << (t_ok ? "" : " thrust::cuda::par");
    if (!c_ok || !t_ok) f << " (CUB/Thrust departing too suggests a CCCL change or a wrong reference)";
    return f;
  }
  return ::testing::AssertionSuccess();
}

//! One implementation against the host reference alone, for calls no other implementation can make
//! (managed memory read back with no synchronization, types an oracle cannot take).
template <class T>
::testing::AssertionResult matches_reference(const std::string& what, const std::vector<T>& got,
                                             const std::vector<T>& reference, const std::vector<double>& scale = {}) {
  if (got.size() != reference.size()) return ::testing::AssertionFailure() << what << ": size mismatch";
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (close(got[i], reference[i], scale.empty() ? 1.0 : scale[i])) continue;
    return ::testing::AssertionFailure() << what << ": first disagreement at index " << i << " of " << reference.size()
                                         << ": archscan=" << show(got[i]) << " host reference=" << show(reference[i]);
  }
  return ::testing::AssertionSuccess();
}

//! Running sum of magnitudes, the scale of floating-point errors in a sum scan.
template <class T>
std::vector<double> magnitude_prefix(const std::vector<T>& items, double init_magnitude = 0.0) {
  std::vector<double> s(items.size());
  double acc = init_magnitude + 1.0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if constexpr (std::is_arithmetic_v<T>) acc += std::fabs(static_cast<double>(items[i]));
    s[i] = acc;
  }
  return s;
}

}  // namespace archscan::test
