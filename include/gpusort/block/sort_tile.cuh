// gpusort/block/sort_tile.cuh — one partly filled tile from global memory, sorted, back to
// global memory (Dehne & Zaboli, Algorithm 1 step 9: a bucket that fits one block; the
// block-local sort of the sample sorts' small buckets; warpsort's block-sorted chunks).
//
// Loads the `valid_items` items at keys_in (values_in) with block::load_blocked, sorts them
// with the ragged block::bitonic_sort, and stores them at keys_out (values_out), which may
// alias the input: every item is in registers before the first store.
//
// Preconditions: 0 <= valid_items <= THREADS * ITEMS; THREADS a multiple of 32, THREADS and
// ITEMS powers of two; every thread of the block calls; `storage` is shared memory,
// reusable once the call returns. Not stable. Cost: one bitonic network of THREADS * ITEMS.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/tile_io.cuh>

namespace gpusort {
namespace block {

template <class Key, class Value, int THREADS, int ITEMS>
union sort_tile_storage {
  ragged_bitonic_sort_storage<Key, Value, THREADS, ITEMS> network;
  tile_buffer<THREADS, ITEMS, Key> keys;
  tile_buffer<THREADS, ITEMS, Value> values;
};

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void sort_tile(const Key* keys_in, const Value* values_in, Key* keys_out,
                                          Value* values_out, int valid_items, Compare cmp,
                                          sort_tile_storage<Key, Value, THREADS, ITEMS>& storage) {
  Key keys[ITEMS];
  Value values[ITEMS];
  load_blocked<THREADS>(keys_in, keys, valid_items, storage.keys);
  load_blocked<THREADS>(values_in, values, valid_items, storage.values);
  bitonic_sort<THREADS>(keys, values, valid_items, cmp, storage.network);
  store_blocked<THREADS>(keys_out, keys, valid_items, storage.keys);
  store_blocked<THREADS>(values_out, values, valid_items, storage.values);
}

}  // namespace block
}  // namespace gpusort
