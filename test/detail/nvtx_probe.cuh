#pragma once
// The test's side of the NVTX probe (nvtx_probe.cpp): points NVTX_INJECTION64_PATH at the probe before
// the process's first NVTX call, so NVTX attaches it as it attaches Nsight Systems, and reads its counts
// through dlsym on the same library (dlopen of one path gives NVTX and the test one copy).

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <dlfcn.h>

#include "detail/nvtx_probe_abi.h"

#ifndef ARCHSCAN_NVTX_PROBE
#error "ARCHSCAN_NVTX_PROBE (the path of the probe library) is set by test/CMakeLists.txt"
#endif

namespace archscan::test {

class nvtx_probe {
 public:
  //! The process's probe; the first call must come before any NVTX call (every test calls it first).
  static const nvtx_probe& get() {
    static const nvtx_probe p;
    return p;
  }
  nvtx_probe_counts counts() const {
    nvtx_probe_counts c;
    read_(&c, nullptr, 0);
    return c;
  }
  long pushes() const { return counts().pushes; }  //!< push ranges in the archscan domain
  long pops() const { return counts().pops; }
  long starts() const { return counts().starts; }  //!< start/end ranges in the archscan domain
  bool attached() const { return counts().attached; }
  std::string last_message() const {
    nvtx_probe_counts c;
    char buf[256];
    read_(&c, buf, sizeof(buf));
    return buf;
  }

 private:
  nvtx_probe() {
    setenv("NVTX_INJECTION64_PATH", ARCHSCAN_NVTX_PROBE, 1);
    void* handle = dlopen(ARCHSCAN_NVTX_PROBE, RTLD_NOW);
    if (handle == nullptr) throw std::runtime_error(std::string("dlopen of the NVTX probe: ") + dlerror());
    read_ = reinterpret_cast<nvtx_probe_read_fn>(dlsym(handle, nvtx_probe_read_name));
    if (read_ == nullptr) throw std::runtime_error(std::string("the NVTX probe lacks ") + nvtx_probe_read_name);
  }
  nvtx_probe_read_fn read_ = nullptr;
};

}  // namespace archscan::test
