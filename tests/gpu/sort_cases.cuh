// tests/gpu/sort_cases.cuh — one sort case, checked the way DESIGN.md §4 asks: the keys
// are generated on the GPU, sorted through the public two-phase API (or the convenience
// overload) inside guarded buffers, then verified on the GPU for order, for being a
// bitwise permutation of the input (pairs: every value still next to its key), for
// stability where the policy promises it, and for untouched guard regions.
#pragma once

#include "common/catch.hpp"
#include "common/device_buffer.cuh"
#include "common/distributions.cuh"
#include "common/key_types.cuh"
#include "common/skip.hpp"
#include "common/verify.cuh"

#include <gpusort/gpusort.cuh>

#include <cstdint>
#include <string>
#include <type_traits>

namespace gpusort_test {

enum class api { two_phase, convenience };

struct sort_case {
  distribution dist = distribution::uniform;
  std::int64_t n = 0;
  bool special_floats = false;  // NaN, ±0, ±inf, denormals mixed in (floating-point keys)
  api entry = api::two_phase;
  std::uint64_t seed = 0x1234;
  bool special_nan = true;  // NaN among the special floats (not under less or greater)
};

template <class Policy, class Key, class Value, class Compare>
void check_sort(const Policy& policy, const sort_case& c, Compare cmp, bool stable) {
  INFO("distribution " << name(c.dist) << ", n = " << c.n);
  constexpr bool pairs = !std::is_same<Value, gpusort::detail::no_value>::value;
  guarded_buffer<Key> keys(c.n);
  REQUIRE(generate(keys.data(), c.n, c.dist, c.seed) == cudaSuccess);
  if constexpr (has_float_specials<Key>) {
    if (c.special_floats)
      REQUIRE(add_special_floats(keys.data(), c.n, c.seed + 1, c.special_nan) == cudaSuccess);
  }
  device_buffer<Key> input(c.n);
  if (c.n > 0)
    REQUIRE(cudaMemcpy(input.data(), keys.data(), c.n * sizeof(Key), cudaMemcpyDeviceToDevice) ==
            cudaSuccess);

  guarded_buffer<std::conditional_t<pairs, Value, char>> values(pairs ? c.n : 0);
  cudaError_t status = cudaSuccess;
  if constexpr (pairs) {
    REQUIRE(iota_values(values.data(), c.n) == cudaSuccess);
    if (c.entry == api::convenience) {
      status = gpusort::sort_pairs(policy, keys.data(), values.data(), c.n, cmp);
    } else {
      std::size_t bytes = 0;
      REQUIRE(gpusort::sort_pairs(policy, nullptr, bytes, keys.data(), values.data(), c.n, cmp) ==
              cudaSuccess);
      device_buffer<char> temp(static_cast<std::int64_t>(bytes));
      status = gpusort::sort_pairs(policy, temp.data(), bytes, keys.data(), values.data(), c.n, cmp);
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    }
  } else {
    if (c.entry == api::convenience) {
      status = gpusort::sort_keys(policy, keys.data(), c.n, cmp);
    } else {
      std::size_t bytes = 0;
      REQUIRE(gpusort::sort_keys(policy, nullptr, bytes, keys.data(), c.n, cmp) == cudaSuccess);
      device_buffer<char> temp(static_cast<std::int64_t>(bytes));
      status = gpusort::sort_keys(policy, temp.data(), bytes, keys.data(), c.n, cmp);
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    }
  }
  REQUIRE(status == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  if constexpr (pairs) {
    REQUIRE(verify_pairs(input.data(), keys.data(), values.data(), c.n, cmp, stable));
    REQUIRE(values.check_guard());
  } else {
    REQUIRE(verify_keys(input.data(), keys.data(), c.n, cmp));
  }
  REQUIRE(keys.check_guard());
}

// Too little temp storage is refused before any work: the keys stay as they were.
template <class Policy, class Key>
void check_refuses_small_temp_storage(const Policy& policy, std::int64_t n) {
  guarded_buffer<Key> keys(n);
  REQUIRE(generate(keys.data(), n, distribution::uniform, 77) == cudaSuccess);
  const auto before = keys.to_host();
  std::size_t bytes = 0;
  REQUIRE(gpusort::sort_keys(policy, nullptr, bytes, keys.data(), n) == cudaSuccess);
  REQUIRE(bytes > 0);
  device_buffer<char> temp(static_cast<std::int64_t>(bytes));
  std::size_t too_few = bytes - 1;
  CHECK(gpusort::sort_keys(policy, temp.data(), too_few, keys.data(), n) == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(keys.to_host() == before);
}

// The temp storage may start at any address (CUB's convention: the sort carves its arrays
// from the first aligned one, the size query covers the skew): u32 keys and u32:u32 pairs
// sorted with storage 1, 4, 8 and 100 bytes past an allocation's start.
template <class Policy>
void check_temp_storage_at_any_address(const Policy& policy, std::int64_t n) {
  for (const std::size_t skew : {1, 4, 8, 100}) {
    CAPTURE(skew, n);
    guarded_buffer<std::uint32_t> keys(n);
    guarded_buffer<std::uint32_t> values(n);
    REQUIRE(generate(keys.data(), n, distribution::uniform, 31 + skew) == cudaSuccess);
    REQUIRE(iota_values(values.data(), n) == cudaSuccess);
    device_buffer<std::uint32_t> input(n);
    REQUIRE(cudaMemcpy(input.data(), keys.data(), n * sizeof(std::uint32_t),
                       cudaMemcpyDeviceToDevice) == cudaSuccess);
    std::size_t bytes = 0;
    REQUIRE(gpusort::sort_pairs(policy, nullptr, bytes, keys.data(), values.data(), n) == cudaSuccess);
    device_buffer<char> temp(static_cast<std::int64_t>(bytes + skew));
    REQUIRE(gpusort::sort_pairs(policy, temp.data() + skew, bytes, keys.data(), values.data(), n) ==
            cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(verify_pairs(input.data(), keys.data(), values.data(), n, gpusort::less{}, false));
    REQUIRE(cudaMemcpy(keys.data(), input.data(), n * sizeof(std::uint32_t),
                       cudaMemcpyDeviceToDevice) == cudaSuccess);
    REQUIRE(gpusort::sort_keys(policy, nullptr, bytes, keys.data(), n) == cudaSuccess);
    device_buffer<char> key_temp(static_cast<std::int64_t>(bytes + skew));
    REQUIRE(gpusort::sort_keys(policy, key_temp.data() + skew, bytes, keys.data(), n) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(verify_keys(input.data(), keys.data(), n, gpusort::less{}));
    REQUIRE(keys.check_guard());
    REQUIRE(values.check_guard());
  }
}

// An error that an earlier CUDA call left pending is returned before any work (a launch
// check part-way would have reported it with the work half done): the keys stay as they
// were, and once the error is read, the same call sorts.
template <class Policy>
void check_pending_error_returned_first(const Policy& policy, std::int64_t n) {
  guarded_buffer<std::uint32_t> keys(n);
  REQUIRE(generate(keys.data(), n, distribution::uniform, 41) == cudaSuccess);
  device_buffer<std::uint32_t> input(n);
  REQUIRE(cudaMemcpy(input.data(), keys.data(), n * sizeof(std::uint32_t),
                     cudaMemcpyDeviceToDevice) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto before = keys.to_host();
  std::size_t bytes = 0;
  REQUIRE(gpusort::sort_keys(policy, nullptr, bytes, keys.data(), n) == cudaSuccess);
  device_buffer<char> temp(static_cast<std::int64_t>(bytes));
  void* unobtainable = nullptr;
  const cudaError_t pending = cudaMalloc(&unobtainable, std::size_t(1) << 62);
  REQUIRE(pending != cudaSuccess);
  REQUIRE(cudaPeekAtLastError() == pending);
  CHECK(gpusort::sort_keys(policy, temp.data(), bytes, keys.data(), n) == pending);
  CHECK(gpusort::sort_keys(policy, keys.data(), n) == pending);
  REQUIRE(cudaGetLastError() == pending);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(keys.to_host() == before);
  REQUIRE(gpusort::sort_keys(policy, temp.data(), bytes, keys.data(), n) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(verify_keys(input.data(), keys.data(), n, gpusort::less{}));
  REQUIRE(keys.check_guard());
}

// The key types and comparators of DESIGN.md §4 beyond u32 under less (which each policy's
// main cases cover), in two halves so that a policy's tests can compile them in two
// translation units. `stable`: the policy promises stability (checked on the pairs).
template <class Policy>
void check_integer_key_types(const Policy& p, const sort_case& c, bool stable) {
  using gpusort::detail::no_value;
  check_sort<Policy, std::int32_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<Policy, std::uint64_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<Policy, std::int64_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<Policy, std::uint32_t, no_value>(p, c, gpusort::greater{}, false);
  check_sort<Policy, std::uint32_t, std::uint64_t>(p, c, gpusort::greater{}, stable);
  check_sort<Policy, std::uint64_t, std::uint32_t>(p, c, gpusort::less{}, stable);
}

// float and double under total_less (with NaN, ±0, ±inf when c.special_floats) and under less
// and greater (the same without NaN, which leaves those two no strict weak ordering; -0 and
// +0 are equivalent there, so pairs check a stable policy's promise among them; unstable
// policies sort float keys alone as order words from 2^16 keys, detail/total_order_words.cuh),
// and the 16- and 12-byte structs under their lexicographic comparators.
template <class Policy>
void check_float_and_struct_key_types(const Policy& p, const sort_case& c) {
  using gpusort::detail::no_value;
  check_sort<Policy, float, no_value>(p, c, gpusort::total_less{}, false);
  check_sort<Policy, double, no_value>(p, c, gpusort::total_less{}, false);
  sort_case no_nan = c;
  no_nan.special_nan = false;
  check_sort<Policy, float, no_value>(p, no_nan, gpusort::less{}, false);
  check_sort<Policy, float, no_value>(p, no_nan, gpusort::greater{}, false);
  check_sort<Policy, double, no_value>(p, no_nan, gpusort::greater{}, false);
  check_sort<Policy, float, std::uint32_t>(p, no_nan, gpusort::less{},
                                           gpusort::detail::algorithm<Policy>::stable);
  check_sort<Policy, key16, no_value>(p, c, key16_less{}, false);
  check_sort<Policy, key12, no_value>(p, c, key12_less{}, false);
}

// Keys narrower than a 4-byte word (DESIGN.md §2: any trivially copyable key), whose items
// the sorts' shared-memory planes, staged copies and packed words must pad or pack: u16 under
// less, i16 under greater, u8 under less, __half and __nv_bfloat16 under total_less (with NaN,
// ±0, ±inf, denormals when c.special_floats) and under less or greater (the same without NaN,
// -0 and +0 then equivalent but not identical); pairs of u16 and __half keys with u32 values
// and, where n fits their indices, u16 keys with u16 values. At most 2^16 distinct keys: from
// n ~ 2^16 on every input ties heavily. Pairs are checked stable where the policy promises it.
template <class Policy>
void check_narrow_key_types(const Policy& p, const sort_case& c) {
  using gpusort::detail::no_value;
  constexpr bool stable = gpusort::detail::algorithm<Policy>::stable;
  sort_case no_nan = c;
  no_nan.special_nan = false;
  check_sort<Policy, std::uint16_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<Policy, std::int16_t, no_value>(p, c, gpusort::greater{}, false);
  check_sort<Policy, std::uint8_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<Policy, __half, no_value>(p, c, gpusort::total_less{}, false);
  check_sort<Policy, __half, no_value>(p, no_nan, gpusort::less{}, false);
  check_sort<Policy, __nv_bfloat16, no_value>(p, c, gpusort::total_less{}, false);
  check_sort<Policy, __nv_bfloat16, no_value>(p, no_nan, gpusort::greater{}, false);
  check_sort<Policy, std::uint16_t, std::uint32_t>(p, c, gpusort::less{}, stable);
  check_sort<Policy, __half, std::uint32_t>(p, c, gpusort::total_less{}, stable);
  check_sort<Policy, __half, std::uint32_t>(p, no_nan, gpusort::less{}, stable);
  if (static_cast<std::uint64_t>(c.n) <= max_index_count<std::uint16_t>())
    check_sort<Policy, std::uint16_t, std::uint16_t>(p, c, gpusort::less{}, stable);
}

// A few of check_narrow_key_types' sorts, for the sanitizers ([sanitize] cases): u16 keys,
// __half keys with u32 values under total_less with specials, and, where n fits their
// indices, u16 keys with u16 values.
template <class Policy>
void check_narrow_key_types_briefly(const Policy& p, const sort_case& c) {
  using gpusort::detail::no_value;
  constexpr bool stable = gpusort::detail::algorithm<Policy>::stable;
  check_sort<Policy, std::uint16_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<Policy, __half, std::uint32_t>(p, c, gpusort::total_less{}, stable);
  if (static_cast<std::uint64_t>(c.n) <= max_index_count<std::uint16_t>())
    check_sort<Policy, std::uint16_t, std::uint16_t>(p, c, gpusort::less{}, stable);
}

// A policy whose fields it cannot honour for Key (with or without u32 values) is refused by
// the entry points before any work: the keys stay as they were.
template <class Policy, class Key = std::uint32_t>
void check_refuses_policy(const Policy& bad) {
  guarded_buffer<Key> keys(5000);
  guarded_buffer<std::uint32_t> values(5000);
  REQUIRE(generate(keys.data(), 5000, distribution::uniform, 3) == cudaSuccess);
  const auto before = keys.to_host();
  std::size_t bytes = 0;
  CHECK(gpusort::sort_keys(bad, nullptr, bytes, keys.data(), 5000) == cudaErrorInvalidValue);
  CHECK(gpusort::sort_keys(bad, keys.data(), 5000) == cudaErrorInvalidValue);
  CHECK(gpusort::sort_pairs(bad, keys.data(), values.data(), 5000) == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(keys.to_host() == before);
  REQUIRE(keys.check_guard());
}

// 64-bit num_items: more than 2^31 u32 keys (8.6 GB; with the sort's temp storage and the
// checks' copies about 7 times that must be free, else the case says it was skipped).
template <class Policy>
void check_more_than_2_31_keys(const Policy& policy) {
  std::size_t free_bytes = 0, total_bytes = 0;
  REQUIRE(cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess);
  const std::int64_t n = (std::int64_t(1) << 31) + 4097;
  if (free_bytes < 7 * static_cast<std::size_t>(n) * sizeof(std::uint32_t)) {
    skip_case(std::to_string(free_bytes >> 20) + " MiB free is too little for 2^31 + 4097 keys");
    return;
  }
  check_sort<Policy, std::uint32_t, gpusort::detail::no_value>(
      policy, {distribution::uniform, n}, gpusort::less{}, false);
}

// Sizes of DESIGN.md §4 below the large cases: empty, tiny, around warp and tile edges and
// the single-launch limit of policy::merge (2^14), a prime near 10^6.
inline constexpr std::int64_t awkward_sizes[] = {0,     1,     2,     31,    32,    33,
                                                 127,   128,   129,   4095,  4096,  4097,
                                                 16383, 16384, 16385, 65537, 999983};

}  // namespace gpusort_test
