#pragma once
//! \file Tunings: plain data that selects a kernel family and its parameters.
//!
//! A tuning is a struct with a `family` tag and named `static constexpr` fields. Each archscan policy
//! carries one; `archscan::policy<my_tuning>` runs a user's own. Every row states the GPU, the type
//! and the throughput measured with it (perf/NOTES.md has the runs).

namespace archscan {

//! Family tags: which dispatch (dispatch/<family>.cuh) runs a tuning.
struct blelloch_family {};
struct kepler_family {};
struct turing_family {};

//! How a tile's items are read from global memory.
enum class load_kind {
  direct,     //!< ordinary loads through the iterator
  read_only,  //!< `__ldg`, the read-only data path (contiguous inputs only; others load directly)
};

//! The paper's scan: B = 2 * block_threads elements per block, two per thread.
struct blelloch_tuning {
  using family = blelloch_family;
  static constexpr int block_threads = 512;     //!< H100, int32: see perf/NOTES.md
  static constexpr bool conflict_free = true;   //!< the paper's padding of shared-memory indices
};

}  // namespace archscan

#include <archscan/tuning_kepler.cuh>
#include <archscan/tuning_turing.cuh>
