// gpusort/block/merge_sorted_rows.cuh — one block writes one sorted row of a group of sorted
// rows to where its entries fall in the group's merged order: a merge of many short runs by
// ranking, not by sorting them again.
//
// The group is rows [first_row, end_row), each of `width` entries sorted under `order`; row
// `row` is one of them. Entry j of that row is written to out[first_row · width + rank], where
// rank counts the group's entries before it: a merge with each other row counts them, ties
// going to the lower row, and within its own row j entries precede it. Ranks are thus a
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
// Cost: the row merged with each of the group's rows in shared memory (2 · width steps, cut
// into pieces of merge_piece steps, one a thread, each found by a merge-path search of
// log2(width) steps); the group's rows read once. A group too large for one block's merges is
// better cut into smaller groups whose runs are then ranked among each other by
// thread::items_before, as the deterministic sample sort does.
#pragma once

#include <gpusort/thread/merge_path.cuh>

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace block {

// Steps of the merge of two rows a thread takes. The lanes of a warp take consecutive pieces
// of one merge, so their reads and rank counts lie about a half piece apart: an odd piece
// spreads them over the banks. 9 measured best of 7, 8, 9, 11, 13, 16 and 32 (H200,
// bench/RESULTS.md run 64: step 4 of u32 at 2^20, 7 parts of 19 rows of 192, 35.6 µs by
// binary searches, 26.8 by pieces of 9, 30.6 of 8, whose shared loads ncu found in 4.7-way
// bank conflicts; whole sorts 3-7 % faster where step 4 merges).
constexpr int merge_piece = 9;

// Shared memory of merge_sorted_row: the block's own row, the staged rows, then a rank per
// entry.
template <class Entry>
constexpr std::size_t merge_sorted_rows_bytes(int width, int staged_rows) {
  return (static_cast<std::size_t>(1 + staged_rows) * width * sizeof(Entry) + 15) / 16 * 16 +
         static_cast<std::size_t>(width) * sizeof(int);
}

template <int THREADS, class Entry, class In, class Out, class Order>
__device__ void merge_sorted_row(const In& in, const Out& out, std::int64_t row, std::int64_t first_row,
                                 std::int64_t end_row, int width, int staged_rows, unsigned char* shared,
                                 Order order) {
  Entry* own = reinterpret_cast<Entry*>(shared);
  Entry* staged = own + width;
  int* ranks = reinterpret_cast<int*>(
      shared + (static_cast<std::size_t>(1 + staged_rows) * width * sizeof(Entry) + 15) / 16 * 16);
  for (int j = threadIdx.x; j < width; j += THREADS) {
    own[j] = in.at(row * width + j);
    ranks[j] = j;
  }
  const int pieces = (2 * width + merge_piece - 1) / merge_piece;
  for (std::int64_t first = first_row; first < end_row; first += staged_rows) {
    const std::int64_t left = end_row - first;
    const int count = static_cast<int>(left < staged_rows ? left : staged_rows);
    __syncthreads();  // the previous rows' merges are done with the buffer
#pragma unroll 4
    for (int i = threadIdx.x; i < count * width; i += THREADS) staged[i] = in.at(first * width + i);
    __syncthreads();
    for (int task = threadIdx.x; task < count * pieces; task += THREADS) {
      const int r = task / pieces;
      if (first + r == row) continue;
      // The stable merge of the two rows, the lower one first (its ties precede), between
      // this piece's diagonals: each of the block's entries it passes is preceded there by
      // exactly the other row's entries before it.
      const bool other_first = first + r < row;
      const Entry* other = staged + r * width;
      const Entry* a = other_first ? other : own;
      const Entry* b = other_first ? own : other;
      const int diagonal = (task - r * pieces) * merge_piece;
      const int end = diagonal + merge_piece < 2 * width ? diagonal + merge_piece : 2 * width;
      int i = static_cast<int>(thread::merge_path(a, width, b, width, diagonal, order));
      int k = diagonal - i;
      Entry next_a = a[i < width ? i : width - 1];
      Entry next_b = b[k < width ? k : width - 1];
      for (int d = diagonal; d < end; ++d) {
        if (k == width || (i < width && !order(next_b, next_a))) {
          if (!other_first) atomicAdd(&ranks[i], k);
          ++i;
          next_a = a[i < width ? i : width - 1];
        } else {
          if (other_first) atomicAdd(&ranks[k], i);
          ++k;
          next_b = b[k < width ? k : width - 1];
        }
      }
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < width; j += THREADS) out.set(first_row * width + ranks[j], own[j]);
}

}  // namespace block
}  // namespace gpusort
