// gpusort/thread/pivot_select.cuh — how many items two sorted runs must swap so that
// the left run holds the smallest items (Tanasic et al., multi-GPU merge sort, Algorithm 1).
//
// a is the run on the "left" GPU, b the run on the "right" one. The result p says: swap the
// last p items of a with the first p items of b. Afterwards a' = a[0..a_count-p) ++ b[0..p)
// and b' = a[a_count-p..a_count) ++ b[p..b_count) keep their lengths, no item of b' precedes
// an item of a', and each is two sorted pieces that a local merge finishes.
//
// Tanasic et al. search for the pivot with a stride-halving probe of a[len-pivot-1] against
// its mirror b[pivot] on equal-length runs of distinct keys. That probe is the merge-path
// search on the diagonal a_count, so pivot_select is built on merge_path: a' must be the first
// a_count items of the stable merge of a and b. This generalises the paper to unequal lengths
// (every GPU keeps its own count) and to duplicate keys. Because merge_path sends ties to a,
// p is the smallest valid swap and the exchange is stable: merging a' and b' locally (pieces
// from a first) and concatenating gives exactly the stable merge of a and b.
//
// Preconditions: a[0..a_count) and b[0..b_count) sorted under cmp, counts >= 0.
// Result: 0 <= p <= min(a_count, b_count).
// Complexity: ceil(log2(min(a_count, b_count) + 1)) comparisons; each reads one item of each
// run, so on two GPUs it costs that many pairs of peer loads.
#pragma once

#include <cstdint>

#include <gpusort/thread/merge_path.cuh>

namespace gpusort {
namespace thread {

template <class ItA, class ItB, class Compare>
__host__ __device__ inline std::int64_t pivot_select(ItA a, std::int64_t a_count, ItB b,
                                                     std::int64_t b_count, Compare cmp) {
  // merge_path counts the items of a that stay among the first a_count; the rest leave.
  return a_count - merge_path(a, a_count, b, b_count, a_count, cmp);
}

}  // namespace thread
}  // namespace gpusort
