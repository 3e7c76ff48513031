// gpusort/warp/bitonic_merge.cuh — barrier-free bitonic merge of a warp's items
// (Ye et al., GPU-Warpsort, step 2: the merge network every warp merge is made of).
//
// Layout: blocked. Lane l holds items [l*ITEMS, (l+1)*ITEMS) of the warp's 32*ITEMS items.
// Strides below ITEMS are compare-exchanges in registers; larger strides exchange with the
// partner lane by shuffle: no shared memory and no __syncthreads, and all 32 lanes act in
// the same step (the property Ye et al. built on). Every compare-exchange runs ascending
// (the flip form of the network, see thread/sorting_network.cuh): the lower lane of a pair
// keeps the item that comes first.
//
// Preconditions: ITEMS is a power of two; all 32 lanes of the warp call together.
// Cost: log2(32*ITEMS) steps, each ITEMS compare-exchanges and at most 2*ITEMS shuffles
// per lane.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/thread/sorting_network.cuh>
#include <gpusort/warp/shuffle.cuh>

namespace gpusort {
namespace warp {
constexpr int lanes = 32;
}  // namespace warp

namespace detail {

// The lower lane of a pair keeps the item that comes first, the upper lane the other; equal
// keys stay put on both sides (keys alone that are the same bits may trade places instead),
// so nothing is duplicated. Selects, not branches (see
// thread::compare_exchange).
template <class Key, class Value, class Compare>
__device__ __forceinline__ void keep_by_lane(Key& key, Value& value, const Key& other_key,
                                             const Value& other_value, bool lower, Compare cmp) {
  if constexpr (!has_values<Value> && ties_are_identical<Key, Compare>::value) {
    // Keys alone whose ties are the same bits: the upper lane may take its partner's key on
    // a tie, so one comparison in one order decides both lanes, without first choosing the
    // operands per lane (u64 keys: 4 integer instructions an item instead of 8; these
    // networks are bound by the integer pipe).
    key = cmp(other_key, key) == lower ? other_key : key;
  } else {
    // Operands copied, not picked by reference: a reference chosen per lane, read by a
    // comparator that short-circuits (reads a field on some paths only), keeps whole arrays
    // of struct keys in local memory instead of registers (16-byte keys: 1.6-4x slower sorts).
    Key first = key, second = other_key;
    if (lower) {
      first = other_key;
      second = key;
    }
    const bool take = cmp(first, second);
    key = take ? other_key : key;
    value = take ? other_value : value;
  }
}

// Half-cleaner strides first_stride, first_stride/2, ..., ITEMS across lanes. The loop
// stays rolled (one shuffle step per trip): fully unrolled, a tile sort grows to tens of
// kilobytes of code.
template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void warp_shuffle_half_cleaner(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                                          Compare cmp, int first_stride) {
  const int lane = threadIdx.x % warp::lanes;
#pragma unroll 1
  for (int stride = first_stride; stride >= ITEMS; stride /= 2) {
    const int lane_mask = stride / ITEMS;
    const bool lower = (lane & lane_mask) == 0;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const Key other_key = warp::shuffle_xor(keys[r], lane_mask);
      const Value other_value = warp::shuffle_xor(values[r], lane_mask);
      keep_by_lane(keys[r], values[r], other_key, other_value, lower, cmp);
    }
  }
}

// Flip over blocks of `block_size` items, ITEMS < block_size <= 32*ITEMS: item r of a lane
// pairs with item ITEMS-1-r of the mirrored lane.
template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void warp_shuffle_flip(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                                  Compare cmp, int block_size) {
  const int lane = threadIdx.x % warp::lanes;
  const int lane_mask = block_size / ITEMS - 1;
  const bool lower = (lane & (block_size / ITEMS / 2)) == 0;
  // All shuffles first: each register is read by its mirror's update.
  Key other_keys[ITEMS];
  Value other_values[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    other_keys[r] = warp::shuffle_xor(keys[ITEMS - 1 - r], lane_mask);
    other_values[r] = warp::shuffle_xor(values[ITEMS - 1 - r], lane_mask);
  }
#pragma unroll
  for (int r = 0; r < ITEMS; ++r)
    keep_by_lane(keys[r], values[r], other_keys[r], other_values[r], lower, cmp);
}

}  // namespace detail

namespace warp {

// Sorts the warp's 32*ITEMS items when they form a bitonic sequence: a run ascending
// under cmp followed by a run descending (two sorted runs, the second one reversed).
template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_merge(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                              Compare cmp) {
  detail::warp_shuffle_half_cleaner<ITEMS>(keys, values, cmp, lanes * ITEMS / 2);
  thread::half_cleaner(keys, values, cmp, ITEMS / 2);
}

}  // namespace warp
}  // namespace gpusort
