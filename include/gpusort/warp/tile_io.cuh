// gpusort/warp/tile_io.cuh — coalesced loads and stores of one warp's tile in blocked order,
// with no block barrier (Ye et al., GPU-Warpsort, steps 1–2: each warp owns its data, so
// warps never wait for each other).
//
// The warp networks (warp::bitonic_sort / bitonic_merge) want the blocked arrangement
// (lane l owns items l*ITEMS .. l*ITEMS+ITEMS-1), which read straight from global memory
// would be uncoalesced. These move the warp's 32*ITEMS items through a warp-private padded
// buffer in shared memory instead: lane l touches global items l, l+32, l+64, ... (one
// transaction per row of 32), and the spare slot every 32 keeps the blocked accesses free of
// bank conflicts. Only __syncwarp separates the two halves.
// Items at or past `valid_items` are neither read from nor written to global memory;
// load_blocked gives their slots a copy of item 0, so comparators only ever see real keys.
// Arrays of no_value (keys-only sorts) cost nothing.
//
// Preconditions: all 32 lanes call together with the same arguments; `buffer` is this
// warp's own shared memory, reusable once the call returns; valid_items >= 1 for loads.
// Cost: ITEMS coalesced global accesses and 2*ITEMS shared accesses per lane.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/padded_buffer.cuh>

namespace gpusort {
namespace warp {

template <int ITEMS, class T>
using tile_buffer = detail::padded_buffer<T, 32 * ITEMS>;

template <int ITEMS, class T>
__device__ __forceinline__ void load_blocked(const T* in, T (&items)[ITEMS], int valid_items,
                                             tile_buffer<ITEMS, T>& buffer) {
  if constexpr (detail::has_values<T>) {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int i = s * 32 + lane;
      if (i < valid_items) buffer[i] = in[i];
    }
    __syncwarp();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = lane * ITEMS + r;
      items[r] = buffer[i < valid_items ? i : 0];
    }
    __syncwarp();
  }
}

template <int ITEMS, class T>
__device__ __forceinline__ void store_blocked(T* out, const T (&items)[ITEMS], int valid_items,
                                              tile_buffer<ITEMS, T>& buffer) {
  if constexpr (detail::has_values<T>) {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = lane * ITEMS + r;
      if (i < valid_items) buffer[i] = items[r];
    }
    __syncwarp();
#pragma unroll
    for (int s = 0; s < ITEMS; ++s) {
      const int i = s * 32 + lane;
      if (i < valid_items) out[i] = buffer[i];
    }
    __syncwarp();
  }
}

}  // namespace warp
}  // namespace gpusort
