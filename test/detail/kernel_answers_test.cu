// detail/kernel_answers.cuh: answers kept per kernel, question and device. Host only: the kernels are
// addresses, never launched. An answer is found only for the kernel, question and device it was kept
// for; the first answer kept stays; threads keeping and finding at once see either nothing or the
// answer kept; a full table keeps nothing more and finds nothing new, without failing.

#include <cstdlib>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/kernel_answers.cuh>

namespace kernel_answers_test {

using archscan::detail::kernel_answers;
using archscan::detail::kernel_question;

//! Stand-ins for kernels: distinct addresses no other test keeps answers for.
char kernels[2 * kernel_answers::capacity];

TEST(KernelAnswers, FoundOnlyForTheKernelQuestionAndDeviceKeptFor) {
  const void* k     = &kernels[0];
  const void* other = &kernels[1];
  EXPECT_EQ(kernel_answers::find(k, kernel_question::blocks_per_sm, 0), -1);
  kernel_answers::keep(k, kernel_question::blocks_per_sm, 0, 7);
  EXPECT_EQ(kernel_answers::find(k, kernel_question::blocks_per_sm, 0), 7);
  EXPECT_EQ(kernel_answers::find(k, kernel_question::configured, 0), -1);
  EXPECT_EQ(kernel_answers::find(k, kernel_question::blocks_per_sm, 1), -1);
  EXPECT_EQ(kernel_answers::find(other, kernel_question::blocks_per_sm, 0), -1);
  kernel_answers::keep(k, kernel_question::blocks_per_sm, 1, 0);  // 0 is an answer too
  EXPECT_EQ(kernel_answers::find(k, kernel_question::blocks_per_sm, 1), 0);
  kernel_answers::keep(k, kernel_question::blocks_per_sm, 200, 3);  // any device number
  EXPECT_EQ(kernel_answers::find(k, kernel_question::blocks_per_sm, 200), 3);
  EXPECT_EQ(kernel_answers::find(k, kernel_question::blocks_per_sm, 0), 7);
}

TEST(KernelAnswers, TheFirstAnswerKeptStays) {
  const void* k = &kernels[2];
  kernel_answers::keep(k, kernel_question::largest_cluster, 0, 16);
  kernel_answers::keep(k, kernel_question::largest_cluster, 0, 8);
  EXPECT_EQ(kernel_answers::find(k, kernel_question::largest_cluster, 0), 16);
}

//! Eight threads keep answers for 64 kernels each (the answer a function of the kernel) while reading
//! every kernel's: a read finds nothing or exactly that answer, and once all have kept, every one.
TEST(KernelAnswers, ThreadsKeepingAndFindingAtOnce) {
  constexpr int threads = 8, each = 64, first = 16;
  auto answer_of = [](int i) { return 1000 + i; };
  std::vector<std::thread> pool;
  std::vector<int> wrong(threads, 0);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int j = 0; j < each; ++j) {
        const int i = first + t * each + j;
        kernel_answers::keep(&kernels[i], kernel_question::dependent_launch, 0, answer_of(i));
        for (int r = first; r < first + threads * each; r += 37) {
          const int found = kernel_answers::find(&kernels[r], kernel_question::dependent_launch, 0);
          if (found != -1 && found != answer_of(r)) ++wrong[t];
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
  for (int i = first; i < first + threads * each; ++i) {
    ASSERT_EQ(kernel_answers::find(&kernels[i], kernel_question::dependent_launch, 0), answer_of(i)) << i;
  }
}

//! In a child process, so that this program's other tests keep a table with room: keeping more
//! answers than there are slots fails nothing; the answers kept are found, the rest are not.
TEST(KernelAnswers, AFullTableKeepsNothingMoreAndFindsNothingNew) {
  EXPECT_EXIT(
      {
        int kept = 0;
        for (int i = 0; i < 2 * kernel_answers::capacity; ++i) {
          kernel_answers::keep(&kernels[i], kernel_question::configured, 9, i);
          if (kernel_answers::find(&kernels[i], kernel_question::configured, 9) == i) ++kept;
        }
        int found_after = 0;
        for (int i = 0; i < 2 * kernel_answers::capacity; ++i) {
          const int a = kernel_answers::find(&kernels[i], kernel_question::configured, 9);
          if (a != -1 && a != i) std::exit(3);  // a wrong answer
          if (a == i) ++found_after;
        }
        // Other tests may have kept a few hundred answers before this one: the rest of the slots hold these.
        std::exit(kept == found_after && kept > kernel_answers::capacity / 2 && kept <= kernel_answers::capacity ? 0
                                                                                                                 : 4);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace kernel_answers_test
