#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file How archscan holds a user's function object: as Thrust does, by value, calling its own copy.

namespace archscan::detail {

//! Holds a copy of `F` and calls it through a `const` member, whatever constness `F::operator()` has.
//! Thrust accepts function objects whose `operator()` is not `const` (it copies them and calls the
//! copy), and archscan's kernels see their problem as `const`; this wrapper lets both hold. Each thread
//! of a kernel works on its own copy of the kernel's parameters, so a functor that changes its state
//! changes only that copy, as with Thrust.
template <class F>
struct callable {
  mutable F f;

  template <class... Args>
  __host__ __device__ __forceinline__ decltype(auto) operator()(Args&&... args) const {
    return f(static_cast<Args&&>(args)...);
  }
};

template <class F>
callable(F) -> callable<F>;

}  // namespace archscan::detail
