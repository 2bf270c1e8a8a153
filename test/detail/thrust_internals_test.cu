// detail/thrust_internals.cuh: the Thrust and CCCL internals archscan builds its policies from, checked
// against the CCCL of the build. Host: archscan's policies are Thrust CUDA policies whose stream reads
// back, blocking ones on Thrust's blocking base and _nosync ones on its non-blocking one; a policy's
// allocator form is the type archscan recognises; Thrust's bad_alloc is a std::bad_alloc; the
// accumulator type of a scan with an initial value is P2322R6's; a non-blocking policy's synchronization
// never touches its stream. GPU: a blocking policy's synchronization waits for the stream's work, a
// non-blocking one's does not.

#include <atomic>
#include <chrono>
#include <new>
#include <string>
#include <thread>
#include <type_traits>

#include <cuda/std/functional>
#include <gtest/gtest.h>

#include <thrust/device_allocator.h>
#include <thrust/system/cuda/execution_policy.h>

#include <archscan/policy.cuh>

#include "support/gpu.cuh"

namespace thrust_internals_test {

namespace ti  = archscan::detail::thrust_internals;
using alloc_t = thrust::device_allocator<char>;

template <class T>
struct is_with_allocator : std::false_type {};
template <class A, template <class> class Base>
struct is_with_allocator<ti::with_allocator<A, Base>> : std::true_type {
  using allocator = A;
};

TEST(ThrustInternals, PoliciesAreThrustCudaPoliciesOnTheRightBase) {
  using blocking = archscan::stream_policy<archscan::turing_tuning, true>;
  using nosync   = archscan::stream_policy<archscan::turing_tuning, false>;
  static_assert(std::is_base_of_v<thrust::cuda::execution_policy<blocking>, blocking>);
  static_assert(std::is_base_of_v<thrust::cuda::execution_policy<nosync>, nosync>);
  static_assert(std::is_base_of_v<ti::stream_base<blocking>, blocking>);
  static_assert(!std::is_base_of_v<ti::stream_nosync_base<blocking>, blocking>);
  static_assert(std::is_base_of_v<ti::stream_nosync_base<nosync>, nosync>);
  static_assert(!std::is_base_of_v<ti::stream_base<nosync>, nosync>);
  // Thrust's own policies on a stream have the same bases.
  using par_on = std::decay_t<decltype(thrust::cuda::par.on(cudaStream_t{}))>;
  static_assert(std::is_base_of_v<ti::stream_base<par_on>, par_on>);
  SUCCEED();
}

TEST(ThrustInternals, TheStreamOfAPolicyReadsBack) {
  const auto s = reinterpret_cast<cudaStream_t>(0x5150);  // never used for work
  auto a       = archscan::turing.on(s);
  auto b       = archscan::native_nosync.on(s);
  auto c       = thrust::cuda::par.on(s);
  auto d       = thrust::cuda::par_nosync.on(s);
  EXPECT_EQ(ti::stream(a), s);
  EXPECT_EQ(ti::stream(b), s);
  EXPECT_EQ(ti::stream(c), s);
  EXPECT_EQ(ti::stream(d), s);
  auto e = archscan::kepler;  // the default stream, as thrust::cuda::par has it
  auto f = thrust::cuda::par;
  EXPECT_EQ(ti::stream(e), ti::stream(f));
}

TEST(ThrustInternals, TheAllocatorFormIsRecognised) {
  alloc_t alloc;
  using archscan_form = decltype(archscan::turing(alloc));
  using thrust_form   = decltype(thrust::cuda::par(alloc));
  static_assert(is_with_allocator<archscan_form>::value && is_with_allocator<thrust_form>::value);
  static_assert(std::is_same_v<std::decay_t<is_with_allocator<archscan_form>::allocator>, alloc_t>);
  static_assert(!is_with_allocator<std::decay_t<decltype(archscan::turing)>>::value);
  static_assert(!is_with_allocator<archscan::stream_policy<archscan::turing_tuning, true>>::value);
  static_assert(std::is_base_of_v<thrust::cuda::execution_policy<archscan_form>, archscan_form>);
  SUCCEED();
}

TEST(ThrustInternals, BadAllocIsAStdBadAllocWithItsMessage) {
  static_assert(std::is_base_of_v<std::bad_alloc, ti::bad_alloc>);
  try {
    throw ti::bad_alloc("archscan: no storage for 12345 bytes");
  } catch (const std::bad_alloc& e) {
    EXPECT_NE(std::string(e.what()).find("12345"), std::string::npos) << e.what();
  }
}

struct returns_reference {
  const long& operator()(const int&, const long& b) const { return b; }
};

TEST(ThrustInternals, AccumulatorIsTheDecayedResultOfInitOpItem) {
  using archscan::detail::accumulator_t;
  using plus = ::cuda::std::plus<>;
  static_assert(std::is_same_v<accumulator_t<plus, char, int>, int>);
  static_assert(std::is_same_v<accumulator_t<plus, int, char>, int>);  // char + int promotes
  static_assert(std::is_same_v<accumulator_t<plus, float, double>, double>);
  static_assert(std::is_same_v<accumulator_t<plus, double, float>, double>);
  static_assert(std::is_same_v<accumulator_t<::cuda::std::plus<int>, double, double>, int>);  // the op's type wins
  static_assert(std::is_same_v<accumulator_t<returns_reference, long, int>, long>);           // decayed
  SUCCEED();
}

// A non-blocking policy's synchronization returns success without touching its stream (a handle that
// is no stream here). A blocking one without a GPU reports the failure rather than success.
TEST(ThrustInternals, NonBlockingPoliciesNeverSynchronize) {
  const auto bogus = reinterpret_cast<cudaStream_t>(0x5150);
  auto a           = archscan::turing_nosync.on(bogus);
  auto b           = thrust::cuda::par_nosync.on(bogus);
  EXPECT_EQ(ti::synchronize_if_blocking(a), cudaSuccess);
  EXPECT_EQ(ti::synchronize_if_blocking(b), cudaSuccess);
  if (!archscan::test::gpu_available()) {
    auto c = archscan::turing;  // the default stream: nothing to dereference, CUDA itself fails
    EXPECT_NE(ti::synchronize_if_blocking(c), cudaSuccess);
    cudaGetLastError();
  }
}

// The stream's work is a host function that sleeps, then sets a flag: a blocking policy returns after
// it, a non-blocking one before (the sleep is far longer than the call).
TEST(ThrustInternals, BlockingPoliciesWaitForTheirStream) {
  ARCHSCAN_REQUIRE_GPU();
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  static std::atomic<int> done;
  const auto slow = [](void*) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    done = 1;
  };
  done = 0;
  ARCHSCAN_CUDA_OK(cudaLaunchHostFunc(s, slow, nullptr));
  auto nosync = archscan::native_nosync.on(s);
  EXPECT_EQ(ti::synchronize_if_blocking(nosync), cudaSuccess);
  EXPECT_EQ(done.load(), 0) << "a non-blocking policy waited for its stream";
  auto blocking = archscan::native.on(s);
  EXPECT_EQ(ti::synchronize_if_blocking(blocking), cudaSuccess);
  EXPECT_EQ(done.load(), 1) << "a blocking policy returned before its stream's work ended";
  ARCHSCAN_CUDA_OK(cudaStreamDestroy(s));
}

}  // namespace thrust_internals_test
