// device::merge: stable merge of two sorted ranges of unequal lengths (keys and pairs),
// every distribution, empty sides, the error contract.
#include "common/catch.hpp"
#include "common/device_buffer.cuh"
#include "common/distributions.cuh"
#include "common/key_types.cuh"
#include "common/verify.cuh"

#include <gpusort/gpusort.cuh>

#include <cstdint>
#include <type_traits>

using namespace gpusort_test;

namespace {

// a = input[0, a_count) sorted, b = input[a_count, n) sorted; values are input indices, so
// verify_pairs with stable = true checks that ties take a first, each side in order.
template <class Key, class Value, class Compare>
void check_merge(distribution dist, std::int64_t a_count, std::int64_t b_count, Compare cmp) {
  INFO("distribution " << name(dist) << ", a " << a_count << ", b " << b_count);
  constexpr bool pairs = !std::is_same<Value, gpusort::detail::no_value>::value;
  using stored_value = std::conditional_t<pairs, Value, char>;
  const std::int64_t n = a_count + b_count;
  device_buffer<Key> keys(n), input(n);
  REQUIRE(generate(keys.data(), n, dist, 0xabc) == cudaSuccess);
  REQUIRE(gpusort::sort_keys(gpusort::policy::merge{}, keys.data(), a_count, cmp) == cudaSuccess);
  REQUIRE(gpusort::sort_keys(gpusort::policy::merge{}, keys.data() + a_count, b_count, cmp) ==
          cudaSuccess);
  if (n > 0)
    REQUIRE(cudaMemcpy(input.data(), keys.data(), n * sizeof(Key), cudaMemcpyDeviceToDevice) ==
            cudaSuccess);
  // Values: positions in a ++ b, so stable = ties take a first, each side in its order.
  device_buffer<stored_value> values(pairs ? n : 0);
  if constexpr (pairs) REQUIRE(iota_values(values.data(), n) == cudaSuccess);
  guarded_buffer<Key> out(n);
  guarded_buffer<stored_value> out_values(pairs ? n : 0);
  std::size_t bytes = 0;
  cudaError_t status;
  if constexpr (pairs) {
    REQUIRE(gpusort::device::merge(nullptr, bytes, keys.data(), values.data(), a_count,
                                   keys.data() + a_count, values.data() + a_count, b_count,
                                   out.data(), out_values.data(), cmp) == cudaSuccess);
    device_buffer<char> temp(static_cast<std::int64_t>(bytes));
    status = gpusort::device::merge(temp.data(), bytes, keys.data(), values.data(), a_count,
                                    keys.data() + a_count, values.data() + a_count, b_count,
                                    out.data(), out_values.data(), cmp);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  } else {
    REQUIRE(gpusort::device::merge(nullptr, bytes, keys.data(), a_count, keys.data() + a_count,
                                   b_count, out.data(), cmp) == cudaSuccess);
    device_buffer<char> temp(static_cast<std::int64_t>(bytes));
    status = gpusort::device::merge(temp.data(), bytes, keys.data(), a_count,
                                    keys.data() + a_count, b_count, out.data(), cmp);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
  REQUIRE(status == cudaSuccess);
  if constexpr (pairs) {
    REQUIRE(verify_pairs(input.data(), out.data(), out_values.data(), n, cmp, true));
    REQUIRE(out_values.check_guard());
  } else {
    REQUIRE(verify_keys(input.data(), out.data(), n, cmp));
  }
  REQUIRE(out.check_guard());
}

constexpr std::int64_t side_sizes[] = {0, 1, 33, 4097, 65537, 999983};

}  // namespace

TEST_CASE("device::merge: u32 keys, every distribution and unequal sides", "[device_merge]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t a = GENERATE(from_range(std::begin(side_sizes), std::end(side_sizes)));
  const std::int64_t b = GENERATE(std::int64_t(0), std::int64_t(129), std::int64_t(300007));
  check_merge<std::uint32_t, gpusort::detail::no_value>(dist, a, b, gpusort::less{});
}

// From merge_wide_tiles_from outputs keys of up to 4 bytes merge in the wide tiles.
TEST_CASE("device::merge: wide tiles from 2^22 outputs", "[device_merge]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2,
                             distribution::sorted, distribution::reverse_sorted);
  check_merge<std::uint32_t, gpusort::detail::no_value>(dist, 3 * (std::int64_t(1) << 20) + 5,
                                                        (std::int64_t(1) << 20) + 3, gpusort::less{});
  check_merge<std::uint16_t, gpusort::detail::no_value>(dist, 1000003, 3194307, gpusort::greater{});
}

TEST_CASE("device::merge: pairs are stable (ties take a first)", "[device_merge]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2,
                             distribution::all_equal, distribution::zipf);
  const std::int64_t a = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(1) << 20);
  const std::int64_t b = GENERATE(std::int64_t(0), std::int64_t(5), std::int64_t(777777));
  check_merge<std::uint32_t, std::uint32_t>(dist, a, b, gpusort::less{});
  check_merge<key16, value16>(dist, a, b, key16_less{});
  check_merge<std::uint64_t, std::uint64_t>(dist, a, b, gpusort::greater{});
}

TEST_CASE("device::merge: bad arguments are refused before any work", "[device_merge]") {
  device_buffer<std::uint32_t> a(10), out(20);
  std::size_t bytes = 0;
  REQUIRE(gpusort::device::merge(nullptr, bytes, a.data(), 10, a.data(), 10, out.data()) == cudaSuccess);
  device_buffer<char> temp(static_cast<std::int64_t>(bytes));
  std::size_t too_few = bytes - 1;
  CHECK(gpusort::device::merge(temp.data(), too_few, a.data(), 10, a.data(), 10, out.data()) ==
        cudaErrorInvalidValue);
  CHECK(gpusort::device::merge(temp.data(), bytes, a.data(), -1, a.data(), 10, out.data()) ==
        cudaErrorInvalidValue);
  CHECK(gpusort::device::merge(temp.data(), bytes, static_cast<std::uint32_t*>(nullptr), 10,
                               a.data(), 10, out.data()) == cudaErrorInvalidValue);
  CHECK(gpusort::device::merge(temp.data(), bytes, a.data(), 10, a.data(), 10,
                               static_cast<std::uint32_t*>(nullptr)) == cudaErrorInvalidValue);
}
