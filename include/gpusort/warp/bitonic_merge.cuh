// gpusort/warp/bitonic_merge.cuh — barrier-free bitonic merge of a warp's items
// (Ye et al., GPU-Warpsort, step 2: the merge network every warp merge is made of).
//
// Layout: blocked. Lane l holds items [l*ITEMS, (l+1)*ITEMS) of the warp's 32*ITEMS
// items in `keys[0..ITEMS)`. Strides below ITEMS are compare-exchanges in registers,
// larger strides exchange with the partner lane by shuffle: no shared memory and no
// __syncthreads, and all 32 lanes act in the same step (the property Ye et al. built on).
//
// Preconditions: ITEMS is a power of two; all 32 lanes of the warp call together.
// Cost: log2(32*ITEMS) steps, each ITEMS compare-exchanges and at most 2*ITEMS shuffles
// per lane.
#pragma once

#include <gpusort/thread/sorting_network.cuh>
#include <gpusort/warp/shuffle.cuh>

namespace gpusort {
namespace warp {
constexpr int lanes = 32;
}  // namespace warp

namespace detail {

// One bitonic stage of the network over blocks of `block_size` (> ITEMS) items: strides
// first_stride, first_stride/2, ..., 1, where first_stride >= ITEMS. A block runs
// descending when its index bit `block_size` is set in its position, flipped once more by
// `descending`. The stride loop stays rolled (one shuffle step per trip): fully unrolled,
// a tile sort grows to tens of kilobytes of code and stalls on instruction fetch. Only the
// in-thread strides, which index registers, are unrolled.
template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void warp_bitonic_stage(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                                   Compare cmp, int block_size, int first_stride,
                                                   bool descending) {
  const int lane = threadIdx.x % warp::lanes;
#pragma unroll 1
  for (int stride = first_stride; stride >= ITEMS; stride /= 2) {
    const int lane_mask = stride / ITEMS;
    const bool lower = (lane & lane_mask) == 0;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int position = lane * ITEMS + r;
      const bool desc = ((position & block_size) != 0) != descending;
      const Key other_key = warp::shuffle_xor(keys[r], lane_mask);
      const Value other_value = warp::shuffle_xor(values[r], lane_mask);
      // The lower lane keeps the smaller of the two (larger when descending); equal keys
      // stay put on both sides, so nothing is duplicated. Selects, not branches (see
      // thread::compare_exchange).
      const bool other_first = cmp(other_key, keys[r]);
      const bool mine_first = cmp(keys[r], other_key);
      const bool take = (lower != desc) ? other_first : mine_first;
      keys[r] = take ? other_key : keys[r];
      values[r] = take ? other_value : values[r];
    }
  }
  thread::bitonic_steps(keys, values, cmp, ITEMS / 2, block_size, lane * ITEMS, descending);
}

}  // namespace detail

namespace warp {

// Turns the warp's bitonic sequence of 32*ITEMS items into a sorted one (descending if
// asked). Two sorted runs, the second reversed, form such a sequence.
template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_merge(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                              Compare cmp, bool descending = false) {
  constexpr int span = lanes * ITEMS;
  // block_size == span: no item of the warp has that bit set, the direction is uniform.
  detail::warp_bitonic_stage<ITEMS>(keys, values, cmp, span, span / 2, descending);
}

}  // namespace warp
}  // namespace gpusort
