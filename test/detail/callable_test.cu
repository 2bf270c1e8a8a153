// detail/callable.cuh: a function object held by value and called through a const wrapper, whatever
// constness its operator() has, as Thrust calls a copy of it: a non-const operator() works and changes
// the wrapper's copy alone, arguments are forwarded (an lvalue stays an lvalue) and a reference result
// stays a reference. Host only: the wrapper is __host__ __device__.

#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/detail/callable.cuh>

namespace callable_test {

struct counting_plus {  // operator() is not const: it counts its calls
  int calls = 0;
  int operator()(int x, int y) {
    ++calls;
    return x + y;
  }
};
struct first_of {
  int& operator()(int& x, int&) const { return x; }
};
struct by_category {
  int operator()(int&) const { return 1; }
  int operator()(int&&) const { return 2; }
};

TEST(Callable, ANonConstOperatorIsCalledOnTheWrappersOwnCopy) {
  counting_plus user;
  const archscan::detail::callable c{user};  // const, as a kernel's problem is
  EXPECT_EQ(c(2, 3), 5);
  EXPECT_EQ(c(4, 5), 9);
  EXPECT_EQ(c.f.calls, 2);
  EXPECT_EQ(user.calls, 0);  // the user's object is not the one called
}

TEST(Callable, ArgumentsAndResultsKeepTheirCategory) {
  const archscan::detail::callable c{first_of{}};
  int a = 1, b = 2;
  static_assert(std::is_same_v<decltype(c(a, b)), int&>);
  c(a, b) = 7;
  EXPECT_EQ(a, 7);
  const archscan::detail::callable d{by_category{}};
  EXPECT_EQ(d(a), 1);
  EXPECT_EQ(d(3), 2);
}

}  // namespace callable_test
