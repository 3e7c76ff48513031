// gpusort/warp/partition_point.cuh — the first index where a monotone predicate holds,
// searched by a whole warp, 32 probes a step.
//
// `pred` is false on [lo, p) and true on [p, hi); returns p (hi if it never holds). Each
// step the lanes probe 32 evenly spaced points and keep the part between the last probe
// where pred is false and the first where it is true: ceil(log33(w + 1)) + 1 dependent steps
// for w = hi - lo (6 for w = 2^24) instead of a binary search's ceil(log2(w + 1)) (25), which
// matters where each probe is a device-memory load.
//
// Preconditions: all 32 lanes call it together with the same lo, hi and an equivalent pred;
// pred(i) is evaluated only for lo <= i < hi. All lanes get the result.
// Cost: the steps above, one evaluation of pred per lane each.
#pragma once

#include <cstdint>

namespace gpusort {
namespace warp {

template <class Predicate>
__device__ inline std::int64_t partition_point(std::int64_t lo, std::int64_t hi, Predicate pred) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  while (lo < hi) {
    const std::int64_t width = hi - lo;
    if (width <= 32) {  // every candidate probed: the first where pred holds is the answer
      const unsigned holds = __ballot_sync(~0u, lane < width && pred(lo + lane));
      return holds != 0 ? lo + __ffs(holds) - 1 : hi;
    }
    // Probe j at lo + width·(j+1)/33: strictly inside [lo, hi), ascending with j.
    const std::int64_t probe = lo + width * (lane + 1) / 33;
    const unsigned holds = __ballot_sync(~0u, pred(probe));
    const int first = holds != 0 ? __ffs(holds) - 1 : 32;
    const std::int64_t below = __shfl_sync(~0u, probe, first > 0 ? first - 1 : 0);
    const std::int64_t at = __shfl_sync(~0u, probe, first < 32 ? first : 31);
    if (first < 32) hi = at;
    if (first > 0) lo = below + 1;
  }
  return lo;
}

}  // namespace warp
}  // namespace gpusort
