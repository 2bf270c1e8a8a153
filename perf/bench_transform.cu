//! \file archscan-bench: the transform_inclusive_scan cases (one translation unit per algorithm keeps compiles short).
#include "bench.cuh"

namespace archscan::perf::bench {
void register_transform_inclusive_scan() { register_algorithm<transform_inclusive_scan_alg>(); }
}  // namespace archscan::perf::bench
