// gpusort/block/bitonic_sort.cuh — bitonic sort of one tile held by a thread block
// (Dehne & Zaboli, Algorithm 1 step 2: the tile-local sort; also the bucket sort of step 9).
//
// Each thread holds ITEMS items in the blocked arrangement. The warps first sort their
// 32*ITEMS items in registers and shuffles (warp::bitonic_sort); each merge stage above the
// warp span then runs its cross-warp strides in shared memory and its warp strides in
// registers, the items read back striped, then blocked (detail::block_merge_stage).
// The ragged overload sorts a partly filled tile (the array's last one): slots at or past
// `valid_items` end up after every real item, in no order; no sentinel key is needed, but
// they must hold some real key, because the comparator is evaluated on them without a
// branch (block::load_blocked fills them with a copy of item 0). It takes
// ragged_bitonic_sort_storage (room for a validity flag per slot), so callers that only sort
// full tiles do not pay for it in shared memory. Keys alone whose ties are identical bits
// (detail::ties_are_identical) need no flags: the padding becomes copies of the largest key.
// Other tiles do the same after setting aside the few real items that tie with the largest
// key (detail::largest_set_aside; the flags cost pairs 3x in a 4K tile); only tiles with
// more such ties than the spare storage holds sort with the flags. block::sort_tile, which
// can write to global memory, parks those ties in its output instead and needs no flags.
//
// Preconditions: THREADS a multiple of 32, THREADS and ITEMS powers of two; every thread
// of the block calls; `storage` is shared memory, reusable once the call returns.
// Cost: log2(N)(log2(N)+1)/2 steps for N = THREADS*ITEMS; per stage above the warp span,
// one shared-memory round trip per cross-warp stride and two for the warp's. Not stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/padded_buffer.cuh>
#include <gpusort/detail/ragged.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/thread/compare_exchange.cuh>
#include <gpusort/warp/bitonic_sort.cuh>
#include <gpusort/warp/inclusive_sum.cuh>

namespace gpusort {
namespace block {

template <class Key, class Value, int THREADS, int ITEMS>
struct bitonic_sort_storage {
  detail::padded_buffer<Key, THREADS * ITEMS> keys;
  detail::padded_buffer<Value, THREADS * ITEMS> values;
};

// Storage of the ragged overload: each slot also carries whether it holds an item.
template <class Key, class Value, int THREADS, int ITEMS>
using ragged_bitonic_sort_storage = bitonic_sort_storage<detail::maybe<Key>, Value, THREADS, ITEMS>;

}  // namespace block

namespace detail {

// One merge stage of the block: the strides that cross warps in shared memory, then the
// warp's own. With `flip`: the mirror step over blocks of 2*first_stride items, then
// half-cleaner strides first_stride/2, ..., 1; without: half-cleaner strides first_stride,
// ..., 1. Every compare-exchange runs ascending.
// The warp's strides are read back from shared memory striped (lane l holds items l, l+32,
// l+64, ... of its warp's span), where strides span/2 ... 32 are between a thread's own
// registers, then turned blocked through the warp's own part of the buffer for strides
// 16 ... 1: two passes through shared memory instead of log2(ITEMS) rounds of shuffles,
// each of which moves every item (one per 4 bytes) and compares it on both lanes.
template <int THREADS, int ITEMS, class Key, class Value, class Compare, class Buffers>
__device__ __forceinline__ void block_merge_stage(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                                  Compare cmp, Buffers& shared, int first_stride,
                                                  bool flip) {
  constexpr int span = warp::lanes * ITEMS;
  constexpr int n = THREADS * ITEMS;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    shared.keys[threadIdx.x * ITEMS + r] = keys[r];
    shared.values[threadIdx.x * ITEMS + r] = values[r];
  }
  __syncthreads();
  // A pair's lower index: `pair` with a zero bit inserted at `stride` (a power of two).
  if (flip) {
    for (int pair = threadIdx.x; pair < n / 2; pair += THREADS) {
      const int i = pair + (pair & ~(first_stride - 1));
      const int mirror = i ^ (2 * first_stride - 1);
      thread::compare_exchange(shared.keys[i], shared.keys[mirror], shared.values[i],
                               shared.values[mirror], cmp);
    }
    __syncthreads();
  }
  for (int stride = flip ? first_stride / 2 : first_stride; stride >= span; stride /= 2) {
    for (int pair = threadIdx.x; pair < n / 2; pair += THREADS) {
      const int i = pair + (pair & ~(stride - 1));
      thread::compare_exchange(shared.keys[i], shared.keys[i + stride], shared.values[i],
                               shared.values[i + stride], cmp);
    }
    __syncthreads();
  }
  const int lane = static_cast<int>(threadIdx.x) % warp::lanes;
  const int striped = static_cast<int>(threadIdx.x) / warp::lanes * span + lane;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    keys[r] = shared.keys[striped + warp::lanes * r];
    values[r] = shared.values[striped + warp::lanes * r];
  }
  thread::half_cleaner(keys, values, cmp, ITEMS / 2);  // strides span/2 ... 32
  __syncwarp();  // the warp has read its part before it writes it again
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    shared.keys[striped + warp::lanes * r] = keys[r];
    shared.values[striped + warp::lanes * r] = values[r];
  }
  __syncwarp();
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    keys[r] = shared.keys[threadIdx.x * ITEMS + r];
    values[r] = shared.values[threadIdx.x * ITEMS + r];
  }
  __syncthreads();
  // Strides 16 ... ITEMS cross lanes (none when ITEMS >= 32), the rest are in registers.
  warp_shuffle_half_cleaner<ITEMS>(keys, values, cmp, warp::lanes / 2);
  thread::half_cleaner(keys, values, cmp, (ITEMS < warp::lanes ? ITEMS : warp::lanes) / 2);
}

// The whole block: the largest of the block's keys under cmp, returned to every thread.
// `scratch` (shared, at least THREADS / 32 keys) is free again on return.
template <int THREADS, int ITEMS, class Key, class Compare, class Buffer>
__device__ __forceinline__ Key block_largest(const Key (&keys)[ITEMS], Compare cmp, Buffer& scratch) {
  Key largest = keys[0];
#pragma unroll
  for (int r = 1; r < ITEMS; ++r) largest = cmp(largest, keys[r]) ? keys[r] : largest;
#pragma unroll
  for (int mask = 1; mask < warp::lanes; mask *= 2) {
    const Key other = warp::shuffle_xor(largest, mask);
    largest = cmp(largest, other) ? other : largest;
  }
  const int warp_index = static_cast<int>(threadIdx.x) / warp::lanes;
  if (threadIdx.x % warp::lanes == 0) scratch[warp_index] = largest;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < THREADS / warp::lanes; ++w) {
    const Key other = scratch[w];
    largest = cmp(largest, other) ? other : largest;
  }
  __syncthreads();
  return largest;
}

template <int THREADS, int ITEMS, class Key, class Value, class Compare, class Buffers>
__device__ __forceinline__ void block_bitonic_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                                   Compare cmp, Buffers& shared) {
  static_assert(THREADS % warp::lanes == 0 && (THREADS & (THREADS - 1)) == 0,
                "THREADS must be a power of two and a multiple of 32");
  constexpr int span = warp::lanes * ITEMS;
  constexpr int n = THREADS * ITEMS;
  warp::bitonic_sort<ITEMS>(keys, values, cmp);
#pragma unroll 1
  for (int block_size = 2 * span; block_size <= n; block_size *= 2)
    block_merge_stage<THREADS>(keys, values, cmp, shared, block_size / 2, true);
}

// The real items of a ragged tile whose keys tie with its largest, kept aside in the part
// of the ragged storage that the plain network leaves unused, while the tile sorts with
// copies of the largest key as padding: padding and those items then fill the tile's end
// in some order, and putting them back there sorts the tile. Ties at the top are rare
// outside duplicate-heavy tiles; more than `capacity` of them take the flagged network.
template <class Key, class Value, int THREADS, int ITEMS>
struct largest_set_aside {
  using plain = block::bitonic_sort_storage<Key, Value, THREADS, ITEMS>;
  using ragged = block::bitonic_sort_storage<maybe<Key>, Value, THREADS, ITEMS>;
  static constexpr int warps = THREADS / warp::lanes;
  template <int CAPACITY>
  struct slots {
    int warp_counts[warps];
    Key keys[CAPACITY];
    Value values[CAPACITY];
  };
  static constexpr std::size_t offset = (sizeof(plain) + 15) / 16 * 16;
  static constexpr std::size_t room = sizeof(ragged) > offset ? sizeof(ragged) - offset : 0;
  static constexpr std::size_t item_bytes = sizeof(Key) + sizeof(Value);
  static constexpr std::size_t slack = 16;  // alignment of the values after the keys
  static constexpr std::size_t fitting =
      room > sizeof(slots<1>) + slack ? (room - sizeof(slots<1>) - slack) / item_bytes + 1 : 0;
  static constexpr int capacity = fitting < THREADS ? static_cast<int>(fitting) : THREADS;
  using storage = slots<(capacity > 0 ? capacity : 1)>;

  static __device__ __forceinline__ storage& in(ragged& shared) {
    static_assert(capacity == 0 || offset + sizeof(storage) <= sizeof(ragged), "fits the ragged storage");
    return *reinterpret_cast<storage*>(reinterpret_cast<unsigned char*>(&shared) + offset);
  }
};

// The whole block: sorts a ragged tile as largest_set_aside says; false (nothing changed)
// when more real items tie with the largest key than there is room for.
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ bool bitonic_sort_setting_aside_largest(
    Key (&keys)[ITEMS], Value (&values)[ITEMS], int valid_items, Compare cmp,
    block::bitonic_sort_storage<maybe<Key>, Value, THREADS, ITEMS>& storage) {
  using aside_t = largest_set_aside<Key, Value, THREADS, ITEMS>;
  static_assert(ITEMS <= 32, "a thread's ties are one bit per item of a 32-bit mask");
  if constexpr (aside_t::capacity == 0) {
    return false;
  } else {
    auto& plain = reinterpret_cast<typename aside_t::plain&>(storage);
    auto& aside = aside_t::in(storage);
    const Key largest = block_largest<THREADS>(keys, cmp, plain.keys);  // padding holds item 0
    const int lane = static_cast<int>(threadIdx.x) % warp::lanes;
    const int warp_index = static_cast<int>(threadIdx.x) / warp::lanes;
    unsigned ties = 0;  // bit r: item r is real and ties with the largest
    int mine = 0;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const bool tie = static_cast<int>(threadIdx.x) * ITEMS + r < valid_items && !cmp(keys[r], largest);
      ties |= static_cast<unsigned>(tie) << r;
      mine += tie ? 1 : 0;
    }
    const int inclusive = warp::inclusive_sum(mine);  // then the warps before: blocked order
    if (lane == warp::lanes - 1) aside.warp_counts[warp_index] = inclusive;
    __syncthreads();
    int slot = inclusive - mine, tied = 0;
#pragma unroll
    for (int w = 0; w < aside_t::warps; ++w) {
      const int count = aside.warp_counts[w];
      slot += w < warp_index ? count : 0;
      tied += count;
    }
    if (tied > aside_t::capacity) {
      __syncthreads();  // warp_counts read by all before the flagged network's storage use
      return false;
    }
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      if ((ties >> r) & 1u) {
        aside.keys[slot] = keys[r];
        aside.values[slot] = values[r];
        ++slot;
      }
      if (static_cast<int>(threadIdx.x) * ITEMS + r >= valid_items) keys[r] = largest;
    }
    __syncthreads();
    block_bitonic_sort<THREADS>(keys, values, cmp, plain);
    const int first_tie = valid_items - tied;
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int position = static_cast<int>(threadIdx.x) * ITEMS + r;
      if (position >= first_tie && position < valid_items) {
        keys[r] = aside.keys[position - first_tie];
        values[r] = aside.values[position - first_tie];
      }
    }
    __syncthreads();
    return true;
  }
}

}  // namespace detail

namespace block {

// Sorts the block's THREADS*ITEMS items.
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                             Compare cmp,
                                             bitonic_sort_storage<Key, Value, THREADS, ITEMS>& storage) {
  detail::block_bitonic_sort<THREADS>(keys, values, cmp, storage);
}

// Sorts the first `valid_items` keys of the tile (blocked positions) in the plain storage:
// keys alone whose ties are the same bits (detail::ties_are_identical), padded with copies
// of the largest key, which sort last, indistinguishable from it. The flags of the general
// ragged sort would double the registers and shuffles of every step (8-byte keys: 16-byte
// items) and its shared memory.
template <int THREADS, int ITEMS, class Key, class Compare>
__device__ __forceinline__ void bitonic_sort_identical_ties(
    Key (&keys)[ITEMS], int valid_items, Compare cmp,
    bitonic_sort_storage<Key, detail::no_value, THREADS, ITEMS>& storage) {
  static_assert(detail::ties_are_identical<Key, Compare>::value,
                "padding with copies of a key is only invisible where ties are identical");
  detail::no_value values[ITEMS];
  if (valid_items < THREADS * ITEMS) {
    const Key largest = detail::block_largest<THREADS>(keys, cmp, storage.keys);
#pragma unroll
    for (int r = 0; r < ITEMS; ++r)
      if (static_cast<int>(threadIdx.x) * ITEMS + r >= valid_items) keys[r] = largest;
  }
  bitonic_sort<THREADS>(keys, values, cmp, storage);
}

// Sorts the first `valid_items` items of the tile (blocked positions); the rest are padding.
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                             int valid_items, Compare cmp,
                                             ragged_bitonic_sort_storage<Key, Value, THREADS, ITEMS>& storage) {
  // A full tile needs no flags; the ragged storage is larger than the plain one.
  auto& plain = reinterpret_cast<bitonic_sort_storage<Key, Value, THREADS, ITEMS>&>(storage);
  if (valid_items >= THREADS * ITEMS) {
    bitonic_sort<THREADS>(keys, values, cmp, plain);
  } else if constexpr (!detail::has_values<Value> && detail::ties_are_identical<Key, Compare>::value) {
    bitonic_sort_identical_ties<THREADS>(keys, valid_items, cmp, plain);
  } else if (!detail::bitonic_sort_setting_aside_largest<THREADS>(keys, values, valid_items, cmp,
                                                                 storage)) {
    detail::maybe<Key> tagged[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      tagged[r].key = keys[r];
      tagged[r].valid = static_cast<int>(threadIdx.x) * ITEMS + r < valid_items;
    }
    detail::block_bitonic_sort<THREADS>(tagged, values, detail::valid_first<Compare>{cmp}, storage);
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) keys[r] = tagged[r].key;
  }
}

}  // namespace block
}  // namespace gpusort
