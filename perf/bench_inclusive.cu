//! \file archscan-bench: the inclusive_scan cases (one translation unit per algorithm keeps compiles short).
#include "bench.cuh"

namespace archscan::perf::bench {
void register_inclusive_scan() { register_algorithm<inclusive_scan_alg>(); }
}  // namespace archscan::perf::bench
