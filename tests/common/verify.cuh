// tests/common/verify.cuh — checks that a sort did its job (DESIGN.md §4, "Verification").
//
// Every check returns a `check_result`: `ok`, and a human-readable `message` naming the first
// bad index and the keys there. It converts to bool and streams to std::ostream, so
//     REQUIRE(gpusort_test::verify_keys(d_input, d_keys, n, cmp));
// prints the message when it fails, in Catch2 2.x and 3.x alike.
//
// Two sets of the same checks:
//  * host (std::vector): check_sorted, check_permutation, check_same_items, check_pairs,
//    check_stable — plain C++, obviously right, for small n and for host tests.
//    check_permutation std::sorts a copy of the input.
//  * device (pointers to GPU memory): device_check_sorted, device_check_permutation,
//    device_check_same_items, device_check_pairs, device_check_stable, and verify_keys /
//    verify_pairs running the right ones together. They run on the GPU — a predicate kernel
//    records the first violation and the number of violations; the permutation check sorts
//    copies of input and output with cub::DeviceMergeSort — so 2^28 keys verify in well under
//    a second; they never std::sort on the host. They allocate scratch
//    (device_check_permutation / device_check_same_items: two copies of the keys plus CUB's
//    temp storage; device_check_pairs: 4 bytes per item) and synchronize the stream.
//
// What "permutation" means here: the output is compared, position by position, with the
// input sorted by cmp (cmp-equivalence), AND the multisets must be equal bit for bit: both
// are sorted by (cmp, then raw bytes) and compared byte for byte. So an item lost or
// duplicated over a cmp-equal but different item (-0 over +0, a key16 with the same `hi`
// under a comparator that reads only `hi`) is caught. Being compared with the sorted input,
// an unsorted permutation fails it too; check_same_items is the order-agnostic multiset
// check (for steps that move items without sorting them).
// Preconditions: cmp is a strict weak order on the data (for floats with NaN use
// gpusort::total_less, not less) and is callable on host and device; key types have no
// padding bytes (all of key_types.cuh and the arithmetic types qualify).
//
// Pairs: the values going in are input indices (iota_values / make_index_value); afterwards
// each value must decode to a valid index, each index must appear exactly once, and the key
// beside a value must be bitwise equal to the input key at that index. Stability: among
// cmp-equal neighbours the indices increase.
//
// guarded_buffer<T>: a device array with poisoned guard regions before and after it;
// check_guard() reports any write outside [0, n).
#pragma once

#include "device_buffer.cuh"
#include "key_types.cuh"

#include <cub/device/device_merge_sort.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace gpusort_test {

struct check_result {
  bool ok = true;
  std::string message;

  explicit operator bool() const { return ok; }
  static check_result pass() { return {}; }
  static check_result fail(std::string why) { return {false, std::move(why)}; }
};

inline std::ostream& operator<<(std::ostream& os, const check_result& r) {
  return os << (r.ok ? std::string("ok") : "FAILED: " + r.message);
}

// ---- formatting ---------------------------------------------------------------------------

template <class T>
std::string to_text(const T& v) {
  char buf[96];
  if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else if constexpr (std::is_integral<T>::value) {
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  } else if constexpr (std::is_same<T, float>::value) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    std::snprintf(buf, sizeof buf, "%.9g [0x%08" PRIx32 "]", static_cast<double>(v), bits);
  } else if constexpr (std::is_same<T, double>::value) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    std::snprintf(buf, sizeof buf, "%.17g [0x%016" PRIx64 "]", v, bits);
  } else if constexpr (std::is_same<T, key16>::value) {
    std::snprintf(buf, sizeof buf, "{hi=0x%016" PRIx64 ", lo=0x%016" PRIx64 "}", v.hi, v.lo);
  } else if constexpr (std::is_same<T, key12>::value) {
    std::snprintf(buf, sizeof buf, "{a=0x%08" PRIx32 ", b=0x%08" PRIx32 ", c=0x%08" PRIx32 "}",
                  v.a, v.b, v.c);
  } else if constexpr (std::is_same<T, value16>::value) {
    std::snprintf(buf, sizeof buf, "{index=%" PRIu64 ", check=0x%016" PRIx64 "}", v.index,
                  v.check);
  } else {
    // Any other trivially copyable type: its bytes in memory order.
    std::string s = "bytes[";
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t k = 0; k < sizeof(T); ++k) {
      std::snprintf(buf, sizeof buf, "%02x", p[k]);
      s += buf;
    }
    return s + "]";
  }
  return buf;
}

inline std::string index_text(std::uint64_t idx) {
  return idx == invalid_index ? std::string("<invalid>") : std::to_string(idx);
}

// ---- byte-level comparison ----------------------------------------------------------------

// Three-way comparison of the object representations: a total order on bit patterns (word
// by word where the size allows, so that keys held in registers need not go to memory).
template <class T>
__host__ __device__ inline int compare_bytes(const T& a, const T& b) {
  if constexpr (sizeof(T) % sizeof(std::uint32_t) == 0) {
    constexpr int words = sizeof(T) / sizeof(std::uint32_t);
    std::uint32_t wa[words], wb[words];
    std::memcpy(wa, &a, sizeof(T));
    std::memcpy(wb, &b, sizeof(T));
    for (int k = 0; k < words; ++k)
      if (wa[k] != wb[k]) return wa[k] < wb[k] ? -1 : 1;
  } else {
    unsigned char ba[sizeof(T)], bb[sizeof(T)];
    std::memcpy(ba, &a, sizeof(T));
    std::memcpy(bb, &b, sizeof(T));
    for (std::size_t k = 0; k < sizeof(T); ++k)
      if (ba[k] != bb[k]) return ba[k] < bb[k] ? -1 : 1;
  }
  return 0;
}

template <class T>
__host__ __device__ inline bool bytes_equal(const T& a, const T& b) {
  return compare_bytes(a, b) == 0;
}

// cmp, with ties broken by the raw bytes: a strict total order on distinct bit patterns
// whenever cmp is a strict weak order.
template <class Compare>
struct cmp_then_bytes {
  Compare cmp;
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    if (cmp(a, b)) return true;
    if (cmp(b, a)) return false;
    return compare_bytes(a, b) < 0;
  }
};

// The raw-byte order alone: for multiset comparisons that need no comparator.
struct bytes_less {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return compare_bytes(a, b) < 0;
  }
};

// Test helpers over raw bytes, shared by the harness's own host and GPU tests.
template <class T>
std::size_t positions_differing(const std::vector<T>& a, const std::vector<T>& b) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.size(); ++i) count += !bytes_equal(a[i], b[i]);
  return count;
}

template <class T>
std::size_t distinct_bit_patterns(std::vector<T> v) {
  std::sort(v.begin(), v.end(), bytes_less{});
  std::size_t count = v.empty() ? 0 : 1;
  for (std::size_t i = 1; i < v.size(); ++i) count += !bytes_equal(v[i - 1], v[i]);
  return count;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// How many of each special value a float array holds (to test add_special_floats).
struct special_float_counts {
  std::int64_t pos_nan = 0, neg_nan = 0, pos_zero = 0, neg_zero = 0, pos_inf = 0, neg_inf = 0;
  bool every_kind_present() const {
    return pos_nan > 0 && neg_nan > 0 && pos_zero > 0 && neg_zero > 0 && pos_inf > 0 && neg_inf > 0;
  }
};

template <class F>
special_float_counts count_special_floats(const std::vector<F>& values) {
  special_float_counts c;
  for (const F& f : values) {
    if constexpr (sizeof(F) == 2) {
      // 16-bit floats by their bits: the host's conversions to float drop a NaN's sign.
      constexpr std::uint16_t exponent = std::is_same<F, __half>::value ? 0x7C00 : 0x7F80;
      std::uint16_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      const bool negative = bits >> 15;
      const std::uint16_t magnitude = bits & 0x7FFF;
      if (magnitude > exponent) ++(negative ? c.neg_nan : c.pos_nan);
      if (magnitude == 0) ++(negative ? c.neg_zero : c.pos_zero);
      if (magnitude == exponent) ++(negative ? c.neg_inf : c.pos_inf);
    } else {
      if (std::isnan(f)) ++(std::signbit(f) ? c.neg_nan : c.pos_nan);
      if (f == F(0)) ++(std::signbit(f) ? c.neg_zero : c.pos_zero);
      if (std::isinf(f)) ++(f < 0 ? c.neg_inf : c.pos_inf);
    }
  }
  return c;
}

template <class Compare, class T>
__host__ __device__ inline bool equivalent(const Compare& cmp, const T& a, const T& b) {
  return !cmp(a, b) && !cmp(b, a);
}

// ---- host checks --------------------------------------------------------------------------

template <class Key, class Compare>
check_result check_sorted(const std::vector<Key>& keys, Compare cmp) {
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (cmp(keys[i], keys[i - 1]) && bad++ == 0) first = i;
  if (bad == 0) return check_result::pass();
  return check_result::fail("not sorted: " + std::to_string(bad) +
                            " inversion(s); first at index " + std::to_string(first) +
                            ": keys[" + std::to_string(first - 1) + "] = " +
                            to_text(keys[first - 1]) + ", keys[" + std::to_string(first) +
                            "] = " + to_text(keys[first]));
}

template <class Key, class Compare>
check_result check_permutation(const std::vector<Key>& input, const std::vector<Key>& output,
                               Compare cmp) {
  if (input.size() != output.size())
    return check_result::fail("size changed: input has " + std::to_string(input.size()) +
                              " keys, output " + std::to_string(output.size()));
  std::vector<Key> expected = input;
  std::sort(expected.begin(), expected.end(), cmp_then_bytes<Compare>{cmp});
  for (std::size_t i = 0; i < output.size(); ++i)
    if (!equivalent(cmp, output[i], expected[i]))
      return check_result::fail("output differs from std::sort of the input at index " +
                                std::to_string(i) + ": got " + to_text(output[i]) +
                                ", expected (cmp-equivalent to) " + to_text(expected[i]));
  std::vector<Key> got = output;
  std::sort(got.begin(), got.end(), cmp_then_bytes<Compare>{cmp});
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!bytes_equal(got[i], expected[i]))
      return check_result::fail(
          "not a bitwise permutation of the input (an item was lost or duplicated among "
          "cmp-equal keys): at rank " + std::to_string(i) + " of the (cmp, bytes) order the "
          "output has " + to_text(got[i]) + ", the input " + to_text(expected[i]));
  return check_result::pass();
}

// Order-agnostic: b holds exactly the bit patterns of a, with multiplicity (for steps that
// move items without sorting them, and for unsorted outputs).
template <class Key>
check_result check_same_items(const std::vector<Key>& a, const std::vector<Key>& b) {
  if (a.size() != b.size())
    return check_result::fail("size changed: " + std::to_string(a.size()) + " items before, " +
                              std::to_string(b.size()) + " after");
  std::vector<Key> x = a, y = b;
  std::sort(x.begin(), x.end(), bytes_less{});
  std::sort(y.begin(), y.end(), bytes_less{});
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!bytes_equal(x[i], y[i]))
      return check_result::fail("not the same items: at rank " + std::to_string(i) +
                                " of the byte order the output has " + to_text(y[i]) +
                                ", the input " + to_text(x[i]));
  return check_result::pass();
}

template <class Key, class Value>
check_result check_pairs(const std::vector<Key>& input_keys, const std::vector<Key>& out_keys,
                         const std::vector<Value>& out_values) {
  const std::size_t n = input_keys.size();
  if (out_keys.size() != n || out_values.size() != n)
    return check_result::fail("size mismatch: input " + std::to_string(n) + " keys, output " +
                              std::to_string(out_keys.size()) + " keys and " +
                              std::to_string(out_values.size()) + " values");
  std::vector<std::uint32_t> uses(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t idx = index_of(out_values[i]);
    if (idx >= n)
      return check_result::fail("values[" + std::to_string(i) + "] = " +
                                to_text(out_values[i]) + " is not an input index (n = " +
                                std::to_string(n) + ")");
    if (!bytes_equal(out_keys[i], input_keys[idx]))
      return check_result::fail("value did not travel with its key at index " +
                                std::to_string(i) + ": keys[" + std::to_string(i) + "] = " +
                                to_text(out_keys[i]) + " but values[" + std::to_string(i) +
                                "] names input " + std::to_string(idx) + " whose key is " +
                                to_text(input_keys[idx]));
    ++uses[idx];
  }
  for (std::size_t j = 0; j < n; ++j)
    if (uses[j] != 1)
      return check_result::fail("input index " + std::to_string(j) + " appears " +
                                std::to_string(uses[j]) + " times among the values");
  return check_result::pass();
}

template <class Key, class Value, class Compare>
check_result check_stable(const std::vector<Key>& out_keys, const std::vector<Value>& out_values,
                          Compare cmp) {
  if (out_keys.size() != out_values.size())
    return check_result::fail("size mismatch between keys and values");
  for (std::size_t i = 1; i < out_keys.size(); ++i)
    if (equivalent(cmp, out_keys[i - 1], out_keys[i]) &&
        !(index_of(out_values[i - 1]) < index_of(out_values[i])))
      return check_result::fail(
          "not stable at index " + std::to_string(i) + ": equal keys " +
          to_text(out_keys[i - 1]) + " and " + to_text(out_keys[i]) + " carry input indices " +
          index_text(index_of(out_values[i - 1])) + " then " +
          index_text(index_of(out_values[i])));
  return check_result::pass();
}

// ---- device checks ------------------------------------------------------------------------

namespace harness_detail {

struct violations {
  unsigned long long first;  // smallest violating index, or ~0 when none
  unsigned long long count;
};

constexpr unsigned long long no_violation = ~0ull;
constexpr int scan_threads = 256;
constexpr std::int64_t scan_max_blocks = 4096;

// Records every i in [begin, end) with pred(i): the smallest and how many. One atomic pair per
// thread, not per violation, so a fully wrong array scans as fast as a right one.
template <class Pred>
__global__ void violations_kernel(std::int64_t begin, std::int64_t end, Pred pred,
                                  violations* out) {
  unsigned long long first = no_violation, count = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = begin + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < end; i += stride) {
    if (pred(i)) {
      if (count++ == 0) first = static_cast<unsigned long long>(i);
    }
  }
  if (count != 0) {
    atomicMin(&out->first, first);
    atomicAdd(&out->count, count);
  }
}

struct scan_outcome {
  cudaError_t status;
  violations found;
  bool any() const { return found.count != 0; }
};

template <class Pred>
scan_outcome find_violations(std::int64_t begin, std::int64_t end, Pred pred,
                             cudaStream_t stream) {
  scan_outcome r{cudaSuccess, {no_violation, 0}};
  if (end <= begin) return r;
  violations* d = nullptr;
  r.status = cudaMallocAsync(reinterpret_cast<void**>(&d), sizeof(violations), stream);
  if (r.status != cudaSuccess) return r;
  r.status = cudaMemcpyAsync(d, &r.found, sizeof(violations), cudaMemcpyHostToDevice, stream);
  if (r.status == cudaSuccess) {
    const std::int64_t blocks =
        std::min<std::int64_t>((end - begin + scan_threads - 1) / scan_threads, scan_max_blocks);
    violations_kernel<<<static_cast<unsigned>(blocks), scan_threads, 0, stream>>>(begin, end,
                                                                                  pred, d);
    r.status = cudaGetLastError();
  }
  if (r.status == cudaSuccess)
    r.status = cudaMemcpyAsync(&r.found, d, sizeof(violations), cudaMemcpyDeviceToHost, stream);
  const cudaError_t freed = cudaFreeAsync(d, stream);
  const cudaError_t synced = cudaStreamSynchronize(stream);
  if (r.status == cudaSuccess) r.status = freed != cudaSuccess ? freed : synced;
  return r;
}

inline check_result cuda_failure(const char* what, cudaError_t status) {
  return check_result::fail(std::string("verification could not run (") + what + "): " +
                            cudaGetErrorName(status) + " " + cudaGetErrorString(status));
}

template <class T>
T element_at(const T* d, std::int64_t i) {
  T v;
  throw_on_cuda_error(cudaMemcpy(&v, d + i, sizeof(T), cudaMemcpyDeviceToHost),
                      "verify: reading one element");
  return v;
}

template <class Key, class Compare>
struct inversion_at {
  const Key* keys;
  Compare cmp;
  std::int64_t segment;  // 0: one segment
  __device__ bool operator()(std::int64_t i) const {
    if (segment != 0 && i % segment == 0) return false;
    return cmp(keys[i], keys[i - 1]);
  }
};

template <class Key, class Compare>
struct not_equivalent_at {
  const Key* a;
  const Key* b;
  Compare cmp;
  __device__ bool operator()(std::int64_t i) const { return !equivalent(cmp, a[i], b[i]); }
};

template <class Key>
struct bytes_differ_at {
  const Key* a;
  const Key* b;
  __device__ bool operator()(std::int64_t i) const { return !bytes_equal(a[i], b[i]); }
};

template <class Value>
struct invalid_value_at {
  const Value* values;
  std::uint64_t n;
  __device__ bool operator()(std::int64_t i) const { return index_of(values[i]) >= n; }
};

template <class Value>
__global__ void count_uses_kernel(const Value* values, std::int64_t n, unsigned* uses) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    atomicAdd(&uses[index_of(values[i])], 1u);
}

struct use_count_wrong_at {
  const unsigned* uses;
  __device__ bool operator()(std::int64_t j) const { return uses[j] != 1; }
};

template <class Key, class Value>
struct key_mismatch_at {
  const Key* input_keys;
  const Key* out_keys;
  const Value* out_values;
  __device__ bool operator()(std::int64_t i) const {
    return !bytes_equal(out_keys[i], input_keys[index_of(out_values[i])]);
  }
};

template <class Key, class Value, class Compare>
struct unstable_at {
  const Key* keys;
  const Value* values;
  Compare cmp;
  __device__ bool operator()(std::int64_t i) const {
    return equivalent(cmp, keys[i - 1], keys[i]) &&
           !(index_of(values[i - 1]) < index_of(values[i]));
  }
};

// Sorts d_keys[0, n) in place by `order` with CUB's merge sort.
template <class Key, class Order>
cudaError_t sort_copy_by(Key* d_keys, std::int64_t n, Order order, cudaStream_t stream) {
  std::size_t bytes = 0;
  cudaError_t status = cub::DeviceMergeSort::SortKeys(nullptr, bytes, d_keys, n, order, stream);
  if (status != cudaSuccess) return status;
  void* temp = nullptr;
  // Never null: a null pointer would turn the second call into another size query.
  status = cudaMallocAsync(&temp, std::max<std::size_t>(bytes, 1), stream);
  if (status != cudaSuccess) return status;
  status = cub::DeviceMergeSort::SortKeys(temp, bytes, d_keys, n, order, stream);
  const cudaError_t freed = cudaFreeAsync(temp, stream);
  return status != cudaSuccess ? status : freed;
}

template <class Key, class Compare>
cudaError_t sort_by_cmp_then_bytes(Key* d_keys, std::int64_t n, Compare cmp,
                                   cudaStream_t stream) {
  return sort_copy_by(d_keys, n, cmp_then_bytes<Compare>{cmp}, stream);
}

}  // namespace harness_detail

// d_keys[0, n) is non-decreasing under cmp; with segment > 0, only within each run of
// `segment` items (tile-local sorts).
template <class Key, class Compare>
check_result device_check_sorted(const Key* d_keys, std::int64_t n, Compare cmp,
                                 std::int64_t segment = 0, cudaStream_t stream = 0) {
  using namespace harness_detail;
  const scan_outcome r =
      find_violations(1, n, inversion_at<Key, Compare>{d_keys, cmp, segment}, stream);
  if (r.status != cudaSuccess) return cuda_failure("sortedness", r.status);
  if (!r.any()) return check_result::pass();
  const auto i = static_cast<std::int64_t>(r.found.first);
  return check_result::fail("not sorted: " + std::to_string(r.found.count) +
                            " inversion(s); first at index " + std::to_string(i) + ": keys[" +
                            std::to_string(i - 1) + "] = " + to_text(element_at(d_keys, i - 1)) +
                            ", keys[" + std::to_string(i) +
                            "] = " + to_text(element_at(d_keys, i)));
}

// d_output[0, n) holds exactly the items of d_input[0, n) (see the header comment).
template <class Key, class Compare>
check_result device_check_permutation(const Key* d_input, const Key* d_output, std::int64_t n,
                                      Compare cmp, cudaStream_t stream = 0) {
  using namespace harness_detail;
  if (n <= 0) return check_result::pass();
  device_buffer<Key> expected(n), got(n);
  cudaError_t status =
      cudaMemcpyAsync(expected.data(), d_input, expected.bytes(), cudaMemcpyDeviceToDevice, stream);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(got.data(), d_output, got.bytes(), cudaMemcpyDeviceToDevice, stream);
  if (status == cudaSuccess) status = sort_by_cmp_then_bytes(expected.data(), n, cmp, stream);
  if (status != cudaSuccess) return cuda_failure("sorting a copy of the input", status);

  scan_outcome r = find_violations(
      0, n, not_equivalent_at<Key, Compare>{d_output, expected.data(), cmp}, stream);
  if (r.status != cudaSuccess) return cuda_failure("comparing with the sorted input", r.status);
  if (r.any()) {
    const auto i = static_cast<std::int64_t>(r.found.first);
    return check_result::fail(
        "output differs from the sorted input at " + std::to_string(r.found.count) +
        " position(s); first at index " + std::to_string(i) + ": got " +
        to_text(element_at(d_output, i)) + ", expected (cmp-equivalent to) " +
        to_text(element_at(expected.data(), i)));
  }

  status = sort_by_cmp_then_bytes(got.data(), n, cmp, stream);
  if (status != cudaSuccess) return cuda_failure("sorting a copy of the output", status);
  r = find_violations(0, n, bytes_differ_at<Key>{got.data(), expected.data()}, stream);
  if (r.status != cudaSuccess) return cuda_failure("comparing bytes", r.status);
  if (r.any()) {
    const auto i = static_cast<std::int64_t>(r.found.first);
    return check_result::fail(
        "not a bitwise permutation of the input (an item was lost or duplicated among "
        "cmp-equal keys): at rank " + std::to_string(i) + " of the (cmp, bytes) order the "
        "output has " + to_text(element_at(got.data(), i)) + ", the input " +
        to_text(element_at(expected.data(), i)));
  }
  return check_result::pass();
}

// Order-agnostic: d_b[0, n) holds exactly the bit patterns of d_a[0, n), with multiplicity.
template <class Key>
check_result device_check_same_items(const Key* d_a, const Key* d_b, std::int64_t n,
                                     cudaStream_t stream = 0) {
  using namespace harness_detail;
  if (n <= 0) return check_result::pass();
  device_buffer<Key> x(n), y(n);
  cudaError_t status =
      cudaMemcpyAsync(x.data(), d_a, x.bytes(), cudaMemcpyDeviceToDevice, stream);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(y.data(), d_b, y.bytes(), cudaMemcpyDeviceToDevice, stream);
  if (status == cudaSuccess) status = sort_copy_by(x.data(), n, bytes_less{}, stream);
  if (status == cudaSuccess) status = sort_copy_by(y.data(), n, bytes_less{}, stream);
  if (status != cudaSuccess) return cuda_failure("sorting copies by bytes", status);
  const scan_outcome r = find_violations(0, n, bytes_differ_at<Key>{y.data(), x.data()}, stream);
  if (r.status != cudaSuccess) return cuda_failure("comparing bytes", r.status);
  if (!r.any()) return check_result::pass();
  const auto i = static_cast<std::int64_t>(r.found.first);
  return check_result::fail("not the same items: at rank " + std::to_string(i) +
                            " of the byte order the output has " +
                            to_text(element_at(y.data(), i)) + ", the input " +
                            to_text(element_at(x.data(), i)));
}

// Values are input indices that travelled with their keys (see the header comment).
template <class Key, class Value>
check_result device_check_pairs(const Key* d_input_keys, const Key* d_out_keys,
                                const Value* d_out_values, std::int64_t n,
                                cudaStream_t stream = 0) {
  using namespace harness_detail;
  if (n <= 0) return check_result::pass();
  scan_outcome r = find_violations(
      0, n, invalid_value_at<Value>{d_out_values, static_cast<std::uint64_t>(n)}, stream);
  if (r.status != cudaSuccess) return cuda_failure("value range", r.status);
  if (r.any()) {
    const auto i = static_cast<std::int64_t>(r.found.first);
    return check_result::fail(std::to_string(r.found.count) +
                              " value(s) are not input indices; first: values[" +
                              std::to_string(i) + "] = " + to_text(element_at(d_out_values, i)) +
                              " (n = " + std::to_string(n) + ")");
  }

  device_buffer<unsigned> uses(n);
  cudaError_t status = cudaMemsetAsync(uses.data(), 0, uses.bytes(), stream);
  if (status == cudaSuccess) {
    const std::int64_t blocks =
        std::min<std::int64_t>((n + scan_threads - 1) / scan_threads, scan_max_blocks);
    count_uses_kernel<<<static_cast<unsigned>(blocks), scan_threads, 0, stream>>>(d_out_values,
                                                                                  n, uses.data());
    status = cudaGetLastError();
  }
  if (status != cudaSuccess) return cuda_failure("counting indices", status);
  r = find_violations(0, n, use_count_wrong_at{uses.data()}, stream);
  if (r.status != cudaSuccess) return cuda_failure("counting indices", r.status);
  if (r.any()) {
    const auto j = static_cast<std::int64_t>(r.found.first);
    return check_result::fail(std::to_string(r.found.count) +
                              " input index(es) do not appear exactly once among the values; "
                              "first: index " + std::to_string(j) + " appears " +
                              std::to_string(element_at(uses.data(), j)) + " times");
  }

  r = find_violations(0, n, key_mismatch_at<Key, Value>{d_input_keys, d_out_keys, d_out_values},
                      stream);
  if (r.status != cudaSuccess) return cuda_failure("matching keys", r.status);
  if (r.any()) {
    const auto i = static_cast<std::int64_t>(r.found.first);
    const auto idx = static_cast<std::int64_t>(index_of(element_at(d_out_values, i)));
    return check_result::fail(std::to_string(r.found.count) +
                              " value(s) did not travel with their keys; first at index " +
                              std::to_string(i) + ": keys[" + std::to_string(i) + "] = " +
                              to_text(element_at(d_out_keys, i)) + " but values[" +
                              std::to_string(i) + "] names input " + std::to_string(idx) +
                              " whose key is " + to_text(element_at(d_input_keys, idx)));
  }
  return check_result::pass();
}

// Among cmp-equal neighbours the carried input indices increase.
template <class Key, class Value, class Compare>
check_result device_check_stable(const Key* d_out_keys, const Value* d_out_values,
                                 std::int64_t n, Compare cmp, cudaStream_t stream = 0) {
  using namespace harness_detail;
  const scan_outcome r = find_violations(
      1, n, unstable_at<Key, Value, Compare>{d_out_keys, d_out_values, cmp}, stream);
  if (r.status != cudaSuccess) return cuda_failure("stability", r.status);
  if (!r.any()) return check_result::pass();
  const auto i = static_cast<std::int64_t>(r.found.first);
  return check_result::fail(
      "not stable: " + std::to_string(r.found.count) + " violation(s); first at index " +
      std::to_string(i) + ": equal keys " + to_text(element_at(d_out_keys, i - 1)) + " and " +
      to_text(element_at(d_out_keys, i)) + " carry input indices " +
      index_text(index_of(element_at(d_out_values, i - 1))) + " then " +
      index_text(index_of(element_at(d_out_values, i))));
}

// Keys-only sort: d_output is sorted and a (bitwise) permutation of d_input.
template <class Key, class Compare>
check_result verify_keys(const Key* d_input, const Key* d_output, std::int64_t n, Compare cmp,
                         cudaStream_t stream = 0) {
  check_result r = device_check_sorted(d_output, n, cmp, 0, stream);
  if (r) r = device_check_permutation(d_input, d_output, n, cmp, stream);
  return r;
}

// Pair sort: keys sorted, values are input indices that travelled with their keys (which
// also makes the keys a bitwise permutation), and stable if `stable`.
template <class Key, class Value, class Compare>
check_result verify_pairs(const Key* d_input_keys, const Key* d_out_keys,
                          const Value* d_out_values, std::int64_t n, Compare cmp, bool stable,
                          cudaStream_t stream = 0) {
  check_result r = device_check_sorted(d_out_keys, n, cmp, 0, stream);
  if (r) r = device_check_pairs(d_input_keys, d_out_keys, d_out_values, n, stream);
  if (r && stable) r = device_check_stable(d_out_keys, d_out_values, n, cmp, stream);
  return r;
}

// ---- guard regions ------------------------------------------------------------------------

// A device array of n elements with `guard` poisoned elements on each side. The array starts
// guard * sizeof(T) bytes into the allocation, so with the default guard it keeps the 256-byte
// alignment of cudaMalloc.
template <class T>
class guarded_buffer {
 public:
  static constexpr std::int64_t default_guard = 256;
  static constexpr unsigned char poison_byte = 0xA5;

  explicit guarded_buffer(std::int64_t n, std::int64_t guard = default_guard)
      : n_(n), guard_(guard), storage_(n + 2 * guard) {
    poison();
  }
  explicit guarded_buffer(const std::vector<T>& host)
      : guarded_buffer(static_cast<std::int64_t>(host.size())) {
    copy_to_device(data(), host);
  }

  T* data() { return storage_.data() + guard_; }
  const T* data() const { return storage_.data() + guard_; }
  std::int64_t size() const { return n_; }
  std::int64_t guard() const { return guard_; }

  // (Re)writes the poison into both guard regions; synchronous.
  void poison() {
    const std::size_t bytes = static_cast<std::size_t>(guard_) * sizeof(T);
    if (bytes == 0) return;
    throw_on_cuda_error(cudaMemset(storage_.data(), poison_byte, bytes), "guard: poison");
    throw_on_cuda_error(cudaMemset(storage_.data() + guard_ + n_, poison_byte, bytes),
                        "guard: poison");
  }

  // Both guard regions still hold the poison. Synchronizes the device.
  check_result check_guard() const {
    const std::size_t bytes = static_cast<std::size_t>(guard_) * sizeof(T);
    if (bytes == 0) return check_result::pass();
    const cudaError_t synced = cudaDeviceSynchronize();
    if (synced != cudaSuccess) return harness_detail::cuda_failure("synchronizing", synced);
    std::vector<unsigned char> before(bytes), after(bytes);
    const cudaError_t s1 =
        cudaMemcpy(before.data(), storage_.data(), bytes, cudaMemcpyDeviceToHost);
    const cudaError_t s2 =
        cudaMemcpy(after.data(), storage_.data() + guard_ + n_, bytes, cudaMemcpyDeviceToHost);
    if (s1 != cudaSuccess) return harness_detail::cuda_failure("reading the guard", s1);
    if (s2 != cudaSuccess) return harness_detail::cuda_failure("reading the guard", s2);
    // The write nearest to the array is the most telling: scan outwards from it.
    for (std::size_t b = 0; b < bytes; ++b)
      if (after[b] != poison_byte)
        return check_result::fail("write past the end: guard element at index " +
                                  std::to_string(n_ + static_cast<std::int64_t>(b / sizeof(T))) +
                                  " (n = " + std::to_string(n_) + ") was overwritten");
    for (std::size_t b = bytes; b-- > 0;)
      if (before[b] != poison_byte)
        return check_result::fail(
            "write before the start: guard element at index " +
            std::to_string(static_cast<std::int64_t>(b / sizeof(T)) - guard_) +
            " was overwritten");
    return check_result::pass();
  }

  std::vector<T> to_host() const { return copy_to_host(data(), n_); }
  void copy_from_host(const std::vector<T>& host) {
    if (static_cast<std::int64_t>(host.size()) != n_)
      throw std::invalid_argument("guarded_buffer::copy_from_host: size mismatch");
    copy_to_device(data(), host);
  }

 private:
  std::int64_t n_;
  std::int64_t guard_;
  device_buffer<T> storage_;
};

}  // namespace gpusort_test
