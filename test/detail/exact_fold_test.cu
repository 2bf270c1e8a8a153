// detail::associates_exactly (host): the operators a deterministic fold may re-associate are exactly
// those that give the same bits in any association (integer sums, products, minima, maxima, bitwise
// operations, and by-key items of them) and those a user declares exact (associativity.cuh, on the
// declared accumulator type only), and the premise checked: random integers (unsigned ones
// wrapping) folded left to right and as a tree give the same result under each claimed operator.

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <cuda/functional>
#include <cuda/std/functional>
#include <gtest/gtest.h>

#include <archscan/detail/exact_fold.cuh>

namespace {

using archscan::detail::associates_exactly;
using archscan::detail::callable;
using archscan::detail::declared_exact;
using archscan::detail::keyed;
using archscan::detail::segmented_op;

struct user_sum {
  template <class T>
  T operator()(T a, T b) const {
    return a + b;
  }
};
//! A user's operator declared exact on int (associativity.cuh).
struct declared_sum : user_sum {};

}  // namespace

template <>
struct archscan::exactly_associative<declared_sum, int> : std::true_type {};

namespace {

template <class F, class T>
constexpr bool exact = associates_exactly<callable<F>, T>;

TEST(ExactFold, IntegerSumsMinimaMaximaAndBitwiseOperationsOnly) {
  static_assert(exact<::cuda::std::plus<>, int> && exact<::cuda::std::plus<int>, int>);
  static_assert(exact<::cuda::std::plus<>, std::int8_t> && exact<::cuda::std::plus<>, std::uint64_t>);
  static_assert(exact<::cuda::std::multiplies<>, std::int64_t> && exact<::cuda::minimum<>, std::int16_t>);
  static_assert(exact<::cuda::maximum<unsigned>, unsigned> && exact<::cuda::std::bit_xor<>, std::uint8_t>);
  static_assert(exact<::cuda::std::bit_and<>, int> && exact<::cuda::std::bit_or<>, long long>);
  static_assert(exact<const ::cuda::std::plus<>, int>);
  // Rounding, a conversion between steps, bool, or an operator archscan cannot see into: not claimed.
  static_assert(!exact<::cuda::std::plus<>, float> && !exact<::cuda::std::plus<>, double>);
  static_assert(!exact<::cuda::minimum<>, float>);
  static_assert(!exact<::cuda::std::plus<int>, std::int64_t> && !exact<::cuda::std::plus<std::int8_t>, int>);
  static_assert(!exact<::cuda::std::plus<>, bool> && !exact<::cuda::std::minus<>, int>);
  static_assert(!exact<user_sum, int>);
  // By-key items: as their values, under the operator the dispatch holds (thrust/run_scan.cuh wraps
  // segmented_op in callable) and bare.
  static_assert(associates_exactly<callable<segmented_op<callable<::cuda::std::plus<>>>>, keyed<int>>);
  static_assert(!associates_exactly<callable<segmented_op<callable<::cuda::std::plus<>>>>, keyed<float>>);
  static_assert(associates_exactly<segmented_op<callable<::cuda::std::plus<>>>, keyed<int>>);
  static_assert(!associates_exactly<segmented_op<callable<::cuda::std::plus<>>>, keyed<double>>);
  static_assert(!associates_exactly<segmented_op<callable<user_sum>>, keyed<int>>);
  SUCCEED();
}

TEST(ExactFold, DeclaredUserOperatorsOnTheirDeclaredTypeOnly) {
  static_assert(exact<declared_sum, int> && exact<const declared_sum, int>);
  static_assert(!exact<declared_sum, long long> && !exact<declared_sum, float>);
  static_assert(associates_exactly<callable<segmented_op<callable<declared_sum>>>, keyed<int>>);
  static_assert(!associates_exactly<callable<segmented_op<callable<declared_sum>>>, keyed<long long>>);
  static_assert(!archscan::exactly_associative_v<user_sum, int>);
  SUCCEED();
}

//! Only a declaration may send a wave of long runs back to the ordered fold
//! (dispatch/native_dispatch.cuh, `exact_waves_in_order`); libcu++'s integer functors stay trees.
TEST(ExactFold, DeclaredAloneTellsTheUsersOperatorsApart) {
  static_assert(declared_exact<callable<declared_sum>, int> && declared_exact<callable<const declared_sum>, int>);
  static_assert(!declared_exact<callable<declared_sum>, long long>);
  static_assert(declared_exact<callable<segmented_op<callable<declared_sum>>>, keyed<int>>);
  static_assert(!declared_exact<callable<::cuda::std::plus<>>, long long>);
  static_assert(!declared_exact<callable<::cuda::std::plus<int>>, int>);
  static_assert(!declared_exact<callable<segmented_op<callable<::cuda::std::plus<>>>>, keyed<long long>>);
  static_assert(!declared_exact<callable<user_sum>, int>);
  SUCCEED();
}

//! A left fold and a pairwise tree over the same operands, in order; signed operands small enough
//! that no sum overflows (undefined in C++; the device wraps).
template <class T, class F>
void expect_any_association_same(F f, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(1000);
  for (T& x : v) {
    x = std::is_signed_v<T> ? static_cast<T>(static_cast<std::int64_t>(rng() % 2001) - 1000) : static_cast<T>(rng());
  }
  T left = v[0];
  for (std::size_t i = 1; i < v.size(); ++i) left = static_cast<T>(f(left, v[i]));
  std::vector<T> level = v;
  while (level.size() > 1) {
    std::vector<T> up;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) up.push_back(static_cast<T>(f(level[i], level[i + 1])));
    if (level.size() % 2 == 1) up.push_back(level.back());
    level = up;
  }
  EXPECT_EQ(left, level[0]);
}

TEST(ExactFold, ClaimedOperatorsFoldTheSameInAnyAssociation) {
  expect_any_association_same<std::uint8_t>(::cuda::std::plus<>{}, 1);
  expect_any_association_same<std::int32_t>(::cuda::std::plus<>{}, 2);
  expect_any_association_same<std::uint32_t>(::cuda::std::plus<>{}, 7);
  expect_any_association_same<std::uint64_t>(::cuda::std::multiplies<>{}, 3);
  expect_any_association_same<std::int16_t>(::cuda::minimum<>{}, 4);
  expect_any_association_same<std::int64_t>(::cuda::maximum<>{}, 5);
  expect_any_association_same<std::uint32_t>(::cuda::std::bit_xor<>{}, 6);
}

}  // namespace
