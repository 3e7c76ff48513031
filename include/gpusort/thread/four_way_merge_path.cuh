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
// Complexity: about log2(w)^2 / 2 comparisons for runs of w items (each inner search is as
// long as the outer interval that is left), in a chain of dependent loads that long.
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

  // How many items of a precede diagonal d.
  template <class Compare>
  __host__ __device__ std::int64_t co_rank(std::int64_t d, Compare cmp) const {
    return thread::merge_path_between(a, a_count, b, b_count, d, d - b_high > a_low ? d - b_high : a_low,
                              d - b_low < a_high ? d - b_low : a_high, cmp);
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

struct four_way_split {
  std::int64_t taken[4];
};

// The split of `diagonal` when the splits `low` and `high` of two diagonals at or before and
// at or after it are known: every search starts inside their bounds, so it is as long as the
// items between them, not as the runs. Bounds that are wrong (a comparator that is no strict
// weak ordering) are clamped to the runs.
template <class It, class Compare>
__host__ __device__ inline four_way_split four_way_merge_path_between(
    const It (&runs)[4], const std::int64_t (&counts)[4], std::int64_t diagonal,
    const four_way_split& low, const four_way_split& high, Compare cmp) {
  detail::bounded_pair_merge<It> x(runs[0], counts[0], runs[1], counts[1]);
  detail::bounded_pair_merge<It> y(runs[2], counts[2], runs[3], counts[3]);
  x.after(low.taken[0] + low.taken[1], low.taken[0]);
  x.before(high.taken[0] + high.taken[1], high.taken[0]);
  y.after(low.taken[2] + low.taken[3], low.taken[2]);
  y.before(high.taken[2] + high.taken[3], high.taken[2]);
  const std::int64_t x_count = counts[0] + counts[1], y_count = counts[2] + counts[3];
  // The outer merge path of x and y (thread::merge_path's predicate: ties go to x), inside
  // the grid and the bounds.
  const std::int64_t grid_lo = diagonal > y_count ? diagonal - y_count : 0;
  const std::int64_t grid_hi = diagonal < x_count ? diagonal : x_count;
  const std::int64_t known_lo = low.taken[0] + low.taken[1];
  const std::int64_t known_hi = high.taken[0] + high.taken[1];
  std::int64_t lo = known_lo < grid_lo ? grid_lo : known_lo > grid_hi ? grid_hi : known_lo;
  std::int64_t hi = known_hi > grid_hi ? grid_hi : known_hi < lo ? lo : known_hi;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const std::int64_t mirror = diagonal - 1 - mid;
    const std::int64_t x_taken = x.co_rank(mid, cmp);
    const std::int64_t y_taken = y.co_rank(mirror, cmp);
    if (cmp(y.item(mirror, y_taken, cmp), x.item(mid, x_taken, cmp))) {
      hi = mid;
      x.before(mid, x_taken);
      y.after(mirror, y_taken);
    } else {
      lo = mid + 1;
      x.after(mid, x_taken);
      y.before(mirror, y_taken);
    }
  }
  const std::int64_t x_taken = x.co_rank(lo, cmp);
  const std::int64_t y_taken = y.co_rank(diagonal - lo, cmp);
  return {{x_taken, lo - x_taken, y_taken, diagonal - lo - y_taken}};
}

template <class It, class Compare>
__host__ __device__ inline four_way_split four_way_merge_path(const It (&runs)[4],
                                                              const std::int64_t (&counts)[4],
                                                              std::int64_t diagonal, Compare cmp) {
  return four_way_merge_path_between(runs, counts, diagonal, four_way_split{{0, 0, 0, 0}},
                                     four_way_split{{counts[0], counts[1], counts[2], counts[3]}},
                                     cmp);
}

}  // namespace thread
}  // namespace gpusort
