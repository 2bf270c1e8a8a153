#pragma once
//! \file The contract between dispatch/scan.cuh and a kernel family.
//!
//! A family `F` (a tag in tuning.cuh) specializes `family_dispatch<F>` with
//!
//!   template <class Tuning, class Problem>
//!   static std::size_t temp_bytes(const Problem&, const detail::device_facts&);   // pure host arithmetic
//!
//!   template <class Tuning, class Problem>
//!   static void launch(const Problem&, void* d_temp, std::size_t temp_bytes,
//!                      const detail::device_facts&, cudaStream_t);               // enqueue only
//!
//! `launch` enqueues its kernels on the stream, checks every launch (detail::throw_on_launch_error)
//! and never synchronizes. `Problem` is a detail::scan_problem with n > 0. `d_temp` holds
//! `temp_bytes` bytes of uninitialized, 256-byte-aligned device memory (nullptr when 0 bytes).

#include <cstddef>

#include <archscan/detail/device.cuh>
#include <archscan/detail/error.cuh>
#include <archscan/detail/problem.cuh>

namespace archscan::dispatch {

template <class Family>
struct family_dispatch;

}  // namespace archscan::dispatch
