//! \file archscan-bench: the exclusive_scan cases (one translation unit per algorithm keeps compiles short).
#include "bench.cuh"

namespace archscan::perf::bench {
void register_exclusive_scan() { register_algorithm<exclusive_scan_alg>(); }
}  // namespace archscan::perf::bench
