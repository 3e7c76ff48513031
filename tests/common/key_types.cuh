// tests/common/key_types.cuh — the test and benchmark key/value types of DESIGN.md §4.
//
// key16: two 64-bit words, ordered lexicographically (hi first) — the "16-byte struct with a
//        lexicographic comparator".
// key12: three 32-bit words, ordered lexicographically (a, b, c) — a size that is no power of
//        two, so vectorised paths cannot assume one.
// key64: eight 64-bit words, ordered lexicographically (w[0] first) — an item wide enough
//        that the sorts' tiles, warp buffers and splitter tables meet static shared memory.
// value16: a 16-byte payload for pairs. Pair tests store input indices in their values;
//        `make_index_value` / `index_of` encode and decode them for uint16 (n <= 2^16),
//        uint32, uint64 and value16 (whose second word is a checksum of the first, so a torn
//        or corrupted value decodes to `invalid_index`).
// top_bits_less<B>: u64 keys by their top B bits, for ties that are not identical bits.
// All are plain aggregates without padding: trivially copyable, and their bytes are exactly
// their words, which the bitwise multiset checks in verify.cuh rely on.
#pragma once

#include <cstdint>
#include <type_traits>

namespace gpusort_test {

struct key16 {
  std::uint64_t hi;
  std::uint64_t lo;
};

struct key12 {
  std::uint32_t a;
  std::uint32_t b;
  std::uint32_t c;
};

struct key64 {
  std::uint64_t w[8];
};

struct value16 {
  std::uint64_t index;
  std::uint64_t check;
};

static_assert(sizeof(key16) == 16 && std::is_trivially_copyable<key16>::value, "key16 layout");
static_assert(sizeof(key12) == 12 && std::is_trivially_copyable<key12>::value, "key12 layout");
static_assert(sizeof(key64) == 64 && std::is_trivially_copyable<key64>::value, "key64 layout");
static_assert(sizeof(value16) == 16 && std::is_trivially_copyable<value16>::value,
              "value16 layout");

// Lexicographic comparators (strict weak orders), usable in host and device code.
struct key16_less {
  __host__ __device__ bool operator()(const key16& x, const key16& y) const {
    return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
  }
};

struct key64_less {
  __host__ __device__ bool operator()(const key64& x, const key64& y) const {
    for (int i = 0; i < 8; ++i)
      if (x.w[i] != y.w[i]) return x.w[i] < y.w[i];
    return false;
  }
};

struct key12_less {
  __host__ __device__ bool operator()(const key12& x, const key12& y) const {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b < y.b;
    return x.c < y.c;
  }
};

// Orders 64-bit keys by their top BITS bits only: keys that differ below them are equivalent
// without being identical, so a sort must rank them (no order among equal bits to lean on)
// and a stable one must keep them in input order.
template <int BITS>
struct top_bits_less {
  static_assert(BITS > 0 && BITS <= 64, "a key has 64 bits");
  __host__ __device__ bool operator()(std::uint64_t a, std::uint64_t b) const {
    return (a >> (64 - BITS)) < (b >> (64 - BITS));
  }
};
using high_word_less = top_bits_less<32>;

// operator< lets gpusort::less and gpusort::greater order the structs too.
__host__ __device__ inline bool operator<(const key16& x, const key16& y) {
  return key16_less{}(x, y);
}
__host__ __device__ inline bool operator==(const key16& x, const key16& y) {
  return x.hi == y.hi && x.lo == y.lo;
}
__host__ __device__ inline bool operator!=(const key16& x, const key16& y) { return !(x == y); }

__host__ __device__ inline bool operator==(const key64& x, const key64& y) {
  return !key64_less{}(x, y) && !key64_less{}(y, x);
}

__host__ __device__ inline bool operator<(const key12& x, const key12& y) {
  return key12_less{}(x, y);
}
__host__ __device__ inline bool operator==(const key12& x, const key12& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}
__host__ __device__ inline bool operator!=(const key12& x, const key12& y) { return !(x == y); }

__host__ __device__ inline bool operator==(const value16& x, const value16& y) {
  return x.index == y.index && x.check == y.check;
}
__host__ __device__ inline bool operator!=(const value16& x, const value16& y) {
  return !(x == y);
}

// ---- values that carry input indices -------------------------------------------------------

constexpr std::uint64_t invalid_index = ~std::uint64_t(0);

namespace harness_detail {
// An odd multiplier and offset: distinct indices get distinct checksums, and a value16 whose
// words were mixed up with another's fails the check.
constexpr std::uint64_t value16_check_mul = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t value16_check_add = 0x5851F42D4C957F2Dull;
}  // namespace harness_detail

template <class Value>
__host__ __device__ inline Value make_index_value(std::uint64_t index) {
  static_assert(std::is_same<Value, std::uint16_t>::value ||
                    std::is_same<Value, std::uint32_t>::value ||
                    std::is_same<Value, std::uint64_t>::value ||
                    std::is_same<Value, value16>::value,
                "index values are uint16_t, uint32_t, uint64_t or value16");
  if constexpr (std::is_same<Value, value16>::value) {
    return value16{index, index * harness_detail::value16_check_mul +
                              harness_detail::value16_check_add};
  } else {
    return static_cast<Value>(index);
  }
}

// The index a value carries, or invalid_index when a value16's checksum does not match.
template <class Value>
__host__ __device__ inline std::uint64_t index_of(const Value& v) {
  if constexpr (std::is_same<Value, value16>::value) {
    return v.check == v.index * harness_detail::value16_check_mul +
                          harness_detail::value16_check_add
               ? v.index
               : invalid_index;
  } else {
    return static_cast<std::uint64_t>(v);
  }
}

// The largest n whose indices a Value can hold.
template <class Value>
constexpr std::uint64_t max_index_count() {
  return std::is_same<Value, std::uint16_t>::value   ? (std::uint64_t(1) << 16)
         : std::is_same<Value, std::uint32_t>::value ? (std::uint64_t(1) << 32)
                                                     : invalid_index;
}

}  // namespace gpusort_test
