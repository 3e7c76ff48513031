// gpusort/detail/total_order_words.cuh — float and double keys under total_less sorted as
// their order words: each key turned in place into the unsigned integer of its bits whose
// natural order is totalOrder (detail::total_order_key), the words sorted under plain less,
// and turned back.
//
// Why: under total_less every comparison first maps both keys to those words (a few integer
// instructions each) and the sorting networks compare billions of times; the words compare
// in one instruction, and their ties are identical bits, so every policy takes its cheapest
// paths (keys whose ties cannot be seen). Two passes over the keys pay for that many times
// over. Measured (bench/RESULTS.md run 38, H100, against comparing under total_less): f32
// keys at 2^24 merge 31 %, warpsort 50 %, randomized_sample 35 %, deterministic_sample 56 %
// faster (2^16: 15-41 %); f64 keys 20-48 %; f32:u32 pairs 3-22 %, but policy::merge's pairs
// (whose networks already compare order words, detail::rank_codec) +4 % at 2^16, +2 % at 2^20.
// The mapping is a bijection on bit patterns (NaN payloads, -0 and +0 kept), so the sorted
// words decode to the keys sorted under total_less; ties are the same bits, so a stable
// policy stays stable. The keys are decoded whatever the sort returns: a sort that fails
// leaves a permutation of the words, which decodes to a permutation of the input.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/algorithm.cuh>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusort {
namespace detail {

template <class Key, class Compare>
constexpr bool sorts_as_total_order_words =
    std::is_same<Compare, total_less>::value &&
    (std::is_same<Key, float>::value || std::is_same<Key, double>::value);

// From this many keys: at 2^12-2^14 the two passes' launches cost what the comparisons save
// (within 2 % either way), and policy::merge promises one launch up to 2^14 items.
constexpr std::int64_t total_order_words_from = std::int64_t(1) << 16;

// ENCODE: keys to words in place; else words back to keys.
template <class Key, bool ENCODE>
__global__ void total_order_words_kernel(typename float_bits<Key>::type* words, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if constexpr (ENCODE) {
      Key key;
      std::memcpy(&key, &words[i], sizeof(Key));
      words[i] = total_order_key(key);
    } else {
      const Key key = from_total_order_key<Key>(words[i]);
      std::memcpy(&words[i], &key, sizeof(Key));
    }
  }
}

template <class Key, bool ENCODE>
cudaError_t launch_total_order_words(typename float_bits<Key>::type* words, std::int64_t n,
                                     cudaStream_t stream) {
  constexpr int threads = 256;
  // Four items a thread where n allows, so that the grid stays within its x limit.
  const std::int64_t blocks = (n + 4 * threads - 1) / (4 * threads);
  constexpr std::int64_t max_blocks = std::int64_t(1) << 20;
  total_order_words_kernel<Key, ENCODE>
      <<<static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks), threads, 0, stream>>>(words, n);
  return cudaPeekAtLastError();
}

// algorithm<Policy>::sort of keys[0, n) (values alongside) under total_less, as words.
template <class Policy, class Key, class Value>
cudaError_t sort_total_order_words(const Policy& policy, void* temp, Key* keys, Value* values,
                                   std::int64_t n, cudaStream_t stream) {
  using word = typename float_bits<Key>::type;
  word* words = reinterpret_cast<word*>(keys);
  if (cudaError_t e = launch_total_order_words<Key, true>(words, n, stream)) return e;
  const cudaError_t sorted = algorithm<Policy>::sort(policy, temp, words, values, n, less{}, stream);
  const cudaError_t decoded = launch_total_order_words<Key, false>(words, n, stream);
  return sorted != cudaSuccess ? sorted : decoded;
}

}  // namespace detail
}  // namespace gpusort
