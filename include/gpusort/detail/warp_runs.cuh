// gpusort/detail/warp_runs.cuh — sorted runs of a few thousand items, each a block's, from
// warps that sort in registers and merge in shared memory (GPU-Warpsort's step 1, Ye et al.):
// warpsort's first step, policy::merge's tile sort where ties are identical, and
// deterministic_sample's full tiles (sort_warp_run).
//
// Every warp sorts chunks of 32 * sort_items items in registers (warp::bitonic_sort: no
// barrier), merges run_chunks of them in its part of the block's shared buffer
// (warp::shared_bitonic_merge, no barrier either), and the block's run_warps warps then merge
// their runs together (the same merge, barriers between its windows). Measured against a
// block bitonic sort of the same runs (bench/RESULTS.md run 24, Fig. 11): 40 % less time.
// Not stable. Cost per item: the chunk's network in registers, then per merge level a
// window pass or two through shared memory; one read and one write of device memory.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ragged.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/warp/bitonic_sort.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

constexpr int warp_run_pow2_floor(std::size_t x) {
  return x < 2 ? 1 : 2 * warp_run_pow2_floor(x / 2);
}
constexpr int warp_run_clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

template <class Key, class Value>
struct warp_run_tuning {
  static constexpr std::size_t item_bytes = item_bytes_of<Key, Value>;
  // Step 1: items per lane. 32 per lane was the fastest register shape for 4-byte keys
  // (bench/RESULTS.md, block sort); a lane's items stay within 128 bytes so that keys,
  // values and the network's temporaries fit in registers. At least 4: the paper's 128
  // items per warp, the least that keeps all 32 lanes on distinct compare-exchanges.
  static constexpr int sort_items = warp_run_clamp(warp_run_pow2_floor(128 / item_bytes), 4, 32);
  static constexpr int chunk = 32 * sort_items;
  // A warp sorts run_chunks chunks and merges them in a buffer of about run_bytes of the
  // block's shared memory before the block merges further; each doubling is a merge pass
  // fewer.
  static constexpr std::size_t run_bytes = 16384;
  static constexpr int run_chunks = warp_run_clamp(
      warp_run_pow2_floor(run_bytes / (chunk * (warp::bitonic_buffer_words<Key> + warp::bitonic_buffer_words<Value>) * 4)), 1, 8);
  static constexpr int warp_run = chunk * run_chunks;
  // The warps of a block then merge their runs together (barriers between the merge's
  // windows): runs of run_warps warp runs, each doubling a merge pass fewer again while
  // every warp keeps 16 KB. Measured (bench/RESULTS.md run 24, H100): 2 warps 3-5 % and 4
  // warps 6-8 % faster than runs of one warp from 2^20 (u32 2^28 15.52 -> 14.57 ms).
  static constexpr int run_warps = 4;
  static constexpr int run = warp_run * run_warps;
};

// A block's step-1 run of RUN items in its shared memory (Item: Key, or maybe<Key> for the
// array's last, ragged run).
template <class Item, class Value, int ITEMS, int RUN>
struct warp_run_storage {
  warp::bitonic_buffer<Item, ITEMS, RUN> keys;
  warp::bitonic_buffer<Value, ITEMS, RUN> values;
};

// A run of ranked items (rank_codec: each knows its place in the run) whose values wait in
// input order while the items sort, never moved by the networks; unpadded, as they are
// written and read by position.
template <class Item, class Value, int ITEMS, int RUN>
struct ranked_run_storage {
  warp_run_storage<Item, no_value, ITEMS, RUN> network;
  Value values[RUN];
};

// Merges of blocks of 2^BITS, 2^(BITS+1), ... items up to 2^LAST_BITS: by one warp within its
// groups (WARPS 1), or by the block's WARPS warps together.
template <int ITEMS, int RUN, int BITS, int LAST_BITS, int WARPS, class Item, class Value,
          class Compare>
__device__ __forceinline__ void merge_warp_chunks(warp_run_storage<Item, Value, ITEMS, RUN>& s,
                                                  Compare cmp, int first_group, int group_count) {
  if constexpr (BITS <= LAST_BITS) {
    warp::shared_bitonic_merge<ITEMS, RUN, BITS, WARPS>(s.keys, s.values, cmp, first_group,
                                                        group_count);
    merge_warp_chunks<ITEMS, RUN, BITS + 1, LAST_BITS, WARPS>(s, cmp, first_group, group_count);
  }
}

// What the runs are made of: the keys themselves, or each key made into an item with its
// position in its run (rank_codec: the run then holds equal keys in input order).
template <class Key>
struct plain_items {
  using item = Key;
  __host__ __device__ static Key make(const Key& key, int) { return key; }
  __host__ __device__ static Key key(const Key& item) { return item; }
  template <class Compare>
  __host__ __device__ static Compare compare(Compare cmp) { return cmp; }
};

// Whether values wait apart while a run of Codec's items sorts (ranked_run_storage): where
// the items carry ranks that say where each value waits.
template <class Codec, class Key, class Value>
constexpr bool values_wait = has_values<Value> && !std::is_same<Codec, plain_items<Key>>::value;

// A run's shared memory may reach this (launch_warp_runs opts in): A100 and H100 grant more.
constexpr std::size_t warp_run_shared_budget = 160 * 1024;
// Runs made longer by waiting values keep two blocks an SM (H100: 228 KB).
constexpr std::size_t long_warp_run_budget = 112 * 1024;

// The runs' shape for Codec's items. Where values wait, the networks move the items alone,
// so the runs may be as long as for items without values, if the waiting values fit
// beside them in long_warp_run_budget (ranked runs are never tagged whole: their last one is
// padded); else as with values riding. Measured (bench/RESULTS.md run 32, H100, against
// values riding in runs of 4K): u32:u32 and f32:u32 in runs of 8K (96 KB) 9-10 % faster at
// 2^24-2^28, in runs of 4K with waiting values 6-7 %; u32:u64 in runs of 8K (128 KB, one
// block an SM) 8 % faster at 2^26, in runs of 4K 9 %.
template <class Codec, class Key, class Value>
struct warp_run_shape_of {
  using item = typename Codec::item;
  using alone = warp_run_tuning<item, no_value>;
  static constexpr bool long_runs =
      values_wait<Codec, Key, Value> &&
      sizeof(ranked_run_storage<item, Value, alone::sort_items, alone::run>) <= long_warp_run_budget;
  using type = std::conditional_t<long_runs, alone, warp_run_tuning<item, Value>>;
};
template <class Codec, class Key, class Value>
using warp_run_shape = typename warp_run_shape_of<Codec, Key, Value>::type;

// How a block fills its run: all RUN items real; the array's short last run padded with
// copies of its largest key (keys alone whose ties are identical bits: the copies sort last,
// indistinguishable from it) or with absent ranked items (rank_codec: after every real
// one); or tagged (maybe<Key>, valid_first: any other items).
enum class run_fill { full, padded, tagged };

// Whether the last run can be padded rather than tagged: a tagged block holds twice the
// shared memory for u32 and is slower (bench/RESULTS.md run 25).
template <class Codec, class Key, class Value, class Compare>
constexpr bool pads_last_run = !std::is_same<Codec, plain_items<Key>>::value ||
                               (!has_values<Value> && ties_are_identical<Key, Compare>::value);

// The largest of keys[0, count) (count >= 1) under cmp, returned to every thread of the
// block; `scratch`: shared, THREADS / 32 keys. Given `smallest_seen`, also the smallest key
// this thread read (keys[0] where it read none), from the same loads.
template <int THREADS, class Key, class Compare>
__device__ __forceinline__ Key block_largest_of(const Key* keys, int count, Compare cmp, Key* scratch,
                                                Key* smallest_seen = nullptr) {
  Key largest[1] = {keys[0]};
  Key smallest = keys[0];
  for (int i = threadIdx.x; i < count; i += THREADS) {
    const Key key = keys[i];
    largest[0] = cmp(largest[0], key) ? key : largest[0];
    if (smallest_seen != nullptr) smallest = cmp(key, smallest) ? key : smallest;
  }
  if (smallest_seen != nullptr) *smallest_seen = smallest;
  return block_largest<THREADS>(largest, cmp, scratch);
}

// The block sorts its run of `valid` (<= WARPS * WARP_RUN) items. Each warp takes WARP_RUN
// of them: WARP_RUN / (32*ITEMS) chunks, each sorted in registers (warp::bitonic_sort) and
// stored into the warp's part of the shared buffer, odd chunks reversed (a pair then is
// bitonic), then merged there by the warp alone (warp::shared_bitonic_merge, no barrier);
// the warps' runs, alternately ascending and descending, are then merged by the whole
// block. Each merge is a pass over device memory that step 2 does not make. The buffer also
// stages the coalesced loads (lane i reads item i of each row of 32) for the chunks'
// blocked layout. The array's last run, where short, fills the slots past `valid` with
// `padding` (FILL padded) or tags them invalid (tagged: maybe / valid_first, after every
// real item, no sentinel key), in instantiations of their own so that full runs carry
// neither. Codec makes the run's items of the keys (cmp orders items) and takes them apart.
// RunValue: Value, whose items ride through the networks with their keys, or no_value, when
// they wait in `waiting` (RUN slots, ranked_run_storage) and each output fetches its own by
// its item's rank.
template <int ITEMS, int WARP_RUN, int WARPS, run_fill FILL, class Codec, class Key, class Value,
          class Compare, class Item, class RunValue>
__device__ __forceinline__ void sort_warp_run(const Key* keys_in, const Value* values_in,
                                              Key* keys_out, Value* values_out, int valid,
                                              const typename Codec::item& padding, Compare cmp,
                                              warp_run_storage<Item, RunValue, ITEMS, WARPS * WARP_RUN>& s,
                                              Value* waiting = nullptr) {
  constexpr bool wait = has_values<Value> && !has_values<RunValue>;
  static_assert(!wait || values_wait<Codec, Key, Value>, "only ranks say where a value waits");
  constexpr int chunk = 32 * ITEMS;
  constexpr int run = WARPS * WARP_RUN;
  const int lane = threadIdx.x % 32;
  const int base = static_cast<int>(threadIdx.x / 32) * WARP_RUN;  // this warp's part
  constexpr bool RAGGED = FILL == run_fill::tagged;
  const int warp_valid = valid - base < 0 ? 0 : valid - base < WARP_RUN ? valid - base : WARP_RUN;
  const auto item_cmp = [&] {
    if constexpr (RAGGED) return valid_first<Compare>{cmp};
    else return cmp;
  }();
#pragma unroll 1
  for (int c = 0; c < WARP_RUN / chunk; ++c) {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = c * chunk + r * 32 + lane;
      const bool real = FILL == run_fill::full || i < warp_valid;
      if constexpr (RAGGED)
        s.keys.store(base + i, Item{Codec::make(keys_in[real ? base + i : 0], base + i), real});
      else if constexpr (FILL == run_fill::padded)
        s.keys.store(base + i, i < warp_valid ? Codec::make(keys_in[base + i], base + i) : padding);
      else
        s.keys.store(base + i, Codec::make(keys_in[base + i], base + i));
      if constexpr (wait) {
        if (real) waiting[base + i] = values_in[base + i];
      } else if constexpr (has_values<Value>) {
        if (real) s.values.store(base + i, values_in[base + i]);
      }
    }
    // A chunk past the end holds only tags, which tie with each other: sorted as it is.
    if (RAGGED && c * chunk >= warp_valid) continue;
    __syncwarp();
    Item keys[ITEMS];
    RunValue values[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      keys[r] = s.keys.load(base + c * chunk + lane * ITEMS + r);
      values[r] = s.values.load(base + c * chunk + lane * ITEMS + r);
    }
    warp::bitonic_sort<ITEMS>(keys, values, item_cmp);
    __syncwarp();  // every lane has read the chunk: odd chunks overwrite other lanes' items
    // Odd chunks of the block's run go in descending (a warp of one chunk takes its warp's
    // turn): index bits XOR chunk - 1 (linear, so still conflict-free).
    const int reversed = (base / chunk + c) % 2 == 1 ? chunk - 1 : 0;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = base + c * chunk + ((lane * ITEMS + r) ^ reversed);
      s.keys.store(i, keys[r]);
      s.values.store(i, values[r]);
    }
  }
  constexpr int group = 32 * ITEMS;  // the merges' groups: the warp's part is whole groups
  merge_warp_chunks<ITEMS, run, log2_exact(2 * chunk), log2_exact(WARP_RUN), 1>(
      s, item_cmp, base / group, WARP_RUN / group);  // syncs first
  merge_warp_chunks<ITEMS, run, log2_exact(2 * WARP_RUN), log2_exact(run), WARPS>(
      s, item_cmp, 0, run / group);
  if constexpr (WARPS > 1) __syncthreads();
  else __syncwarp();
  for (int i = lane; i < warp_valid; i += 32) {
    typename Codec::item word;
    if constexpr (RAGGED) word = s.keys.load(base + i).key;
    else word = s.keys.load(base + i);
    keys_out[base + i] = Codec::key(word);
    if constexpr (wait) values_out[base + i] = waiting[Codec::rank(word)];
    else if constexpr (has_values<Value>) values_out[base + i] = s.values.load(base + i);
  }
}

// The shared memory of a block's run: values with their items, or waiting apart.
template <class Codec, class Key, class Value, class Item, int ITEMS, int RUN>
using warp_run_block_storage =
    std::conditional_t<values_wait<Codec, Key, Value>, ranked_run_storage<Item, Value, ITEMS, RUN>,
                       warp_run_storage<Item, Value, ITEMS, RUN>>;

// Runs of WARPS * WARP_RUN items [first_run, ...) of n items, one a block; padded or
// tagged: the one short run at first_run.
template <int ITEMS, int WARP_RUN, int WARPS, run_fill FILL, class Codec, class Key, class Value,
          class Compare>
__global__ void __launch_bounds__(32 * WARPS)
    warp_run_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                    Value* values_out, std::int64_t n, std::int64_t first_run, Compare cmp) {
  using item = std::conditional_t<FILL == run_fill::tagged, maybe<typename Codec::item>, typename Codec::item>;
  constexpr int run = WARPS * WARP_RUN;
  extern __shared__ __align__(16) unsigned char warp_run_shared[];
  auto& storage = *reinterpret_cast<warp_run_block_storage<Codec, Key, Value, item, ITEMS, run>*>(
      warp_run_shared);
  const std::int64_t offset = (first_run + static_cast<std::int64_t>(blockIdx.x)) * run;
  const int valid = static_cast<int>(n - offset < run ? n - offset : run);
  // Read by a padded run only: ranked items pad with absent ones, which sort last; keys
  // whose ties are identical with copies of their largest.
  typename Codec::item padding = Codec::make(keys_in[offset], absent_rank);
  if constexpr (FILL == run_fill::padded && std::is_same<Codec, plain_items<Key>>::value) {
    __shared__ Key warp_largest[WARPS];
    padding = block_largest_of<32 * WARPS>(keys_in + offset, valid, cmp, warp_largest);
  }
  const Value* run_values_in = has_values<Value> ? values_in + offset : values_in;
  Value* run_values_out = has_values<Value> ? values_out + offset : values_out;
  if constexpr (values_wait<Codec, Key, Value>)
    sort_warp_run<ITEMS, WARP_RUN, WARPS, FILL, Codec>(keys_in + offset, run_values_in,
                                                       keys_out + offset, run_values_out, valid,
                                                       padding, cmp, storage.network, storage.values);
  else
    sort_warp_run<ITEMS, WARP_RUN, WARPS, FILL, Codec>(keys_in + offset, run_values_in,
                                                       keys_out + offset, run_values_out, valid,
                                                       padding, cmp, storage);
}

// Launches run_kernel on `blocks` runs from first_run (its shared memory is dynamic: a
// block's run may pass the static limit).
template <int ITEMS, int WARP_RUN, int WARPS, run_fill FILL, class Codec, class Key, class Value,
          class Compare>
cudaError_t launch_warp_runs(const Key* keys_in, const Value* values_in, Key* keys_out,
                             Value* values_out, std::int64_t n, std::int64_t first_run,
                             std::int64_t blocks, Compare cmp, cudaStream_t stream) {
  using item = std::conditional_t<FILL == run_fill::tagged, maybe<typename Codec::item>, typename Codec::item>;
  constexpr std::size_t bytes = sizeof(warp_run_block_storage<Codec, Key, Value, item, ITEMS, WARPS * WARP_RUN>);
  static_assert(bytes <= warp_run_shared_budget, "a step-1 run fits a block's shared memory on an A100 or H100");
  const auto kernel = warp_run_kernel<ITEMS, WARP_RUN, WARPS, FILL, Codec, Key, Value, Compare>;
  if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
  kernel<<<static_cast<unsigned>(blocks), 32 * WARPS, bytes, stream>>>(
      keys_in, values_in, keys_out, values_out, n, first_run, cmp);
  return cudaPeekAtLastError();
}

// Sorts runs of warp_run_shape<Codec, Key, Value>::run items of keys_in[0, n) (values
// alongside) into keys_out (values_out), each as Codec's items under cmp; the last run may be
// shorter. Out may alias in. Asynchronous on `stream`; returns the first launch error.
template <class Codec, class Key, class Value, class Compare>
cudaError_t sort_warp_runs(const Key* keys_in, const Value* values_in, Key* keys_out,
                           Value* values_out, std::int64_t n, Compare cmp, cudaStream_t stream) {
  using tuning = warp_run_shape<Codec, Key, Value>;
  constexpr bool padded = pads_last_run<Codec, Key, Value, Compare>;
  constexpr int items = tuning::sort_items, warps = tuning::run_warps;
  const std::int64_t full = n / tuning::run;
  cudaError_t e = cudaSuccess;
  if (full > 0)
    e = launch_warp_runs<items, tuning::warp_run, warps, run_fill::full, Codec>(
        keys_in, values_in, keys_out, values_out, full * tuning::run, 0, full, cmp, stream);
  if (e == cudaSuccess && full * tuning::run < n) {
    // The short last run, sorted by as little as holds it: a remainder that fits one chunk
    // by one warp without merges (2^10 u32 keys: 0.046 ms instead of 0.11 ms, H100), one
    // that fits a warp's run by one warp, a longer one padded where it can be.
    const std::int64_t remainder = n - full * tuning::run;
    if (remainder <= tuning::chunk)
      e = launch_warp_runs<items, tuning::chunk, 1, run_fill::tagged, Codec>(
          keys_in, values_in, keys_out, values_out, n, full * (tuning::run / tuning::chunk), 1,
          cmp, stream);
    else if (remainder <= tuning::warp_run)
      e = launch_warp_runs<items, tuning::warp_run, 1, run_fill::tagged, Codec>(
          keys_in, values_in, keys_out, values_out, n, full * warps, 1, cmp, stream);
    else if constexpr (padded)
      e = launch_warp_runs<items, tuning::warp_run, warps, run_fill::padded, Codec>(
          keys_in, values_in, keys_out, values_out, n, full, 1, cmp, stream);
    else
      e = launch_warp_runs<items, tuning::warp_run, warps, run_fill::tagged, Codec>(
          keys_in, values_in, keys_out, values_out, n, full, 1, cmp, stream);
  }
  return e;
}

}  // namespace detail
}  // namespace gpusort
