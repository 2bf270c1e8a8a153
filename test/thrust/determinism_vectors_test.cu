// native's bits whatever path a tile's items take: 16-byte vectors, packed or not, off alignment or
// item by item.

#include "thrust/determinism_paths.cuh"

namespace {

using namespace archscan::test;

//! Inclusive and exclusive (seeded with `init`) scans of `items` under `op` with native through
//! 16-byte vectors (one- and two-byte items packed), with the input and the output off 16-byte
//! alignment (packed one value at a time, or per item), with one of them aligned and the other not,
//! and with a tuning without vectors: the same bits. `exact`: `op` is associative, so the host's
//! left fold gives those bits too.
template <class T, class Op>
void expect_same_bits_on_every_path(const std::vector<T>& items, Op op, T init, bool exact) {
  const std::int64_t n = static_cast<std::int64_t>(items.size());
  device_buffer<T> in(items), out(n), out_per_item(n), out_aligned(n);
  misaligned<T> in_off(n), out_off(n), out_mixed(n);
  in_off.fill(items);
  for (const bool exclusive : {false, true}) {
    const auto run = [&](auto policy, const T* first, T* result) {
      if (exclusive) {
        thrust::exclusive_scan(policy, first, first + n, result, init, op);
      } else {
        thrust::inclusive_scan(policy, first, first + n, result, op);
      }
    };
    out.poison();
    out_off.raw.poison();
    out_mixed.raw.poison();
    out_per_item.poison();
    out_aligned.poison();
    run(archscan::native, in.begin(), out.begin());
    run(archscan::native, in_off.first, out_off.first);
    run(archscan::native, in.begin(), out_mixed.first);
    run(archscan::native, in_off.first, out_aligned.begin());
    run(archscan::policy<native_per_item>{}, in.begin(), out_per_item.begin());
    const auto vectors = out.to_host();
    const char* what   = exclusive ? "exclusive" : "inclusive";
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_off.to_host(n))) << what << ", off 16-byte alignment, n=" << n;
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_mixed.to_host(n))) << what << ", output off alignment, n=" << n;
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_aligned.to_host())) << what << ", input off alignment, n=" << n;
    EXPECT_EQ(bytes_of(vectors), bytes_of(out_per_item.to_host())) << what << ", per item, n=" << n;
    if (!exact) continue;
    T running = init;
    for (std::int64_t i = 0; i < n; ++i) {
      if (!exclusive) running = i == 0 ? items[0] : static_cast<T>(op(running, items[i]));
      ASSERT_TRUE(vectors[i] == running) << what << ", n=" << n << ", i=" << i;
      if (exclusive) running = static_cast<T>(op(running, items[i]));
    }
  }
}

TEST(NativeDeterminism, VectorsPackedOrNotGiveTheSameBitsAsItemByItem) {
  ARCHSCAN_REQUIRE_GPU();
  // One partial tile, a wave of a few tiles, and look-backs over many tiles (16384 items for one-
  // and two-byte items, 3072 for the 16-byte matrices).
  for (const std::int64_t n : {std::int64_t{5000}, std::int64_t{3} * 16384 + 5, std::int64_t{300} * 16384 + 7}) {
    const auto i8  = random_values<std::int8_t>(n, 61);
    const auto u8  = random_values<std::uint8_t>(n, 62);
    const auto i16 = random_values<std::int16_t>(n, 63);
    expect_same_bits_on_every_path(i8, affine_mix{}, std::int8_t{7}, false);
    expect_same_bits_on_every_path(i8, ::cuda::std::plus<std::int8_t>{}, std::int8_t{7}, true);
    expect_same_bits_on_every_path(u8, affine_mix{}, std::uint8_t{7}, false);
    expect_same_bits_on_every_path(i16, affine_mix{}, std::int16_t{7}, false);
    expect_same_bits_on_every_path(i16, ::cuda::std::plus<std::int16_t>{}, std::int16_t{7}, true);
    expect_same_bits_on_every_path(random_values<mat2>(n, 64), mat2_mul{}, mat2{1, 2, 0, 1}, true);
  }
}

}  // namespace
