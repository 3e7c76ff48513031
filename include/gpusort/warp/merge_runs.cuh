// gpusort/warp/merge_runs.cuh — one warp merges two sorted runs through a t-item bitonic
// buffer (Ye et al., GPU-Warpsort, step 2, Fig. 4 and Fig. 5b).
//
// The warp keeps t = 32*M items in registers (blocked: lane l holds M of them). The lower
// half (lanes 0..15) holds the items kept from the last step, ascending; t/2 new items are
// fetched into the upper half (lanes 16..31) reversed, which makes the buffer bitonic, so
// one warp::bitonic_merge (log2 t steps, barrier-free, every lane busy) sorts it. The lower
// t/2 are written out, the upper t/2 are kept. The next t/2 items come from the run whose
// last fetched block had the smaller maximum: then the t/2 smallest items of the buffer
// precede everything not fetched yet, so the output is the merge.
// Fetches are coalesced (lane i reads item i of each row of 32) and reversed on the way
// through a warp-private shared buffer (Fig. 5b), as are the stores. Each run's next block
// is loaded into registers one step ahead (the decision needs only the maxima, which are
// known), so a warp waits for memory once per run instead of once per step.
//
// No sentinel keys: a run's last block, when shorter than t/2, is padded with slots marked
// invalid (detail::maybe, ordered after every real key by detail::valid_first); their key
// is a copy of a real one, so `cmp` only sees real keys. Only the a_count + b_count real
// items are written. Keys-only merges whose equal keys are identical bits
// (detail::ties_are_identical: integers under less/greater, floats under total_less) pad
// with copies of the largest real key instead and carry no flag: a padded copy written in
// place of an equal real key is the same bits, and the buffer shuffles half the words.
//
// Preconditions: M >= 2 and a power of two (t >= 64, the paper's minimum for a busy warp);
// a and b sorted under cmp (a strict weak ordering); out does not overlap the inputs; all
// 32 lanes call together with the same arguments; `storage` is this warp's own shared
// memory. Values: pass detail::no_value pointers (null) for keys only.
// Cost: ceil(a_count/(t/2)) + ceil(b_count/(t/2)) buffer steps, each log2(t) network steps;
// every item is read and written once, coalesced; registers: t/32 buffered and t/32
// prefetched items per lane. Not stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/padded_buffer.cuh>
#include <gpusort/detail/ragged.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/warp/bitonic_merge.cuh>
#include <gpusort/warp/shuffle.cuh>

#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace warp {

// The staging buffer of one half (t/2 items) of a warp's merge buffer.
template <class Key, class Value, int M>
struct merge_runs_storage {
  detail::padded_buffer<Key, 16 * M> keys;
  detail::padded_buffer<Value, 16 * M> values;
};

}  // namespace warp

namespace detail {

// The buffer's item: a key with its validity flag, or the bare key where padding may be a
// copy of the largest key (see the header comment).
template <bool TAGGED, class Key>
using merge_runs_item = std::conditional_t<TAGGED, maybe<Key>, Key>;

template <bool TAGGED, class Key>
__device__ __forceinline__ merge_runs_item<TAGGED, Key> merge_runs_make(const Key& key, bool valid) {
  if constexpr (TAGGED) {
    return {key, valid};
  } else {
    return key;
  }
}

template <class Key>
__device__ __forceinline__ const Key& merge_runs_key(const maybe<Key>& item) { return item.key; }
template <class Key>
__device__ __forceinline__ const Key& merge_runs_key(const Key& item) { return item; }

// The next t/2 items of a run in registers, striped (lane l holds items l, l+32, ...):
// loaded one step ahead, so that the global-memory latency overlaps a merge step instead
// of stalling the warp after each decision. Slots past the run hold `filler`.
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

// Moves a loaded block [next, next + t/2) of a run into one half of the buffer through the
// warp's shared staging area (Fig. 5b: coalesced reads, reversed in shared memory): the
// lower half ascending, the upper half reversed. Returns the block's largest item (invalid
// when the block is ragged). Lanes of the other half keep their registers (a select).
template <int M, class Item, class Key, class Value>
__device__ __forceinline__ Item merge_runs_fetch(const merge_runs_block<Key, Value, M>& block,
                                                 std::int64_t count, std::int64_t next,
                                                 bool upper, Item (&items)[M], Value (&vals)[M],
                                                 warp::merge_runs_storage<Key, Value, M>& s) {
  constexpr bool tagged = !std::is_same<Item, Key>::value;
  constexpr int half = 16 * M;
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int b = 0; b < M / 2; ++b) {
    const int j = b * 32 + lane;
    const int slot = upper ? half - 1 - j : j;
    s.keys[slot] = block.keys[b];
    if constexpr (has_values<Value>) s.values[slot] = block.values[b];
  }
  __syncwarp();
  const bool mine = (lane >= 16) == upper;
  const int base = (lane % 16) * M;
#pragma unroll
  for (int r = 0; r < M; ++r) {
    const int slot = base + r;
    const int j = upper ? half - 1 - slot : slot;
    const Item item = merge_runs_make<tagged>(s.keys[slot], next + j < count);
    items[r] = mine ? item : items[r];
    if constexpr (has_values<Value>) {
      const Value v = s.values[slot];
      vals[r] = mine ? v : vals[r];
    }
  }
  const Item largest = merge_runs_make<tagged>(s.keys[upper ? 0 : half - 1], next + half - 1 < count);
  __syncwarp();
  return largest;
}

// Writes the lower half of the buffer to out[0, min(t/2, remaining)).
template <int M, class Item, class Key, class Value>
__device__ __forceinline__ void merge_runs_emit(const Item (&items)[M], const Value (&vals)[M],
                                                Key* out, Value* out_values, std::int64_t remaining,
                                                warp::merge_runs_storage<Key, Value, M>& s) {
  constexpr int half = 16 * M;
  const int lane = threadIdx.x % 32;
  if (lane < 16) {
#pragma unroll
    for (int r = 0; r < M; ++r) {
      s.keys[lane * M + r] = merge_runs_key(items[r]);
      if constexpr (has_values<Value>) s.values[lane * M + r] = vals[r];
    }
  }
  __syncwarp();
#pragma unroll
  for (int j0 = 0; j0 < half; j0 += 32) {
    const int j = j0 + lane;
    if (j < remaining) {
      out[j] = s.keys[j];
      if constexpr (has_values<Value>) out_values[j] = s.values[j];
    }
  }
  __syncwarp();
}

}  // namespace detail

namespace warp {

template <int M, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_runs(const Key* a, const Value* a_values, std::int64_t a_count,
                                           const Key* b, const Value* b_values, std::int64_t b_count,
                                           Key* out, Value* out_values, Compare cmp,
                                           merge_runs_storage<Key, Value, M>& storage) {
  static_assert(M >= 2 && (M & (M - 1)) == 0, "the buffer holds 32*M items, M >= 2 a power of two");
  constexpr int half = 16 * M;
  const std::int64_t total = a_count + b_count;
  if (total <= 0) return;
  constexpr bool tagged = detail::has_values<Value> || !detail::ties_are_identical<Key, Compare>::value;
  using item = detail::merge_runs_item<tagged, Key>;
  using order_t = std::conditional_t<tagged, detail::valid_first<Compare>, Compare>;
  const order_t order{cmp};
  // Padding: any real key when flagged, else the largest key of both runs.
  Key filler = a_count > 0 ? a[a_count - 1] : b[b_count - 1];
  if constexpr (!tagged) {
    if (a_count > 0 && b_count > 0 && cmp(filler, b[b_count - 1])) filler = b[b_count - 1];
  }
  item items[M];
  Value vals[M];
  detail::merge_runs_block<Key, Value, M> next_a, next_b;
  detail::merge_runs_load<M>(a, a_values, a_count, 0, filler, next_a);
  detail::merge_runs_load<M>(b, b_values, b_count, 0, filler, next_b);
  item a_max = detail::merge_runs_fetch<M>(next_a, a_count, 0, false, items, vals, storage);
  item b_max = detail::merge_runs_fetch<M>(next_b, b_count, 0, true, items, vals, storage);
  std::int64_t a_next = half, b_next = half, written = 0;
  detail::merge_runs_load<M>(a, a_values, a_count, a_next, filler, next_a);
  detail::merge_runs_load<M>(b, b_values, b_count, b_next, filler, next_b);
  for (;;) {
    bitonic_merge<M>(items, vals, order);
    detail::merge_runs_emit<M>(items, vals, out + written,
                               detail::has_values<Value> ? out_values + written : out_values,
                               total - written, storage);
    written += half;
    if (written >= total) break;
    // The upper half becomes the kept (lower) half.
#pragma unroll
    for (int r = 0; r < M; ++r) {
      items[r] = shuffle_xor(items[r], 16);
      vals[r] = shuffle_xor(vals[r], 16);
    }
    // Fetch from the run whose last block ended lower (ties: a). A run that is used up has
    // an invalid maximum; when both are, the block fetched is all padding. The block after
    // it is loaded at once, to arrive while this step's network runs.
    const bool a_left = a_next < a_count;
    const bool b_left = b_next < b_count;
    const bool take_a = a_left && (!b_left || !order(b_max, a_max));
    if (take_a) {
      a_max = detail::merge_runs_fetch<M>(next_a, a_count, a_next, true, items, vals, storage);
      a_next += half;
      detail::merge_runs_load<M>(a, a_values, a_count, a_next, filler, next_a);
    } else {
      b_max = detail::merge_runs_fetch<M>(next_b, b_count, b_next, true, items, vals, storage);
      b_next += half;
      detail::merge_runs_load<M>(b, b_values, b_count, b_next, filler, next_b);
    }
  }
}

}  // namespace warp
}  // namespace gpusort
