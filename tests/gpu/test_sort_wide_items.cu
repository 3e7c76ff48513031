// Items wide enough that the sorts' shapes shrink to fit static shared memory (key64, 64
// bytes: merge's tiles and warpsort's warp buffers were sized without some of their storage
// and failed to compile): every policy sorts them, keys alone and with values, across its
// tile and pass edges. randomized_sample's sample and splitter tree outgrow what a block
// may opt in to: it sorts what one block's segment holds and refuses more, the keys left as
// they were and no error left pending.
#include "sort_cases.cuh"

#include <gpusort/device/sort_segments.cuh>

#include <cstdint>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {

constexpr distribution wide_distributions[] = {
    distribution::uniform,      distribution::few_distinct_17, distribution::sorted,
    distribution::reverse_sorted, distribution::all_equal,     distribution::organ_pipe};

// Sizes around one tile, several merge passes, and a prime near 10^6 (64 MB of keys).
constexpr std::int64_t wide_sizes[] = {0, 1, 33, 4097, 65537, 999983};

template <class Policy>
void check_wide_items(const Policy& policy) {
  constexpr bool stable = gpusort::detail::algorithm<Policy>::stable;
  const auto dist = GENERATE(from_range(std::begin(wide_distributions), std::end(wide_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(wide_sizes), std::end(wide_sizes)));
  check_sort<Policy, key64, no_value>(policy, {dist, n}, key64_less{}, false);
  check_sort<Policy, key64, std::uint64_t>(policy, {dist, n}, key64_less{}, stable);
}

}  // namespace

TEST_CASE("merge: 64-byte keys", "[merge][wide]") {
  check_wide_items(gpusort::policy::merge{});
}

TEST_CASE("warpsort: 64-byte keys", "[warpsort][wide]") {
  check_wide_items(gpusort::policy::warpsort{});
}

// Tuned, t is 64 below 2^20 items; a buffer of 256 leaves room for two warps a block.
TEST_CASE("warpsort: 64-byte keys, t = 256", "[warpsort][wide]") {
  check_wide_items(gpusort::policy::warpsort{256});
}

TEST_CASE("deterministic_sample: 64-byte keys", "[deterministic_sample][wide]") {
  check_wide_items(gpusort::policy::deterministic_sample{});
}

TEST_CASE("automatic: 64-byte keys", "[automatic][wide]") {
  check_wide_items(gpusort::policy::automatic{});
}

TEST_CASE("randomized_sample: 64-byte keys within one block's segment, refused beyond",
          "[randomized_sample][wide]") {
  const gpusort::policy::randomized_sample policy{};
  constexpr std::int64_t one_segment = gpusort::device::max_segment_items<key64, no_value>();
  const auto dist = GENERATE(from_range(std::begin(wide_distributions), std::end(wide_distributions)));
  for (const std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(33), one_segment})
    check_sort<gpusort::policy::randomized_sample, key64, no_value>(policy, {dist, n}, key64_less{},
                                                                    false);

  const std::int64_t n = one_segment + 1;
  guarded_buffer<key64> keys(n);
  REQUIRE(generate(keys.data(), n, dist, 5) == cudaSuccess);
  const auto before = keys.to_host();
  std::size_t bytes = 0;
  REQUIRE(gpusort::sort_keys(policy, nullptr, bytes, keys.data(), n, key64_less{}) == cudaSuccess);
  device_buffer<char> temp(static_cast<std::int64_t>(bytes));
  CHECK(gpusort::sort_keys(policy, temp.data(), bytes, keys.data(), n, key64_less{}) ==
        cudaErrorInvalidValue);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(keys.to_host() == before);
  REQUIRE(keys.check_guard());
}

// The shrunken shapes (merge 1 item a thread, warpsort 2 warps a block at t = 256; key64 with 8-byte values) under
// memcheck and racecheck, at sizes that keep the tools' runs short.
TEST_CASE("64-byte keys, small sizes for the sanitizers", "[wide][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537));
  check_sort<gpusort::policy::merge, key64, std::uint64_t>({}, {distribution::uniform, n},
                                                           key64_less{}, true);
  check_sort<gpusort::policy::warpsort, key64, std::uint64_t>({256}, {distribution::uniform, n},
                                                              key64_less{}, false);
  check_sort<gpusort::policy::deterministic_sample, key64, std::uint64_t>(
      {}, {distribution::uniform, n}, key64_less{}, false);
}
