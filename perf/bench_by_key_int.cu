//! \file archscan-bench: the exclusive_scan_by_key cases for int8, int16, int32, int64 (one translation unit per
//! algorithm and half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{4, [] { register_integer_types<exclusive_scan_by_key_alg>(); }};
}  // namespace
}  // namespace archscan::perf::bench
