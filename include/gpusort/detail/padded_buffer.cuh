// gpusort/detail/padded_buffer.cuh — a shared-memory array with one spare slot every 32.
//
// Blocked register layouts (thread t owns items t*ITEMS..) stride through shared memory
// by ITEMS; the spare slot shifts each run of 32 by one bank, so those accesses do not
// collide. A buffer of `no_value` holds nothing.
#pragma once

#include <gpusort/detail/no_value.cuh>

namespace gpusort {
namespace detail {

template <class T, int N>
struct padded_buffer {
  T slots[N + N / 32];
  __device__ __forceinline__ T& operator[](int i) { return slots[i + i / 32]; }
};

template <int N>
struct padded_buffer<no_value, N> {
  no_value slot;
  __device__ __forceinline__ no_value& operator[](int) { return slot; }
};

}  // namespace detail
}  // namespace gpusort
