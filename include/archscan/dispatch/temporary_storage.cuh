#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file A call's temporary storage, taken from its policy: the policy's allocator, else archscan's
//! stream-ordered pool (policy.cuh).

#include <cstddef>
#include <cstdint>

#include <thrust/memory.h>

#include <archscan/detail/thrust_internals.cuh>

namespace archscan::dispatch {

//! Whether the temporary storage of a call with policy `Derived` comes from archscan's stream-ordered
//! pool (policy.cuh): true unless the policy carries a user allocator.
template <class Derived>
inline constexpr bool pool_storage = true;
template <class Allocator, template <class> class Base>
inline constexpr bool pool_storage<detail::thrust_internals::with_allocator<Allocator, Base>> = false;

//! `bytes` of device memory from `policy` for one call, given back by `release` or at the latest on
//! destruction. Throws `thrust::system::detail::bad_alloc` (a `std::bad_alloc`) when none can be had.
template <class Derived>
class temporary_storage {
 public:
  temporary_storage(thrust::cuda::execution_policy<Derived>& policy, std::size_t bytes)
      : policy_(policy), bytes_(bytes) {
    if (bytes == 0) return;
    auto buffer = thrust::get_temporary_buffer<std::uint8_t>(policy, static_cast<std::ptrdiff_t>(bytes));
    data_       = thrust::raw_pointer_cast(buffer.first);
    if (data_ == nullptr) throw detail::thrust_internals::bad_alloc("archscan: temporary storage for a scan");
  }
  temporary_storage(const temporary_storage&)            = delete;
  temporary_storage& operator=(const temporary_storage&) = delete;
  ~temporary_storage() { release(); }

  void* data() const { return data_; }
  void release() {
    if (data_) thrust::return_temporary_buffer(policy_, data_, static_cast<std::ptrdiff_t>(bytes_));
    data_ = nullptr;
  }

 private:
  thrust::cuda::execution_policy<Derived>& policy_;
  std::size_t bytes_;
  std::uint8_t* data_ = nullptr;
};

}  // namespace archscan::dispatch
