// gpusort/thread/four_way_path.cuh — co-ranks of a diagonal in the stable merge of four runs.
//
// Satish et al. end on a multi-way merge: k runs merged at once, split into equal pieces of
// output by a multi-sequence co-rank search, so the data crosses memory once per k-fold
// growth of the runs instead of once per doubling. For k = 4 that search is merge_path
// nested in itself. The stable four-way merge of a, b, c, d (ties in run order) is the
// stable merge of ab = merge(a, b) and cd = merge(c, d); merged_view reads ab (or cd) at any
// rank without writing it, through one merge_path, so merge_path over two merged_views
// finds how many of the first `diagonal` outputs come from ab, and one more merge_path on
// each side splits that between a and b (c and d).
//
// Preconditions: as merge_path's, for each run. Result: counts 0 <= a <= a_count (and so
// on) with a + b + c + d = diagonal; the first `diagonal` items of the stable four-way merge
// are a[0, a) ++ b[0, b) ++ c[0, c) ++ d[0, d), merged.
// Complexity: about log2(w)^2 comparisons, each reading one item of each of two runs, where
// w is the longest run; the runs are only read.
#pragma once

#include <cstdint>

#include <gpusort/thread/merge_path.cuh>

namespace gpusort {
namespace thread {

// The stable merge of a[0, a_count) and b[0, b_count), read by rank without being written.
template <class ItA, class ItB, class Compare>
struct merged_view {
  ItA a;
  std::int64_t a_count;
  ItB b;
  std::int64_t b_count;
  Compare cmp;

  __host__ __device__ auto operator[](std::int64_t rank) const {
    const std::int64_t i = merge_path(a, a_count, b, b_count, rank, cmp);
    const std::int64_t j = rank - i;
    // The item at `rank` is a's next one unless a is used up or b's next one precedes it.
    return i < a_count && (j >= b_count || !cmp(b[j], a[i])) ? a[i] : b[j];
  }
};

struct four_way_split {
  std::int64_t a, b, c, d;
};

template <class It, class Compare>
__host__ __device__ inline four_way_split four_way_path(It a, std::int64_t a_count, It b,
                                                        std::int64_t b_count, It c,
                                                        std::int64_t c_count, It d,
                                                        std::int64_t d_count,
                                                        std::int64_t diagonal, Compare cmp) {
  const merged_view<It, It, Compare> ab{a, a_count, b, b_count, cmp};
  const merged_view<It, It, Compare> cd{c, c_count, d, d_count, cmp};
  const std::int64_t from_ab = merge_path(ab, a_count + b_count, cd, c_count + d_count, diagonal, cmp);
  const std::int64_t from_a = merge_path(a, a_count, b, b_count, from_ab, cmp);
  const std::int64_t from_c = merge_path(c, c_count, d, d_count, diagonal - from_ab, cmp);
  return {from_a, from_ab - from_a, from_c, diagonal - from_ab - from_c};
}

}  // namespace thread
}  // namespace gpusort
