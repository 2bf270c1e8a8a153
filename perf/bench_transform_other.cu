//! \file archscan-bench: the transform_inclusive_scan cases for float, double, mat2x2 (one translation unit per
//! algorithm and half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{7, [] { register_other_types<transform_inclusive_scan_alg>(); }};
}  // namespace
}  // namespace archscan::perf::bench
