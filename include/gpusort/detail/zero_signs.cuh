// gpusort/detail/zero_signs.cuh — the input order of -0 and +0 kept through a stable sort of
// float, __half or __nv_bfloat16 keys as their order words (detail/total_order_words.cuh).
//
// Why: under less and greater -0 and +0 tie, so a stable sort keeps them in input order, but
// their words differ and put every -0 before every +0 (greater: after). They are the only
// keys that tie with different bits (NaN aside, which leaves those comparators no strict weak
// ordering), so the words sort everything else as the comparator does, and the zeros, which
// end up as one run, only need their signs in input order written back over that run.
// Recorded before the sort: one pass counts each tile's zeros and the keys that sort before
// every zero, one scan (device::bucket_offsets, those two counts as two buckets) gives each
// tile's first zero its output position, and a second pass, which also turns the keys into
// their words, sets a bit at the output position of every -0. After the sort the run is
// rewritten from those bits. One read of the keys more than the words take, and n bits of
// temp storage; the zero run is the only part of the output written again.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/device/bucket_offsets.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpusort {
namespace detail {

constexpr int zero_signs_threads = 256;
constexpr int zero_signs_groups_per_warp = 16;  // of 32 keys, lane l holding key 32 g + l
constexpr int zero_signs_tile = zero_signs_threads * zero_signs_groups_per_warp;

// What one key tells: whether it is a zero, a -0, or sorts before every zero (its word XOR
// flip below +0's). An absent key (past n) tells nothing.
struct zero_class {
  bool zero;
  bool negative_zero;
  bool before;
};

// A key's order word (total_order_key) from the key's bits.
template <class Key>
__device__ __forceinline__ typename float_bits<Key>::type order_word_of(typename float_bits<Key>::type bits) {
  Key key;
  std::memcpy(&key, &bits, sizeof(Key));
  return total_order_key(key);
}

// +0's word is the sign bit alone, -0's the word just below it.
template <class Word>
__device__ __forceinline__ zero_class classify_zero(Word word, bool present, Word flip) {
  constexpr Word positive_zero = Word(Word(1) << (8 * sizeof(Word) - 1));
  constexpr Word negative_zero = Word(positive_zero - 1);
  const bool zero = present && (word == positive_zero || word == negative_zero);
  return {zero, present && word == negative_zero,
          present && !zero && Word(word ^ flip) < Word(positive_zero ^ flip)};
}

// This thread's keys of its block's tile: warp w's zero_signs_groups_per_warp groups of 32, lane
// l holding key first + 32 g (first returned), all loads issued before any is used, so that
// they are in flight together.
template <class Word>
__device__ __forceinline__ std::int64_t load_zero_groups(const Word* keys, std::int64_t n,
                                                         Word (&bits)[zero_signs_groups_per_warp]) {
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * zero_signs_tile +
                             threadIdx.x / 32 * zero_signs_groups_per_warp * 32 + threadIdx.x % 32;
#pragma unroll
  for (int g = 0; g < zero_signs_groups_per_warp; ++g)
    bits[g] = first + 32 * g < n ? keys[first + 32 * g] : Word(0);
  return first;
}

// counts[2 t] = keys of tile t that sort before every zero, counts[2 t + 1] = its zeros.
template <class Key>
__global__ void __launch_bounds__(zero_signs_threads)
    count_zero_signs_kernel(const typename float_bits<Key>::type* keys, std::int64_t n,
                            typename float_bits<Key>::type flip, std::int64_t* counts) {
  using Word = typename float_bits<Key>::type;
  __shared__ unsigned warp_counts[2][zero_signs_threads / 32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  Word bits[zero_signs_groups_per_warp];
  const std::int64_t first = load_zero_groups(keys, n, bits);
  unsigned before = 0, zeros = 0;
#pragma unroll
  for (int g = 0; g < zero_signs_groups_per_warp; ++g) {
    const zero_class c = classify_zero(order_word_of<Key>(bits[g]), first + 32 * g < n, flip);
    before += c.before;
    zeros += c.zero;
  }
  before = __reduce_add_sync(~0u, before);
  zeros = __reduce_add_sync(~0u, zeros);
  if (lane == 0) {
    warp_counts[0][warp] = before;
    warp_counts[1][warp] = zeros;
  }
  __syncthreads();
  if (threadIdx.x < 2) {
    std::int64_t sum = 0;
    for (int w = 0; w < zero_signs_threads / 32; ++w) sum += warp_counts[threadIdx.x][w];
    counts[2 * static_cast<std::int64_t>(blockIdx.x) + threadIdx.x] = sum;
  }
}

// Turns keys into their words XOR flip in place (as total_order_words_kernel does) and sets bit
// p of negative_zero_at for every -0 that a stable sort of the words puts at output position p:
// tile t's zeros in input order from offsets[2 t + 1] on. One read of the keys serves both.
template <class Key>
__global__ void __launch_bounds__(zero_signs_threads)
    record_zero_signs_kernel(typename float_bits<Key>::type* keys, std::int64_t n,
                             typename float_bits<Key>::type flip, const std::int64_t* offsets,
                             unsigned* negative_zero_at) {
  using Word = typename float_bits<Key>::type;
  __shared__ unsigned warp_zeros[zero_signs_threads / 32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  Word bits[zero_signs_groups_per_warp];
  const std::int64_t first = load_zero_groups(keys, n, bits);
  unsigned group_zeros[zero_signs_groups_per_warp], group_negative_zeros[zero_signs_groups_per_warp];
  unsigned zeros = 0;
#pragma unroll
  for (int g = 0; g < zero_signs_groups_per_warp; ++g) {
    const bool present = first + 32 * g < n;
    const Word word = order_word_of<Key>(bits[g]);
    const zero_class c = classify_zero(word, present, flip);
    group_zeros[g] = __ballot_sync(~0u, c.zero);
    group_negative_zeros[g] = __ballot_sync(~0u, c.negative_zero);
    zeros += __popc(group_zeros[g]);
    if (present) keys[first + 32 * g] = Word(word ^ flip);
  }
  if (lane == 0) warp_zeros[warp] = zeros;
  __syncthreads();
  std::int64_t position = offsets[2 * static_cast<std::int64_t>(blockIdx.x) + 1];
  for (int w = 0; w < warp; ++w) position += warp_zeros[w];
#pragma unroll
  for (int g = 0; g < zero_signs_groups_per_warp; ++g) {
    if (group_negative_zeros[g]) {
      // Bit r of signs: whether the group's r-th zero is -0.
      const unsigned rank = __popc(group_zeros[g] & ((1u << lane) - 1));
      const unsigned signs = __reduce_or_sync(~0u, ((group_negative_zeros[g] >> lane) & 1) << rank);
      const int shift = static_cast<int>(position % 32);
      if (lane == 0) atomicOr(&negative_zero_at[position / 32], signs << shift);
      if (lane == 1 && shift != 0 && (signs >> (32 - shift)) != 0)
        atomicOr(&negative_zero_at[position / 32 + 1], signs >> (32 - shift));
    }
    position += __popc(group_zeros[g]);
  }
}

// After the sort: the zero run, from the keys before every zero (offsets[1]) to the end of
// the last tile's zeros, rewritten with the recorded signs.
template <class Word>
__global__ void restore_zero_signs_kernel(Word* keys, const std::int64_t* counts, const std::int64_t* offsets,
                                          std::int64_t tiles, const unsigned* negative_zero_at) {
  constexpr Word sign = Word(Word(1) << (8 * sizeof(Word) - 1));
  const std::int64_t begin = offsets[1];
  const std::int64_t end = offsets[2 * (tiles - 1) + 1] + counts[2 * (tiles - 1) + 1];
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = begin + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < end;
       p += stride)
    keys[p] = ((negative_zero_at[p / 32] >> (p % 32)) & 1) ? sign : Word(0);
}

// Where the record lives in its temp storage: counts, offsets, the sign bits and the scan's
// own storage.
struct zero_signs_layout {
  std::int64_t tiles;
  std::size_t scan_bytes = 0;
  temp_layout<4> layout;

  static std::size_t scan_bytes_for(std::int64_t tiles) {
    std::size_t bytes = 0;
    device::bucket_offsets<std::int64_t>(nullptr, bytes, nullptr, nullptr, static_cast<int>(tiles), 2);
    return bytes;
  }
  explicit zero_signs_layout(std::int64_t n)
      : tiles((n + zero_signs_tile - 1) / zero_signs_tile),
        scan_bytes(scan_bytes_for(tiles)),
        layout({static_cast<std::size_t>(2 * tiles) * sizeof(std::int64_t),
                static_cast<std::size_t>(2 * tiles) * sizeof(std::int64_t),
                static_cast<std::size_t>((n + 31) / 32) * sizeof(unsigned), scan_bytes}) {}
  std::int64_t* counts(void* temp) const { return layout.get<std::int64_t>(temp, 0); }
  std::int64_t* offsets(void* temp) const { return layout.get<std::int64_t>(temp, 1); }
  unsigned* negative_zero_at(void* temp) const { return layout.get<unsigned>(temp, 2); }
  void* scan_temp(void* temp) const { return layout.get<char>(temp, 3); }
};

inline std::size_t zero_signs_temp_bytes(std::int64_t n) { return zero_signs_layout(n).layout.total; }

// Turns keys[0, n) (n >= 1) into their words XOR flip, in place, and records where a stable
// sort of the words puts each -0. temp: zero_signs_temp_bytes(n), aligned; kept until
// restore_zero_signs. An error leaves the keys as they were.
template <class Key>
cudaError_t record_zero_signs(void* temp, Key* keys, std::int64_t n, typename float_bits<Key>::type flip,
                              cudaStream_t stream) {
  using Word = typename float_bits<Key>::type;
  const zero_signs_layout at(n);
  Word* words = reinterpret_cast<Word*>(keys);
  if (cudaError_t e = cudaMemsetAsync(at.negative_zero_at(temp), 0, static_cast<std::size_t>((n + 31) / 32) * sizeof(unsigned), stream))
    return e;
  count_zero_signs_kernel<Key><<<static_cast<unsigned>(at.tiles), zero_signs_threads, 0, stream>>>(
      words, n, flip, at.counts(temp));
  if (cudaError_t e = cudaPeekAtLastError()) return e;
  std::size_t scan_bytes = at.scan_bytes;
  if (cudaError_t e = device::bucket_offsets(at.scan_temp(temp), scan_bytes, at.counts(temp), at.offsets(temp),
                                             static_cast<int>(at.tiles), 2, stream))
    return e;
  record_zero_signs_kernel<Key><<<static_cast<unsigned>(at.tiles), zero_signs_threads, 0, stream>>>(
      words, n, flip, at.offsets(temp), at.negative_zero_at(temp));
  return cudaPeekAtLastError();
}

// Rewrites the zero run of keys[0, n), sorted as record_zero_signs's words were, with the
// signs it recorded in temp.
template <class Key>
cudaError_t restore_zero_signs(void* temp, Key* keys, std::int64_t n, cudaStream_t stream) {
  using Word = typename float_bits<Key>::type;
  const zero_signs_layout at(n);
  constexpr int threads = 256;
  // A grid of up to 1024 blocks strides over the run, whose length only the device knows.
  const std::int64_t blocks = (n + threads - 1) / threads;
  restore_zero_signs_kernel<<<static_cast<unsigned>(blocks < 1024 ? blocks : 1024), threads, 0, stream>>>(
      reinterpret_cast<Word*>(keys), at.counts(temp), at.offsets(temp), at.tiles, at.negative_zero_at(temp));
  return cudaPeekAtLastError();
}

}  // namespace detail
}  // namespace gpusort
