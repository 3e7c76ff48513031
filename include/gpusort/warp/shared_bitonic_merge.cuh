// gpusort/warp/shared_bitonic_merge.cuh — a warp runs bitonic merges over ITEMS items held in
// its own shared memory, with no shuffles (the merge network of warp::merge_runs' buffer and
// of warpsort's step-1 runs, Ye et al., GPU-Warpsort).
//
// warp::bitonic_merge keeps the items in registers, so 5 of its network steps cross lanes: a
// shuffle per item and a lane-dependent select per compare-exchange. A buffer that passes
// through shared memory anyway can instead be re-read in another layout: in each "window" a
// lane loads M items whose indices differ only in log2(M) index bits, runs those strides of
// the network in registers (thread::half_cleaner, plain compare-exchanges) and stores them
// back. A merge of blocks of 2^BITS items takes ceil(BITS / log2 M) windows, from the highest
// index bits down; window j runs the strides of bits [j log2 M, min((j+1) log2 M, BITS)), and a
// top window narrower than log2 M fills its registers with the bits just below (independent
// items in this window). The bits outside a window's registers go, lowest first, to the lane
// (5 bits) and to a loop over ITEMS / (32 M) groups.
//
// Bank conflicts: the buffer stores each 4-byte word of an item in a plane of its own, so
// every access is a warp touching one word per lane, whatever the item's size; slot() XORs
// shifted copies of an item's row (i / 32) into its low five bits. The swizzle is linear, so a
// lane's slots in a window are one lane-dependent base XOR a constant per register, and the
// 32 lanes of every window of every merge fall in 32 distinct banks; the shifts per log2 M are
// the smallest sets an exhaustive search found with that property
// (tests/host/test_warp_windows.cu checks every window of every merge for each M).
//
// Direction: a merge of blocks smaller than the buffer sorts block b ascending where b is
// even and descending where it is odd, so that neighbouring blocks form the bitonic
// sequence of the next merge. A descending block's lanes read their registers in reverse
// order (the same network then sorts it descending): one XOR folded into the base, no
// per-comparison select.
//
// Preconditions: M a power of two, 2 <= M <= 32; ITEMS a power-of-two multiple of 32 M; all 32
// lanes (all WARPS warps) call together; every block of 2^BITS items holds a bitonic sequence
// under cmp; the caller orders its own earlier stores before the call and its later loads
// after it (__syncwarp; __syncthreads for WARPS > 1). Cost: per lane, windows x ITEMS / (32
// WARPS) loads and as many stores, and BITS x ITEMS / (64 WARPS) compare-exchanges, for the
// whole buffer. Not stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/thread/sorting_network.cuh>

#include <cuda_pipeline.h>

#include <cstring>

namespace gpusort {
namespace detail {
__host__ __device__ constexpr int log2_exact(int x) { return x < 2 ? 0 : 1 + log2_exact(x / 2); }
// Bit s set: the windows' swizzle XORs an item's row shifted left by s into its low five bits.
__host__ __device__ constexpr unsigned window_swizzle_shifts(int register_bits) {
  return register_bits == 1 ? 0x1fu : register_bits == 2 ? 0x0bu : register_bits == 3 ? 0x07u
                                     : register_bits == 4 ? 0x03u : 0x01u;
}
}  // namespace detail

namespace warp {

// Which items a lane holds in each window. __host__ so that a host test can check the layouts.
template <int M, int ITEMS = 32 * M>
struct bitonic_windows {
  static_assert(M >= 2 && M <= 32 && (M & (M - 1)) == 0, "M: a power of two in [2, 32]");
  static_assert(ITEMS >= 32 * M && (ITEMS & (ITEMS - 1)) == 0, "ITEMS: a power-of-two multiple of 32*M");
  static constexpr int items = ITEMS;
  static constexpr int register_bits = detail::log2_exact(M);
  static constexpr int index_bits = detail::log2_exact(ITEMS);
  static constexpr int groups = ITEMS / (32 * M);

  // A merge of blocks of 2^bits items: windows count(bits) - 1 down to 0.
  __host__ __device__ static constexpr int count(int bits) {
    return (bits + register_bits - 1) / register_bits;
  }
  // Window j runs the strides of index bits [fresh_low(j), fresh_top(j, bits)).
  __host__ __device__ static constexpr int fresh_low(int j) { return j * register_bits; }
  __host__ __device__ static constexpr int fresh_top(int j, int bits) {
    return fresh_low(j) + register_bits < bits ? fresh_low(j) + register_bits : bits;
  }
  // Its registers hold index bits [register_low, register_low + register_bits).
  __host__ __device__ static constexpr int register_low(int j, int bits) {
    return fresh_top(j, bits) - register_bits;
  }
  // The index bits of register r: its low bits are the fresh ones, so that half_cleaner's
  // strides 2^(fresh-1) .. 1 are the window's.
  __host__ __device__ static constexpr int register_part(int j, int bits, int r) {
    const int fresh = fresh_top(j, bits) - fresh_low(j);
    return ((r & ((1 << fresh) - 1)) << fresh_low(j)) | ((r >> fresh) << register_low(j, bits));
  }
  // The index bits of (lane, group): the bits outside the registers, in ascending order.
  __host__ __device__ static constexpr int outer_part(int j, int bits, int lane, int group) {
    const int v = lane | group << 5;
    const int low = register_low(j, bits);
    return (v & ((1 << low) - 1)) | ((v >> low) << (low + register_bits));
  }
  // Where the buffer keeps item i.
  __host__ __device__ static constexpr int slot(int i) {
    int spread = 0;
    for (int shift = 0; shift < 5; ++shift)
      if (detail::window_swizzle_shifts(register_bits) >> shift & 1u) spread ^= (i >> 5) << shift;
    return i ^ (spread & 31);
  }
};

// The 4-byte words (planes) a buffer keeps per item.
template <class T>
constexpr int bitonic_buffer_words = detail::has_values<T> ? static_cast<int>((sizeof(T) + 3) / 4) : 0;

// A warp's buffer of ITEMS items, by item index (the swizzle is internal), one plane per
// 4-byte word of an item.
template <class T, int M, int ITEMS = 32 * M>
struct bitonic_buffer {
  using windows = bitonic_windows<M, ITEMS>;
  static constexpr int words = bitonic_buffer_words<T>;
  unsigned int planes[words][ITEMS];

  __device__ __forceinline__ T load_slot(int s) const {
    unsigned int w[words];
#pragma unroll
    for (int k = 0; k < words; ++k) w[k] = planes[k][s];
    T item;
    std::memcpy(&item, w, sizeof(T));
    return item;
  }
  __device__ __forceinline__ void store_slot(int s, const T& item) {
    unsigned int w[words] = {};
    std::memcpy(w, &item, sizeof(T));
#pragma unroll
    for (int k = 0; k < words; ++k) planes[k][s] = w[k];
  }
  __device__ __forceinline__ T load(int i) const { return load_slot(windows::slot(i)); }
  __device__ __forceinline__ void store(int i, const T& item) { store_slot(windows::slot(i), item); }
  __device__ __forceinline__ T operator[](int i) const { return load(i); }

  // Whether stage_slot can copy a T: cp.async moves whole, aligned 4-byte words.
  static constexpr bool stageable = sizeof(T) % 4 == 0 && alignof(T) >= 4;
  // Starts copying *from into slot s by cp.async, without holding it in registers; it is
  // there for this lane after __pipeline_commit and __pipeline_wait_prior.
  __device__ __forceinline__ void stage_slot(int s, const T* from) {
    static_assert(stageable, "cp.async copies whole 4-byte words");
    const char* bytes = reinterpret_cast<const char*>(from);
#pragma unroll
    for (int k = 0; k < words; ++k) __pipeline_memcpy_async(&planes[k][s], bytes + 4 * k, 4);
  }
};

template <int M, int ITEMS>
struct bitonic_buffer<detail::no_value, M, ITEMS> {
  __device__ __forceinline__ detail::no_value load_slot(int) const { return {}; }
  __device__ __forceinline__ void store_slot(int, detail::no_value) {}
  __device__ __forceinline__ detail::no_value load(int) const { return {}; }
  __device__ __forceinline__ void store(int, detail::no_value) {}
  static constexpr bool stageable = true;
  __device__ __forceinline__ void stage_slot(int, const detail::no_value*) {}
};

// Sorts every block of 2^BITS items (values moving with their keys): the whole buffer
// ascending under cmp by default, else block b ascending for even b, descending for odd b.
// The groups [first_group, first_group + group_count) of 32 M items are merged: a slice of
// the buffer (whole blocks of it) that one warp owns, or, with WARPS > 1, the WARPS warps of
// the block (all calling together, warp w taking groups w, w + WARPS, ...) merge them with
// __syncthreads between windows instead of __syncwarp.
template <int M, int ITEMS, int BITS = detail::log2_exact(ITEMS), int WARPS = 1, class Key,
          class Value, class Compare>
__device__ __forceinline__ void shared_bitonic_merge(bitonic_buffer<Key, M, ITEMS>& keys,
                                                     bitonic_buffer<Value, M, ITEMS>& values,
                                                     Compare cmp, int first_group = 0,
                                                     int group_count = bitonic_windows<M, ITEMS>::groups) {
  using windows = bitonic_windows<M, ITEMS>;
  constexpr bool whole = BITS == windows::index_bits;
  // A block's direction bit must lie outside every window's lanes (which take index bits
  // below register_bits + 5), so that it is one per group.
  static_assert(whole || (BITS >= windows::register_bits + 5 && BITS < windows::index_bits),
                "blocks of at least 32*M items, smaller than the buffer");
  const int lane = threadIdx.x % 32;
  const int warp = WARPS > 1 ? static_cast<int>(threadIdx.x / 32 % WARPS) : 0;
#pragma unroll
  for (int j = windows::count(BITS) - 1; j >= 0; --j) {
    if constexpr (WARPS > 1) __syncthreads();
    else __syncwarp();
#pragma unroll 1
    for (int g = first_group + warp; g < first_group + group_count; g += WARPS) {
      const int outer = windows::outer_part(j, BITS, lane, g);
      const bool descending = !whole && (outer >> BITS & 1);
      // slot() is linear over XOR and the parts have no bit in common.
      const int base =
          windows::slot(outer ^ (descending ? windows::register_part(j, BITS, M - 1) : 0));
      Key k[M];
      Value v[M];
#pragma unroll
      for (int r = 0; r < M; ++r) {
        const int s = base ^ windows::slot(windows::register_part(j, BITS, r));
        k[r] = keys.load_slot(s);
        v[r] = values.load_slot(s);
      }
      thread::half_cleaner(k, v, cmp, 1 << (windows::fresh_top(j, BITS) - windows::fresh_low(j) - 1));
#pragma unroll
      for (int r = 0; r < M; ++r) {
        const int s = base ^ windows::slot(windows::register_part(j, BITS, r));
        keys.store_slot(s, k[r]);
        values.store_slot(s, v[r]);
      }
    }
  }
}

}  // namespace warp
}  // namespace gpusort
