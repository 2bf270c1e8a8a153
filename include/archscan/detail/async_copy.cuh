#pragma once
//! \file Copies of 16 bytes from global to shared memory that the copying thread does not wait for:
//! `cp.async` (sm_80 on; PTX ISA, "Data Movement and Conversion Instructions: cp.async"), so that a
//! block's loads stay in flight while it does other work. On older devices each copy is a load and a
//! store, done before the call returns: the same bytes, only not overlapped.
//!
//! A thread's copies become visible to itself after `async_copy_wait_all`; to the other threads of
//! its warp (block) after that and a `__syncwarp` (`__syncthreads`) that both reach.

#include <nv/target>

namespace archscan::detail {

//! Copies the 16 bytes at `d_global` (16-byte aligned, global memory) to `d_shared` (16-byte
//! aligned, shared memory). The copy bypasses L1 (`.cg`): the block reads it from shared memory.
__device__ __forceinline__ void async_copy_16(void* d_shared, const void* d_global) {
  NV_IF_TARGET(NV_PROVIDES_SM_80,
               (const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(d_shared));
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(d_global) : "memory");),
               (*static_cast<uint4*>(d_shared) = *static_cast<const uint4*>(d_global);))
}

//! Closes the group of this thread's copies issued since the last call.
__device__ __forceinline__ void async_copy_commit() {
  NV_IF_TARGET(NV_PROVIDES_SM_80, (asm volatile("cp.async.commit_group;\n" ::: "memory");))
}

//! Waits until every copy this thread issued has landed.
__device__ __forceinline__ void async_copy_wait_all() {
  NV_IF_TARGET(NV_PROVIDES_SM_80, (asm volatile("cp.async.wait_all;\n" ::: "memory");))
}

}  // namespace archscan::detail
