// detail/packed_sums.cuh, host: the word-at-a-time sums of narrow integers, through the host's
// emulation of __dp4a, __dp2a_lo and __byte_perm (the same code the device runs around the intrinsics). A
// word's running sums and total match an item-by-item fold modulo 256 for random words and running
// values, inclusive and exclusive, and the chain of words matches a whole thread's items; widened to
// 32 bits, signed and unsigned bytes match 32-bit adds; two-byte items match modulo 2^16; which
// operators and types qualify. The same sums on the GPU,
// inside the tile, against the item-by-item scan and CUB: test/tile/transposed_tile_test.cu.

#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include <archscan/detail/packed_sums.cuh>
#include <cuda/functional>

namespace packed_sums_test {

namespace detail = archscan::detail;

unsigned byte_of(unsigned w, int k) { return (w >> (8 * k)) & 0xffu; }

TEST(PackedSums, DotBytesAndPickBytesFollowTheIntrinsics) {
  // __dp4a on unsigned bytes: c + sum of the products of the bytes at each place.
  EXPECT_EQ(detail::dot_bytes(0x04030201u, 0x01010101u, 10u), 10u + 1 + 2 + 3 + 4);
  EXPECT_EQ(detail::dot_bytes(0xff000000u, 0x01000000u, 0u), 255u);
  EXPECT_EQ(detail::dot_bytes(0xffffffffu, 0x01010101u, 0xffffff00u), 0xffffff00u + 4 * 255u);
  EXPECT_EQ(detail::dot_bytes(0x04030201u, 0x00010001u, 0u), 1u + 3);
  // __byte_perm: selector nibble k names the byte of hi:lo that lands in byte k.
  EXPECT_EQ(detail::pick_bytes(0x33221100u, 0x77665544u, 0x3210u), 0x33221100u);
  EXPECT_EQ(detail::pick_bytes(0x33221100u, 0x77665544u, 0x7654u), 0x77665544u);
  EXPECT_EQ(detail::pick_bytes(0x33221100u, 0x77665544u, 0x5410u), 0x55441100u);
  EXPECT_EQ(detail::pick_bytes(0x33221100u, 0x77665544u, 0x0040u), 0x00004400u);
}

template <bool Exclusive>
void expect_word_scans() {
  std::mt19937 rng(Exclusive ? 7u : 11u);
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned w = rng();
    // Bits above the running value's low byte are carries of earlier words: any value at all.
    const unsigned start = trial % 3 == 0 ? (rng() & 0xffu) : rng();
    unsigned running     = start;
    const unsigned out   = detail::word_byte_scan<Exclusive>(w, running);
    unsigned r           = start & 0xffu;
    for (int k = 0; k < 4; ++k) {
      const unsigned inclusive = (r + byte_of(w, k)) & 0xffu;
      ASSERT_EQ(byte_of(out, k), Exclusive ? r : inclusive)
          << std::hex << "word " << w << " start " << start << " byte " << k;
      r = inclusive;
    }
    ASSERT_EQ(running & 0xffu, r) << std::hex << "word " << w << " start " << start;
    ASSERT_EQ(detail::word_byte_sum(w, start) & 0xffu,
              (start + byte_of(w, 0) + byte_of(w, 1) + byte_of(w, 2) + byte_of(w, 3)) & 0xffu);
  }
}

TEST(PackedSums, WordScanMatchesItemByItemInclusive) { expect_word_scans<false>(); }
TEST(PackedSums, WordScanMatchesItemByItemExclusive) { expect_word_scans<true>(); }

// A thread's 64 signed items, as the tile chains its 16 words: the same bits as int8 addition.
TEST(PackedSums, ChainOfWordsMatchesSignedBytes) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    std::int8_t items[64];
    unsigned words[16] = {};
    for (int j = 0; j < 64; ++j) {
      items[j] = static_cast<std::int8_t>(rng());
      words[j / 4] |= static_cast<unsigned>(static_cast<std::uint8_t>(items[j])) << (8 * (j % 4));
    }
    const auto seed  = static_cast<std::int8_t>(rng());
    unsigned running = static_cast<unsigned char>(seed);
    std::int8_t want = seed;
    unsigned total   = 0;
    for (int w = 0; w < 16; ++w) {
      total              = detail::word_byte_sum(words[w], total);
      const unsigned out = detail::word_byte_scan<false>(words[w], running);
      for (int k = 0; k < 4; ++k) {
        want = static_cast<std::int8_t>(want + items[4 * w + k]);
        ASSERT_EQ(static_cast<std::int8_t>(byte_of(out, k)), want) << "item " << 4 * w + k;
      }
    }
    std::int8_t sum = 0;
    for (const std::int8_t x : items) sum = static_cast<std::int8_t>(sum + x);
    ASSERT_EQ(static_cast<std::int8_t>(total), sum);
  }
}

// Widened: one-byte items (unsigned or signed) summed in 32 bits, word by word and over a thread's words.
template <bool Signed, bool Exclusive>
void expect_widened_sums() {
  std::mt19937 rng(Signed ? 5u : 9u);
  for (int trial = 0; trial < 2000; ++trial) {
    unsigned words[8];
    for (unsigned& w : words) w = rng();
    const unsigned start = rng();
    unsigned want        = start;
    unsigned total       = 0;
    std::uint32_t got[32];
    detail::words_byte_prefixes<Signed, Exclusive>(words, start, [&](int j, unsigned sum) { got[j] = sum; });
    for (int j = 0; j < 32; ++j) {
      const unsigned b    = byte_of(words[j / 4], j % 4);
      const unsigned item = Signed ? static_cast<unsigned>(static_cast<int>(static_cast<signed char>(b))) : b;
      ASSERT_EQ(got[j], Exclusive ? want : want + item) << "item " << j;
      want += item;
      total += item;
    }
    ASSERT_EQ(detail::words_byte_sum<Signed>(words), total);
  }
}

TEST(PackedSums, WidenedSumsMatchThirtyTwoBitAdds) {
  expect_widened_sums<false, false>();
  expect_widened_sums<false, true>();
  expect_widened_sums<true, false>();
  expect_widened_sums<true, true>();
  EXPECT_EQ(detail::dot_bytes<true>(0x00ff80ffu, 0x01010101u, 10u), 10u - 1u - 128u - 1u);
}

TEST(PackedSums, ChainOfWordsInPlace) {
  std::mt19937 rng(13);
  unsigned words[16], copy[16];
  for (int w = 0; w < 16; ++w) copy[w] = words[w] = rng();
  detail::words_byte_scan<true>(words, 200u);
  unsigned r = 200;
  for (int j = 0; j < 64; ++j) {
    ASSERT_EQ(byte_of(words[j / 4], j % 4), r & 0xffu) << "item " << j;
    r += byte_of(copy[j / 4], j % 4);
  }
}

unsigned half_of(unsigned w, int k) { return (w >> (16 * k)) & 0xffffu; }

TEST(PackedSums, DotHalvesFollowsTheIntrinsic) {
  // __dp2a_lo: c + the low half times weight byte 0 + the high half times weight byte 1.
  EXPECT_EQ(detail::dot_halves(0x00030002u, 0x0101u, 10u), 10u + 2 + 3);
  EXPECT_EQ(detail::dot_halves(0xffff0001u, 0x0100u, 0u), 0xffffu);
}

// Two-byte items, two a word: the running sums modulo 2^16, a word at a time and over a thread's words.
template <bool Exclusive>
void expect_half_scans() {
  std::mt19937 rng(Exclusive ? 17u : 19u);
  for (int trial = 0; trial < 2000; ++trial) {
    unsigned words[32], copy[32];
    for (int w = 0; w < 32; ++w) copy[w] = words[w] = rng();
    const unsigned start = rng();
    unsigned total       = 0;
    for (const unsigned w : copy) total += half_of(w, 0) + half_of(w, 1);
    ASSERT_EQ(detail::words_packed_sum<2>(words) & 0xffffu, total & 0xffffu);
    detail::words_packed_scan<2, Exclusive>(words, start);
    unsigned r = start & 0xffffu;
    for (int j = 0; j < 64; ++j) {
      const unsigned inclusive = (r + half_of(copy[j / 2], j % 2)) & 0xffffu;
      ASSERT_EQ(half_of(words[j / 2], j % 2), Exclusive ? r : inclusive) << "item " << j;
      r = inclusive;
    }
  }
}

TEST(PackedSums, HalfScansMatchItemByItem) {
  expect_half_scans<false>();
  expect_half_scans<true>();
}

TEST(PackedSums, OnlyPlusOnOneAndTwoByteIntegersQualifies) {
  using detail::callable;
  using detail::sums_packed;
  static_assert(sums_packed<callable<::cuda::std::plus<>>, std::int8_t>::value);
  static_assert(sums_packed<callable<::cuda::std::plus<std::uint8_t>>, std::uint8_t>::value);
  static_assert(sums_packed<callable<const ::cuda::std::plus<int>>, char>::value, "an int sum wraps as well");
  static_assert(sums_packed<callable<::cuda::std::plus<>>, std::int16_t>::value);
  static_assert(sums_packed<callable<::cuda::std::plus<int>>, std::uint16_t>::value);
  static_assert(!sums_packed<callable<::cuda::std::plus<float>>, std::int8_t>::value);
  static_assert(!sums_packed<callable<::cuda::std::plus<>>, int>::value);
  static_assert(!sums_packed<callable<::cuda::std::plus<>>, bool>::value);
  static_assert(!sums_packed<callable<::cuda::maximum<>>, std::int8_t>::value);
  static_assert(detail::byte_integer<unsigned char> && !detail::byte_integer<bool> && !detail::byte_integer<short>);
  static_assert(!detail::byte_integer<void>, "a non-vector element");
  // Widened: into four-byte integers, by a plus at least that wide.
  using detail::widens_bytes;
  static_assert(widens_bytes<callable<::cuda::std::plus<>>, int>::value);
  static_assert(widens_bytes<callable<::cuda::std::plus<long long>>, unsigned>::value);
  static_assert(!widens_bytes<callable<::cuda::std::plus<std::uint8_t>>, int>::value, "cut to a byte");
  static_assert(!widens_bytes<callable<::cuda::std::plus<>>, long long>::value);
  static_assert(!widens_bytes<callable<::cuda::std::plus<>>, float>::value);
  SUCCEED();
}

}  // namespace packed_sums_test
