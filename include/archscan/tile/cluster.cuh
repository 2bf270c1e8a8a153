#pragma once
//! \file One cluster: how a tile learns its exclusive prefix when every tile of the problem belongs
//! to one thread block cluster (sm_90 on; CUDA Programming Guide, "Thread Block Clusters" and
//! "Distributed Shared Memory").
//!
//! Each tile leaves its aggregate in its own shared memory, the cluster meets at one barrier, and
//! each tile reads the aggregates of the tiles before it from their blocks' shared memory and folds
//! them as a wave does (tile/wave.cuh). A second barrier ends the reads, so that no block overwrites
//! its slot or exits while another still reads it. Against a wave: no temporary storage to allocate
//! (the aggregates never leave the SMs) and a cluster barrier instead of a grid-wide one; the price
//! is the cluster's size, at most 16 blocks.
//!
//! The dispatch launches these kernels only on devices of compute capability 9.0 or higher; compiled
//! for older ones, the barrier traps.

#include <cooperative_groups.h>

namespace archscan::tile {

struct cluster_exchange {
  //! Every thread of every block of the cluster arrives, and waits for all (release/acquire at
  //! cluster scope: shared-memory stores before it are visible to the cluster's loads after it).
  __device__ __forceinline__ static void barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cooperative_groups::this_cluster().sync();
#elif defined(__CUDA_ARCH__)
    __trap();
#endif
  }

  //! The object at `local` (an address in this block's shared memory) as block `rank` of the
  //! cluster holds it.
  template <class T>
  __device__ __forceinline__ static T read(const T* local, unsigned rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return *cooperative_groups::this_cluster().map_shared_rank(const_cast<T*>(local), rank);
#else
    (void)rank;
    return *local;
#endif
  }
};

}  // namespace archscan::tile
