// gpusort/thread/multiway_select.cuh — co-ranks of a diagonal of the merge of WAYS (4 or 8)
// sorted runs by multisequence selection, in about log2(diagonal) steps of one parallel load
// each.
//
// thread::four_way_merge_path finds the co-ranks by a merge-path search whose every probe
// runs an inner merge-path search: a chain of about log2(w)^2 / 2 dependent loads, which
// is what the four-way pass's partition waited on (bench/RESULTS.md run 77 §7; it still does
// for keys wider than 16 bytes, detail::four_way_select_partition). Selection
// instead refines the answer one bit of the positions a step (after Varman et al.'s
// multisequence selection): at step h (a power of two) it holds, for every run, how many of
// its items h - 1, 2h - 1, 3h - 1, ... ("h-lasts") lie among the `diagonal` first of the
// merge's order, to within the one h-last that step h / 2 decides. Going from h to h / 2 keeps
// every h-last selected before and adds the h / 2-last in the middle of each run's first
// unselected h-block (one load a run, all in parallel): the floor(diagonal / (h / 2))
// smallest h / 2-lasts lie among these, and a few exchanges of a largest selected item for a
// smallest unselected one (at most one a run a step, each a load) find them. At step 1 the
// h-lasts are the items and the selection is the answer.
//
// The merge's order is the stable multi-way merge's, a tree of pairwise merges of
// neighbouring runs (for four, merge(merge(r0, r1), merge(r2, r3))): by key under cmp, ties
// by run, then by position. Positions past a run's end act as items after every real one
// (ordered by run and position too), so every step has a candidate a run; they are never
// loaded, and never selected at step 1.
//
// Preconditions: each run sorted under cmp (a strict weak ordering); 0 <= diagonal <= the
// sum of the counts. A comparator that is no strict weak ordering still gets co-ranks inside
// the runs that sum to the diagonal.
// Result: taken[j] items of run j precede the diagonal; their sum is the diagonal.
#pragma once

#include <gpusort/detail/ranked.cuh>
#include <gpusort/thread/four_way_merge_path.cuh>

#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

// One item of the runs (or a position past its run's end) in the merge's order. The
// selection compares a run's items only with other runs' items (one candidate and one largest
// selected item a run) and a run's candidate with its own largest, which it follows by key
// (the run is sorted) or, past the end or tied, is not before by run either. So ties go by
// run alone and the item need not carry its position: a step is a chain of these comparisons.
template <class Key, class Compare, class = void>
struct selection_item {
  Key key;
  int run;
  bool real;

  __host__ __device__ bool precedes(const selection_item& other, Compare cmp) const {
    if (real != other.real) return real;
    if (real) {
      if (cmp(key, other.key)) return true;
      if (cmp(other.key, key)) return false;
    }
    return run < other.run;
  }
};

// Keys with an order word: the item is its place in the merge's order as one word (past the
// end above order word above run), so that a comparison is one unsigned one: the step's chain,
// which the partition waits on, is shorter (bench/RESULTS.md run 89).
template <class Key, class Compare>
struct selection_item<Key, Compare, std::enable_if_t<order_word<Key, Compare>::exists>> {
  static constexpr int run_bits = 3, past_end_bit = 32 + run_bits;  // up to eight runs
  std::uint64_t word;

  selection_item() = default;
  __host__ __device__ selection_item(Key key, int run, bool real)
      : word((real ? std::uint64_t{order_word<Key, Compare>::encode(key)} << run_bits
                   : std::uint64_t{1} << past_end_bit) |
             static_cast<std::uint64_t>(run)) {}

  __host__ __device__ bool precedes(const selection_item& other, Compare) const {
    return word < other.word;
  }
};

// values[index] by unrolled selects: a run-time index would put the array on the stack.
template <class T, int N>
__host__ __device__ inline T pick(const T (&values)[N], int index) {
  T found = values[0];
#pragma unroll
  for (int j = 1; j < N; ++j)
    if (j == index) found = values[j];
  return found;
}

// The item at `position` of a run of `count`. Loaded even past the run's end (from its last
// item, or from `fallback`, a run with items, where it has none) and then ignored: a load
// under a branch is issued only once the previous item is in, so a step's loads would wait on
// each other instead of going out together.
template <class Key, class Compare, class It>
__host__ __device__ inline selection_item<Key, Compare> selection_item_at(
    It run_begin, std::int64_t count, int run, std::int64_t position, It fallback) {
  const bool real = position < count;
  const It from = count > 0 ? run_begin : fallback;
  const Key key = from[real ? position : count > 0 ? count - 1 : 0];
  return {real ? key : Key{}, run, real};
}

}  // namespace detail

namespace thread {

template <int WAYS, class It, class Compare>
__host__ __device__ inline multiway_split<WAYS> multiway_select(const It (&runs)[WAYS],
                                                                const std::int64_t (&counts)[WAYS],
                                                                std::int64_t diagonal, Compare cmp) {
  static_assert(WAYS == 4 || WAYS == 8, "the merge's tree of pairs, and run_bits, fit 4 or 8 runs");
  using Key = std::decay_t<decltype(runs[0][0])>;
  using item = detail::selection_item<Key, Compare>;
  // The first step is the largest power of two h with floor(diagonal / h) <= 1: selecting
  // none of the 2h-lasts is then right, and each step keeps the invariant above.
  // h is a run-time power of two: its multiples and quotients are shifts by h_log2, not
  // 64-bit multiplications and a division on the step's chain.
  if (diagonal == 0) return multiway_split<WAYS>{};
  It fallback = runs[0];  // a run with items: diagonal <= the sum of the counts
#pragma unroll
  for (int j = 1; j < WAYS; ++j)
    if (counts[j] > 0) fallback = runs[j];
  int h_log2 = 0;
  while ((std::int64_t(2) << h_log2) <= diagonal) ++h_log2;
  std::int64_t selected[WAYS];  // h-lasts of each run among the smallest
  item last[WAYS];              // each run's largest selected h-last
#pragma unroll
  for (int j = 0; j < WAYS; ++j) {
    selected[j] = 0;
    last[j] = item{Key{}, j, true};
  }
  for (; h_log2 >= 0; --h_log2) {
    item next[WAYS];  // each run's smallest unselected h-last that may still enter
    bool open[WAYS];
    std::int64_t total = 0;
#pragma unroll
    for (int j = 0; j < WAYS; ++j) {
      selected[j] *= 2;  // the 2h-lasts selected are the even h-lasts: their tails stay
      next[j] = detail::selection_item_at<Key, Compare>(runs[j], counts[j], j,
                                                        ((selected[j] + 1) << h_log2) - 1, fallback);
      open[j] = true;
      total += selected[j];
    }
    const std::int64_t wanted = diagonal >> h_log2;  // total or total + 1
    // Take the smallest candidate while one is wanted, then exchange while a candidate
    // precedes the largest selected item; each exchange takes one candidate for good (a
    // run's item after its taken candidate follows a 2h-last never selected), so at most
    // one a run. Runs are indexed only in unrolled loops (j == in, j == out), so that the arrays
    // stay in registers: a run-time index puts them on the stack (304-352 bytes, ptxas), and
    // the partition lasts one search's chain of dependent instructions (bench/RESULTS.md run
    // 79 §6).
    for (int round = 0; round <= WAYS; ++round) {
      int in = -1;
      item smallest = next[0];
#pragma unroll
      for (int j = 0; j < WAYS; ++j) {
        if (open[j] && (in < 0 || next[j].precedes(smallest, cmp))) {
          in = j;
          smallest = next[j];
        }
      }
      if (in < 0) break;
      if (total < wanted) {
        ++total;
      } else {
        int out = -1;
        item largest = last[0];
#pragma unroll
        for (int j = 0; j < WAYS; ++j) {
          if (selected[j] > 0 && (out < 0 || largest.precedes(last[j], cmp))) {
            out = j;
            largest = last[j];
          }
        }
        if (out < 0 || !smallest.precedes(largest, cmp)) break;
        // The largest selected item leaves; its run's new largest is one h-last back. That
        // load is made once, from the run picked by selects: a load in each run's branch made
        // a warp whose threads drop different runs issue one for each run in turn.
        const std::int64_t kept = detail::pick(selected, out) - 1;
        const item back = kept > 0 ? detail::selection_item_at<Key, Compare>(
                                         detail::pick(runs, out), detail::pick(counts, out), out,
                                         (kept << h_log2) - 1, fallback)
                                   : item{Key{}, out, true};
#pragma unroll
        for (int j = 0; j < WAYS; ++j) {
          if (j != out) continue;
          selected[j] = kept;
          next[j] = last[j];
          open[j] = false;  // it follows every item selected from now on
          last[j] = back;
        }
      }
      // The candidate enters (in place of the item that left, if one did).
#pragma unroll
      for (int j = 0; j < WAYS; ++j) {
        if (j != in) continue;
        ++selected[j];
        last[j] = next[j];
        open[j] = false;
      }
    }
  }
  // A comparator that is no strict weak ordering may leave positions past a run's end
  // selected; they move to runs with items left, so that the co-ranks stay inside the runs
  // and still sum to the diagonal.
  std::int64_t past_end = 0;
#pragma unroll
  for (int j = 0; j < WAYS; ++j) {
    if (selected[j] > counts[j]) {
      past_end += selected[j] - counts[j];
      selected[j] = counts[j];
    }
  }
  multiway_split<WAYS> split;
#pragma unroll
  for (int j = 0; j < WAYS; ++j) {
    const std::int64_t room = counts[j] - selected[j], moved = room < past_end ? room : past_end;
    selected[j] += moved;
    past_end -= moved;
    split.taken[j] = selected[j];
  }
  return split;
}

}  // namespace thread
}  // namespace gpusort
