#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Which operators give the same bits under any association: a fold may then take whichever
//! order is fastest and still be deterministic.

#include <type_traits>

#include <cuda/functional>
#include <cuda/std/functional>

#include <archscan/associativity.cuh>
#include <archscan/detail/callable.cuh>
#include <archscan/detail/keyed.cuh>

namespace archscan::detail {

//! libcu++'s function objects (Thrust's names are aliases of them) that are associative without
//! rounding on integers: sums and products (wrapping, modulo 2^bits), minima, maxima and bitwise
//! operations; `type`: their argument type (void: transparent).
template <class F>
struct exact_functor_arg : std::false_type {};
template <class U>
struct exact_functor_arg<::cuda::std::plus<U>> : std::true_type {
  using type = U;
};
template <class U>
struct exact_functor_arg<::cuda::std::multiplies<U>> : std::true_type {
  using type = U;
};
template <class U>
struct exact_functor_arg<::cuda::std::bit_and<U>> : std::true_type {
  using type = U;
};
template <class U>
struct exact_functor_arg<::cuda::std::bit_or<U>> : std::true_type {
  using type = U;
};
template <class U>
struct exact_functor_arg<::cuda::std::bit_xor<U>> : std::true_type {
  using type = U;
};
template <class U>
struct exact_functor_arg<::cuda::minimum<U>> : std::true_type {
  using type = U;
};
template <class U>
struct exact_functor_arg<::cuda::maximum<U>> : std::true_type {
  using type = U;
};

//! Whether `F` is one of those on integral (not bool) accumulators `T`, transparent or of `T` itself
//! (of another argument type a conversion enters between steps: not claimed).
template <class F, class T>
constexpr bool exact_functor() {
  if constexpr (!exact_functor_arg<F>::value || !std::is_integral_v<T> || std::is_same_v<T, bool>) {
    return false;
  } else {
    using U = typename exact_functor_arg<F>::type;
    return std::is_void_v<U> || std::is_same_v<U, T>;
  }
}

//! Whether the user's functor `F` folds `T` exactly: one of those above, or declared so
//! (associativity.cuh).
template <class F, class T>
struct exact_or_declared : std::bool_constant<exact_functor<F, T>() || exactly_associative_v<F, T>> {};

//! Whether `F` is exact on `T` by the user's declaration alone: an operator archscan knows nothing
//! more of, which may be slow (a matrix product), where libcu++'s integer functors above are an
//! instruction or two.
template <class F, class T>
struct declared_only : std::bool_constant<!exact_functor<F, T>() && exactly_associative_v<F, T>> {};

//! `Leaf<F, T>` asked of the user's functor inside the dispatch's operator `Op` on accumulators `T`.
//! The dispatch holds `callable<F>` (thrust/run_scan.cuh), for by-key items
//! `callable<segmented_op<callable<F>>>` over keyed<V>: segmented_op folds V with F alone, so it is
//! exactly associative where F is.
template <template <class, class> class Leaf, class Op, class T>
struct of_user_functor : std::false_type {};
template <template <class, class> class Leaf, class F, class T>
struct of_user_functor<Leaf, callable<F>, T>
    : std::bool_constant<Leaf<std::remove_cv_t<F>, T>::value || of_user_functor<Leaf, std::remove_cv_t<F>, T>::value> {
};
template <template <class, class> class Leaf, class F, class V>
struct of_user_functor<Leaf, segmented_op<callable<F>>, keyed<V>>
    : std::bool_constant<Leaf<std::remove_cv_t<F>, V>::value> {};

//! Whether folding accumulators `T` with the dispatch's operator `Op` gives the same bits under any
//! association that keeps the operands in order. Only then may a deterministic fold change its
//! association.
template <class Op, class T>
inline constexpr bool associates_exactly = of_user_functor<exact_or_declared, Op, T>::value;

//! Whether `Op` is exact on `T` by the user's declaration alone, by key too.
template <class Op, class T>
inline constexpr bool declared_exact = of_user_functor<declared_only, Op, T>::value;

}  // namespace archscan::detail
