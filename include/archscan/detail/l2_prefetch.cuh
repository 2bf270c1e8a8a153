#pragma once
//! \file A hint to the L2: fetch a range of global memory now, so that a later load finds it there.
//! Nothing waits for it and nothing is returned; a wrong hint costs bandwidth, never a result.
//! On sm_90 on one thread asks the bulk copy unit for the whole range (`cp.async.bulk.prefetch.L2`);
//! on older targets it compiles to nothing.

#include <cstdint>

namespace archscan::detail {

//! `d_from`: 16-byte aligned global memory; `bytes`: a multiple of 16, all of it inside one allocation.
__device__ __forceinline__ void prefetch_l2(const void* d_from, std::uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(__cvta_generic_to_global(d_from)), "r"(bytes)
               : "memory");
#else
  (void)d_from;
  (void)bytes;
#endif
}

}  // namespace archscan::detail
