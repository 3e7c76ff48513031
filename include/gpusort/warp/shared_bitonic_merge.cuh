// gpusort/warp/shared_bitonic_merge.cuh — a warp sorts a bitonic sequence of 32*M items
// that lies in its own shared memory, with no shuffles (the merge network of
// warp::merge_runs' buffer, Ye et al., GPU-Warpsort step 2).
//
// warp::bitonic_merge keeps the items in registers, so 5 of its log2(32*M) network steps
// cross lanes: a shuffle per item and a lane-dependent select per compare-exchange. A buffer
// that passes through shared memory anyway (merge_runs reverses its fetches and stages its
// stores there) can instead be re-read in another layout: in each "window" a lane loads the
// M items whose indices differ only in log2(M) index bits, runs those strides of the network
// in registers (thread::half_cleaner, plain compare-exchanges), and stores them back. Windows
// go from the highest index bits down; ceil((5 + log2 M) / log2 M) of them cover the
// network (M = 8: bits 7-5, 4-2, then 1-0, the window filled up with bit 7).
//
// Bank conflicts: the buffer stores each 4-byte word of an item in a plane of its own, so
// every access is a warp touching one word per lane, whatever the item's size; slot() XORs an
// item's row (i / 32) into every log2(M)-bit field of its low five bits. The swizzle is
// linear, so a lane's slots in a window are one lane-dependent base XOR a constant per
// register, and the 32 lanes of every window fall in 32 distinct banks
// (tests/host/test_warp_windows.cu checks it for every M).
//
// Preconditions: M a power of two, 2 <= M <= 16; all 32 lanes call together; the buffer holds
// a bitonic sequence under cmp (ascending then descending, or descending then ascending);
// the caller orders its own earlier stores before the call and its later loads after it
// (__syncwarp). Cost: per lane, windows x (M loads + M stores) and log2(32*M) x M / 2
// compare-exchanges. Not stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/thread/sorting_network.cuh>

#include <cstring>

namespace gpusort {
namespace warp {

// Which items a lane holds in each window of the network. __host__ so that a host test can
// check the layouts.
template <int M>
struct bitonic_windows {
  static_assert(M >= 2 && M <= 16 && (M & (M - 1)) == 0, "M: a power of two in [2, 16]");
  static constexpr int items = 32 * M;
  static constexpr int register_bits = M == 2 ? 1 : M == 4 ? 2 : M == 8 ? 3 : 4;
  static constexpr int index_bits = 5 + register_bits;
  static constexpr int count = (index_bits + register_bits - 1) / register_bits;

  // Window w merges the index bits [low(w), top(w)); a last window narrower than
  // register_bits fills its registers' high bits with the top index bits (already merged).
  __host__ __device__ static constexpr int top(int w) { return index_bits - w * register_bits; }
  __host__ __device__ static constexpr int low(int w) {
    return top(w) > register_bits ? top(w) - register_bits : 0;
  }
  // Item held by `lane` in register r of window w: lane_part | register_part.
  __host__ __device__ static constexpr int lane_part(int w, int lane) {
    return ((lane >> low(w)) << top(w)) | (lane & ((1 << low(w)) - 1));
  }
  __host__ __device__ static constexpr int register_part(int w, int r) {
    const int fresh = top(w) - low(w);
    return ((r & ((1 << fresh) - 1)) << low(w)) |
           ((r >> fresh) << (index_bits - (register_bits - fresh)));
  }

  // Where the buffer keeps item i.
  __host__ __device__ static constexpr int slot(int i) {
    int spread = 0;
    for (int shift = 0; shift < 5; shift += register_bits) spread |= (i >> 5) << shift;
    return i ^ (spread & 31);
  }
};

// A warp's buffer of 32*M items, by item index (the swizzle is internal), one plane per
// 4-byte word of an item.
template <class T, int M>
struct bitonic_buffer {
  static constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned int planes[words][32 * M];

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
  __device__ __forceinline__ T load(int i) const { return load_slot(bitonic_windows<M>::slot(i)); }
  __device__ __forceinline__ void store(int i, const T& item) {
    store_slot(bitonic_windows<M>::slot(i), item);
  }
};

template <int M>
struct bitonic_buffer<detail::no_value, M> {
  __device__ __forceinline__ detail::no_value load_slot(int) const { return {}; }
  __device__ __forceinline__ void store_slot(int, detail::no_value) {}
  __device__ __forceinline__ detail::no_value load(int) const { return {}; }
  __device__ __forceinline__ void store(int, detail::no_value) {}
};

// Sorts the bitonic sequence in keys (values moving with their keys) ascending under cmp.
template <int M, class Key, class Value, class Compare>
__device__ __forceinline__ void shared_bitonic_merge(bitonic_buffer<Key, M>& keys,
                                                     bitonic_buffer<Value, M>& values,
                                                     Compare cmp) {
  using windows = bitonic_windows<M>;
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int w = 0; w < windows::count; ++w) {
    // slot() is linear over XOR and the two parts have no bit in common.
    const int base = windows::slot(windows::lane_part(w, lane));
    Key k[M];
    Value v[M];
    __syncwarp();
#pragma unroll
    for (int r = 0; r < M; ++r) {
      const int s = base ^ windows::slot(windows::register_part(w, r));
      k[r] = keys.load_slot(s);
      v[r] = values.load_slot(s);
    }
    thread::half_cleaner(k, v, cmp, 1 << (windows::top(w) - windows::low(w) - 1));
#pragma unroll
    for (int r = 0; r < M; ++r) {
      const int s = base ^ windows::slot(windows::register_part(w, r));
      keys.store_slot(s, k[r]);
      values.store_slot(s, v[r]);
    }
  }
}

}  // namespace warp
}  // namespace gpusort
