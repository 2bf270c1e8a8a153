// A minimal NVTX tool for test/detail/nvtx_test.cu: a shared library that NVTX loads through
// NVTX_INJECTION64_PATH (the way Nsight Systems attaches). It implements domain creation and push/pop
// and start/end ranges, counts them per domain and keeps the last message pushed in the archscan
// domain; the test reads them through nvtx_probe_read (nvtx_probe_abi.h; dlsym on the same library).

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#define NVTX_NO_IMPL  // a tool: NVTX's types and callback tables (nvtxDetail/nvtxTypes.h), not its implementation
#include <nvtx3/nvToolsExt.h>

#include "nvtx_probe_abi.h"

namespace {

// Handles this tool gives out: the address of a slot per domain name (never dereferenced by NVTX).
struct domain_slot {
  std::string name;
};

struct state {
  std::mutex mutex;
  domain_slot archscan{"archscan"};
  domain_slot other{"other"};
  archscan::test::nvtx_probe_counts counts;
  std::string last_message;
};

state& probe() {
  static state s;
  return s;
}

bool is_archscan(nvtxDomainHandle_t d) { return reinterpret_cast<domain_slot*>(d) == &probe().archscan; }

std::string message_of(const nvtxEventAttributes_t* a) {
  if (a == nullptr) return "<no attributes>";
  if (a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii != nullptr) return a->message.ascii;
  return "<message of type " + std::to_string(a->messageType) + ">";
}

nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
  state& s = probe();
  return reinterpret_cast<nvtxDomainHandle_t>(std::strcmp(name, "archscan") == 0 ? &s.archscan : &s.other);
}

// Counts a range opened in domain d: in `counter` (and its message) for the archscan domain, else as other.
void opened(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a, long archscan::test::nvtx_probe_counts::*counter) {
  state& s = probe();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!is_archscan(d)) {
    ++s.counts.other_ranges;
    return;
  }
  ++(s.counts.*counter);
  s.last_message = message_of(a);
}

int NVTX_API domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  opened(d, a, &archscan::test::nvtx_probe_counts::pushes);
  return 0;
}

int NVTX_API domain_pop(nvtxDomainHandle_t d) {
  state& s = probe();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (is_archscan(d)) ++s.counts.pops;
  return 0;
}

nvtxRangeId_t NVTX_API domain_start(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  opened(d, a, &archscan::test::nvtx_probe_counts::starts);
  return 1;
}

void NVTX_API domain_end(nvtxDomainHandle_t, nvtxRangeId_t) {}

template <class F>
void attach(NvtxFunctionTable table, unsigned size, unsigned id, F f) {
  if (id < size && table[id] != nullptr) *table[id] = reinterpret_cast<NvtxFunctionPointer>(f);
}

}  // namespace

extern "C" {

// NVTX's entry point for a tool (nvtxDetail/nvtxInit.h): returns 1 when attached.
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned size           = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) == 0 || table == nullptr) return 0;
  attach(table, size, NVTX_CBID_CORE2_DomainCreateA, &domain_create);
  attach(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &domain_push);
  attach(table, size, NVTX_CBID_CORE2_DomainRangePop, &domain_pop);
  attach(table, size, NVTX_CBID_CORE2_DomainRangeStartEx, &domain_start);
  attach(table, size, NVTX_CBID_CORE2_DomainRangeEnd, &domain_end);
  std::lock_guard<std::mutex> lock(probe().mutex);
  probe().counts.attached = true;
  return 1;
}

// What the test reads (nvtx_probe_abi.h).
__attribute__((visibility("default"))) void nvtx_probe_read(archscan::test::nvtx_probe_counts* counts, char* out,
                                                            std::size_t size) {
  std::lock_guard<std::mutex> lock(probe().mutex);
  *counts = probe().counts;
  if (size == 0) return;
  const std::string& m = probe().last_message;
  const std::size_t n  = m.size() < size - 1 ? m.size() : size - 1;
  std::memcpy(out, m.data(), n);
  out[n] = '\0';
}

}  // extern "C"
