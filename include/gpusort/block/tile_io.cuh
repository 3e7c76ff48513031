// gpusort/block/tile_io.cuh — coalesced loads and stores of a block's tile in blocked order.
//
// The sorts keep items in the blocked arrangement (thread t owns t*ITEMS..t*ITEMS+ITEMS-1),
// which read straight from global memory would be uncoalesced. These move the tile through
// a padded shared buffer instead: consecutive threads touch consecutive addresses in global
// memory, and no two lanes of a warp hit one bank in shared memory.
// Items at or past `valid_items` are neither read from nor written to global memory;
// load_blocked gives their slots a copy of item 0, so that comparators only ever see real
// keys (a user comparator may not accept arbitrary bits). Arrays of no_value (keys-only
// sorts) cost nothing.
#pragma once

#include <gpusort/detail/padded_buffer.cuh>

namespace gpusort {
namespace block {

template <int THREADS, int ITEMS, class T>
using tile_buffer = detail::padded_buffer<T, THREADS * ITEMS>;

template <int THREADS, int ITEMS, class T>
__device__ __forceinline__ void load_blocked(const T* in, T (&items)[ITEMS], int valid_items,
                                             tile_buffer<THREADS, ITEMS, T>& buffer) {
  if constexpr (detail::has_values<T>) {
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int i = s * THREADS + threadIdx.x;
      if (i < valid_items) buffer[i] = in[i];
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = threadIdx.x * ITEMS + r;
      items[r] = buffer[i < valid_items ? i : 0];
    }
    __syncthreads();
  }
}

template <int THREADS, int ITEMS, class T>
__device__ __forceinline__ void store_blocked(T* out, const T (&items)[ITEMS], int valid_items,
                                              tile_buffer<THREADS, ITEMS, T>& buffer) {
  if constexpr (detail::has_values<T>) {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = threadIdx.x * ITEMS + r;
      if (i < valid_items) buffer[i] = items[r];
    }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int i = s * THREADS + threadIdx.x;
      if (i < valid_items) out[i] = buffer[i];
    }
    __syncthreads();
  }
}

}  // namespace block
}  // namespace gpusort
