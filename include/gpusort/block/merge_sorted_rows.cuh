// gpusort/block/merge_sorted_rows.cuh — one block writes one sorted row of a group of sorted
// rows to where its entries fall in the group's merged order: a merge of many short runs by
// ranking, not by sorting them again.
//
// The group is rows [first_row, end_row), each of `width` entries sorted under `order`; row
// `row` is one of them. Entry j of that row is written to out[first_row · width + rank], where
// rank counts the group's entries before it: in each other row a binary search finds them,
// ties going to the lower row, and within its own row j entries precede it. Ranks are thus a
// permutation of the group's slots whatever the ties (rows may repeat entries: the samples of
// a tile shorter than s), and a launch of one block per row merges every group at once.
// The deterministic sample sort's rows of regular samples come sorted from the tile sort;
// re-sorting m·s of them is a full merge sort's chain of launches (at 2^20 u32 keys, 128 rows
// of 192: a tile sort and three merge passes, 70 µs at base clock, ncu, bench/RESULTS.md run
// 60), whereas a block that ranks one row needs only its group's rows, once.
//
// `in` and `out` give at(i) and set(i, entry); they must not overlap. The rows pass through
// shared memory `staged_rows` at a time: merge_sorted_rows_bytes<Entry>(width, staged_rows)
// bytes at `shared`, 16-byte aligned. Every thread of the block calls.
// Cost: (end_row − first_row) · width binary searches of log2(width) steps in shared memory,
// `batch` of them a thread in lockstep so that their loads overlap; the group's rows read once.
// Where a group's searches are too many for one block, rank_sorted_row splits them: blocks
// rank the row among parts of the group, their sums place it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace block {

// Shared memory of merge_sorted_row and rank_sorted_row: the block's own row, the staged rows,
// then a rank per entry.
template <class Entry>
constexpr std::size_t merge_sorted_rows_bytes(int width, int staged_rows) {
  return (static_cast<std::size_t>(1 + staged_rows) * width * sizeof(Entry) + 15) / 16 * 16 +
         static_cast<std::size_t>(width) * sizeof(int);
}

// Ranks row `row`'s entries among rows [first_row, end_row), a part of its group or all of
// it: leaves in shared memory, at the returned address, ranks[j] = the entries of those rows
// before entry j (j itself where `row` is among them). Summed over parts that cover the
// group, they are what merge_sorted_row places by; a part's block stages and searches only
// its rows, so parts spread a large group's searches over more blocks.
template <int THREADS, class Entry, class In, class Order>
__device__ const int* rank_sorted_row(const In& in, std::int64_t row, std::int64_t first_row,
                                      std::int64_t end_row, int width, int staged_rows,
                                      unsigned char* shared, Order order) {
  // Searches a thread steps in lockstep. Two measured fastest of 1, 2, 3, 4, 8 and 16 (H200,
  // bench/RESULTS.md run 63: u64's step 4 at 2^18.5-2^19 12 % faster than with 4; with 16 up
  // to 2.1x as long).
  constexpr int batch = 2;
  Entry* own = reinterpret_cast<Entry*>(shared);
  Entry* staged = own + width;
  int* ranks = reinterpret_cast<int*>(
      shared + (static_cast<std::size_t>(1 + staged_rows) * width * sizeof(Entry) + 15) / 16 * 16);
  for (int j = threadIdx.x; j < width; j += THREADS) {
    own[j] = in.at(row * width + j);
    ranks[j] = 0;
  }
  int top_step = 1;  // the largest power of two <= width
  while (2 * top_step <= width) top_step *= 2;
  for (std::int64_t first = first_row; first < end_row; first += staged_rows) {
    const std::int64_t left = end_row - first;
    const int count = static_cast<int>(left < staged_rows ? left : staged_rows);
    const int searches = count * width;
    __syncthreads();  // the previous rows' searches are done with the buffer
#pragma unroll 4
    for (int i = threadIdx.x; i < searches; i += THREADS) staged[i] = in.at(first * width + i);
    __syncthreads();
    for (int base = threadIdx.x; base < searches; base += batch * THREADS) {
      // Search p = (staged row) · width + j counts the entries of staged row p / width that
      // come before own[j]; what a search needs is read once, ahead of its steps.
      Entry x[batch];
      const Entry* in_row[batch];
      bool lower_row[batch];  // a lower row's entry that ties x comes before it
      int found[batch];
#pragma unroll
      for (int k = 0; k < batch; ++k) {
        const int p = base + k * THREADS;
        const int r = p < searches ? p / width : 0, j = p < searches ? p - r * width : 0;
        x[k] = own[j];
        in_row[k] = staged + r * width;
        lower_row[k] = first + r < row;
        found[k] = p < searches ? 0 : width;  // past the last search: no probes
      }
      for (int step = top_step; step > 0; step >>= 1) {
#pragma unroll
        for (int k = 0; k < batch; ++k) {
          const int probe = found[k] + step;
          if (probe <= width) {
            const Entry& e = in_row[k][probe - 1];
            if (lower_row[k] ? !order(x[k], e) : order(e, x[k])) found[k] = probe;
          }
        }
      }
#pragma unroll
      for (int k = 0; k < batch; ++k) {
        const int p = base + k * THREADS;
        if (p < searches) {
          const int r = p / width, j = p - r * width;
          atomicAdd(&ranks[j], first + r == row ? j : found[k]);
        }
      }
    }
  }
  __syncthreads();
  return ranks;
}

// The whole group's ranks in one block, then row `row`'s entries written to their places.
template <int THREADS, class Entry, class In, class Out, class Order>
__device__ void merge_sorted_row(const In& in, const Out& out, std::int64_t row, std::int64_t first_row,
                                 std::int64_t end_row, int width, int staged_rows, unsigned char* shared,
                                 Order order) {
  const int* ranks =
      rank_sorted_row<THREADS, Entry>(in, row, first_row, end_row, width, staged_rows, shared, order);
  const Entry* own = reinterpret_cast<const Entry*>(shared);
  for (int j = threadIdx.x; j < width; j += THREADS) out.set(first_row * width + ranks[j], own[j]);
}

}  // namespace block
}  // namespace gpusort
