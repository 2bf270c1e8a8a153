#pragma once
// What the rows of every shipped tuning must satisfy, whatever the family: shared by the tests of
// tuning/blelloch.cuh, tuning/kepler.cuh and tuning/turing.cuh.

#include <cstddef>

#include <gtest/gtest.h>

#include <archscan/tuning.cuh>

namespace archscan::test {

//! Registers a thread may take when `min_blocks_per_sm` blocks of the row share an SM's 64K registers.
template <class Row>
constexpr int register_cap() {
  return 65536 / (Row::block_threads * Row::min_blocks_per_sm);
}

//! A row serving accumulators of up to `AccumBytes` bytes: whole warps, at most 1024 threads, its
//! small tiles no larger than its full ones, its guaranteed blocks resident together on every
//! supported GPU (sm_75: 1024 threads an SM), and a thread's items within its register cap.
template <class Row, std::size_t AccumBytes>
void expect_row_runs_everywhere(const char* name) {
  EXPECT_EQ(Row::block_threads % 32, 0) << name;
  EXPECT_LE(Row::block_threads, 1024) << name;
  EXPECT_GE(Row::items_per_thread, 1) << name;
  EXPECT_GE(Row::small_items_per_thread, 1) << name;
  EXPECT_LE(Row::small_items_per_thread, Row::items_per_thread) << name;
  EXPECT_GE(Row::min_blocks_per_sm, 1) << name;
  EXPECT_LE(Row::block_threads * Row::min_blocks_per_sm, 1024) << name;
  EXPECT_LT(Row::items_per_thread * static_cast<int>((AccumBytes + 3) / 4), register_cap<Row>()) << name;
}

//! Every width's row, by the row dispatch chooses for it.
template <class Tuning>
void expect_rows_run_everywhere() {
  expect_row_runs_everywhere<archscan::row_for<Tuning, 1>, 1>("1-byte row");
  expect_row_runs_everywhere<archscan::row_for<Tuning, 2>, 2>("2-byte row");
  expect_row_runs_everywhere<archscan::row_for<Tuning, 4>, 4>("4-byte row");
  expect_row_runs_everywhere<archscan::row_for<Tuning, 8>, 8>("8-byte row");
  expect_row_runs_everywhere<archscan::row_for<Tuning, 16>, 16>("16-byte row");
  expect_row_runs_everywhere<archscan::row_for<Tuning, 32>, 32>("32-byte row (row_large)");
}

}  // namespace archscan::test
