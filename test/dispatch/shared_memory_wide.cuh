#pragma once
// The accumulator of dispatch_shared_memory_test, shared by its two translation units: 160 bytes, 39
// running sums and a "first item" field, so the operator is associative and not commutative. turing
// tiles of it take ~62 KiB (128 threads x 3 items), blelloch blocks ~160 KiB (1024 items): past the
// 48 KiB a block may use without opting in.

#include <cstdint>
#include <vector>

#include <cuda/std/functional>

#include <archscan/archscan.cuh>

namespace archscan::test::shared_memory {

constexpr int sums = 39;

struct wide {
  std::uint32_t sum[sums];
  std::uint32_t first;  //!< the first item's id in the range: order-sensitive
};

struct combine {  // a before b
  __host__ __device__ wide operator()(const wide& a, const wide& b) const {
    wide r;
    for (int k = 0; k < sums; ++k) r.sum[k] = a.sum[k] + b.sum[k];
    r.first = a.first;
    return r;
  }
};

inline wide item(std::int64_t i) {
  wide w;
  for (int k = 0; k < sums; ++k) w.sum[k] = static_cast<std::uint32_t>((i * 2654435761u) >> (k % 24)) + k;
  w.first = static_cast<std::uint32_t>(i) + 1;
  return w;
}

inline bool same(const wide& x, const wide& y) {
  for (int k = 0; k < sums; ++k)
    if (x.sum[k] != y.sum[k]) return false;
  return x.first == y.first;
}

inline std::vector<wide> items(std::int64_t n) {
  std::vector<wide> h(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) h[i] = item(i);
  return h;
}

//! The first i where `r` is not the inclusive scan of `h` (exclusive with `seed`, where given), else -1.
inline std::int64_t first_wrong(const std::vector<wide>& h, const std::vector<wide>& r, const wide* seed = nullptr) {
  if (r.size() != h.size()) return 0;
  wide acc = seed ? *seed : h[0];
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (seed) {
      if (!same(r[i], acc)) return static_cast<std::int64_t>(i);
      acc = combine{}(acc, h[i]);
    } else {
      if (i > 0) acc = combine{}(acc, h[i]);
      if (!same(r[i], acc)) return static_cast<std::int64_t>(i);
    }
  }
  return -1;
}

//! Defined in shared_memory_other_unit.cu: exclusive scans (seed `item(-1)`) of `h` with blelloch and
//! an inclusive one with turing, each in that translation unit's copy of the kernels; the outputs in
//! that order. Throws what the scans throw.
std::vector<std::vector<wide>> scan_in_other_unit(const std::vector<wide>& h);

// Problems no Thrust overload forms (their operators are not wrapped in detail::callable), so that
// this program instantiates each family's plan for them in shared_memory_test.cu only and its launch
// in shared_memory_other_unit.cu only: the launch runs the other unit's copies of the kernels.
using wide_problem   = detail::scan_problem<const wide*, wide*, wide, combine, detail::identity_finish,
                                          detail::scan_kind::inclusive, false>;
using double_problem = detail::scan_problem<const double*, double*, double, ::cuda::std::plus<double>,
                                            detail::identity_finish, detail::scan_kind::inclusive, false>;

//! Defined in shared_memory_other_unit.cu: family_dispatch<F>::launch of a plan made elsewhere, on the
//! default stream (no synchronization).
void launch_in_other_unit(const wide_problem& p, const dispatch::single_pass_plan& pl, void* d_temp);    // turing
void launch_in_other_unit(const wide_problem& p, const dispatch::blelloch_plan& pl, void* d_temp);       // blelloch
void launch_in_other_unit(const double_problem& p, const dispatch::single_pass_plan& pl, void* d_temp);  // native

}  // namespace archscan::test::shared_memory
