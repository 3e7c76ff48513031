// gpusort/warp/merge_runs.cuh — one warp merges two sorted runs through a t-item bitonic
// buffer (Ye et al., GPU-Warpsort, step 2, Fig. 4 and Fig. 5b).
//
// The buffer of t = 32*M items lives in the warp's shared memory: its upper half holds the
// items kept from the last step, ascending; t/2 new items are stored into the lower half
// reversed, which makes the buffer bitonic, so one warp::shared_bitonic_merge (log2 t
// network steps, barrier-free, every lane busy) sorts it. The lower t/2 are written out,
// the upper t/2 stay where they are for the next step. The next t/2 items come from the run
// whose last fetched block had the smaller maximum: then the t/2 smallest items of the
// buffer precede everything not fetched yet, so the output is the merge.
// Fetches and stores are coalesced (lane i reads or writes item i of each row of 32); the
// fetched rows are reversed on their way into shared memory (Fig. 5b). Blocks are loaded
// into registers a step ahead (the decision needs only the maxima, which are known): each
// run's next block, or, for large blocks, the one block that the next step fetches.
//
// No sentinel keys: a run's last block, when shorter than t/2, is padded with copies of the
// largest key of both runs, so `cmp` only sees real keys, and only the a_count + b_count real
// items are written. Where a padded copy could be written in place of a real item that ties
// with it and be told apart from it (values beside the keys, or equal keys that are not the
// same bits: !detail::ties_are_identical), the items tying with the largest key, which end
// the runs, are first copied to the end of the output as they are (found by
// warp::partition_point), and the rest merges with padding that follows all of it. (Flagging
// padding invalid instead makes every compare-exchange of pairs carry 12-byte items and a
// compound comparator: 2.9x the time, bench/RESULTS.md run 18.)
//
// Preconditions: M >= 2 and a power of two (t >= 64, the paper's minimum for a busy warp);
// a and b sorted under cmp (a strict weak ordering); out does not overlap the inputs; all
// 32 lanes call together with the same arguments; `storage` is this warp's own shared
// memory. Values: pass detail::no_value pointers (null) for keys only.
// Cost: ceil(a_count/(t/2)) + ceil(b_count/(t/2)) buffer steps, each one
// warp::shared_bitonic_merge; every item is read and written once, coalesced; registers:
// t/32 items in the network and t/32 (large blocks: t/64) prefetched items per lane. Not
// stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/warp/partition_point.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <cuda_pipeline.h>

#include <cstdint>

namespace gpusort {
namespace warp {

// A warp's merge buffer of t = 32*M items.
template <class Key, class Value, int M>
struct merge_runs_storage {
  bitonic_buffer<Key, M> keys;
  bitonic_buffer<Value, M> values;
};

}  // namespace warp

namespace detail {

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

// One warp copies count > 0 items (values alongside) from in to out, through its merge
// buffer t at a time. One item a lane at a time left a merge of ties (all of it where every
// key is equal) waiting on one load after another: warpsort's u32:u32 pairs at 2^24 with
// every key equal took 3.17 ms against 1.74 uniform (H100, bench/RESULTS.md run 45). Loads
// into registers, t/2 at a time, took it to 1.62 but the merge kernels of 8-byte pairs from
// 96 registers to 105-120 (uniform u32:u32 at 2^28 4 % slower); two rows at a time kept 96
// and two thirds of the gain. cp.async has a step's loads in flight without holding them in
// registers: 1.58 ms, step 2's merge kernels at 96 registers, uniform u32:u32 at 2^28 within
// 0.4 % of the one-a-lane copy's time (run 46). Items cp.async cannot stage (sizes that are
// not whole 4-byte words) go one a lane at a time.
template <int M, class Key, class Value>
__device__ __forceinline__ void merge_runs_copy(const Key* in, const Value* in_values,
                                                std::int64_t count, Key* out, Value* out_values,
                                                warp::merge_runs_storage<Key, Value, M>& s) {
  constexpr int t = 32 * M;
  const int lane = threadIdx.x % 32;
  if constexpr (!warp::bitonic_buffer<Key, M>::stageable || !warp::bitonic_buffer<Value, M>::stageable) {
    for (std::int64_t i = lane; i < count; i += 32) {
      out[i] = in[i];
      if constexpr (has_values<Value>) out_values[i] = in_values[i];
    }
  } else {
    for (std::int64_t next = 0; next < count; next += t) {
      const int items = count - next < t ? static_cast<int>(count - next) : t;
      __syncwarp();  // other lanes may still be reading the buffer (a merge's output before)
#pragma unroll 1
      for (int j = lane; j < items; j += 32) {
        s.keys.stage_slot(j, in + next + j);
        if constexpr (has_values<Value>) s.values.stage_slot(j, in_values + next + j);
      }
      __pipeline_commit();
      __pipeline_wait_prior(0);  // a lane reads back only the slots it staged itself
#pragma unroll 1
      for (int j = lane; j < items; j += 32) {
        out[next + j] = s.keys.load_slot(j);
        if constexpr (has_values<Value>) out_values[next + j] = s.values.load_slot(j);
      }
    }
  }
}

// Stores a loaded block [next, next + t/2) of a run into one half of the buffer: the upper
// half ascending (the first block of run a), the lower half reversed (every other block,
// Fig. 5b). Returns the block's largest item (the padding when the block is ragged).
template <int M, class Key, class Value>
__device__ __forceinline__ Key merge_runs_fetch(const merge_runs_block<Key, Value, M>& block,
                                                bool into_upper,
                                                warp::merge_runs_storage<Key, Value, M>& s) {
  constexpr int half = 16 * M;
  const int lane = threadIdx.x % 32;
  __syncwarp();  // the lower half may still be being written out
#pragma unroll
  for (int b = 0; b < M / 2; ++b) {
    const int j = b * 32 + lane;
    const int i = into_upper ? half + j : half - 1 - j;
    s.keys.store(i, block.keys[b]);
    s.values.store(i, block.values[b]);
  }
  __syncwarp();
  return s.keys.load(into_upper ? 2 * half - 1 : 0);
}

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

// The items of each of RUNS sorted runs that tie with `largest` (the last ones of each run)
// go as they are to the end of the output, run after run, and each run's count is cut to the
// items before them; see warp::merge_runs on why.
template <int M, int RUNS, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_runs_set_aside_ties(const Key* const (&keys)[RUNS],
                                                          const Value* const (&values)[RUNS],
                                                          std::int64_t (&counts)[RUNS],
                                                          const Key& largest, Key* out,
                                                          Value* out_values, Compare cmp,
                                                          warp::merge_runs_storage<Key, Value, M>& s) {
  std::int64_t low[RUNS];
  std::int64_t position = 0;
  for (int r = 0; r < RUNS; ++r) {
    const Key* run = keys[r];
    low[r] = warp::partition_point(0, counts[r], [&](std::int64_t i) { return !cmp(run[i], largest); });
    position += low[r];
  }
  constexpr bool with_values = has_values<Value>;  // else null: no arithmetic on it
  for (int r = 0; r < RUNS; ++r) {
    const std::int64_t ties = counts[r] - low[r];
    if (ties > 0)
      merge_runs_copy<M>(keys[r] + low[r], with_values ? values[r] + low[r] : values[r], ties,
                         out + position, with_values ? out_values + position : out_values, s);
    position += ties;
    counts[r] = low[r];
  }
}

// A merge of runs a and b through a warp's buffer, as a pair of warp::merge_four_runs' tree:
// start() fills the buffer with the first block of each run; then, for as long as the caller
// wants outputs, warp::shared_bitonic_merge sorts the buffer, the caller takes its lower half
// (the next t/2 outputs), and refill() fetches the next block into that half. The runs are
// padded with `largest`, which no real item may follow (warp::merge_runs). Past both runs'
// ends the outputs are that padding. warp::merge_runs takes the same steps written out in
// its own loop: through this struct ptxas gave warpsort's two-way merge kernels 7-10 more
// registers (u64 keys and u32:u32 pairs at t = 256: 96 -> 103-108, one block an SM fewer).
template <int M, class Key, class Value>
struct run_pair_merge {
  static constexpr int half = 16 * M;
  // Blocks are loaded ahead, to arrive while a network runs: the next one of each run, or,
  // where a block takes 16 registers a lane or more, only the one fetched next (known once
  // the block before it is fetched), in next_a. Measured with one ahead for every size
  // (bench/RESULTS.md run 33, H100 and H200): 16-byte keys at t = 256 2.2-2.4 % faster at
  // 2^24, 16-byte keys with u32 values 5 %, u32 keys at t = 1024 (128 registers instead of
  // 145: four blocks an SM instead of three) 0.4-1.6 % at 2^27-2^28; smaller blocks 0.2-2.8 %
  // slower (u32 keys at t = 512, pairs at t = 256), their second block in flight worth more.
  static constexpr bool one_ahead =
      M / 2 * (warp::bitonic_buffer_words<Key> + warp::bitonic_buffer_words<Value>) >= 16;

  const Key* a;
  const Value* a_values;
  std::int64_t a_count;
  const Key* b;
  const Value* b_values;
  std::int64_t b_count;
  Key largest;
  merge_runs_block<Key, Value, M> next_a, next_b;
  Key a_max, b_max;
  std::int64_t a_next = half, b_next = half;
  bool take_a = true;  // one_ahead: the run of the block loaded ahead

  __device__ __forceinline__ run_pair_merge(const Key* a_, const Value* a_values_, std::int64_t a_count_,
                                            const Key* b_, const Value* b_values_, std::int64_t b_count_,
                                            const Key& largest_)
      : a(a_), a_values(a_values_), a_count(a_count_), b(b_), b_values(b_values_),
        b_count(b_count_), largest(largest_) {}

  // The next block comes from the run whose last block ended lower (ties: a). A run that is
  // used up is not fetched from; when both are, the block fetched is all padding.
  template <class Compare>
  __device__ __forceinline__ bool next_from_a(Compare cmp) const {
    const bool a_left = a_next < a_count;
    const bool b_left = b_next < b_count;
    return a_left && (!b_left || !cmp(b_max, a_max));
  }

  template <class Compare>
  __device__ __forceinline__ void start(warp::merge_runs_storage<Key, Value, M>& s, Compare cmp) {
    merge_runs_load<M>(a, a_values, a_count, 0, largest, next_a);
    merge_runs_load<M>(b, b_values, b_count, 0, largest, next_b);
    a_max = merge_runs_fetch<M>(next_a, true, s);
    b_max = merge_runs_fetch<M>(next_b, false, s);
    take_a = next_from_a(cmp);
    if constexpr (one_ahead) {
      if (take_a) merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
      else merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_a);
    } else {
      merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
      merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_b);
    }
  }

  template <class Compare>
  __device__ __forceinline__ void refill(warp::merge_runs_storage<Key, Value, M>& s, Compare cmp) {
    if constexpr (one_ahead) {
      const Key fetched_max = merge_runs_fetch<M>(next_a, false, s);
      if (take_a) {
        a_max = fetched_max;
        a_next += half;
      } else {
        b_max = fetched_max;
        b_next += half;
      }
      take_a = next_from_a(cmp);
      if (take_a) merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
      else merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_a);
    } else {
      take_a = next_from_a(cmp);
      if (take_a) {
        a_max = merge_runs_fetch<M>(next_a, false, s);
        a_next += half;
        merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
      } else {
        b_max = merge_runs_fetch<M>(next_b, false, s);
        b_next += half;
        merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_b);
      }
    }
  }
};

}  // namespace detail

namespace warp {

template <int M, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_runs(const Key* a, const Value* a_values, std::int64_t a_count,
                                           const Key* b, const Value* b_values, std::int64_t b_count,
                                           Key* out, Value* out_values, Compare cmp,
                                           merge_runs_storage<Key, Value, M>& storage) {
  static_assert(M >= 2 && (M & (M - 1)) == 0, "the buffer holds 32*M items, M >= 2 a power of two");
  constexpr int half = 16 * M;
  if (a_count + b_count <= 0) return;
  // The padding: the largest key of both runs.
  Key largest = a_count > 0 ? a[a_count - 1] : b[b_count - 1];
  if (a_count > 0 && b_count > 0 && cmp(largest, b[b_count - 1])) largest = b[b_count - 1];
  if constexpr (detail::has_values<Value> || !detail::ties_are_identical<Key, Compare>::value) {
    const Key* const keys[2] = {a, b};
    const Value* const values[2] = {a_values, b_values};
    std::int64_t counts[2] = {a_count, b_count};
    detail::merge_runs_set_aside_ties<M>(keys, values, counts, largest, out, out_values, cmp, storage);
    a_count = counts[0];
    b_count = counts[1];
  }
  const std::int64_t total = a_count + b_count;
  if (total <= 0) return;
  detail::merge_runs_block<Key, Value, M> next_a, next_b;
  detail::merge_runs_load<M>(a, a_values, a_count, 0, largest, next_a);
  detail::merge_runs_load<M>(b, b_values, b_count, 0, largest, next_b);
  Key a_max = detail::merge_runs_fetch<M>(next_a, true, storage);
  Key b_max = detail::merge_runs_fetch<M>(next_b, false, storage);
  std::int64_t a_next = half, b_next = half, written = 0;
  // The next block comes from the run whose last block ended lower (ties: a). A run that is
  // used up is not fetched from; when both are, the block fetched is all padding.
  const auto next_from_a = [&] {
    const bool a_left = a_next < a_count;
    const bool b_left = b_next < b_count;
    return a_left && (!b_left || !cmp(b_max, a_max));
  };
  bool take_a = next_from_a();  // one_ahead: the run of the block loaded ahead
  constexpr bool one_ahead = detail::run_pair_merge<M, Key, Value>::one_ahead;
  if constexpr (one_ahead) {
    if (take_a) detail::merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
    else detail::merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_a);
  } else {
    detail::merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
    detail::merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_b);
  }
  for (;;) {
    shared_bitonic_merge<M>(storage.keys, storage.values, cmp);
    detail::merge_runs_emit<M>(out + written,
                               detail::has_values<Value> ? out_values + written : out_values,
                               total - written, storage);
    written += half;
    if (written >= total) break;
    if constexpr (one_ahead) {
      const Key fetched_max = detail::merge_runs_fetch<M>(next_a, false, storage);
      if (take_a) {
        a_max = fetched_max;
        a_next += half;
      } else {
        b_max = fetched_max;
        b_next += half;
      }
      take_a = next_from_a();
      if (take_a) detail::merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
      else detail::merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_a);
    } else {
      take_a = next_from_a();
      if (take_a) {
        a_max = detail::merge_runs_fetch<M>(next_a, false, storage);
        a_next += half;
        detail::merge_runs_load<M>(a, a_values, a_count, a_next, largest, next_a);
      } else {
        b_max = detail::merge_runs_fetch<M>(next_b, false, storage);
        b_next += half;
        detail::merge_runs_load<M>(b, b_values, b_count, b_next, largest, next_b);
      }
    }
  }
}

}  // namespace warp
}  // namespace gpusort
