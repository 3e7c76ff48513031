// gpusort/block/sort_tile.cuh — one partly filled tile from global memory, sorted, back to
// global memory (Dehne & Zaboli, Algorithm 1 step 9: a bucket that fits one block; the
// block-local sort of the sample sorts' small buckets; warpsort's block-sorted chunks).
//
// Loads the `valid_items` items at keys_in (values_in) with block::load_blocked, sorts them
// with the plain block::bitonic_sort, and stores them at keys_out (values_out), which may
// alias the input: every item is in registers before the first store.
// A partly filled tile is padded with copies of its largest key, so it needs no validity
// flags. Where copies could be told apart from the real items that tie with the largest
// (ties that are not identical bits, or values alongside), those real items go straight to
// the end of the output first, however many they are (detail::park_ties_with_largest), and
// the network sorts copies in their place. The ragged network (block::bitonic_sort with valid_items)
// keeps such ties in spare shared memory and takes its flagged network when they outnumber
// it; u64 keys under a user comparator spilled there (255 registers, a 1.4 KB stack) and
// sorted 3.6-4x slower where many tie (H100, run 35: randomized_sample 2^22-2^24 keys
// ordered by their top 12 bits; deterministic_sample 2^24-2^26 likewise).
//
// Preconditions: 0 <= valid_items <= THREADS * ITEMS; THREADS a multiple of 32, THREADS and
// ITEMS powers of two; every thread of the block calls; `storage` is shared memory,
// reusable once the call returns. Not stable. Cost: one bitonic network of THREADS * ITEMS.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/warp/inclusive_sum.cuh>

namespace gpusort {
namespace block {

// Network: the network's storage. sort_tile needs only the plain one (it pads without
// flags), half the bytes of the ragged one for 4-byte keys: the sample sorts' bucket sort of
// u32:u32 pairs then fits a block of the 99 KB that compute capability 8.6, 8.9 and 12.0
// grant. Callers that sort a partial tile in registers themselves (block::bitonic_sort with
// valid_items) pass ragged_bitonic_sort_storage.
template <class Key, class Value, int THREADS, int ITEMS,
          class Network = bitonic_sort_storage<Key, Value, THREADS, ITEMS>>
union sort_tile_storage {
  Network network;
  tile_buffer<THREADS, ITEMS, Key> keys;
  tile_buffer<THREADS, ITEMS, Value> values;
  int warp_ties[THREADS / 32];
};

}  // namespace block

namespace detail {

// The whole block, for a tile whose items past `valid_items` are padding and whose ties are
// not identical (or values ride along): writes the real items that tie with the largest key
// to the end of the output, keys_out[kept, valid_items) with kept = valid_items - (their
// count), then makes them and the padding copies of the largest key, which the plain network
// sorts after every other item. Returns kept: the items to store from the sorted tile. Every
// load of the input has completed (the output may alias it).
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ int park_ties_with_largest(
    Key (&keys)[ITEMS], Value (&values)[ITEMS], int valid_items, Key* keys_out,
    Value* values_out, Compare cmp, block::sort_tile_storage<Key, Value, THREADS, ITEMS>& storage) {
  const Key largest = block_largest<THREADS>(keys, cmp, storage.keys);
  const int first = static_cast<int>(threadIdx.x) * ITEMS;
  unsigned ties = 0;  // bit r: item r is real and ties with the largest
#pragma unroll
  for (int r = 0; r < ITEMS; ++r)
    ties |= static_cast<unsigned>(first + r < valid_items && !cmp(keys[r], largest)) << r;
  const int mine = __popc(ties);
  const int inclusive = warp::inclusive_sum(mine);
  const int warp_index = static_cast<int>(threadIdx.x) / 32;
  if (threadIdx.x % 32 == 31) storage.warp_ties[warp_index] = inclusive;
  __syncthreads();
  int slot = inclusive - mine, tied = 0;
#pragma unroll
  for (int w = 0; w < THREADS / 32; ++w) {
    const int count = storage.warp_ties[w];
    slot += w < warp_index ? count : 0;
    tied += count;
  }
  __syncthreads();  // every warp has read the counts before the network reuses the storage
  const int kept = valid_items - tied;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    if ((ties >> r) & 1u) {
      keys_out[kept + slot] = keys[r];
      if constexpr (has_values<Value>) values_out[kept + slot] = values[r];
      ++slot;
    }
    if (((ties >> r) & 1u) || first + r >= valid_items) keys[r] = largest;
  }
  return kept;
}

}  // namespace detail

namespace block {

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void sort_tile(const Key* keys_in, const Value* values_in, Key* keys_out,
                                          Value* values_out, int valid_items, Compare cmp,
                                          sort_tile_storage<Key, Value, THREADS, ITEMS>& storage) {
  static_assert(ITEMS <= 32, "a thread's ties are one bit per item of a 32-bit mask");
  Key keys[ITEMS];
  Value values[ITEMS];
  load_blocked<THREADS>(keys_in, keys, valid_items, storage.keys);
  load_blocked<THREADS>(values_in, values, valid_items, storage.values);
  int kept = valid_items;
  if constexpr (!detail::has_values<Value> && detail::ties_are_identical<Key, Compare>::value) {
    bitonic_sort_identical_ties<THREADS>(keys, valid_items, cmp, storage.network);
  } else {
    if (valid_items < THREADS * ITEMS)
      kept = detail::park_ties_with_largest<THREADS>(keys, values, valid_items, keys_out,
                                                     values_out, cmp, storage);
    bitonic_sort<THREADS>(keys, values, cmp, storage.network);
  }
  store_blocked<THREADS>(keys_out, keys, kept, storage.keys);
  store_blocked<THREADS>(values_out, values, kept, storage.values);
}

}  // namespace block
}  // namespace gpusort
