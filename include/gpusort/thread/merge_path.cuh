// gpusort/thread/merge_path.cuh — co-rank of a diagonal of the merge matrix.
//
// Satish et al. (merge sort, Step 2) split a large pairwise merge among threads by finding
// quantiles of the merged output; merge path (Odeh, Green et al., "Merge Path - Parallel
// Merging Made Simple", 2012; Green, McColl & Bader, "GPU Merge Path", 2012) finds them with
// one binary search each. The stable merge of sorted ranges a and b is a monotone path
// through the a_count x b_count grid, and it crosses diagonal d (the items of output rank
// < d) at exactly one point (i, d - i). `merge_path` returns that i, the co-rank: how many of
// the first `diagonal` items of the merge come from a. Splitting a and b at (i, d - i) for
// several diagonals cuts one merge into independent merges of chosen output sizes.
//
// The merge is stable: on ties the items of a come first, so a[i-1] <= b[d-i] and
// b[d-i-1] < a[i] under cmp wherever these items exist.
//
// Preconditions: a[0..a_count) and b[0..b_count) are sorted under cmp (a strict weak
// ordering); 0 <= diagonal <= a_count + b_count. ItA / ItB are pointers or random-access
// iterators whose operator[] is callable where merge_path runs.
// Complexity: one binary search, ceil(log2(w + 1)) comparisons, where
// w = min(diagonal, a_count, b_count, a_count + b_count - diagonal) is the diagonal's length.
#pragma once

#include <cstdint>

namespace gpusort {
namespace thread {

template <class ItA, class ItB, class Compare>
__host__ __device__ inline std::int64_t merge_path(ItA a, std::int64_t a_count, ItB b,
                                                   std::int64_t b_count, std::int64_t diagonal,
                                                   Compare cmp) {
  // i is bounded by the grid: at least diagonal - b_count items must come from a, at most
  // diagonal (or all of a).
  std::int64_t lo = diagonal > b_count ? diagonal - b_count : 0;
  std::int64_t hi = diagonal < a_count ? diagonal : a_count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    // a[mid] lies before the diagonal iff it does not follow its mirror b[diagonal-1-mid]:
    // ties go to a, which is what keeps the merge stable.
    if (cmp(b[diagonal - 1 - mid], a[mid])) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace thread
}  // namespace gpusort
