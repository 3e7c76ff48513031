// gpusort/detail/deterministic_sample_table.cuh — the m×s sample table of a level of
// policy::deterministic_sample (Dehne & Zaboli, Algorithm 1 steps 3–5): step 3 puts each
// tile's regular samples in it as (key, position), step 4 sorts it by policy::merge (or
// merges each segment's rows, which the tile sort leaves sorted), and step 5 reads the global
// splitters' keys and positions back.
//
// A table is `in(region, entries)` over caller memory, with put / put_absent (a row launched
// for the worst case without a tile: its samples sort after every real one), key / position,
// sort, and entry / at / set / order for a merge of its sorted rows instead of the sort. Two
// forms: one array of a sample_codec's items, or, for wide integer keys, keys and positions
// in two arrays sorted as pairs (deterministic_sample_pairs_samples says which).
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/positioned.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/policy.cuh>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpusort {
namespace detail {

// The m×s sample table of a level, which step 3 fills and step 4 sorts: one array of
// Codec's samples (sample_codec), sorted by policy::merge under Codec::compare.
template <class Codec, class Key, class Compare>
struct deterministic_sample_item_table {
  typename Codec::sample* items;

  static deterministic_sample_item_table in(void* region, std::int64_t) {
    return {static_cast<typename Codec::sample*>(region)};
  }
  __device__ void put(std::int64_t i, const Key& key, std::int64_t position) const {
    items[i] = Codec::make(key, position);
  }
  // A sample of a row without a tile: after every real one.
  __device__ void put_absent(std::int64_t i, const Key& any_key) const { items[i] = Codec::absent(any_key); }
  __device__ Key key(std::int64_t i) const { return Codec::key(items[i]); }
  __device__ std::int64_t position(std::int64_t i) const { return Codec::position(items[i]); }
  // A sample as one value, in the order of the sort (block::merge_sorted_row).
  using entry = typename Codec::sample;
  __device__ entry at(std::int64_t i) const { return items[i]; }
  __device__ void set(std::int64_t i, const entry& e) const { items[i] = e; }
  // The table from entry `first` on, read as a run (thread::items_before).
  __device__ deterministic_sample_item_table from(std::int64_t first) const { return {items + first}; }
  __device__ entry operator[](int i) const { return items[i]; }
  __host__ __device__ static auto order(Compare cmp) { return Codec::compare(cmp); }
  cudaError_t sort(void* temp, std::int64_t count, Compare cmp, cudaStream_t stream) const {
    return algorithm<policy::merge>::sort(policy::merge{}, temp, items, static_cast<no_value*>(nullptr),
                                          count, Codec::compare(cmp), stream);
  }
};

// Whether the samples of Key under Compare sort as keys with their positions beside them
// (deterministic_sample_pair_table) rather than as positioned keys: integer keys too wide to
// share a 64-bit word with a position, whose ties are identical bits.
template <class Key, class Compare>
constexpr bool deterministic_sample_pairs_samples =
    std::is_integral<Key>::value && sizeof(Key) > 4 && ties_are_identical<Key, Compare>::value;

// The table as two arrays, keys and then 64-bit positions (together the size of the
// positioned samples whose room they take; one form for any n, so every size tests it),
// sorted as pairs by policy::merge. Rows are written in position order (a row's samples in
// the order of their sorted tile, rows in tile order), so that sort, stable and by key alone,
// gives the (key, position) order; its networks compare keys rather than positioned keys
// under positioned_less. Measured (H200, bench/RESULTS.md run 51, one level's 12.7M samples
// of u64 keys at 2^28): 4.17 ms as positioned keys, 2.87 as pairs with 32-bit positions.
// Rows without a tile, the table's last, take the largest key under Compare (less: the
// type's maximum, greater: its minimum), so they sort after every real sample, ties included.
template <class Key, class Compare>
struct deterministic_sample_pair_table {
  Key* keys;
  std::int64_t* positions;

  static deterministic_sample_pair_table in(void* region, std::int64_t entries) {
    static_assert(sizeof(Key) % alignof(std::int64_t) == 0, "the positions follow the keys aligned");
    Key* k = static_cast<Key*>(region);
    return {k, reinterpret_cast<std::int64_t*>(k + entries)};
  }
  __device__ void put(std::int64_t i, const Key& key, std::int64_t position) const {
    keys[i] = key;
    positions[i] = position;
  }
  __device__ void put_absent(std::int64_t i, const Key&) const {
    keys[i] = std::is_same<Compare, greater>::value ? std::numeric_limits<Key>::min()
                                                    : std::numeric_limits<Key>::max();
    positions[i] = absent_position;
  }
  __device__ Key key(std::int64_t i) const { return keys[i]; }
  __device__ std::int64_t position(std::int64_t i) const { return positions[i]; }
  // A sample as one value, (key, position) in the order of the sort (block::merge_sorted_row).
  using entry = positioned_key<Key>;
  __device__ entry at(std::int64_t i) const { return {keys[i], positions[i]}; }
  __device__ void set(std::int64_t i, const entry& e) const {
    keys[i] = e.key;
    positions[i] = e.position;
  }
  // The table from entry `first` on, read as a run (thread::items_before).
  __device__ deterministic_sample_pair_table from(std::int64_t first) const {
    return {keys + first, positions + first};
  }
  __device__ entry operator[](int i) const { return {keys[i], positions[i]}; }
  __host__ __device__ static positioned_less<Compare> order(Compare cmp) { return {cmp}; }
  cudaError_t sort(void* temp, std::int64_t count, Compare cmp, cudaStream_t stream) const {
    return algorithm<policy::merge>::sort(policy::merge{}, temp, keys, positions, count, cmp, stream);
  }
};

// The table of a sort whose narrow or wide samples are Codec's.
template <class Codec, class Key, class Compare>
using deterministic_sample_table =
    std::conditional_t<deterministic_sample_pairs_samples<Key, Compare>,
                       deterministic_sample_pair_table<Key, Compare>,
                       deterministic_sample_item_table<Codec, Key, Compare>>;

}  // namespace detail
}  // namespace gpusort
