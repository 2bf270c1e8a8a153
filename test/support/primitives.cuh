#pragma once
// Values, operators and inputs for the tests of the block and warp primitives (test/block, test/warp):
// types of one, three and four words, operators that do not commute, and inputs whose folds are exact
// in any association, so that a result compares bit for bit with a sequential host fold.

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "support/values.cuh"

namespace archscan::test {

struct plus {
  template <class T>
  __host__ __device__ T operator()(const T& x, const T& y) const {
    return x + y;
  }
};

//! Three bytes: one word, partly filled.
struct rgb {
  std::uint8_t r, g, b;
  __host__ __device__ friend bool operator==(const rgb& x, const rgb& y) {
    return x.r == y.r && x.g == y.g && x.b == y.b;
  }
};
//! (r, g): x -> g + r x mod 2^8, composed left to right; b summed. Associative, not commutative.
struct rgb_affine {
  __host__ __device__ rgb operator()(const rgb& x, const rgb& y) const {
    return {static_cast<std::uint8_t>(y.r * x.r), static_cast<std::uint8_t>(y.r * x.g + y.g),
            static_cast<std::uint8_t>(x.b + y.b)};
  }
};

//! Eight bytes, not arithmetic: two words through the shuffles' word-by-word path.
struct affine2 {
  std::uint32_t a, b;
  __host__ __device__ friend bool operator==(const affine2& x, const affine2& y) { return x.a == y.a && x.b == y.b; }
};
//! x -> b + a x mod 2^32, composed left to right. Associative, not commutative.
struct affine2_compose {
  __host__ __device__ affine2 operator()(const affine2& x, const affine2& y) const {
    return {y.a * x.a, y.a * x.b + y.b};
  }
};

//! Twelve bytes: three words, no multiple of 8.
struct affine3 {
  std::uint32_t a, b, n;
  __host__ __device__ friend bool operator==(const affine3& x, const affine3& y) {
    return x.a == y.a && x.b == y.b && x.n == y.n;
  }
};
//! (a, b): x -> b + a x mod 2^32, composed left to right; n summed. Associative, not commutative.
struct affine3_compose {
  __host__ __device__ affine3 operator()(const affine3& x, const affine3& y) const {
    return {y.a * x.a, y.a * x.b + y.b, x.n + y.n};
  }
};

//! Random inputs, never all zero: doubles are integers (their sums exact in any order), the affine
//! maps' factors small and odd (invertible mod 2^k, so that a product never forgets the items before
//! it); other types as random_values gives them.
template <class T>
std::vector<T> exact_inputs(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    if constexpr (std::is_same_v<T, rgb>) {
      x = {static_cast<std::uint8_t>(rng() % 3 * 2 + 1), static_cast<std::uint8_t>(rng()),
           static_cast<std::uint8_t>(rng())};
    } else if constexpr (std::is_same_v<T, affine3>) {
      x = {static_cast<std::uint32_t>(rng() % 4 * 2 + 1), static_cast<std::uint32_t>(rng()),
           static_cast<std::uint32_t>(rng())};
    } else if constexpr (std::is_same_v<T, affine2>) {
      x = {static_cast<std::uint32_t>(rng() % 4 * 2 + 1), static_cast<std::uint32_t>(rng())};
    } else if constexpr (std::is_same_v<T, double>) {
      x = static_cast<double>(static_cast<std::int64_t>(rng() % 2001) - 1000);
    } else {
      x = random_values<T>(1, rng())[0];
    }
  }
  return v;
}

//! What each warp's inclusive scan of `h` gives: a sequential fold over every 32 items, in order.
template <class T, class Op>
std::vector<T> per_warp_inclusive(const std::vector<T>& h, Op op) {
  std::vector<T> r(h);
  for (std::size_t i = 1; i < r.size(); ++i) {
    if (i % 32 != 0) r[i] = op(r[i - 1], h[i]);
  }
  return r;
}

//! `n` random lanes, 0..31.
inline std::vector<int> random_lanes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> lanes(n);
  for (auto& lane : lanes) lane = static_cast<int>(rng() % 32);
  return lanes;
}

}  // namespace archscan::test
