#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file 16-byte copies from global to shared memory that the copy unit completes while the thread
//! goes on (sm_80 on: `cp.async`), in groups that a thread commits and later waits for. Where the pass
//! has no such copies (sm_75) each copy is a plain load and store, complete when it returns, and
//! the commits and waits do nothing. Either way, a copy's bytes are visible to the other threads
//! only after the waiting thread's next barrier with them.

#include <cstdint>

namespace archscan::detail {

//! Copies the 16 bytes at `src` (global memory) to `s_to` (shared memory), both 16-byte aligned.
__device__ __forceinline__ void copy_16_async(void* s_to, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto to = static_cast<std::uint32_t>(__cvta_generic_to_shared(s_to));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(__cvta_generic_to_global(src)) : "memory");
#else
  *static_cast<uint4*>(s_to) = *static_cast<const uint4*>(src);
#endif
}

//! Closes this thread's group of copies issued since the last commit.
__device__ __forceinline__ void commit_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

//! Waits until at most `Pending` of this thread's committed groups are still in flight (the newest).
template <int Pending>
__device__ __forceinline__ void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}

}  // namespace archscan::detail
