#pragma once
// What the NVTX probe (nvtx_probe.cpp) reports to the test (nvtx_probe.cuh), through one C function.

#include <cstddef>

namespace archscan::test {

struct nvtx_probe_counts {
  long pushes       = 0;  // push ranges in the archscan domain
  long pops         = 0;
  long starts       = 0;  // start/end ranges in the archscan domain
  long other_ranges = 0;  // ranges opened in any other domain (CCCL's own, the global one)
  bool attached     = false;
};

// extern "C" void nvtx_probe_read(nvtx_probe_counts* counts, char* last_message, std::size_t size):
// the counts so far and the last message pushed in the archscan domain (NUL-terminated, truncated).
using nvtx_probe_read_fn                          = void (*)(nvtx_probe_counts*, char*, std::size_t);
inline constexpr const char* nvtx_probe_read_name = "nvtx_probe_read";

}  // namespace archscan::test
