//! \file archscan-bench: the exclusive_scan cases for int8, int16, int32, int64 and uint8 flags to int32 offsets (one
//! translation unit per algorithm and half of the types keeps each compile short).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{0, [] {
                             register_integer_types<exclusive_scan_alg>();
                             register_type<flag_offsets_alg, std::int32_t>();  // uint8 flags -> int32 offsets
                           }};
}  // namespace
}  // namespace archscan::perf::bench
