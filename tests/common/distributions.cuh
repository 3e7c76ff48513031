// tests/common/distributions.cuh — seeded input distributions, generated on the GPU.
//
// The distributions of DESIGN.md §4, taken from the papers' experiments (Helman, Bader & JáJá
// defined bucket sorted, staggered and the 4-uniform Gaussian; Leischner et al. and Dehne &
// Zaboli measured with them). Every key is a pure function of (distribution, seed, index, n):
// a counter-based hash (splitmix64) replaces a random generator, so generation is one
// embarrassingly parallel kernel, is reproducible, has no races, and works for n > 2^31.
// `generate_on_host` evaluates the same function on the CPU, bit for bit (integer arithmetic
// only), for host tests and for checking the GPU generator.
//
// How keys are made: each position first gets a 64-bit "ordinal" whose unsigned order is the
// intended key order, plus (for the random distributions) extra random bits; `key_from_ordinal`
// then maps the ordinal to the key type by a monotone (non-decreasing) map, so sorted stays
// sorted, few-distinct stays exactly k-distinct, and so on, for every key type:
//   u32: top 32 bits      i32: top 32 bits with the sign bit flipped (ordinal 2^63 -> 0)
//   u64: the ordinal      i64: the ordinal with the sign bit flipped
//   double: (ordinal - 2^63) / 2^32, a real in [-2^31, 2^31)    float: that, rounded
//   key16: hi = top 32 bits, lo = low 32 bits then 32 extra random bits — so `hi` ties often
//          enough (n >~ 2^16) that lexicographic comparators are exercised on `lo` too
//   key12: a = top 22 bits, b = next 32, c = low 10 bits then 22 extra random bits.
//   key64: the ordinal's two halves, five words that follow from it, 64 extra random bits.
//   u16, i16, u8: the top 16 (8) bits, i16's sign bit flipped.
//   __half, __nv_bfloat16: the top 16 bits scaled onto the type's finite values in order
//          (both zeros included, no NaN, no inf), by integer arithmetic on the bit pattern.
//
// Special floats (NaN of both signs and several payloads, ±0, ±inf, denormals, ±max) are added
// on top of any distribution by `add_special_floats`, for tests under gpusort::total_less.
//
// Complexity: O(n) work, one kernel launch, asynchronous on the stream.
#pragma once

#include "key_types.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gpusort_test {

enum class distribution {
  uniform,
  gaussian,         // Helman et al.: the mean of four uniform values
  zipf,             // value k with frequency ~ 1/k (s = 1), k in [1, 2^31)
  sorted,           // strictly increasing ordinals (random gaps)
  reverse_sorted,   // strictly decreasing ordinals
  all_equal,        // one value (depending on the seed)
  few_distinct_2,   // exactly 2 distinct values (for n large enough that both occur)
  few_distinct_17,  // exactly 17 distinct values
  bucket_sorted,    // Helman et al., p = 128: block b's j-th sub-block lies in the j-th range
  staggered,        // Helman et al., p = 128: block b lies in range 2b+1 (b < p/2) or 2b-p
  almost_sorted,    // sorted, then 1 % of positions swapped in far-apart pairs
  organ_pipe,       // increasing to the middle, then mirrored: x0 <= x1 <= ... >= x(n-1)
};

inline constexpr distribution all_distributions[] = {
    distribution::uniform,         distribution::gaussian,       distribution::zipf,
    distribution::sorted,          distribution::reverse_sorted, distribution::all_equal,
    distribution::few_distinct_2,  distribution::few_distinct_17, distribution::bucket_sorted,
    distribution::staggered,       distribution::almost_sorted,  distribution::organ_pipe,
};

inline const char* name(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::gaussian: return "gaussian";
    case distribution::zipf: return "zipf";
    case distribution::sorted: return "sorted";
    case distribution::reverse_sorted: return "reverse_sorted";
    case distribution::all_equal: return "all_equal";
    case distribution::few_distinct_2: return "few_distinct_2";
    case distribution::few_distinct_17: return "few_distinct_17";
    case distribution::bucket_sorted: return "bucket_sorted";
    case distribution::staggered: return "staggered";
    case distribution::almost_sorted: return "almost_sorted";
    case distribution::organ_pipe: return "organ_pipe";
  }
  return "unknown";
}

// Parameters of the distributions (named here so tests can check against them).
// p of Helman et al.'s bucket-sorted and staggered inputs; a power of two, so range j is the
// ordinals whose top log2(p) bits equal j.
constexpr int paper_processors = 128;
constexpr int paper_processors_log2 = 7;
// almost_sorted: one swapped position per block of this many positions (1 %).
constexpr std::int64_t almost_sorted_block = 100;
// zipf: values k in [1, 2^zipf_octaves).
constexpr int zipf_octaves = 31;
// add_special_floats: about one position in this many gets a special value.
constexpr std::uint64_t special_float_period = 8;

namespace harness_detail {

__host__ __device__ constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Independent streams of random words, one per purpose, so that e.g. the jitter of `sorted`
// and the choice of swapped slots in `almost_sorted` do not correlate.
enum lane : std::uint64_t {
  lane_value = 1,
  lane_extra,
  lane_choice,
  lane_gauss1,
  lane_gauss2,
  lane_gauss3,
  lane_gauss4,
  lane_slot,
  lane_special,
  lane_special_kind,
};

__host__ __device__ inline std::uint64_t random_word(std::uint64_t seed, std::uint64_t lane,
                                                     std::uint64_t index) {
  return splitmix64(splitmix64(seed ^ (lane * 0xD1B54A32D192ED03ull)) ^ index);
}

struct ordinal {
  std::uint64_t value;  // the key order
  std::uint64_t extra;  // further random bits for key types wider than the ordinal
};

constexpr std::uint64_t max_u64 = ~std::uint64_t(0);
constexpr std::uint64_t sign_u64 = std::uint64_t(1) << 63;

// Rank r of `count` strictly increasing ordinals: cell r of width floor(2^64 / count), at a
// random offset inside the cell.
__host__ __device__ inline std::uint64_t increasing_ordinal(std::uint64_t seed,
                                                            std::uint64_t rank,
                                                            std::uint64_t count) {
  const std::uint64_t step = max_u64 / (count == 0 ? 1 : count);
  return rank * step + random_word(seed, lane_value, rank) % step;
}

// The swap slot of almost_sorted's block t: one position per full block.
__host__ __device__ inline std::uint64_t almost_sorted_slot(std::uint64_t seed, std::uint64_t t) {
  return t * almost_sorted_block +
         random_word(seed, lane_slot, t) % static_cast<std::uint64_t>(almost_sorted_block);
}

// The position whose sorted value lands at position i of almost_sorted. Slots of blocks t and
// blocks-1-t trade places: an involution, so every position is written by one thread only.
__host__ __device__ inline std::uint64_t almost_sorted_source(std::uint64_t seed, std::uint64_t i,
                                                              std::uint64_t n) {
  const std::uint64_t blocks = n / almost_sorted_block;
  const std::uint64_t t = i / almost_sorted_block;
  if (t >= blocks) return i;
  const std::uint64_t partner = blocks - 1 - t;
  if (partner == t || i != almost_sorted_slot(seed, t)) return i;
  return almost_sorted_slot(seed, partner);
}

// Position i of block-structured inputs (bucket sorted, staggered): block and sub-block.
__host__ __device__ inline std::uint64_t uniform_in_range(std::uint64_t seed, std::uint64_t i,
                                                          std::uint64_t range) {
  return (range << (64 - paper_processors_log2)) |
         (random_word(seed, lane_value, i) >> paper_processors_log2);
}

__host__ __device__ inline ordinal ordinal_at(distribution d, std::uint64_t seed,
                                              std::uint64_t i, std::uint64_t n) {
  const std::uint64_t extra = random_word(seed, lane_extra, i);
  switch (d) {
    case distribution::uniform:
      return {random_word(seed, lane_value, i), extra};
    case distribution::gaussian: {
      // Mean of four uniform words, in integer arithmetic (sum of quarters: no overflow).
      const std::uint64_t v = (random_word(seed, lane_gauss1, i) >> 2) +
                              (random_word(seed, lane_gauss2, i) >> 2) +
                              (random_word(seed, lane_gauss3, i) >> 2) +
                              (random_word(seed, lane_gauss4, i) >> 2);
      return {v, extra};
    }
    case distribution::zipf: {
      // Log-uniform (frequency ~ 1/k): a uniform octave e, then a uniform k in [2^e, 2^(e+1)).
      // Integer arithmetic only, so host and device agree bit for bit.
      const std::uint64_t r = random_word(seed, lane_value, i);
      const int e = static_cast<int>(random_word(seed, lane_choice, i) % zipf_octaves);
      const std::uint64_t k = (std::uint64_t(1) << e) | (r & ((std::uint64_t(1) << e) - 1));
      // Centred, so that k is also the i32 key and (k) the float key, exactly.
      return {sign_u64 + (k << 32), 0};
    }
    case distribution::sorted:
      return {increasing_ordinal(seed, i, n), random_word(seed, lane_extra, i)};
    case distribution::reverse_sorted:
      return {increasing_ordinal(seed, n - 1 - i, n), random_word(seed, lane_extra, n - 1 - i)};
    case distribution::all_equal:
      return {random_word(seed, lane_value, 0), 0};
    case distribution::few_distinct_2:
    case distribution::few_distinct_17: {
      // Values far apart (2^64 / k) so they stay distinct in every key type.
      const std::uint64_t k = d == distribution::few_distinct_2 ? 2 : 17;
      const std::uint64_t spacing = max_u64 / k;
      const std::uint64_t offset = random_word(seed, lane_value, 0) % (spacing / 2);
      return {(random_word(seed, lane_choice, i) % k) * spacing + offset, 0};
    }
    case distribution::bucket_sorted: {
      const std::uint64_t p = paper_processors;
      const std::uint64_t block_len = (n + p - 1) / p;
      const std::uint64_t sub_len = (block_len + p - 1) / p;
      const std::uint64_t j = (i % block_len) / sub_len;
      return {uniform_in_range(seed, i, j), extra};
    }
    case distribution::staggered: {
      const std::uint64_t p = paper_processors;
      const std::uint64_t block_len = (n + p - 1) / p;
      const std::uint64_t b = i / block_len;
      const std::uint64_t range = b < p / 2 ? 2 * b + 1 : 2 * b - p;
      return {uniform_in_range(seed, i, range), extra};
    }
    case distribution::almost_sorted: {
      const std::uint64_t src = almost_sorted_source(seed, i, n);
      return {increasing_ordinal(seed, src, n), random_word(seed, lane_extra, src)};
    }
    case distribution::organ_pipe: {
      const std::uint64_t rank = i < n - 1 - i ? i : n - 1 - i;
      return {increasing_ordinal(seed, rank, (n + 1) / 2), random_word(seed, lane_extra, rank)};
    }
  }
  return {0, 0};
}

// 16-bit floats: the finite values in order are the bit patterns whose order words (sign
// bit flipped for positive values, every bit for negative ones) run from LOWEST's to MAX's.
template <class F, std::uint16_t LOWEST, std::uint16_t MAX>
__host__ __device__ inline F float16_from_ordinal(std::uint64_t u) {
  constexpr std::uint32_t first = LOWEST ^ 0xFFFFu, last = MAX ^ 0x8000u;
  const std::uint32_t order = first + static_cast<std::uint32_t>(((u >> 48) * (last - first + 1)) >> 16);
  const std::uint16_t bits = static_cast<std::uint16_t>(order ^ (order & 0x8000u ? 0x8000u : 0xFFFFu));
  F f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Monotone maps from ordinals to keys (see the header comment).
template <class Key>
__host__ __device__ inline Key key_from_ordinal(ordinal o) {
  const std::uint64_t u = o.value;
  if constexpr (std::is_same<Key, std::uint32_t>::value) {
    return static_cast<std::uint32_t>(u >> 32);
  } else if constexpr (std::is_same<Key, std::uint8_t>::value) {
    return static_cast<std::uint8_t>(u >> 56);
  } else if constexpr (std::is_same<Key, std::uint16_t>::value) {
    return static_cast<std::uint16_t>(u >> 48);
  } else if constexpr (std::is_same<Key, std::int16_t>::value) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>((u >> 48) ^ 0x8000u));
  } else if constexpr (std::is_same<Key, __half>::value) {
    return float16_from_ordinal<__half, 0xFBFF, 0x7BFF>(u);
  } else if constexpr (std::is_same<Key, __nv_bfloat16>::value) {
    return float16_from_ordinal<__nv_bfloat16, 0xFF7F, 0x7F7F>(u);
  } else if constexpr (std::is_same<Key, std::int32_t>::value) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(u >> 32) ^ 0x80000000u);
  } else if constexpr (std::is_same<Key, std::uint64_t>::value) {
    return u;
  } else if constexpr (std::is_same<Key, std::int64_t>::value) {
    return static_cast<std::int64_t>(u ^ sign_u64);
  } else if constexpr (std::is_same<Key, double>::value || std::is_same<Key, float>::value) {
    // int64 -> double and double -> float round to nearest: monotone, and the same on host
    // and device. The scale is a power of two, so it is exact.
    const double x = static_cast<double>(static_cast<std::int64_t>(u ^ sign_u64)) *
                     (1.0 / 4294967296.0);
    return static_cast<Key>(x);
  } else if constexpr (std::is_same<Key, key16>::value) {
    return key16{u >> 32, (u << 32) | (o.extra & 0xFFFFFFFFull)};
  } else if constexpr (std::is_same<Key, key64>::value) {
    // The ordinal in the first two words; the next five follow from it (equal ordinals tie
    // through them, so a comparison walks the whole key), the last holds the extra bits.
    key64 k{{u >> 32, u & 0xFFFFFFFFull}};
    for (int i = 2; i < 7; ++i) k.w[i] = (u ^ 0x9e3779b97f4a7c15ull * i) * 0xbf58476d1ce4e5b9ull;
    k.w[7] = o.extra;
    return k;
  } else if constexpr (std::is_same<Key, key12>::value) {
    return key12{static_cast<std::uint32_t>(u >> 42), static_cast<std::uint32_t>(u >> 10),
                 static_cast<std::uint32_t>((u << 22) | (o.extra & 0x3FFFFFull))};
  } else {
    static_assert(sizeof(Key) == 0,
                  "generate() supports u8, u16, i16, u32, i32, u64, i64, __half, __nv_bfloat16, float, "
                  "double, key16, key12 and key64");
    return Key{};
  }
}

template <class Key>
__host__ __device__ inline Key key_at(distribution d, std::uint64_t seed, std::uint64_t i,
                                      std::uint64_t n) {
  return key_from_ordinal<Key>(ordinal_at(d, seed, i, n));
}

template <class Key>
__global__ void generate_kernel(Key* keys, std::int64_t n, distribution d, std::uint64_t seed) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    keys[i] = key_at<Key>(d, seed, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(n));
  }
}

// IEEE-754 specials by bit pattern, so that NaN payloads and signs are exact.
template <class F>
struct float_specials;

template <>
struct float_specials<float> {
  using bits = std::uint32_t;
  static constexpr int count = 14;
  static constexpr int nans = 5;  // the first five patterns
  __host__ __device__ static bits pattern(int k) {
    constexpr bits table[count] = {
        0x7FC00000u,  // +quiet NaN
        0xFFC00000u,  // -quiet NaN
        0x7F800001u,  // +signalling NaN, smallest payload
        0xFFFFFFFFu,  // -NaN, largest payload
        0x7FFFFFFFu,  // +NaN, largest payload
        0x00000000u,  // +0
        0x80000000u,  // -0
        0x7F800000u,  // +inf
        0xFF800000u,  // -inf
        0x00000001u,  // +smallest denormal
        0x80000001u,  // -smallest denormal
        0x7F7FFFFFu,  // +max
        0xFF7FFFFFu,  // lowest
        0x00800000u,  // +smallest normal
    };
    return table[k];
  }
};

template <>
struct float_specials<double> {
  using bits = std::uint64_t;
  static constexpr int count = 14;
  static constexpr int nans = 5;
  __host__ __device__ static bits pattern(int k) {
    constexpr bits table[count] = {
        0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull,
        0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFFull, 0x0000000000000000ull,
        0x8000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
        0x0000000000000001ull, 0x8000000000000001ull, 0x7FEFFFFFFFFFFFFFull,
        0xFFEFFFFFFFFFFFFFull, 0x0010000000000000ull,
    };
    return table[k];
  }
};

// The same specials in 16 bits, one per row of the float table and in its order, from the
// format's exponent field (__half 0x7C00, __nv_bfloat16 0x7F80).
template <std::uint16_t EXPONENT>
struct float16_specials {
  using bits = std::uint16_t;
  static constexpr int count = 14;
  static constexpr int nans = 5;
  __host__ __device__ static bits pattern(int k) {
    constexpr bits sign = 0x8000, mantissa = 0x7FFF & ~EXPONENT, quiet = (mantissa + 1) >> 1;
    constexpr bits table[count] = {
        EXPONENT | quiet, sign | EXPONENT | quiet, EXPONENT | 1, 0xFFFF, 0x7FFF, 0, sign,
        EXPONENT,         sign | EXPONENT,         1,            sign | 1, EXPONENT - 1,
        sign | (EXPONENT - 1), mantissa + 1,
    };
    return table[k];
  }
};
template <>
struct float_specials<__half> : float16_specials<0x7C00> {};
template <>
struct float_specials<__nv_bfloat16> : float16_specials<0x7F80> {};

template <class F>
__host__ __device__ inline bool special_at(std::uint64_t seed, std::uint64_t i, bool with_nan, F& out) {
  if (random_word(seed, lane_special, i) % special_float_period != 0) return false;
  using specials = float_specials<F>;
  const int first = with_nan ? 0 : specials::nans;
  const auto bits = specials::pattern(
      first + static_cast<int>(random_word(seed, lane_special_kind, i) % (specials::count - first)));
  std::memcpy(&out, &bits, sizeof(F));
  return true;
}

template <class F>
__global__ void special_floats_kernel(F* keys, std::int64_t n, std::uint64_t seed, bool with_nan) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    F f;
    if (special_at(seed, static_cast<std::uint64_t>(i), with_nan, f)) keys[i] = f;
  }
}

// Grid for an O(n) grid-stride kernel: enough blocks to fill any current GPU, no more.
constexpr int fill_threads = 256;
constexpr std::int64_t fill_max_blocks = 8192;

inline unsigned fill_blocks(std::int64_t n) {
  return static_cast<unsigned>(
      std::min<std::int64_t>((n + fill_threads - 1) / fill_threads, fill_max_blocks));
}

}  // namespace harness_detail

// Fills d_keys[0, n) with distribution d. Asynchronous on `stream`; returns the launch status.
template <class Key>
cudaError_t generate(Key* d_keys, std::int64_t n, distribution d, std::uint64_t seed,
                     cudaStream_t stream = 0) {
  if (n < 0 || (n > 0 && d_keys == nullptr)) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  harness_detail::generate_kernel<Key>
      <<<harness_detail::fill_blocks(n), harness_detail::fill_threads, 0, stream>>>(d_keys, n,
                                                                                   d, seed);
  return cudaGetLastError();
}

// The same keys as generate(), computed on the host.
template <class Key>
std::vector<Key> generate_on_host(std::int64_t n, distribution d, std::uint64_t seed) {
  std::vector<Key> keys(static_cast<std::size_t>(n < 0 ? 0 : n));
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = harness_detail::key_at<Key>(d, seed, i, keys.size());
  return keys;
}

// The key types that add_special_floats takes.
template <class F>
constexpr bool has_float_specials = std::is_same<F, float>::value || std::is_same<F, double>::value ||
                                    std::is_same<F, __half>::value || std::is_same<F, __nv_bfloat16>::value;

// Overwrites about one position in `special_float_period` (chosen from the seed) with a NaN
// of either sign (unless !with_nan: for less and greater, which NaN leaves no strict weak
// ordering), ±0, ±inf, a denormal or ±max. Floating-point keys only (has_float_specials); use
// a seed different from generate()'s to keep the two independent, or the same one — both are
// deterministic.
template <class F>
cudaError_t add_special_floats(F* d_keys, std::int64_t n, std::uint64_t seed, bool with_nan = true,
                               cudaStream_t stream = 0) {
  static_assert(has_float_specials<F>, "special floats exist for float, double, __half and __nv_bfloat16");
  if (n < 0 || (n > 0 && d_keys == nullptr)) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  harness_detail::special_floats_kernel<F>
      <<<harness_detail::fill_blocks(n), harness_detail::fill_threads, 0, stream>>>(d_keys, n,
                                                                                   seed, with_nan);
  return cudaGetLastError();
}

template <class F>
void add_special_floats_on_host(std::vector<F>& keys, std::uint64_t seed, bool with_nan = true) {
  for (std::size_t i = 0; i < keys.size(); ++i) harness_detail::special_at(seed, i, with_nan, keys[i]);
}

// Fills d_values[0, n) with make_index_value<Value>(i): the input indices that the pair
// checks in verify.cuh expect.
namespace harness_detail {
template <class Value>
__global__ void iota_kernel(Value* values, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    values[i] = make_index_value<Value>(static_cast<std::uint64_t>(i));
}
}  // namespace harness_detail

template <class Value>
cudaError_t iota_values(Value* d_values, std::int64_t n, cudaStream_t stream = 0) {
  if (n < 0 || (n > 0 && d_values == nullptr)) return cudaErrorInvalidValue;
  if (static_cast<std::uint64_t>(n) > max_index_count<Value>()) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  harness_detail::iota_kernel<Value>
      <<<harness_detail::fill_blocks(n), harness_detail::fill_threads, 0, stream>>>(d_values, n);
  return cudaGetLastError();
}

}  // namespace gpusort_test
