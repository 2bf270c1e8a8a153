#pragma once
// Tile states (include/archscan/tile/tile_state.cuh) owned by a test: the layout, the storage and the
// states bound to it, for tests that launch tile code themselves instead of through a dispatch.

#include <cstdint>
#include <type_traits>

#include <archscan/tile/tile_state.cuh>

#include "support/device_buffer.cuh"

namespace archscan::test {

//! `count` tile states of type `State` (a tile_state of accumulator T, packed or not) in storage of
//! their own: zeroed as the dispatches reset them, or, `dirty`, every byte 0xFF, so that only a reset
//! inside the kernel under test makes them usable.
template <class State, class T>
struct owned_tile_states {
  tile::tile_state_layout layout;
  device_buffer<unsigned char> storage;

  explicit owned_tile_states(std::int64_t count, bool dirty = false)
      : layout(tile::make_tile_state_layout(count, sizeof(T), std::is_same_v<State, tile::tile_state<T, true>>)),
        storage(static_cast<std::int64_t>(layout.bytes)) {
    if (dirty) {
      check(cudaMemset(storage.get(), 0xFF, layout.bytes), "dirty tile states");
    } else {
      tile::reset_tile_states(storage.get(), layout, nullptr, "owned_tile_states");
    }
  }
  State bound() const { return State::bind(storage.get(), layout); }
};

}  // namespace archscan::test
