// gpusort/warp/bitonic_sort.cuh — barrier-free bitonic sort of a warp's items
// (Ye et al., GPU-Warpsort, step 1, in registers and shuffles instead of shared memory).
//
// Layout: blocked, lane l holds items [l*ITEMS, (l+1)*ITEMS). Sorts the warp's 32*ITEMS
// items under `cmp` (descending if asked); each value travels with its key. Not stable.
// Preconditions: ITEMS is a power of two; all 32 lanes call together.
// Cost: log2(n)(log2(n)+1)/2 steps for n = 32*ITEMS, no shared memory, no barriers.
#pragma once

#include <gpusort/warp/bitonic_merge.cuh>

namespace gpusort {
namespace warp {

template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                             Compare cmp, bool descending = false) {
  static_assert(ITEMS > 0 && (ITEMS & (ITEMS - 1)) == 0, "ITEMS must be a power of two");
  constexpr int span = lanes * ITEMS;
  const int lane = threadIdx.x % lanes;
  // Stages inside a thread's registers (the last of them, block_size == ITEMS, alternates
  // direction from lane to lane).
#pragma unroll
  for (int block_size = 2; block_size <= ITEMS; block_size *= 2) {
    thread::bitonic_steps(keys, values, cmp, block_size / 2, block_size, lane * ITEMS, descending);
  }
#pragma unroll 1
  for (int block_size = 2 * ITEMS; block_size <= span; block_size *= 2) {
    detail::warp_bitonic_stage<ITEMS>(keys, values, cmp, block_size, block_size / 2, descending);
  }
}

}  // namespace warp
}  // namespace gpusort
