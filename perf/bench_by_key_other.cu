//! \file archscan-bench: the exclusive_scan_by_key cases for float, double, mat2x2 (one translation unit per algorithm and
//! half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
void register_exclusive_scan_by_key_other() { register_other_types<exclusive_scan_by_key_alg>(); }
}  // namespace archscan::perf::bench
