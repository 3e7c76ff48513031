// gpusort/detail/padded_buffer.cuh — a shared-memory array with a spare slot every 128 bytes.
//
// Blocked register layouts (thread t owns items t*ITEMS..) stride through shared memory
// by ITEMS; a spare slot after every 128 bytes (one sweep of the 32 banks) shifts the next
// run by one item, so the lanes that one shared-memory access serves do not collide. A slot
// per 32 items suits 4-byte items only: 16-byte items then collide 4-way, 8-byte 2-way.
// A buffer of `no_value` holds nothing.
#pragma once

#include <gpusort/detail/no_value.cuh>

#include <cstddef>

namespace gpusort {
namespace detail {

// Items between spare slots: the largest power of two that fits 128 bytes, at least one.
constexpr int pad_period(std::size_t item_bytes) {
  int period = 1;
  while (2 * period * item_bytes <= 128) period *= 2;
  return period;
}

// Bytes of a padded buffer of `count` items of `item_bytes` each (0 bytes: no_value).
constexpr std::size_t padded_bytes(std::size_t item_bytes, std::size_t count) {
  return item_bytes == 0 ? 0 : (count + count / pad_period(item_bytes)) * item_bytes;
}

template <class T, int N>
struct padded_buffer {
  static constexpr int period = pad_period(sizeof(T));
  T slots[N + N / period];
  // Unsigned: the division is then a shift, without the sign correction a signed one needs
  // in every shared-memory access (the u32 merge pass: 16 % fewer PTX instructions).
  __device__ __forceinline__ T& operator[](int i) {
    return slots[i + static_cast<unsigned>(i) / period];
  }
};

template <int N>
struct padded_buffer<no_value, N> {
  no_value slot;
  __device__ __forceinline__ no_value& operator[](int) { return slot; }
};

}  // namespace detail
}  // namespace gpusort
