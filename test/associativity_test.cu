// associativity.cuh (host): archscan::exactly_associative, a user's promise that an operator folds a type
// exactly. Nothing is exact by default (not even libcu++'s sums: their recognition is the dispatch's,
// detail/exact_fold.cuh); a declaration holds for the functor type and the accumulator type it names
// and no other (no base or derived class, no other type, no wrapper), and the _v form says the same.
// The declaration's premise is shown on the header's own example, 2x2 matrices of uint32 under
// products mod 2^32: random triples give the same bits in both associations, where float sums do not.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>

#include <cuda/functional>
#include <cuda/std/functional>
#include <gtest/gtest.h>

#include <archscan/associativity.cuh>

namespace associativity_test {

struct user_sum {
  template <class T>
  __host__ __device__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct declared_sum : user_sum {};  // declared exact on int below
struct derived_sum : declared_sum {};
struct undeclared_base {};
struct declared_derived : undeclared_base {};  // declared exact on unsigned below
template <class F>
struct wrapper : F {};
//! The header's example: 2x2 matrices of uint32, products mod 2^32. Its own type here, not the tests'
//! shared mat2: a declaration must be seen by every unit that scans with the functor.
struct mat2x2 {
  std::uint32_t a, b, c, d;
};
struct mat_mul {
  mat2x2 operator()(const mat2x2& x, const mat2x2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

}  // namespace associativity_test

template <>
struct archscan::exactly_associative<associativity_test::declared_sum, int> : std::true_type {};
template <>
struct archscan::exactly_associative<associativity_test::declared_derived, unsigned> : std::true_type {};
template <>
struct archscan::exactly_associative<associativity_test::mat_mul, associativity_test::mat2x2> : std::true_type {};

namespace associativity_test {

using archscan::exactly_associative;
using archscan::exactly_associative_v;

TEST(Associativity, NothingIsExactUntilDeclared) {
  static_assert(!exactly_associative_v<user_sum, int>);
  static_assert(!exactly_associative_v<::cuda::std::plus<int>, int>);
  static_assert(!exactly_associative_v<::cuda::std::plus<>, std::uint64_t>);
  static_assert(!exactly_associative_v<::cuda::maximum<>, int>);
  static_assert(!exactly_associative<::cuda::std::bit_xor<>, unsigned>::value);
  SUCCEED();
}

TEST(Associativity, ADeclarationHoldsForItsTypesAlone) {
  static_assert(exactly_associative_v<declared_sum, int> && exactly_associative<declared_sum, int>::value);
  static_assert(std::is_base_of_v<std::true_type, exactly_associative<declared_sum, int>>);
  static_assert(!exactly_associative_v<declared_sum, unsigned> && !exactly_associative_v<declared_sum, float>);
  static_assert(!exactly_associative_v<declared_sum, long long>);
  static_assert(!exactly_associative_v<derived_sum, int>, "a declaration for a base class does not apply");
  static_assert(!exactly_associative_v<user_sum, int>, "nor one for a derived class to its base");
  static_assert(!exactly_associative_v<wrapper<declared_sum>, int>, "a wrapped functor is another type");
  static_assert(exactly_associative_v<declared_derived, unsigned>);
  static_assert(!exactly_associative_v<undeclared_base, unsigned>);
  static_assert(std::is_base_of_v<std::false_type, exactly_associative<derived_sum, int>>);
  SUCCEED();
}

template <class T, class Op, class Make>
int same_bits_in_both_associations(Op op, Make make, int trials) {
  std::mt19937_64 rng(7);
  int same = 0;
  for (int i = 0; i < trials; ++i) {
    const T a = make(rng), b = make(rng), c = make(rng);
    const T left = op(op(a, b), c), right = op(a, op(b, c));
    same += std::memcmp(&left, &right, sizeof(T)) == 0;
  }
  return same;
}

TEST(Associativity, TheDeclaredExampleFoldsExactlyAndFloatSumsDoNot) {
  static_assert(exactly_associative_v<mat_mul, mat2x2>);
  const auto matrix = [](std::mt19937_64& rng) {
    return mat2x2{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                  static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
  };
  EXPECT_EQ(same_bits_in_both_associations<mat2x2>(mat_mul{}, matrix, 1000), 1000);
  // What the default protects: float sums of mixed magnitudes round differently by association.
  const auto real = [](std::mt19937_64& rng) {
    return std::ldexp(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng), static_cast<int>(rng() % 40) - 20);
  };
  static_assert(!exactly_associative_v<user_sum, float>);
  EXPECT_LT(same_bits_in_both_associations<float>(user_sum{}, real, 1000), 1000);
}

}  // namespace associativity_test
