// gpusort/warp/merge_runs.cuh — one warp merges two (merge_runs) or four (merge_four_runs)
// sorted runs through t-item bitonic buffers (Ye et al., GPU-Warpsort, step 2, Fig. 4 and
// Fig. 5b).
//
// The buffer of t = 32*M items lives in the warp's shared memory: its upper half holds the
// items kept from the last step, ascending; t/2 new items are stored into the lower half
// reversed, which makes the buffer bitonic, so one warp::shared_bitonic_merge (log2 t
// network steps, barrier-free, every lane busy) sorts it. The lower t/2 are the next outputs,
// the upper t/2 stay where they are for the next step. The next t/2 items come from the
// source whose last fetched block had the smaller maximum: then the t/2 smallest items of
// the buffer precede everything not fetched yet, so the output is the merge.
// A source is a run in device memory, or another buffer's merge, which yields its outputs
// in blocks of t/2 just as a run does: merge_four_runs feeds one buffer from two buffers
// that merge two runs each, so that a merge pass over device memory merges four runs (half
// the passes of a pairwise merge sort, at two networks per t/2 outputs instead of one).
// Fetches and stores are coalesced (lane i reads or writes item i of each row of 32); the
// fetched rows are reversed on their way into shared memory (Fig. 5b). Each run's next block
// is loaded into registers one step ahead (the decision needs only the maxima, which are
// known), so a warp waits for memory once per run instead of once per step.
//
// No sentinel keys: a run's last block, when shorter than t/2, is padded with copies of the
// largest key of all runs, so `cmp` only sees real keys, and only the real items are
// written. Where a padded copy could be written in place of a real item that ties with it
// and be told apart from it (values beside the keys, or equal keys that are not the same
// bits: !detail::ties_are_identical), the items tying with the largest key, which end the
// runs, are first copied to the end of the output as they are (found by
// warp::partition_point), and the rest merges with padding that follows all of it. (Flagging
// padding invalid instead makes every compare-exchange of pairs carry 12-byte items and a
// compound comparator: 2.9x the time, bench/RESULTS.md run 18.)
//
// Preconditions: M >= 2 and a power of two (t >= 64, the paper's minimum for a busy warp);
// the runs sorted under cmp (a strict weak ordering); out does not overlap the inputs; all
// 32 lanes call together with the same arguments; `storage` is this warp's own shared
// memory. Values: pass detail::no_value pointers (null) for keys only.
// Cost: merge_runs takes ceil(a_count/(t/2)) + ceil(b_count/(t/2)) buffer steps, each one
// warp::shared_bitonic_merge, merge_four_runs about twice as many networks per output;
// every item is read and written once, coalesced; registers: t/32 items in the network and
// t/32 (four runs: 2t/32) prefetched items per lane. Not stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/warp/partition_point.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <cstdint>

namespace gpusort {
namespace warp {

// A warp's merge buffer of t = 32*M items.
template <class Key, class Value, int M>
struct merge_runs_storage {
  bitonic_buffer<Key, M> keys;
  bitonic_buffer<Value, M> values;
};

// merge_four_runs' buffers: the output's, and one for each pair of runs.
template <class Key, class Value, int M>
struct merge_four_runs_storage {
  merge_runs_storage<Key, Value, M> out, low_pair, high_pair;
};

// K sorted runs (values alongside; null pointers for keys only).
template <class Key, class Value, int K>
struct sorted_runs {
  const Key* keys[K];
  const Value* values[K];
  std::int64_t counts[K];
};

}  // namespace warp

namespace detail {

// One warp copies count items (values alongside) from in to out.
template <class Key, class Value>
__device__ __forceinline__ void merge_runs_copy(const Key* in, const Value* in_values,
                                                std::int64_t count, Key* out, Value* out_values) {
  for (std::int64_t i = threadIdx.x % 32; i < count; i += 32) {
    out[i] = in[i];
    if constexpr (has_values<Value>) out_values[i] = in_values[i];
  }
}

// The padding of the runs' ragged blocks: the largest key of all of them. Where a copy of
// it could be told apart from a real item (see above), the real items tying with it are
// copied to the end of the output first and dropped from the runs. Needs a non-empty run.
template <int K, class Key, class Value, class Compare>
__device__ __forceinline__ Key merge_runs_padding(warp::sorted_runs<Key, Value, K>& runs, Key* out,
                                                  Value* out_values, Compare cmp) {
  Key largest{};
  bool found = false;
#pragma unroll
  for (int r = 0; r < K; ++r) {
    if (runs.counts[r] == 0) continue;
    const Key last = runs.keys[r][runs.counts[r] - 1];
    if (!found || cmp(largest, last)) largest = last;
    found = true;
  }
  if constexpr (has_values<Value> || !ties_are_identical<Key, Compare>::value) {
    std::int64_t low[K], first_tie = 0;
#pragma unroll
    for (int r = 0; r < K; ++r) {
      const Key* keys = runs.keys[r];
      low[r] = warp::partition_point(0, runs.counts[r],
                                     [&](std::int64_t i) { return !cmp(keys[i], largest); });
      first_tie += low[r];
    }
#pragma unroll
    for (int r = 0; r < K; ++r) {
      constexpr bool values = has_values<Value>;  // else null: no arithmetic on it
      merge_runs_copy(runs.keys[r] + low[r], values ? runs.values[r] + low[r] : runs.values[r],
                      runs.counts[r] - low[r], out + first_tie,
                      values ? out_values + first_tie : out_values);
      first_tie += runs.counts[r] - low[r];
      runs.counts[r] = low[r];
    }
  }
  return largest;
}

template <class Key, class Value, int M>
struct merge_runs_block {
  Key keys[M / 2];
  Value values[M / 2];
};

template <int M, class Key, class Value>
__device__ __forceinline__ void merge_runs_load(const Key* keys, const Value* values,
                                                std::int64_t count, std::int64_t next,
                                                const Key& filler,
                                                merge_runs_block<Key, Value, M>& block) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int s = 0; s < M / 2; ++s) {
    const std::int64_t i = next + s * 32 + lane;
    block.keys[s] = filler;
    if (i < count) {
      block.keys[s] = keys[i];
      if constexpr (has_values<Value>) block.values[s] = values[i];
    }
  }
}

// Item j of a block of t/2 goes into one half of the buffer: the upper half ascending (a
// first block), the lower half reversed (every other block, Fig. 5b).
template <int M, class Key, class Value>
__device__ __forceinline__ void merge_runs_place(int j, const Key& key, const Value& value,
                                                 bool into_upper,
                                                 warp::merge_runs_storage<Key, Value, M>& s) {
  constexpr int half = 16 * M;
  const int i = into_upper ? half + j : half - 1 - j;
  s.keys.store(i, key);
  s.values.store(i, value);
}

// A source: a sorted run in device memory, read in blocks of t/2, the next block waiting in
// registers.
template <int M, class Key, class Value>
struct merge_run_source {
  const Key* keys;
  const Value* values;
  std::int64_t count;
  std::int64_t next = 0;  // the block in registers starts here
  merge_runs_block<Key, Value, M> block;

  template <class Compare>
  __device__ __forceinline__ void start(const Key& filler, Compare) {
    merge_runs_load<M>(keys, values, count, 0, filler, block);
  }
  __device__ __forceinline__ bool left() const { return next < count; }
  // Stores the waiting block into a half of the buffer and loads the one after it (to arrive
  // while the buffer's network runs). Returns the block's largest item.
  template <class Compare>
  __device__ __forceinline__ Key fetch(bool into_upper, warp::merge_runs_storage<Key, Value, M>& s,
                                       const Key& filler, Compare) {
    const int lane = threadIdx.x % 32;
    __syncwarp();  // the half may still be being read
#pragma unroll
    for (int b = 0; b < M / 2; ++b)
      merge_runs_place<M>(b * 32 + lane, block.keys[b], block.values[b], into_upper, s);
    __syncwarp();
    next += 16 * M;
    merge_runs_load<M>(keys, values, count, next, filler, block);
    return s.keys.load(into_upper ? 32 * M - 1 : 0);
  }
};

// Two sources merged through one buffer, t/2 outputs a step.
template <int M, class Key, class Value, class A, class B>
struct merge_runs_buffer {
  A a;
  B b;
  warp::merge_runs_storage<Key, Value, M>* s;
  Key a_max, b_max;

  template <class Compare>
  __device__ __forceinline__ void start(const Key& filler, Compare cmp) {
    a.start(filler, cmp);
    b.start(filler, cmp);
    a_max = a.fetch(true, *s, filler, cmp);
    b_max = b.fetch(false, *s, filler, cmp);
  }
  // Sorts the buffer: its lower half is the next t/2 outputs.
  template <class Compare>
  __device__ __forceinline__ void sort(Compare cmp) {
    warp::shared_bitonic_merge<M>(s->keys, s->values, cmp);
  }
  // Refills the lower half from the source whose last block ended lower (ties: a). A source
  // that is used up is not fetched from; when both are, the block fetched is all padding.
  template <class Compare>
  __device__ __forceinline__ void refill(const Key& filler, Compare cmp) {
    const bool take_a = a.left() && (!b.left() || !cmp(b_max, a_max));
    if (take_a) a_max = a.fetch(false, *s, filler, cmp);
    else b_max = b.fetch(false, *s, filler, cmp);
  }
};

// A source: the outputs of another buffer's merge, t/2 at a time.
template <int M, class Key, class Value, class Buffer>
struct merge_buffer_source {
  Buffer buffer;
  std::int64_t count;  // real items of both its sources
  std::int64_t next = 0;

  template <class Compare>
  __device__ __forceinline__ void start(const Key& filler, Compare cmp) { buffer.start(filler, cmp); }
  __device__ __forceinline__ bool left() const { return next < count; }
  template <class Compare>
  __device__ __forceinline__ Key fetch(bool into_upper, warp::merge_runs_storage<Key, Value, M>& s,
                                       const Key& filler, Compare cmp) {
    constexpr int half = 16 * M;
    const int lane = threadIdx.x % 32;
    buffer.sort(cmp);
    __syncwarp();  // the network's stores, and the destination half's last readers
    const warp::merge_runs_storage<Key, Value, M>& from = *buffer.s;
#pragma unroll
    for (int j0 = 0; j0 < half; j0 += 32)
      merge_runs_place<M>(j0 + lane, from.keys.load(j0 + lane), from.values.load(j0 + lane),
                          into_upper, s);
    const Key largest = from.keys.load(half - 1);
    buffer.refill(filler, cmp);  // syncs before it overwrites the half just read
    next += half;
    return largest;
  }
};

// Writes the lower half of the sorted buffer to out[0, min(t/2, remaining)).
template <int M, class Key, class Value>
__device__ __forceinline__ void merge_runs_emit(Key* out, Value* out_values, std::int64_t remaining,
                                                warp::merge_runs_storage<Key, Value, M>& s) {
  constexpr int half = 16 * M;
  const int lane = threadIdx.x % 32;
  __syncwarp();
#pragma unroll
  for (int j0 = 0; j0 < half; j0 += 32) {
    const int j = j0 + lane;
    if (j < remaining) {
      out[j] = s.keys.load(j);
      if constexpr (has_values<Value>) out_values[j] = s.values.load(j);
    }
  }
}

// Runs the output buffer until `total` items are written.
template <int M, class Key, class Value, class Buffer, class Compare>
__device__ __forceinline__ void merge_runs_drain(Buffer& buffer, std::int64_t total, Key* out,
                                                 Value* out_values, const Key& filler,
                                                 Compare cmp) {
  constexpr int half = 16 * M;
  buffer.start(filler, cmp);
  for (std::int64_t written = 0;;) {
    buffer.sort(cmp);
    merge_runs_emit<M>(out + written, has_values<Value> ? out_values + written : out_values,
                       total - written, *buffer.s);
    written += half;
    if (written >= total) break;
    buffer.refill(filler, cmp);
  }
}

template <int M, class Key, class Value, int K>
__device__ __forceinline__ merge_run_source<M, Key, Value> merge_runs_source(
    const warp::sorted_runs<Key, Value, K>& runs, int r) {
  return {runs.keys[r], runs.values[r], runs.counts[r]};
}

}  // namespace detail

namespace warp {

template <int M, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_runs(const Key* a, const Value* a_values, std::int64_t a_count,
                                           const Key* b, const Value* b_values, std::int64_t b_count,
                                           Key* out, Value* out_values, Compare cmp,
                                           merge_runs_storage<Key, Value, M>& storage) {
  static_assert(M >= 2 && (M & (M - 1)) == 0, "the buffer holds 32*M items, M >= 2 a power of two");
  if (a_count + b_count <= 0) return;
  sorted_runs<Key, Value, 2> runs{{a, b}, {a_values, b_values}, {a_count, b_count}};
  const Key filler = detail::merge_runs_padding(runs, out, out_values, cmp);
  const std::int64_t total = runs.counts[0] + runs.counts[1];
  if (total <= 0) return;
  using run = detail::merge_run_source<M, Key, Value>;
  detail::merge_runs_buffer<M, Key, Value, run, run> buffer{
      detail::merge_runs_source<M>(runs, 0), detail::merge_runs_source<M>(runs, 1), &storage};
  detail::merge_runs_drain<M>(buffer, total, out, out_values, filler, cmp);
}

template <int M, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_four_runs(sorted_runs<Key, Value, 4> runs, Key* out,
                                                Value* out_values, Compare cmp,
                                                merge_four_runs_storage<Key, Value, M>& storage) {
  static_assert(M >= 2 && (M & (M - 1)) == 0, "the buffers hold 32*M items, M >= 2 a power of two");
  if (runs.counts[0] + runs.counts[1] + runs.counts[2] + runs.counts[3] <= 0) return;
  const Key filler = detail::merge_runs_padding(runs, out, out_values, cmp);
  const std::int64_t low = runs.counts[0] + runs.counts[1];
  const std::int64_t high = runs.counts[2] + runs.counts[3];
  if (low + high <= 0) return;
  using run = detail::merge_run_source<M, Key, Value>;
  using pair = detail::merge_runs_buffer<M, Key, Value, run, run>;
  using merged = detail::merge_buffer_source<M, Key, Value, pair>;
  detail::merge_runs_buffer<M, Key, Value, merged, merged> buffer{
      merged{pair{detail::merge_runs_source<M>(runs, 0), detail::merge_runs_source<M>(runs, 1),
                  &storage.low_pair},
             low},
      merged{pair{detail::merge_runs_source<M>(runs, 2), detail::merge_runs_source<M>(runs, 3),
                  &storage.high_pair},
             high},
      &storage.out};
  detail::merge_runs_drain<M>(buffer, low + high, out, out_values, filler, cmp);
}

}  // namespace warp
}  // namespace gpusort
