#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
// Every archscan header opens with this block, as CCCL's headers open with theirs: a user's build
// then shows no warning from inside archscan, as it shows none from inside Thrust (a deprecated
// Thrust functor, instantiated in archscan's kernels, warned there). ARCHSCAN_NO_SYSTEM_HEADER turns
// it off, to see archscan's own warnings (tools/check_warnings.sh does).
//! \file archscan: Thrust execution policies whose scan-family algorithms run archscan's kernels.
//!
//!   #include <archscan/archscan.cuh>
//!   thrust::exclusive_scan(archscan::turing.on(stream), d_in.begin(), d_in.end(), d_out.begin());
//!
//! Include this header (not Thrust's algorithm headers alone) wherever a scan is called with an
//! archscan policy, so that the overloads are visible; every other algorithm goes to Thrust's CUDA
//! backend on the policy's stream.

#include <thrust/scan.h>
#include <thrust/transform_scan.h>

#include <archscan/associativity.cuh>
#include <archscan/hooks.cuh>
#include <archscan/instrumentation.cuh>
#include <archscan/policy.cuh>
#include <archscan/thrust/scan.cuh>
#include <archscan/thrust/scan_by_key.cuh>
#include <archscan/thrust/shuffle.cuh>
#include <archscan/thrust/transform_scan.cuh>
#include <archscan/tuning.cuh>
