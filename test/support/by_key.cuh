#pragma once
// Keys and a host reference for by-key scans, for tests whose keys, values and operators vary.
// The reference splits the items into segments with the predicate and runs host_scan (cases.cuh) on
// each, so it holds for any value type, key type, operator and predicate, const or not.

#include <cstdint>
#include <random>
#include <vector>

#include "support/cases.cuh"

namespace archscan::test {

//! Keys in runs of random length (a new run with probability 1/13), each run's key 1..3 above the last.
inline std::vector<int> random_key_runs(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x2545F4914F6CDD1Dull + 99);
  std::vector<int> keys(static_cast<std::size_t>(n));
  int key = static_cast<int>(rng() % 7);
  for (int& k : keys) {
    if (rng() % 13 == 0) key += 1 + static_cast<int>(rng() % 3);
    k = key;
  }
  return keys;
}

//! Keys 0, 1, ..., n - 1: every item a segment of its own.
inline std::vector<int> distinct_keys(std::int64_t n) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i);
  return keys;
}

//! Sequential by-key scan: a segment starts at 0 and at every i where !pred(keys[i - 1], keys[i]);
//! each segment is scanned on its own, exclusive ones from `init`.
template <class K, class T, class Op, class Pred>
std::vector<T> host_scan_by_key(const std::vector<K>& keys, const std::vector<T>& values, Op op, Pred pred,
                                bool exclusive, T init) {
  std::vector<T> out;
  out.reserve(values.size());
  std::vector<T> segment;
  std::size_t begin = 0;
  while (begin < values.size()) {
    std::size_t end = begin + 1;
    while (end < values.size() && pred(keys[end - 1], keys[end])) ++end;
    segment.assign(values.begin() + static_cast<std::ptrdiff_t>(begin),
                   values.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<T> scanned = host_scan(segment, op, exclusive, exclusive, init);
    out.insert(out.end(), scanned.begin(), scanned.end());
    begin = end;
  }
  return out;
}

}  // namespace archscan::test
