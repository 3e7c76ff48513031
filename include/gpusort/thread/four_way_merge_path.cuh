// gpusort/thread/four_way_merge_path.cuh — co-ranks of a diagonal of the merge of four
// sorted runs.
//
// Satish et al.'s multi-way merge reads k sorted runs at once so that the data crosses device
// memory fewer times; splitting that merge into equal output tiles needs, for an output
// position, how many items of each run precede it. For four runs r0..r3 the stable merge is
// merge(merge(r0, r1), merge(r2, r3)): ties go to the lower run. The co-rank in the outer
// merge is a merge-path search whose every probe reads an item of an inner merge, found by
// the inner pair's own merge-path search. Each probe narrows the outer interval, and the
// co-ranks of its end points bound the inner searches of every later probe (co-ranks are
// monotone along a merge path), so the inner searches shrink with the outer one.
//
// Preconditions: each run sorted under cmp (a strict weak ordering); 0 <= diagonal <= the sum
// of the counts. A comparator that is no strict weak ordering still gets co-ranks inside the
// runs that sum to the diagonal.
// Result: taken[j] items of run j precede the diagonal; their sum is the diagonal.
// Complexity: about log2(w)^2 comparisons for runs of w items (each inner search is as long
// as the outer interval that is left); the outer search probes several points a step and
// runs their inner searches together, so the chain of dependent loads a thread waits on is
// a fraction of that (four_way_merge_path_between).
#pragma once

#include <gpusort/thread/merge_path.cuh>

#include <cstdint>

namespace gpusort {
namespace detail {

// The merge of runs a and b, read at diagonals whose co-ranks are known to lie between those
// of two diagonals already searched.
template <class It>
struct bounded_pair_merge {
  It a, b;
  std::int64_t a_count, b_count;
  std::int64_t a_low = 0, b_low = 0, a_high, b_high;

  __host__ __device__ bounded_pair_merge(It a_, std::int64_t a_count_, It b_, std::int64_t b_count_)
      : a(a_), b(b_), a_count(a_count_), b_count(b_count_), a_high(a_count_), b_high(b_count_) {}

  // The search for how many items of a precede diagonal d (thread::merge_paths_between).
  __host__ __device__ thread::merge_path_query<It> co_rank_query(std::int64_t d) const {
    return {a, b, a_count, b_count, d, d - b_high > a_low ? d - b_high : a_low,
            d - b_low < a_high ? d - b_low : a_high};
  }
  // The merge's item at index d (< a_count + b_count), whose co-rank is a_taken.
  template <class Compare>
  __host__ __device__ auto item(std::int64_t d, std::int64_t a_taken, Compare cmp) const {
    const std::int64_t b_taken = d - a_taken;
    const bool from_a = a_taken < a_count && (b_taken >= b_count || !cmp(b[b_taken], a[a_taken]));
    return from_a ? a[a_taken] : b[b_taken];
  }
  // Every diagonal searched from now on lies at or after d / at or before d.
  __host__ __device__ void after(std::int64_t d, std::int64_t a_taken) {
    a_low = a_taken;
    b_low = d - a_taken;
  }
  __host__ __device__ void before(std::int64_t d, std::int64_t a_taken) {
    a_high = a_taken;
    b_high = d - a_taken;
  }
};

}  // namespace detail

namespace thread {

// How many items of each of WAYS runs precede a diagonal of their merge.
template <int WAYS>
struct multiway_split {
  std::int64_t taken[WAYS];
};
using four_way_split = multiway_split<4>;

// The split of `diagonal` when the splits `low` and `high` of two diagonals at or before and
// at or after it are known: every search starts inside their bounds, so it is as long as the
// items between them, not as the runs. Bounds that are wrong (a comparator that is no strict
// weak ordering) are clamped to the runs.
// The outer merge path probes PROBES points of its interval at once (a (PROBES + 1)-ary
// search), and the inner searches of all of them run in step (thread::merge_paths_between):
// the thread waits on about log2(w)^2 / (2 log2(PROBES + 1)) dependent loads instead of
// log2(w)^2, at about (PROBES / log2(PROBES + 1)) times the loads.
template <int PROBES = 3, class It, class Compare>
__host__ __device__ inline four_way_split four_way_merge_path_between(
    const It (&runs)[4], const std::int64_t (&counts)[4], std::int64_t diagonal,
    const four_way_split& low, const four_way_split& high, Compare cmp) {
  static_assert(PROBES >= 1, "at least one probe a step");
  detail::bounded_pair_merge<It> x(runs[0], counts[0], runs[1], counts[1]);
  detail::bounded_pair_merge<It> y(runs[2], counts[2], runs[3], counts[3]);
  x.after(low.taken[0] + low.taken[1], low.taken[0]);
  x.before(high.taken[0] + high.taken[1], high.taken[0]);
  y.after(low.taken[2] + low.taken[3], low.taken[2]);
  y.before(high.taken[2] + high.taken[3], high.taken[2]);
  const std::int64_t x_count = counts[0] + counts[1], y_count = counts[2] + counts[3];
  // The outer merge path of x and y (thread::merge_path's predicate: ties go to x), inside
  // the grid and the bounds.
  std::int64_t lo = low.taken[0] + low.taken[1], hi = high.taken[0] + high.taken[1];
  clamp_to_merge_grid(x_count, y_count, diagonal, lo, hi);
  while (lo < hi) {
    // Probe p at lo + (hi - lo)(p + 1)/(PROBES + 1), in [lo, hi): x's item `mid` lies after
    // the diagonal iff y's item before its mirror follows it.
    std::int64_t mid[PROBES];
    merge_path_query<It> q[2 * PROBES];
#pragma unroll
    for (int p = 0; p < PROBES; ++p) {
      mid[p] = lo + (hi - lo) * (p + 1) / (PROBES + 1);
      q[2 * p] = x.co_rank_query(mid[p]);
      q[2 * p + 1] = y.co_rank_query(diagonal - 1 - mid[p]);
    }
    merge_paths_between(q, cmp);
    // The interval between the last probe before the diagonal and the first after it; their
    // co-ranks bound every later inner search. (Indices stay compile-time constants, so
    // that the probes live in registers.)
    bool found = false;
#pragma unroll
    for (int p = 0; p < PROBES; ++p) {
      if (found) continue;
      const std::int64_t mirror = diagonal - 1 - mid[p];
      if (cmp(y.item(mirror, q[2 * p + 1].lo, cmp), x.item(mid[p], q[2 * p].lo, cmp))) {
        found = true;
        hi = mid[p] > lo ? mid[p] : lo;  // a comparator that is no order may contradict lo
        x.before(mid[p], q[2 * p].lo);
        y.after(mirror, q[2 * p + 1].lo);
      } else {
        lo = mid[p] + 1;
        x.after(mid[p], q[2 * p].lo);
        y.before(mirror, q[2 * p + 1].lo);
      }
    }
  }
  merge_path_query<It> x_last = x.co_rank_query(lo), y_last = y.co_rank_query(diagonal - lo);
  merge_path_between(x_last, cmp);
  merge_path_between(y_last, cmp);
  const std::int64_t x_taken = x_last.lo, y_taken = y_last.lo;
  return {{x_taken, lo - x_taken, y_taken, diagonal - lo - y_taken}};
}

template <int PROBES = 3, class It, class Compare>
__host__ __device__ inline four_way_split four_way_merge_path(const It (&runs)[4],
                                                              const std::int64_t (&counts)[4],
                                                              std::int64_t diagonal, Compare cmp) {
  return four_way_merge_path_between<PROBES>(
      runs, counts, diagonal, four_way_split{{0, 0, 0, 0}},
      four_way_split{{counts[0], counts[1], counts[2], counts[3]}}, cmp);
}

}  // namespace thread
}  // namespace gpusort
