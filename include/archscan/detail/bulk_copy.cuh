#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file One warp's copy of a region of its shared memory to global memory by the bulk copy unit
//! (sm_90 on: `cp.async.bulk`), in place of a 16-byte store per lane and vector: the lanes write the
//! region in the memory's order, one lane asks for the whole copy, and the warp goes on once the
//! unit has read the region. The writes to global memory are then still in flight: they are
//! visible once the grid has completed, and no fence or release of the warp's orders them before
//! that (unlike plain stores). A reader within the same grid would need the copy's completion
//! (`cp.async.bulk.wait_group 0`, without `.read`) and a proxy fence before it is told; native's
//! tiles have none (each tile writes only its own output).

#include <cstdint>

namespace archscan::detail {

//! Whether this compilation pass has the bulk copy unit (the device pass for sm_90 on). Device code
//! only: the host pass says false.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
inline constexpr bool has_bulk_copy = true;
#else
inline constexpr bool has_bulk_copy = false;
#endif

//! Copies `bytes` of shared memory at `s_from` to global memory at `d_to`. Every lane of the warp
//! calls it after writing its part of the region; it returns once the region may be written again.
//! `d_to` and `s_from` 16-byte aligned, `bytes` a multiple of 16. Where the pass has no bulk copy
//! unit, a trap: callers test has_bulk_copy first.
__device__ __forceinline__ void warp_bulk_store(void* d_to, const void* s_from, std::uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // The lanes wrote the region through the generic proxy; the unit reads it through the async one.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp(0xffffffffu);
  if (threadIdx.x % 32 == 0) {
    asm volatile(
        "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n\t"
        "cp.async.bulk.commit_group;\n\t"
        "cp.async.bulk.wait_group.read 0;" ::"l"(__cvta_generic_to_global(d_to)),
        "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(s_from))), "r"(bytes)
        : "memory");
  }
  __syncwarp(0xffffffffu);  // the unit has read the region: any lane may write it again
#else
  (void)d_to;
  (void)s_from;
  (void)bytes;
  __trap();
#endif
}

}  // namespace archscan::detail
