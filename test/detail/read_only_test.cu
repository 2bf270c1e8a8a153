// detail/read_only.cuh: which inputs a tile reads with __ldg: raw pointers, const or not but never
// volatile (__ldg has no such overload, and its cache would keep what may change), to the arithmetic
// types __ldg has overloads for, and only where the tuning asks for the read-only path. Host only:
// compile-time values.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/detail/read_only.cuh>

namespace read_only_test {

using archscan::detail::ldg_input;
using archscan::detail::loads_read_only;

struct pair_of_ints {
  int a, b;
};
struct an_iterator {
  using value_type = int;
};

TEST(ReadOnly, RawPointersToLdgTypes) {
  EXPECT_TRUE(ldg_input<const int*>);
  EXPECT_TRUE(ldg_input<int*>);
  EXPECT_TRUE(ldg_input<const double*>);
  EXPECT_TRUE(ldg_input<const std::uint8_t*>);
  EXPECT_TRUE(ldg_input<const unsigned long long*>);
}

TEST(ReadOnly, NothingElse) {
  EXPECT_FALSE(ldg_input<const pair_of_ints*>);  // no __ldg overload
  EXPECT_FALSE(ldg_input<const bool*>);
  EXPECT_FALSE(ldg_input<an_iterator>);
  EXPECT_FALSE(ldg_input<int>);
  EXPECT_FALSE(ldg_input<const int* const*>);
  EXPECT_FALSE(ldg_input<volatile int*>);
  EXPECT_FALSE(ldg_input<const volatile double*>);
}

TEST(ReadOnly, OnlyWhereTheTuningAsks) {
  EXPECT_TRUE((loads_read_only<true, const int*>));
  EXPECT_FALSE((loads_read_only<false, const int*>));
  EXPECT_FALSE((loads_read_only<true, an_iterator>));
}

}  // namespace read_only_test
