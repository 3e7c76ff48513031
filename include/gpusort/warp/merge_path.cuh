// gpusort/warp/merge_path.cuh — thread::merge_path searched by a whole warp, 32 probes a step.
//
// One thread's merge-path search is a chain of log2(w) dependent loads; where the searches
// are few (one per merge tile of a pass over up to ~2^26 items) that chain of device-memory
// latencies, not the work, is what a partition launch costs. Here the warp's lanes probe 32
// evenly spaced points of the diagonal at once and keep the part between the last probe
// that lies before the path and the first that does not: ceil(log33(w + 1)) + 1 dependent
// steps (6 for w = 2^24) instead of ceil(log2(w + 1)) (25).
//
// Same contract and result as thread::merge_path (the co-rank of `diagonal`; ties go to a,
// as a stable merge needs). All 32 lanes call it together with the same arguments and all
// get the co-rank.
// Cost: the steps above, each one comparison (two loads) per lane.
#pragma once

#include <gpusort/warp/partition_point.cuh>

#include <cstdint>

namespace gpusort {
namespace warp {

template <class ItA, class ItB, class Compare>
__device__ inline std::int64_t merge_path(ItA a, std::int64_t a_count, ItB b,
                                          std::int64_t b_count, std::int64_t diagonal,
                                          Compare cmp) {
  // The co-rank is the first i in [lo, hi) whose a[i] follows its mirror b[diagonal-1-i]
  // (thread::merge_path's predicate, monotone along the diagonal), or hi if none does.
  const std::int64_t lo = diagonal > b_count ? diagonal - b_count : 0;
  const std::int64_t hi = diagonal < a_count ? diagonal : a_count;
  return partition_point(lo, hi, [&](std::int64_t i) { return cmp(b[diagonal - 1 - i], a[i]); });
}

}  // namespace warp
}  // namespace gpusort
