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

#include <cstdint>

namespace gpusort {
namespace warp {

template <class ItA, class ItB, class Compare>
__device__ inline std::int64_t merge_path(ItA a, std::int64_t a_count, ItB b,
                                          std::int64_t b_count, std::int64_t diagonal,
                                          Compare cmp) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  // The co-rank is the first i in [lo, hi) whose a[i] follows its mirror b[diagonal-1-i]
  // (thread::merge_path's predicate, monotone along the diagonal), or hi if none does.
  std::int64_t lo = diagonal > b_count ? diagonal - b_count : 0;
  std::int64_t hi = diagonal < a_count ? diagonal : a_count;
  const auto follows = [&](std::int64_t i) { return cmp(b[diagonal - 1 - i], a[i]); };
  while (lo < hi) {
    const std::int64_t width = hi - lo;
    if (width <= 32) {  // every candidate probed: the first that follows is the co-rank
      const unsigned after = __ballot_sync(~0u, lane < width && follows(lo + lane));
      return after != 0 ? lo + __ffs(after) - 1 : hi;
    }
    // Probe j at lo + width·(j+1)/33: strictly inside [lo, hi), ascending with j.
    const std::int64_t probe = lo + width * (lane + 1) / 33;
    const unsigned after = __ballot_sync(~0u, follows(probe));
    const int first = after != 0 ? __ffs(after) - 1 : 32;
    const std::int64_t below = __shfl_sync(~0u, probe, first > 0 ? first - 1 : 0);
    const std::int64_t at = __shfl_sync(~0u, probe, first < 32 ? first : 31);
    if (first < 32) hi = at;
    if (first > 0) lo = below + 1;
  }
  return lo;
}

}  // namespace warp
}  // namespace gpusort
