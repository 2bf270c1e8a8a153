#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file One cluster: how a tile learns its exclusive prefix when every tile of the problem belongs
//! to one thread block cluster (sm_90 on; CUDA Programming Guide, "Thread Block Clusters" and
//! "Distributed Shared Memory").
//!
//! Each block writes its tile's aggregate into a slot of every later block's shared memory, the
//! cluster meets at one barrier, and each tile folds the aggregates in its own slots as a wave does
//! (tile/wave.cuh). One barrier, because no block reads another's memory: once it is passed, every
//! write has landed, and a block may exit. The writes need only every block to have started (a
//! block's shared memory exists from its start), which an earlier phase of the barrier, arrived at
//! when the kernel starts and waited for when the aggregate is known, tells at no cost by then.
//! Against a wave: no temporary storage to allocate (the aggregates never leave the SMs) and a
//! cluster barrier instead of a grid-wide one; the price is the cluster's size, at most 16 blocks.
//!
//! The dispatch launches these kernels only on devices of compute capability 9.0 or higher; compiled
//! for older ones, the barrier traps.

#include <cooperative_groups.h>

namespace archscan::tile {

struct cluster_exchange {
  //! The most blocks one cluster may hold on any device (past 8, the portable size, a kernel must
  //! consent: cudaFuncAttributeNonPortableClusterSizeAllowed).
  static constexpr int max_blocks = 16;

  //! Every thread of the block arrives at the barrier's current phase, publishing nothing (relaxed):
  //! this block has started. Each arrival is followed by one `wait`.
  __device__ __forceinline__ static void arrive_started() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __cluster_barrier_arrive_relaxed();
#elif defined(__CUDA_ARCH__)
    __trap();
#endif
  }

  //! Every thread of the block waits for every thread of the cluster to arrive at the current phase
  //! (acquire at cluster scope: writes released before those arrivals are visible after it).
  __device__ __forceinline__ static void wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __cluster_barrier_wait();
#elif defined(__CUDA_ARCH__)
    __trap();
#endif
  }

  //! Every thread of every block of the cluster arrives, and waits for all (release/acquire at
  //! cluster scope: shared-memory stores before it, this block's or remote, are visible to the
  //! cluster's loads after it).
  __device__ __forceinline__ static void barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cooperative_groups::this_cluster().sync();
#elif defined(__CUDA_ARCH__)
    __trap();
#endif
  }

  //! Stores `value` at `local` (an address in this block's shared memory) as block `rank` of the
  //! cluster holds it. That block must have started (`wait` after `arrive_started`).
  template <class T>
  __device__ __forceinline__ static void write(T* local, unsigned rank, const T& value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    *cooperative_groups::this_cluster().map_shared_rank(local, rank) = value;
#else
    (void)rank;
    *local = value;
#endif
  }
};

}  // namespace archscan::tile
