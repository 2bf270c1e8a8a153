#pragma once
//! \file A user's declaration that an operator associates exactly: its fold gives the same bits in any
//! association that keeps the operands in order.
//!
//!   struct mat_mul { ... };  // 2x2 matrices of uint32_t, products mod 2^32: no rounding
//!   template <>
//!   struct archscan::exactly_associative<mat_mul, mat2x2> : std::true_type {};
//!
//! archscan cannot see inside a user's functor, so it assumes that every operator rounds (as floating
//! point does) and fixes its association: the native family folds tile aggregates strictly in order
//! by tile index, whatever route the device allows. An operator declared here may be folded in
//! another association where that is faster (native's waves fold it as a tree): the same bits, since
//! the declaration says no association changes them. libcu++'s and Thrust's sums, products, minima,
//! maxima and bitwise operations on integers are recognised without a declaration.
//!
//! The declaration is a promise by the user. Declared for an operator that rounds or does not
//! associate, native's results stay the same from run to run on one GPU, but no longer the same on
//! every GPU (a wave and a look-back over the same tiles then give different bits).

#include <type_traits>

namespace archscan {

//! Specialise as `std::true_type` for the functor type `Op` (as passed to the scan, without cv
//! qualifiers) and the accumulator type `T` (the type the scan folds, by Thrust's rules: the input's
//! value type without an initial value, the initial value's type for exclusive scans, the decayed
//! result of `op(init, item)` for inclusive scans with one; thrust/scan.cuh) when `Op` folds `T`
//! exactly: for all a, b, c, op(op(a, b), c) and op(a, op(b, c)) have the same bits. Scans by key
//! need no declaration of their own: a declaration for the values' operator covers them.
template <class Op, class T>
struct exactly_associative : std::false_type {};

template <class Op, class T>
inline constexpr bool exactly_associative_v = exactly_associative<Op, T>::value;

}  // namespace archscan
