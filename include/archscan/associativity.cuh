#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file A user's declaration that an operator associates exactly: its fold gives the same bits in any
//! association that keeps the operands in order.
//!
//!   struct mat_mul { ... };  // 2x2 matrices of uint32_t, products mod 2^32: no rounding
//!   template <>
//!   struct archscan::exactly_associative<mat_mul, mat2x2> : std::true_type {};
//!
//! archscan cannot see inside a user's functor, so it assumes that every operator rounds (as floating
//! point does) and fixes its association: the native family folds tile aggregates strictly in order
//! by tile index, whatever route the device allows. A declared operator's waves (problems whose
//! tiles are all resident at once) fold their aggregates as a tree instead, as they do for integer
//! sums: fewer operations in a row, the same bits since no association changes them. Waves whose
//! tree would leave each lane a long run of wide aggregates keep the order (tuning/native.cuh,
//! `wave_tree_max_run_bytes`: a choice by n, the accumulator's size and the tuning; on the H100 the
//! order was faster there for the benchmark's 16-byte matrix product). And where a row's large
//! tiles would run but its full tiles run the staged look-back on this device (8-byte accumulators
//! from 2^24 items on the H200: tuning/shape.cuh, `example_staged_row`), a declared operator takes the
//! full tiles, as integer sums do. libcu++'s and Thrust's sums,
//! products, minima, maxima and bitwise operations on integers are recognised without a
//! declaration.
//!
//! Declare it next to the functor, in the header that defines it: every translation unit that scans
//! with the functor must see the same declaration before its first scan (else the program is
//! ill-formed, no diagnostic required: one kernel, two folds).
//!
//! The declaration is a promise by the user. Declared for an operator that rounds or does not
//! associate, native's bits depend on the route it takes (a wave, a cluster or the look-back) and on
//! the tiles (large or staged full ones), which depend on the GPU, its memory, the build and the
//! device's setup (MPS, MIG): they are no longer the same on every GPU, and on one GPU only while
//! the route is.

#include <type_traits>

namespace archscan {

//! Specialise as `std::true_type` for the functor type `Op` exactly as passed to the scan (a
//! declaration for a base class does not apply; a wrapped functor, such as
//! `cuda::proclaim_return_type`'s, is another type; a lambda cannot be named) and the accumulator type
//! `T`, when `Op` folds `T` exactly: for all a, b, c, op(op(a, b), c) and op(a, op(b, c)) have the
//! same bits. `T` is the type the scan folds, by Thrust's rules (thrust/scan.cuh): without an initial
//! value the input's value type (for transform scans, the transform's result type), with one the
//! initial value's type for exclusive scans and the decayed result of `op(init, item)` for inclusive
//! ones. Scans by key need no declaration of their own: the one for the values' operator and their
//! accumulator type covers them.
template <class Op, class T>
struct exactly_associative : std::false_type {};

template <class Op, class T>
inline constexpr bool exactly_associative_v = exactly_associative<Op, T>::value;

}  // namespace archscan
