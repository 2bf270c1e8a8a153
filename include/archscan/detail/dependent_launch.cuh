#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Programmatic dependent launch (sm_90 on, PTX `griddepcontrol`): a kernel launched with the
//! programmatic stream serialization attribute may start while the kernel before it on the stream
//! still runs, once every block of that one has allowed it; it waits for that kernel's completion
//! and memory where it first needs them. The native look-back launches so after its tiny reset
//! kernel: the scan's launch and block placement overlap the reset instead of following it.
//! On older targets both calls compile to nothing (the host launches without the attribute there).

namespace archscan::detail {

//! Lets the kernel after this one on the stream launch now (it still waits before using our results).
__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

//! Waits until the kernels this one depends on have completed and their writes are visible. Returns
//! at once for a kernel launched without the attribute (its prerequisites completed before it began).
__device__ __forceinline__ void wait_for_prerequisite_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace archscan::detail
