// gpusort/detail/total_order_words.cuh — floating-point keys (float, double, __half,
// __nv_bfloat16) sorted as their order words:
// each key turned in place into the unsigned integer of its bits whose natural order is
// totalOrder (detail::total_order_key; all bits flipped under greater), the words sorted
// under plain less, and turned back.
//
// Why: under total_less every comparison first maps both keys to those words (a few integer
// instructions each), under any comparator equal floats need not be the same bits (-0 and
// +0, NaN payloads), so the policies take their paths for ties that can be seen, and the
// sorting networks compare billions of times; the words compare in one instruction, and their
// ties are identical bits, so every policy takes its cheapest paths. Two passes over the keys
// pay for that many times over.
// Measured (bench/RESULTS.md run 38, H100, against comparing under total_less): f32 keys at
// 2^24 merge 31 %, warpsort 50 %, randomized_sample 35 %, deterministic_sample 56 % faster
// (2^16: 15-41 %); f64 keys 20-48 %; f32:u32 pairs 3-22 %, but policy::merge's pairs (whose
// networks already compare order words, detail::rank_codec) +4 % at 2^16, +2 % at 2^20.
// __half and __nv_bfloat16 (run 53, H200): f16 at 2^24 merge 2.0x, warpsort 3.3x,
// randomized_sample 2.3x, deterministic_sample 2.9x faster; f16:u32 pairs 7-37 %.
// Under less and greater only float, __half and __nv_bfloat16 keys alone: the words put -0
// before +0 (greater: after), which those comparators hold equivalent, so the result is sorted
// under them, and a stable policy gets the zeros' input order back from
// detail/zero_signs.cuh. There a float compares in one instruction too, and the words pay only
// where they let a policy take a cheaper path than for keys whose ties are not identical:
// measured (run 39, H100, against comparing under less) f32 keys at 2^24 warpsort 4 %,
// randomized_sample 22 %, deterministic_sample 18 % faster (2^26: 7 / 23 / 26 %; f16 at 2^24
// 18 / 27 / 17 %, run 53, H200); but double keys 5-9 % and f32:u32 or f64:u32 pairs 6-15 %
// slower, whose paths the words do not change. policy::merge, which otherwise ranks keys whose
// ties are not identical, sorts f32 keys under less 32-41 % faster from 2^22 as words with the
// zeros' signs recorded, __half 30-42 % (run 83, H200).
// The mapping is a bijection on bit patterns (NaN payloads, -0 and +0 kept), so the sorted
// words decode to a permutation of the keys sorted under the comparator; under total_less
// ties are the same bits, so a stable policy stays stable. Under less and greater a NaN
// (which leaves them no strict weak ordering) goes to one end, by its sign. The keys are
// decoded whatever the sort returns: a sort that fails leaves a permutation of the words,
// which decodes to a permutation of the input.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/detail/zero_signs.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusort {
namespace detail {

template <class Key>
constexpr bool has_total_order_words = is_narrow_float<Key> || std::is_same<Key, double>::value;

// Whether Policy sorts Key (Value alongside) under Compare as order words (from
// total_order_words_from keys): floating-point keys under total_less always; float, __half
// and __nv_bfloat16 keys alone under less or greater.
template <class Policy, class Key, class Value, class Compare>
constexpr bool sorts_as_total_order_words =
    has_total_order_words<Key> &&
    (std::is_same<Compare, total_less>::value ||
     (is_narrow_float<Key> && !has_values<Value> &&
      (std::is_same<Compare, less>::value || std::is_same<Compare, greater>::value)));

// Whether such a sort records the zeros' signs (detail/zero_signs.cuh): a stable policy under
// a comparator that ties -0 with +0.
template <class Policy, class Compare>
constexpr bool keeps_zero_order = algorithm<Policy>::stable && !std::is_same<Compare, total_less>::value;

// Temp storage of sort_total_order_words of n keys under Compare: the zeros' record after the
// policy's part where the sort keeps the zeros' order.
template <class Policy, class Key, class Value, class Compare>
std::size_t total_order_words_temp_bytes(const Policy& policy, std::int64_t n) {
  using word = typename float_bits<Key>::type;
  const std::size_t words = algorithm<Policy>::template temp_storage_bytes<word, Value>(policy, n);
  if constexpr (keeps_zero_order<Policy, Compare>) return temp_aligned_bytes(words) + zero_signs_temp_bytes(n);
  return words;
}

// From this many keys: at 2^12-2^14 the two passes' launches cost what the comparisons save
// (within 2 % either way), and policy::merge promises one launch up to 2^14 items.
constexpr std::int64_t total_order_words_from = std::int64_t(1) << 16;

// From this many keys a sort that keeps the zeros' order takes the words: their record and
// restoring cost a memset, a count pass, a scan and a rewrite of the zero run more than the
// words alone, so below it policy::merge ranks the keys in 64-bit words instead
// (detail::zero_tied_word). f32 keys under less (H200, bench/RESULTS.md run 84): words 3.6 %
// slower at 2^20, 14 % faster at 2^21; 32-41 % faster at 2^22-2^26 (run 83).
constexpr std::int64_t zero_order_words_from = std::int64_t(1) << 21;

template <class Policy, class Compare>
constexpr std::int64_t sorts_as_words_from =
    keeps_zero_order<Policy, Compare> ? zero_order_words_from : total_order_words_from;

// ENCODE: keys to words in place; else words back to keys. Words XOR `flip` (all ones under
// greater) ascend as the keys descend.
template <class Key, bool ENCODE>
__global__ void total_order_words_kernel(typename float_bits<Key>::type* words, std::int64_t n,
                                         typename float_bits<Key>::type flip) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if constexpr (ENCODE) {
      Key key;
      std::memcpy(&key, &words[i], sizeof(Key));
      words[i] = total_order_key(key) ^ flip;
    } else {
      const Key key = from_total_order_key<Key>(words[i] ^ flip);
      std::memcpy(&words[i], &key, sizeof(Key));
    }
  }
}

template <class Key, bool ENCODE>
cudaError_t launch_total_order_words(typename float_bits<Key>::type* words, std::int64_t n,
                                     typename float_bits<Key>::type flip, cudaStream_t stream) {
  constexpr int threads = 256;
  // Four items a thread where n allows, so that the grid stays within its x limit.
  const std::int64_t blocks = (n + 4 * threads - 1) / (4 * threads);
  constexpr std::int64_t max_blocks = std::int64_t(1) << 20;
  total_order_words_kernel<Key, ENCODE>
      <<<static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks), threads, 0, stream>>>(words, n, flip);
  return cudaPeekAtLastError();
}

// algorithm<Policy>::sort of keys[0, n) (values alongside) under Compare (total_less, less or
// greater), as words.
// temp: total_order_words_temp_bytes, aligned; the zeros' record after the policy's part.
template <class Policy, class Key, class Value, class Compare>
cudaError_t sort_total_order_words(const Policy& policy, void* temp, Key* keys, Value* values,
                                   std::int64_t n, Compare, cudaStream_t stream) {
  using word = typename float_bits<Key>::type;
  word* words = reinterpret_cast<word*>(keys);
  const word flip = std::is_same<Compare, greater>::value ? static_cast<word>(~word(0)) : word(0);
  void* zero_record = static_cast<char*>(temp) +
                      temp_aligned_bytes(algorithm<Policy>::template temp_storage_bytes<word, Value>(policy, n));
  if constexpr (keeps_zero_order<Policy, Compare>) {
    if (cudaError_t e = record_zero_signs(zero_record, keys, n, flip, stream)) return e;
  } else {
    if (cudaError_t e = launch_total_order_words<Key, true>(words, n, flip, stream)) return e;
  }
  const cudaError_t sorted = algorithm<Policy>::sort(policy, temp, words, values, n, less{}, stream);
  const cudaError_t decoded = launch_total_order_words<Key, false>(words, n, flip, stream);
  if (sorted != cudaSuccess) return sorted;
  if constexpr (keeps_zero_order<Policy, Compare>) {
    if (decoded == cudaSuccess) return restore_zero_signs(zero_record, keys, n, stream);
  }
  return decoded;
}

}  // namespace detail
}  // namespace gpusort
