// gpusort/thread/merge_path.cuh — co-rank of a diagonal of the merge matrix, and the place
// of one item in a merge.
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
#include <type_traits>

namespace gpusort {
namespace thread {

// [lo, hi] intersected with the grid: at least diagonal - b_count items must come from a,
// at most diagonal (or all of a).
template <class Size>
__host__ __device__ inline void clamp_to_merge_grid(Size a_count, Size b_count, Size diagonal, Size& lo,
                                                    Size& hi) {
  const Size grid_lo = diagonal > b_count ? diagonal - b_count : Size{0};
  const Size grid_hi = diagonal < a_count ? diagonal : a_count;
  lo = lo < grid_lo ? grid_lo : lo > grid_hi ? grid_hi : lo;
  hi = hi > grid_hi ? grid_hi : hi < lo ? lo : hi;
}

// merge_path where the co-rank is known to lie in [lo, hi] (bounds from the co-ranks of
// neighbouring diagonals): a search of ceil(log2(hi - lo + 1)) comparisons. The bounds are
// first clamped to the grid, so that a comparator that is no strict weak ordering (whose
// "known" bounds may be wrong) still gives a co-rank inside both runs.
template <class ItA, class ItB, class Size, class Compare>
__host__ __device__ inline Size merge_path_between(ItA a, Size a_count, ItB b, Size b_count, Size diagonal,
                                                   Size lo, Size hi, Compare cmp) {
  clamp_to_merge_grid(a_count, b_count, diagonal, lo, hi);
  while (lo < hi) {
    const Size mid = lo + ((hi - lo) >> 1);  // hi > lo: the shift halves without a sign fix-up
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

// One merge_path_between search: runs a and b, the diagonal, the known bounds [lo, hi].
// merge_path_between(query) and merge_paths_between leave the co-rank in lo.
template <class It>
struct merge_path_query {
  It a, b;
  std::int64_t a_count, b_count, diagonal, lo, hi;
};

template <class It, class Compare>
__host__ __device__ inline void merge_path_between(merge_path_query<It>& q, Compare cmp) {
  q.lo = q.hi = merge_path_between(q.a, q.a_count, q.b, q.b_count, q.diagonal, q.lo, q.hi, cmp);
}

// N independent merge_path_between searches advanced in step: each step issues the loads of
// every search still open before it compares any, so the thread waits on one chain of
// dependent loads instead of N in a row (the four-way partition's probes are such chains,
// each a separate sector of device memory).
template <int N, class It, class Compare>
__host__ __device__ inline void merge_paths_between(merge_path_query<It> (&q)[N], Compare cmp) {
  using Key = std::decay_t<decltype(q[0].a[0])>;
#pragma unroll
  for (int j = 0; j < N; ++j)
    clamp_to_merge_grid(q[j].a_count, q[j].b_count, q[j].diagonal, q[j].lo, q[j].hi);
  for (;;) {
    bool open[N];
    bool any = false;
    std::int64_t mid[N];
    Key a_key[N], b_key[N];
#pragma unroll
    for (int j = 0; j < N; ++j) {
      open[j] = q[j].lo < q[j].hi;
      any = any || open[j];
      mid[j] = q[j].lo + (q[j].hi - q[j].lo) / 2;
      if (open[j]) {
        a_key[j] = q[j].a[mid[j]];
        b_key[j] = q[j].b[q[j].diagonal - 1 - mid[j]];
      }
    }
    if (!any) return;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if (open[j]) {
        if (cmp(b_key[j], a_key[j])) q[j].hi = mid[j];
        else q[j].lo = mid[j] + 1;
      }
    }
  }
}

template <class ItA, class ItB, class Size, class Compare>
__host__ __device__ inline Size merge_path(ItA a, Size a_count, ItB b, Size b_count, Size diagonal,
                                           Compare cmp) {
  return merge_path_between(a, a_count, b, b_count, diagonal, Size{0}, diagonal, cmp);
}

// How many leading items of run[0, count) satisfy `precedes`, which holds on a prefix of the
// run: ceil(log2(count + 1)) evaluations, Size (the count's type) the width of the arithmetic.
template <class It, class Size, class Predicate>
__host__ __device__ inline Size count_leading(It run, Size count, Predicate precedes) {
  Size first = 0;
  while (count > 0) {
    const Size half = count >> 1;
    const bool ahead = precedes(run[first + half]);
    first = ahead ? first + half + 1 : first;
    count = ahead ? count - half - 1 : half;
  }
  return first;
}

// Where one item lands in a stable merge with a sorted run: how many of run[0, count) precede
// `item`, the run's items equal to it included where the run comes first in the merge
// (ties go to it) and excluded where it comes second. One binary search, ceil(log2(count + 1))
// comparisons.
template <class It, class Size, class T, class Compare>
__host__ __device__ inline Size items_before(It run, Size count, const T& item, bool run_first,
                                             Compare cmp) {
  // Two searches rather than one that tests run_first at every step: each step is then one
  // comparison (run 71: the search is most of deterministic_sample's step-4 ranking kernel).
  if (run_first) return count_leading(run, count, [&](const auto& x) { return !cmp(item, x); });
  return count_leading(run, count, [&](const auto& x) { return cmp(x, item); });
}

}  // namespace thread
}  // namespace gpusort
