#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file archscan across GPUs: every scan-family algorithm called with `policy.on(stream).across(comm)`
//! runs across the ranks of the NCCL communicator `comm`, one rank per GPU (dispatch/rank_dispatch.cuh).
//!
//!   #include <archscan/nccl.cuh>
//!   // on each rank, with its own slice [d_in, d_in + n) and its communicator:
//!   thrust::inclusive_scan(archscan::native.on(stream).across(comm), d_in, d_in + n, d_out);
//!
//! Each rank gets the global result for its slice: the combination of every lower rank's items, in
//! rank order, comes before its own (an exclusive scan's init once, before rank 0, every rank passing
//! the same init; by-key runs of equal keys continue across ranks). Slices may differ in size and may
//! be empty; every rank of the communicator takes part in every call. Temporary storage,
//! synchronization, determinism and errors: policy.cuh (`comm_policy`) and dispatch/rank_dispatch.cuh.
//! Needs NCCL: link the `archscan::nccl` CMake target.

#include <archscan/archscan.cuh>
#include <archscan/dispatch/rank_dispatch.cuh>
