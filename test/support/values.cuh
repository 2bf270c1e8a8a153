#pragma once
// Value types, operators and random inputs shared by the GPU tests.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <archscan/tuning.cuh>

namespace archscan::test {

//! 2x2 matrix of uint32 under multiplication mod 2^32: associative, not commutative, exact.
struct mat2 {
  std::uint32_t a, b, c, d;
  __host__ __device__ friend bool operator==(const mat2& x, const mat2& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
  __host__ __device__ friend bool operator!=(const mat2& x, const mat2& y) { return !(x == y); }
};

struct mat2_mul {
  __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

inline std::ostream& operator<<(std::ostream& os, const mat2& m) {
  return os << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
}

template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>) {
    os << static_cast<int>(v);
  } else {
    os.precision(17);
    os << v;
  }
  return os.str();
}

//! Random values, never all zero: small integers (sums stay exact), reals in [-1, 1),
//! and matrices near the identity (products stay varied).
template <class T>
std::vector<T> random_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {  // by index: vector<bool> has no bool&
    T x{};
    if constexpr (std::is_same_v<T, mat2>) {
      x = mat2{static_cast<std::uint32_t>(rng() % 3 + 1), static_cast<std::uint32_t>(rng() % 5),
               static_cast<std::uint32_t>(rng() % 5), static_cast<std::uint32_t>(rng() % 3 + 1)};
    } else if constexpr (std::is_same_v<T, bool>) {
      x = (rng() & 3) != 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
    } else if constexpr (std::is_unsigned_v<T>) {
      x = static_cast<T>(rng() % 200 + 1);
    } else {
      x = static_cast<T>(static_cast<std::int64_t>(rng() % 201) - 100);
    }
    v[i] = x;
  }
  if (n > 0 && v[0] == T{}) v[0] = random_values<T>(1, seed + 1)[0];
  return v;
}

//! Random matrices of odd determinant (invertible mod 2^32): a product of them never forgets an item,
//! so a fold that skips, repeats or reorders one shows in its result.
inline std::vector<mat2> invertible_mat2s(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<mat2> v(static_cast<std::size_t>(n));
  for (auto& m : v) {
    m = {static_cast<std::uint32_t>(rng() % 3 * 2 + 1), static_cast<std::uint32_t>(rng() % 3 * 2),
         static_cast<std::uint32_t>(rng() % 5), static_cast<std::uint32_t>(rng() % 3 * 2 + 1)};
  }
  return v;
}

//! The host's sequential scan of `items` under `op`: exclusive ones from `init`, inclusive ones from
//! `init` on the left where `has_init`; floating-point sums accumulate in double.
template <class T>
using host_accum_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class T, class Op>
std::vector<T> host_scan(const std::vector<T>& items, Op op, bool exclusive, bool has_init, T init) {
  using A = host_accum_t<T>;
  std::vector<T> out(items.size());
  bool have = has_init;
  A acc     = static_cast<A>(init);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const A x = static_cast<A>(items[i]);
    if (exclusive) out[i] = static_cast<T>(acc);
    acc  = have ? static_cast<A>(op(acc, x)) : x;
    have = true;
    if (!exclusive) out[i] = static_cast<T>(acc);
  }
  return out;
}

//! Under compute-sanitizer (ARCHSCAN_TEST_SHORT=1) the size lists shrink: the tools are slow.
inline bool short_run() {
  const char* v = std::getenv("ARCHSCAN_TEST_SHORT");
  return v != nullptr && v[0] == '1';
}

//! Sizes every scan test runs: empty, one, tile boundaries of every family +-1, 2^k +-1, odd sizes.
inline std::vector<std::int64_t> test_sizes() {
  if (short_run()) return {0, 1, 2, 33, 1023, 1024, 1025, 4095, 4097, 12289, 65537, 300007};
  std::vector<std::int64_t> s = {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129};
  // Every shipped row's tiles, full, small and single (test/tuning_test.cu checks), and a few more shapes.
  for (std::int64_t tile : {256,  384,  512,  768,  1024, 1536, 1792, 2048,  2304,  3072,  3584,  3840, 4096,
                            4608, 5120, 6144, 7168, 7680, 8192, 9216, 11264, 12288, 15360, 16384, 18432}) {
    for (std::int64_t m : {1, 2, 3}) {
      s.push_back(tile * m - 1);
      s.push_back(tile * m);
      s.push_back(tile * m + 1);
    }
  }
  for (int k = 15; k <= 22; ++k) {
    s.push_back((std::int64_t{1} << k) - 1);
    s.push_back((std::int64_t{1} << k) + 1);
  }
  for (std::int64_t n : {1000003, 2718281, 3 * (1 << 20) + 17, 1048576 + 1024 * 1024 + 3}) s.push_back(n);
  return s;
}

//! Fewer sizes for the slower cross-product tests (iterators, mixed types).
inline std::vector<std::int64_t> short_sizes() {
  if (short_run()) return {0, 1, 33, 1024, 4097, 65537};
  return {0, 1, 2, 33, 1023, 1024, 1025, 4097, 65537, 1000003};  // 1024: native's single tiles, full
}

//! The items of one of `Tuning`'s tiles for `T`: its row for sizeof(T) (tuning/shape.cuh), at
//! items_per_thread (none of the small, large or single tiles of a native row).
template <class Tuning, class T>
constexpr std::int64_t row_tile_items() {
  using row = archscan::row_for<Tuning, sizeof(T)>;
  return static_cast<std::int64_t>(row::block_threads) * row::items_per_thread;
}

//! Sizes around a native row's large tiles (taken from its large_from_items up: tuning/shape.cuh), beyond
//! the lists above: just below, at and above the threshold, whole tiles only, and a partial last tile.
template <class Row>
std::vector<std::int64_t> sizes_around_large_tiles() {
  using large = archscan::detail::large_tiles<Row>;
  static_assert(large::present, "the row has large tiles");
  const std::int64_t tile = std::int64_t{large::block_threads} * large::items_per_thread;
  return {large::from_items - 1, large::from_items, large::from_items + 1,
          (large::from_items + tile - 1) / tile * tile,  // whole tiles only
          large::from_items + 3 * tile + 5};
}

//! Sizes of `counts` tiles of `tile` items, each three ways: the last tile full, one item short, or
//! holding a single item.
inline std::vector<std::int64_t> sizes_at_tile_counts(std::int64_t tile, const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> s;
  for (std::int64_t tiles : counts) {
    for (std::int64_t d : {-1, 0, 1}) s.push_back(tiles * tile + d - (d > 0 ? tile : 0));
  }
  return s;
}

//! The bytes of `v`'s items: results compared bit for bit (floating point included).
template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

}  // namespace archscan::test
