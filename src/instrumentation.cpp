#include <archscan/instrumentation.cuh>

#include <atomic>

namespace archscan::instrumentation {
namespace {
std::atomic<std::uint64_t> counters[static_cast<int>(entry::count)];
}

std::uint64_t calls(entry e) noexcept { return counters[static_cast<int>(e)].load(std::memory_order_relaxed); }

namespace detail {
void count(entry e) noexcept { counters[static_cast<int>(e)].fetch_add(1, std::memory_order_relaxed); }
}  // namespace detail

}  // namespace archscan::instrumentation
