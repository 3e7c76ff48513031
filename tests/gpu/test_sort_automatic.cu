// policy::automatic through the public entry points: the sorts it dispatches to on both
// sides of its policy switch, stability where its choice promises it, and a sort (merge and
// automatic) captured in a CUDA graph. (A file apart from test_sort_merge.cu because it also
// instantiates the randomized sort: the two compile in parallel.)
#include "common/staged_sort.cuh"
#include "sort_cases.cuh"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;

TEST_CASE("automatic: sorts through the policy it picks", "[merge][automatic]") {
  const gpusort::policy::automatic automatic{};
  const std::int64_t n = GENERATE(std::int64_t(0), std::int64_t(4097), std::int64_t(999983));
  check_sort<gpusort::policy::automatic, std::uint32_t, no_value>(automatic, {distribution::zipf, n},
                                                                  gpusort::less{}, false);
  check_sort<gpusort::policy::automatic, std::uint64_t, std::uint32_t>(
      automatic, {distribution::few_distinct_17, n}, gpusort::less{}, true);
}

// Sorts n random u32 keys on a non-blocking stream of the test's own (not the legacy stream
// that the other cases use); whether the result is the host's sort.
template <class Policy>
bool sort_on_own_stream(const Policy& policy, std::int64_t n) {
  staged_sort<Policy> staged(policy, n);
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(staged.sort(policy, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  cudaStreamDestroy(stream);
  return staged.sorted_like_host();
}

// Just below and above the sizes from which 4- and 8-byte keys without values go to the
// randomized sort: both sides sorted, on inputs that stress each policy differently.
TEST_CASE("automatic: 4- and 8-byte keys on both sides of its policy switch",
          "[merge][automatic][large]") {
  using gpusort::detail::automatic_randomized_from;
  const gpusort::policy::automatic automatic{};
  const auto dist = GENERATE(distribution::uniform, distribution::all_equal, distribution::sorted,
                             distribution::few_distinct_2);
  const std::int64_t past = GENERATE(std::int64_t(-1), std::int64_t(3));
  const std::int64_t n32 = automatic_randomized_from<std::uint32_t, no_value>() + past;
  const std::int64_t n64 = automatic_randomized_from<std::uint64_t, no_value>() + past;
  check_sort<gpusort::policy::automatic, std::uint32_t, no_value>(automatic, {dist, n32},
                                                                  gpusort::less{}, false);
  check_sort<gpusort::policy::automatic, float, no_value>(automatic, {dist, n32, true},
                                                          gpusort::total_less{}, false);
  check_sort<gpusort::policy::automatic, std::uint64_t, no_value>(automatic, {dist, n64},
                                                                  gpusort::less{}, false);
  check_sort<gpusort::policy::automatic, double, no_value>(automatic, {dist, n64, true},
                                                           gpusort::total_less{}, false);
}

// 1- and 2-byte keys without values go to the randomized sort from their own sizes; 16-bit
// floats under total_less as their u16 words, so they switch where u16 keys do.
TEST_CASE("automatic: 1- and 2-byte keys on both sides of their policy switch",
          "[merge][automatic][narrow][large]") {
  using gpusort::detail::automatic_randomized_from;
  const gpusort::policy::automatic automatic{};
  const auto dist = GENERATE(distribution::uniform, distribution::all_equal, distribution::sorted,
                             distribution::few_distinct_2);
  const std::int64_t past = GENERATE(std::int64_t(-1), std::int64_t(3));
  const std::int64_t n8 = automatic_randomized_from<std::uint8_t, no_value>() + past;
  const std::int64_t n16 = automatic_randomized_from<std::uint16_t, no_value>() + past;
  check_sort<gpusort::policy::automatic, std::uint8_t, no_value>(automatic, {dist, n8},
                                                                 gpusort::less{}, false);
  check_sort<gpusort::policy::automatic, std::uint16_t, no_value>(automatic, {dist, n16},
                                                                  gpusort::less{}, false);
  check_sort<gpusort::policy::automatic, std::int16_t, no_value>(automatic, {dist, n16},
                                                                 gpusort::greater{}, false);
  check_sort<gpusort::policy::automatic, __half, no_value>(automatic, {dist, n16, true},
                                                           gpusort::total_less{}, false);
}

TEST_CASE("automatic: stays stable for 8-byte keys whose ties are not identical",
          "[merge][automatic][large]") {
  // Key i: a high word from 16 values, its index as the low word. Stable: within a high
  // word, the low words ascend. Past the size where keys with identical ties would go to
  // the randomized sort.
  const std::int64_t n = gpusort::detail::automatic_randomized_from<std::uint64_t,
                                                                    no_value>() + 3;
  std::vector<std::uint64_t> host(static_cast<std::size_t>(n));
  std::mt19937 rng(5);
  for (std::int64_t i = 0; i < n; ++i) host[i] = (std::uint64_t(rng() % 16) << 32) | std::uint64_t(i);
  device_buffer<std::uint64_t> keys(host);
  REQUIRE(gpusort::sort_keys(gpusort::policy::automatic{}, keys.data(), n, high_word_less{}) ==
          cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<std::uint64_t> expected = host;
  std::stable_sort(expected.begin(), expected.end(), high_word_less{});
  REQUIRE(keys.to_host() == expected);
}

// Sizes on both sides of the single-launch path (at most 2^14 keys) and of one sort tile.
TEST_CASE("merge and automatic: a sort captured in a CUDA graph replays correctly", "[merge][automatic]") {
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(9999),
                                  std::int64_t(1) << 14, (std::int64_t(1) << 14) + 1,
                                  std::int64_t(100003));
  CAPTURE(n);
  CHECK(sort_on_own_stream(gpusort::policy::merge{}, n));
  CHECK(gpusort_test::replay_captured_sort(gpusort::policy::merge{}, n) >= 1);
  CHECK(gpusort_test::replay_captured_sort(gpusort::policy::automatic{}, n) >= 1);
}

TEST_CASE("automatic: temp storage at any address; an error left pending is returned before any work",
          "[automatic]") {
  check_temp_storage_at_any_address(gpusort::policy::automatic{}, 100000);
  check_pending_error_returned_first(gpusort::policy::automatic{}, 100000);
}
