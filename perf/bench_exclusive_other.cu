//! \file archscan-bench: the exclusive_scan cases for float, double, mat2x2 (one translation unit per algorithm and
//! half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{1, [] { register_other_types<exclusive_scan_alg>(); }};
}  // namespace
}  // namespace archscan::perf::bench
