// gpusort/detail/bucket_major_index.cuh — where entry (row, bucket) of a segmented
// rows × buckets count table lives when the table is kept in the order its prefix sum runs.
//
// Both sample sorts count, for each tile (row) of a segment, its items in each bucket, and
// need the exclusive prefix sum in bucket-major order within each segment (every row of
// bucket 0, then every row of bucket 1, ...; the segments one after another): bucket b of a
// segment then comes out contiguous, its tiles in order, and the sum is where each tile's
// part of each bucket goes (device::bucket_offsets' column-major order, segment by segment).
// A count written straight to its place in that order leaves the scan one contiguous pass
// over a plain array. Gathered through an index map instead, each scanned entry was a chain
// of dependent loads: 20 µs for 24K entries (deterministic_sample, H200, bench/RESULTS.md
// run 64).
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

// The entry of (row, bucket) for the segment whose rows are [first_row, first_row +
// segment_rows), `buckets` to a row. A row outside every segment may take itself as a
// segment of one row: its entries are then its own row-major ones.
__host__ __device__ constexpr std::int64_t bucket_major_index(std::int64_t first_row,
                                                              std::int64_t segment_rows,
                                                              std::int64_t row, int bucket,
                                                              int buckets) {
  return first_row * buckets + bucket * segment_rows + (row - first_row);
}

}  // namespace detail
}  // namespace gpusort
