//! \file archscan-bench: the transform_inclusive_scan cases for int8, int16, int32, int64 (one translation unit per
//! algorithm and half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{6, [] { register_integer_types<transform_inclusive_scan_alg>(); }};
}  // namespace
}  // namespace archscan::perf::bench
