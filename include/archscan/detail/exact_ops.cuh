#pragma once
//! \file Operators whose every association gives the same bits.
//!
//! Integer sums (modular arithmetic), minima, maxima and bitwise operations over integers are
//! associative exactly, not only mathematically: a tree and a left-to-right fold of the same values
//! give the same bits. The native family folds those as a tree (the cheaper walk) and everything
//! else, floating point above all, strictly in order (tile/lookback.cuh, `ordered_lookback`).

#include <type_traits>

#include <cuda/functional>
#include <cuda/std/functional>

#include <archscan/detail/callable.cuh>

namespace archscan::detail {

//! `U` is the operator's argument type (`void`: deduced from the arguments, here T).
template <class T, class U>
inline constexpr bool integral_operands = std::is_integral_v<T> && (std::is_void_v<U> || std::is_integral_v<U>);

template <class T, class F>
struct exact_op : std::false_type {};
template <class T, class U>
struct exact_op<T, ::cuda::std::plus<U>> : std::bool_constant<integral_operands<T, U>> {};
template <class T, class U>
struct exact_op<T, ::cuda::maximum<U>> : std::bool_constant<integral_operands<T, U>> {};
template <class T, class U>
struct exact_op<T, ::cuda::minimum<U>> : std::bool_constant<integral_operands<T, U>> {};
template <class T, class U>
struct exact_op<T, ::cuda::std::bit_and<U>> : std::bool_constant<integral_operands<T, U>> {};
template <class T, class U>
struct exact_op<T, ::cuda::std::bit_or<U>> : std::bool_constant<integral_operands<T, U>> {};
template <class T, class U>
struct exact_op<T, ::cuda::std::bit_xor<U>> : std::bool_constant<integral_operands<T, U>> {};

//! Whether `Op` (a user's operator as the problem holds it, detail::callable) over accumulators `T`
//! gives the same bits under every association. False for anything not listed above.
template <class T, class Op>
inline constexpr bool exactly_associative = false;
template <class T, class F>
inline constexpr bool exactly_associative<T, callable<F>> = exact_op<T, F>::value;

}  // namespace archscan::detail
