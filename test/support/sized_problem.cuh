#pragma once
// A plain inclusive scan problem over opaque items of `Bytes` bytes: what the plan tests need to ask a
// family's tile types how much shared memory accumulators of a given size take (no kernel is run).

#include <archscan/detail/problem.cuh>

namespace archscan::test {

template <int Bytes>
struct item_of {
  unsigned char b[Bytes];
};

template <int Bytes>
using problem_of = detail::scan_problem<item_of<Bytes>*, item_of<Bytes>*, item_of<Bytes>, detail::identity_finish,
                                        detail::identity_finish, detail::scan_kind::inclusive, false>;

}  // namespace archscan::test
