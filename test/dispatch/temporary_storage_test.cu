// dispatch/temporary_storage.cuh: a call's temporary storage comes from the policy's allocator where it
// carries one (asked once, for the call's bytes, given back once), from nowhere for zero bytes, and an
// allocator that has none to give makes it throw Thrust's bad_alloc, a std::bad_alloc. Host only: the
// allocator hands out host memory that nothing dereferences.

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include <thrust/system/cuda/execution_policy.h>

#include <archscan/dispatch/temporary_storage.cuh>

namespace temporary_storage_test {

struct counts {
  int allocations = 0, deallocations = 0;
  std::ptrdiff_t bytes = 0;
};

//! Thrust's allocator shape, counting its calls; `fail`: returns no memory.
struct counting_allocator {
  using value_type = char;
  counts* c;
  bool fail = false;
  std::vector<char>* memory;
  char* allocate(std::ptrdiff_t n) {
    ++c->allocations;
    c->bytes = n;
    if (fail) return nullptr;
    memory->resize(static_cast<std::size_t>(n));
    return memory->data();
  }
  void deallocate(char* p, std::size_t) {
    if (p == memory->data()) ++c->deallocations;
  }
};

TEST(TemporaryStorage, APolicysAllocatorIsAskedOnceAndGivenBackOnce) {
  counts c;
  std::vector<char> memory;
  auto policy = thrust::cuda::par(counting_allocator{&c, false, &memory});
  EXPECT_FALSE(archscan::dispatch::pool_storage<decltype(policy)>);
  {
    archscan::dispatch::temporary_storage<decltype(policy)> storage(policy, 1000);
    EXPECT_EQ(storage.data(), memory.data());
    EXPECT_EQ(c.allocations, 1);
    EXPECT_GE(c.bytes, 1000);
    storage.release();
    EXPECT_EQ(c.deallocations, 1);
    EXPECT_EQ(storage.data(), nullptr);
  }  // released already: the destructor gives nothing back twice
  EXPECT_EQ(c.deallocations, 1);
  { archscan::dispatch::temporary_storage<decltype(policy)> storage(policy, 64); }
  EXPECT_EQ(c.allocations, 2);
  EXPECT_EQ(c.deallocations, 2);  // the destructor gave it back
}

TEST(TemporaryStorage, ZeroBytesAskNothing) {
  counts c;
  std::vector<char> memory;
  auto policy = thrust::cuda::par(counting_allocator{&c, false, &memory});
  archscan::dispatch::temporary_storage<decltype(policy)> storage(policy, 0);
  EXPECT_EQ(storage.data(), nullptr);
  EXPECT_EQ(c.allocations, 0);
}

TEST(TemporaryStorage, NoMemoryThrowsBadAlloc) {
  counts c;
  std::vector<char> memory;
  auto policy = thrust::cuda::par(counting_allocator{&c, true, &memory});
  EXPECT_THROW((archscan::dispatch::temporary_storage<decltype(policy)>(policy, 1000)), std::bad_alloc);
  EXPECT_EQ(c.deallocations, 0);
}

TEST(TemporaryStorage, PlainPoliciesTakeThePool) {
  EXPECT_TRUE(archscan::dispatch::pool_storage<thrust::cuda_cub::par_t>);
  EXPECT_TRUE(archscan::dispatch::pool_storage<thrust::cuda_cub::execute_on_stream>);
}

}  // namespace temporary_storage_test
