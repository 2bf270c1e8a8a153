#pragma once
// The plan native's dispatch makes for an inclusive scan through raw pointers, without running it: which
// route, how many tiles and blocks, whether staged. Tests use it to check that a call they make takes
// the path they mean to test (the plan is a function of the tuning, the problem and the device alone).

#include <cstdint>

#include <cuda/std/functional>

#include <archscan/archscan.cuh>

namespace archscan::test {

//! The operator held as the Thrust overloads hold it (detail::callable), so that the plan sees it as
//! exact under any association (or not) as theirs do (detail/exact_fold.cuh).
template <class T, class Op = ::cuda::std::plus<T>>
using scan_problem_of = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                             detail::scan_kind::inclusive, false>;

//! The plan of `Tuning` (a native tuning) for an inclusive scan by `op` (a sum by default) of `n` items
//! of T from `in` to `out` on the current device. Allocates and launches nothing; `in` and `out` matter
//! for their alignment.
template <class Tuning, class T, class Op = ::cuda::std::plus<T>>
dispatch::single_pass_plan plan_of(const T* in, T* out, std::int64_t n, Op op = {}) {
  return dispatch::family_dispatch<native_family>::plan<Tuning, no_hooks>(
      scan_problem_of<T, Op>{in, out, n, detail::callable<Op>{op}, {}, T{}, {}}, detail::current_device_facts());
}

}  // namespace archscan::test
