//! \file archscan-bench: the exclusive_scan_by_key cases for float, double, mat2x2 (one translation unit per algorithm
//! and half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{5, [] { register_other_types<exclusive_scan_by_key_alg>(); }};
}  // namespace
}  // namespace archscan::perf::bench
