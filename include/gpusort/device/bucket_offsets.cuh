// gpusort/device/bucket_offsets.cuh — where each tile's part of each bucket goes
// (Dehne & Zaboli, Algorithm 1 step 7; Leischner, Osipov & Sanders, phase 3: the prefix
// sum over the k×p table).
//
// counts is the tiles × buckets table of step 6 / phase 2 in row-major order
// (counts[t * buckets + b] = items of tile t in bucket b). The output has the same layout:
// offsets[t * buckets + b] = the sum of all counts before it in COLUMN-major order (every
// tile of bucket 0, then every tile of bucket 1, ...), i.e. the global index at which tile
// t writes its part of bucket b, so that bucket b ends up contiguous, its tiles in order.
//
// The paper's column sums, scan of column sums and column update are one
// cub::DeviceScan::ExclusiveSum here, reading and writing the row-major table through an
// index map that walks it column-major; no transposed copy is made.
// Two-phase temp storage (CUB convention): with d_temp_storage == nullptr only
// temp_storage_bytes is written. Asynchronous on `stream`.
// Preconditions: tiles, buckets >= 0; the total of all counts fits in Count; counts and
// offsets do not overlap. Returns cudaErrorInvalidValue for negative sizes.
// Cost: one scan of tiles·buckets items (strided reads and writes of the small table).
// The sample sorts, which scan a table of many segments every level, write their counts in
// the scan's order instead (detail::bucket_major_index) and scan a plain array.
#pragma once

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace detail {

// Row-major index of the entry at column-major index c of a tiles × buckets table
// (c = bucket * tiles + tile  ->  tile * buckets + bucket).
__host__ __device__ inline std::int64_t column_major_to_row_major(std::int64_t c, int tiles,
                                                                  int buckets) {
  const std::int64_t bucket = c / tiles;
  const std::int64_t tile = c - bucket * tiles;
  return tile * buckets + bucket;
}

struct column_major_index {
  int tiles;
  int buckets;
  __host__ __device__ std::int64_t operator()(std::int64_t c) const {
    return column_major_to_row_major(c, tiles, buckets);
  }
};

}  // namespace detail

namespace device {

template <class Count>
cudaError_t bucket_offsets(void* d_temp_storage, std::size_t& temp_storage_bytes,
                           const Count* counts, Count* offsets, int tiles, int buckets,
                           cudaStream_t stream = 0) {
  if (tiles < 0 || buckets < 0) return cudaErrorInvalidValue;
  const std::int64_t items = static_cast<std::int64_t>(tiles) * buckets;
  const auto order = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                     detail::column_major_index{tiles, buckets});
  const auto in = thrust::make_permutation_iterator(counts, order);
  const auto out = thrust::make_permutation_iterator(offsets, order);
  return cub::DeviceScan::ExclusiveSum(d_temp_storage, temp_storage_bytes, in, out, items,
                                       stream);
}

}  // namespace device
}  // namespace gpusort
