// gpusort/block/regular_sample.cuh — s equidistant samples of a sorted tile
// (Dehne & Zaboli, Algorithm 1 step 3: local sampling).
//
// Sample j (0 <= j < s) of a tile of v sorted items is the item at index
// regular_sample_index(j, v, s) = max(0, ((j + 1) * v) / s - 1): the last item of the j-th
// of s equal slices, so the last sample is the tile's largest item and every gap between
// consecutive samples holds at most ceil(v / s) items — the property behind the 2n/s
// bucket bound. When v < s the formula would point before the tile for small j; those
// samples are clamped to item 0, so a short tile (the array's last one) repeats some of its
// items and still contributes exactly s samples to the fixed-size m×s sample table.
// Indices are non-decreasing in j and cover [0, v).
//
// Each sample carries its position tile_offset + index, the tie-breaker of
// detail::precedes, so samples of equal keys stay distinct.
//
// Fusing with the write-back of step 2: the paper takes the samples while the sorted tile
// is written back. block::store_blocked leaves the sorted tile in its shared buffer on
// return, so the sort calls regular_sample on that buffer (overload below) right after it
// and reads the samples from shared memory instead of re-reading global memory.
//
// Preconditions: 0 < valid_items, 0 < samples; every thread of the block calls; the tile is
// visible to all threads (the caller syncs before). Nothing is synchronized on return.
// Cost: ceil(s / THREADS) reads and writes per thread.
#pragma once

#include <gpusort/detail/padded_buffer.cuh>

#include <cstdint>

namespace gpusort {
namespace block {

__host__ __device__ inline int regular_sample_index(int j, int valid_items, int samples) {
  // 64-bit product: (j + 1) * valid_items overflows int for large tiles times many samples.
  const std::int64_t end = (static_cast<std::int64_t>(j) + 1) * valid_items / samples;
  return end > 0 ? static_cast<int>(end - 1) : 0;
}

}  // namespace block

namespace detail {

// store(j, key, position) writes sample j.
template <int THREADS, class Tile, class Store>
__device__ __forceinline__ void regular_sample_each(Tile& sorted_tile, int valid_items,
                                                    int samples, std::int64_t tile_offset,
                                                    Store store) {
  for (int j = threadIdx.x; j < samples; j += THREADS) {
    const int i = block::regular_sample_index(j, valid_items, samples);
    store(j, sorted_tile[i], tile_offset + i);
  }
}

template <int THREADS, class Tile, class Key>
__device__ __forceinline__ void regular_sample_from(Tile& sorted_tile, int valid_items,
                                                    int samples, std::int64_t tile_offset,
                                                    Key* sample_keys,
                                                    std::int64_t* sample_positions) {
  regular_sample_each<THREADS>(sorted_tile, valid_items, samples, tile_offset,
                               [=](int j, const Key& key, std::int64_t position) {
                                 sample_keys[j] = key;
                                 sample_positions[j] = position;
                               });
}

}  // namespace detail

namespace block {

// sorted_tile in global or shared memory.
template <int THREADS, class Key>
__device__ __forceinline__ void regular_sample(const Key* sorted_tile, int valid_items,
                                               int samples, std::int64_t tile_offset,
                                               Key* sample_keys, std::int64_t* sample_positions) {
  detail::regular_sample_from<THREADS>(sorted_tile, valid_items, samples, tile_offset,
                                       sample_keys, sample_positions);
}

// The sorted tile still in the shared buffer of block::store_blocked / load_blocked.
template <int THREADS, class Key, int N>
__device__ __forceinline__ void regular_sample(detail::padded_buffer<Key, N>& sorted_tile,
                                               int valid_items, int samples,
                                               std::int64_t tile_offset, Key* sample_keys,
                                               std::int64_t* sample_positions) {
  detail::regular_sample_from<THREADS>(sorted_tile, valid_items, samples, tile_offset,
                                       sample_keys, sample_positions);
}

}  // namespace block
}  // namespace gpusort
