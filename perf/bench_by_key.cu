//! \file archscan-bench: the exclusive_scan_by_key cases (one translation unit per algorithm keeps compiles short).
#include "bench.cuh"

namespace archscan::perf::bench {
void register_exclusive_scan_by_key() { register_algorithm<exclusive_scan_by_key_alg>(); }
}  // namespace archscan::perf::bench
