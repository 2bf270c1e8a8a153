#pragma once
// Typed-test cases: every policy of support/policies.cuh crossed with value types and operators.

#include <cstdint>
#include <type_traits>

#include <cub/device/device_scan.cuh>
#include <gtest/gtest.h>
#include <thrust/functional.h>

#include "support/policies.cuh"
#include "support/values.cuh"

namespace archscan::test {

template <class Policy, class Value, class Op>
struct scan_case {
  using policy = Policy;
  using value  = Value;
  using op     = Op;
};

template <class... Ts>
struct type_list {};

template <class... Lists>
struct concat;
template <class... A>
struct concat<type_list<A...>> {
  using type = type_list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat<type_list<A...>, type_list<B...>, Rest...> {
  using type = typename concat<type_list<A..., B...>, Rest...>::type;
};

template <class VO, class... P>
struct with_every_policy {
  using type = type_list<scan_case<P, typename VO::value, typename VO::op>...>;
};

template <class Policies, class... ValueOps>
struct cross;
template <class... P, class... VO>
struct cross<policy_list<P...>, VO...> {
  using type = typename concat<typename with_every_policy<VO, P...>::type...>::type;
};

template <class List>
struct to_gtest;
template <class... Ts>
struct to_gtest<type_list<Ts...>> {
  using type = ::testing::Types<Ts...>;
};

template <class V, class O>
struct value_op {
  using value = V;
  using op    = O;
};

//! The policies of `List` (a policy_list) whose tuning is of family `Family` (a tag of tuning/shape.cuh).
template <class Family, class P>
using of_family = std::conditional_t<std::is_same_v<typename P::tuning::family, Family>, type_list<P>, type_list<>>;
template <class List>
struct as_policy_list;
template <class... P>
struct as_policy_list<type_list<P...>> {
  using type = policy_list<P...>;
};
template <class Family, class List>
struct family_policies;
template <class Family, class... P>
struct family_policies<Family, policy_list<P...>> {
  using type = typename as_policy_list<typename concat<of_family<Family, P>...>::type>::type;
};

//! The value types and operators of the scan suite: sums of every width (one- and two-byte sums
//! typed, so that every form accumulates in the item's width and wraps), a max, and a
//! non-commutative user type. One list, as X(value, operator) entries, for code that must name each
//! (explicit instantiations: test/thrust/scan_by_key_oracles.cu), and as a type below.
#define ARCHSCAN_SCAN_VALUE_OPS(X)            \
  X(std::int32_t, thrust::plus<>)             \
  X(std::int32_t, thrust::maximum<>)          \
  X(std::uint8_t, thrust::plus<>)             \
  X(std::int8_t, thrust::plus<std::int8_t>)   \
  X(std::int16_t, thrust::plus<std::int16_t>) \
  X(std::int64_t, thrust::plus<>)             \
  X(float, thrust::plus<>)                    \
  X(double, thrust::plus<>)                   \
  X(mat2, mat2_mul)

template <class List>
struct without_first;
template <class... VO>
struct without_first<type_list<void, VO...>> {
  using type = type_list<VO...>;
};
// Each entry a ", value_op<...>" after a leading void, dropped again.
#define ARCHSCAN_VALUE_OP_ENTRY(T, Op) , value_op<T, Op>
using scan_value_ops = typename without_first<type_list<void ARCHSCAN_SCAN_VALUE_OPS(ARCHSCAN_VALUE_OP_ENTRY)>>::type;
#undef ARCHSCAN_VALUE_OP_ENTRY
template <class Policies, class ValueOps>
struct cross_list;
template <class Policies, class... VO>
struct cross_list<Policies, type_list<VO...>> {
  using type = typename cross<Policies, VO...>::type;
};
//! scan_value_ops crossed with `Policies`.
template <class Policies>
using scan_cases_of = typename to_gtest<typename cross_list<Policies, scan_value_ops>::type>::type;
using scan_cases    = scan_cases_of<all_policies>;
//! The same cases with the policies of one family, for suites heavy enough to compile in one
//! translation unit per family.
template <class Family>
using family_scan_cases = scan_cases_of<typename family_policies<Family, all_policies>::type>;

//! One case per policy, for tests that vary iterators or types themselves.
template <class Policy>
struct policy_case {
  using policy = Policy;
};
template <class List>
struct per_policy;
template <class... P>
struct per_policy<policy_list<P...>> {
  using type = ::testing::Types<policy_case<P>...>;
};
using policy_cases = typename per_policy<all_policies>::type;

//! One case per policy of family `Family` (a tag of tuning/shape.cuh), for tests heavy enough to compile
//! in one translation unit per family.
template <class Family>
using family_policy_cases = typename per_policy<typename family_policies<Family, all_policies>::type>::type;

//! One case per blocking policy (those that return with results ready), for tests that rely on it.
template <class P>
using blocking_case = std::conditional_t<P::blocking, type_list<policy_case<P>>, type_list<>>;
template <class List>
struct per_blocking_policy;
template <class... P>
struct per_blocking_policy<policy_list<P...>> {
  using type = typename to_gtest<typename concat<blocking_case<P>...>::type>::type;
};
using blocking_policy_cases = typename per_blocking_policy<all_policies>::type;

inline const char* family_name(archscan::blelloch_family) { return "blelloch"; }
inline const char* family_name(archscan::kepler_family) { return "kepler"; }
inline const char* family_name(archscan::turing_family) { return "turing"; }
inline const char* family_name(archscan::native_family) { return "native"; }

//! Test names carry the policy, e.g. `ScanTest_turing/turing_nosync_12.InclusiveScan`, so that
//! `--gtest_filter='*turing*'` selects one family (tools/sanitize.sh does).
struct case_names {
  template <class C>
  static std::string GetName(int i) {
    using P = typename C::policy;
    return std::string(family_name(typename P::tuning::family{})) + (P::blocking ? "_" : "_nosync_") +
           std::to_string(i);
  }
};

}  // namespace archscan::test
