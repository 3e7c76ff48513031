// policy::merge through the public entry points: every distribution and awkward size,
// every key type of DESIGN.md §4, pairs, stability, 2^24 and 2^28 keys, error contract.
// policy::automatic, which dispatches to merge below its switch sizes, and the CUDA graph
// capture of both: test_sort_automatic.cu (a file of its own so that its instantiations of
// every policy compile in parallel with these).
#include "sort_cases.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {
const gpusort::policy::merge merge_policy{};
}

TEST_CASE("merge: u32 keys, every distribution and awkward size", "[merge]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(merge_policy, {dist, n},
                                                              gpusort::less{}, false);
}

TEST_CASE("merge: pairs are stable on every distribution", "[merge]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(16383), std::int64_t(65537),
                                  std::int64_t(1) << 20);
  check_sort<gpusort::policy::merge, std::uint32_t, std::uint32_t>(merge_policy, {dist, n},
                                                                   gpusort::less{}, true);
  check_sort<gpusort::policy::merge, key16, value16>(merge_policy, {dist, n}, key16_less{}, true);
}

// Keys with an order word (integers of at most 32 bits under less / greater, float under
// total_less) carry their ranks packed into one 64-bit word (detail::rank_codec).
TEST_CASE("merge: pairs whose keys pack with their ranks stay stable", "[merge]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2,
                             distribution::few_distinct_17, distribution::all_equal,
                             distribution::sorted, distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(65537),
                                  std::int64_t(999983));
  const sort_case c{dist, n, /*special_floats=*/true};
  check_sort<gpusort::policy::merge, std::int32_t, std::uint32_t>(merge_policy, c, gpusort::less{}, true);
  check_sort<gpusort::policy::merge, std::int32_t, std::uint32_t>(merge_policy, c, gpusort::greater{}, true);
  check_sort<gpusort::policy::merge, float, std::uint32_t>(merge_policy, c, gpusort::total_less{}, true);
}

// The passes' two tile widths of keys of up to 4 bytes, each forced by network_width where
// the other would be tuned: the wide one below merge_wide_tiles_from (where the first runs
// are single sort tiles, so a wide merge tile spans a whole pair), the narrow one above it.
// float keys under less merge ranked (-0 and +0 are ties of different bits).
TEST_CASE("merge: either tile width of 4-byte keys, forced by network_width", "[merge]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2,
                             distribution::sorted, distribution::reverse_sorted);
  gpusort::policy::merge narrow{}, wide{};
  narrow.network_width = 16;
  wide.network_width = 32;
  for (const std::int64_t n : {std::int64_t(20011), std::int64_t(999983)}) {
    sort_case c{dist, n, /*special_floats=*/true};
    c.special_nan = false;
    check_sort<gpusort::policy::merge, std::uint32_t, no_value>(wide, c, gpusort::less{}, false);
    check_sort<gpusort::policy::merge, std::int32_t, no_value>(wide, c, gpusort::greater{}, false);
    check_sort<gpusort::policy::merge, std::uint16_t, no_value>(wide, c, gpusort::less{}, false);
    check_sort<gpusort::policy::merge, float, no_value>(wide, c, gpusort::less{}, false);
  }
  const sort_case large{dist, (std::int64_t(1) << 22) + 4097};
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(narrow, large, gpusort::less{}, false);
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(merge_policy, large, gpusort::less{},
                                                              false);
}

TEST_CASE("merge: wide tiles under the sanitizers", "[merge][sanitize]") {
  gpusort::policy::merge wide{};
  wide.network_width = 32;
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(
      wide, {distribution::few_distinct_17, 65537}, gpusort::less{}, false);
  sort_case c{distribution::uniform, 20011, /*special_floats=*/true};
  c.special_nan = false;
  check_sort<gpusort::policy::merge, float, no_value>(wide, c, gpusort::less{}, false);
}

// Ranked items without a packed rank (16-byte keys here) sort their tiles by staged merges
// (detail/staged_sort.cuh): tiles shorter than a thread's slots, not a power of two, and
// full, with ties everywhere, pairs stable, under the sanitizers.
TEST_CASE("merge: tiles sorted by staged merges, under the sanitizers", "[merge][sanitize]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(std::int64_t(3), std::int64_t(1021), std::int64_t(4097));
  check_sort<gpusort::policy::merge, key16, value16>(merge_policy, {dist, n}, key16_less{}, true);
}

TEST_CASE("merge: every key type and comparator", "[merge]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  const sort_case c{dist, n, /*special_floats=*/true};
  check_integer_key_types(merge_policy, c, /*stable=*/true);
  check_float_and_struct_key_types(merge_policy, c);
}

TEST_CASE("merge: the convenience overloads on the default stream", "[merge][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(0), std::int64_t(129), std::int64_t(65537));
  const sort_case c{distribution::gaussian, n, false, api::convenience};
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(merge_policy, c, gpusort::less{}, false);
  check_sort<gpusort::policy::merge, std::uint32_t, std::uint32_t>(merge_policy, c, gpusort::less{}, true);
}

TEST_CASE("merge: 2^24 keys on every distribution", "[merge][large]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(merge_policy, {dist, std::int64_t(1) << 24},
                                                              gpusort::less{}, false);
}

// From 2^23 items keys whose ties are identical, and pairs whose keys pack with their ranks,
// start from warp runs (merge_warp_runs_from): a short last run padded (keys with copies of
// their largest, pairs with absent ranked items) or, within one warp's run, tagged, sorted by
// a block, by a warp or as one chunk; pairs stay stable.
TEST_CASE("merge: keys and pairs from warp runs, the last one short", "[merge][large]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2, distribution::reverse_sorted);
  const std::int64_t n = GENERATE((std::int64_t(1) << 23) - 1, (std::int64_t(1) << 23) + 12345,
                                  (std::int64_t(1) << 23) + 4000, (std::int64_t(1) << 23) + 700);
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(merge_policy, {dist, n}, gpusort::less{}, false);
  check_sort<gpusort::policy::merge, std::int32_t, no_value>(merge_policy, {dist, n}, gpusort::greater{}, false);
  check_sort<gpusort::policy::merge, std::uint64_t, no_value>(merge_policy, {dist, n}, gpusort::less{}, false);
  check_sort<gpusort::policy::merge, float, no_value>(merge_policy, {dist, n, true}, gpusort::total_less{}, false);
  check_sort<gpusort::policy::merge, std::uint32_t, std::uint32_t>(merge_policy, {dist, n}, gpusort::less{}, true);
  check_sort<gpusort::policy::merge, std::int32_t, std::uint32_t>(merge_policy, {dist, n}, gpusort::greater{}, true);
  check_sort<gpusort::policy::merge, float, std::uint32_t>(merge_policy, {dist, n, true}, gpusort::total_less{}, true);
  // 8-byte values wait beside runs of 4K (runs as long as the keys' would hold one block an SM).
  check_sort<gpusort::policy::merge, std::uint32_t, std::uint64_t>(merge_policy, {dist, n}, gpusort::greater{}, true);
}

// Floats alone under less or greater: -0 and +0 tie with different bits, so a stable sort
// keeps them in input order. Below zero_order_words_from keys pack with their ranks
// (detail::zero_tied_word); from there they sort as order words and the zeros' signs are
// written back in input order (detail/zero_signs.cuh), a path that `through_words` takes at
// any size. The output is std::stable_sort's bit for bit: through one tile, tiles and passes,
// warp runs; the record's tiles whole, one key past them and ragged; zeros among other keys
// and every key a zero.
template <class Key, class Compare>
void check_zeros_keep_input_order(std::int64_t n, bool only_zeros, Compare cmp, bool through_words = false) {
  std::mt19937 rng(static_cast<unsigned>(n));
  std::vector<Key> input(static_cast<std::size_t>(n));
  for (Key& key : input) {
    const unsigned r = rng();
    const float f = (r & 3) == 0 ? -0.0f
                    : (r & 3) == 1 || only_zeros ? 0.0f
                                                 : static_cast<float>(static_cast<int>(r >> 2) % 64 - 32);
    key = static_cast<Key>(f);
  }
  device_buffer<Key> keys(input);
  if (through_words) {
    const std::size_t bytes =
        gpusort::detail::total_order_words_temp_bytes<gpusort::policy::merge, Key, no_value, Compare>(merge_policy, n);
    device_buffer<char> temp(static_cast<std::int64_t>(bytes));
    REQUIRE(gpusort::detail::sort_total_order_words(merge_policy, temp.data(), keys.data(),
                                                    static_cast<no_value*>(nullptr), n, cmp, 0) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  } else {
    REQUIRE(gpusort::sort_keys(merge_policy, keys.data(), n, cmp) == cudaSuccess);
  }
  const std::vector<Key> output = keys.to_host();
  std::vector<Key> expected = input;
  std::stable_sort(expected.begin(), expected.end(), cmp);
  REQUIRE(std::memcmp(output.data(), expected.data(), expected.size() * sizeof(Key)) == 0);
}

TEST_CASE("merge: float keys alone under less and greater keep -0 and +0 in input order", "[merge]") {
  using gpusort::detail::zero_order_words_from;
  const std::int64_t n = GENERATE(std::int64_t(1000), std::int64_t(999983), zero_order_words_from - 1,
                                  zero_order_words_from, (std::int64_t(1) << 22) + 4096 * 3 + 1,
                                  (std::int64_t(1) << 23) + 12345);
  const bool only_zeros = GENERATE(false, true);
  CAPTURE(n, only_zeros);
  check_zeros_keep_input_order<float>(n, only_zeros, gpusort::less{});
  check_zeros_keep_input_order<float>(n, only_zeros, gpusort::greater{});
  check_zeros_keep_input_order<__half>(n, only_zeros, gpusort::less{});
  check_zeros_keep_input_order<__nv_bfloat16>(n, only_zeros, gpusort::greater{});
}

TEST_CASE("merge: the zeros' record at awkward sizes", "[merge]") {
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(2), std::int64_t(4095), std::int64_t(4096),
                                  std::int64_t(4097), std::int64_t(65521), std::int64_t(1) << 16);
  const bool only_zeros = GENERATE(false, true);
  CAPTURE(n, only_zeros);
  check_zeros_keep_input_order<float>(n, only_zeros, gpusort::less{}, true);
  check_zeros_keep_input_order<__half>(n, only_zeros, gpusort::greater{}, true);
}

TEST_CASE("merge: the zeros' signs recorded and restored, under the sanitizers", "[merge][sanitize]") {
  const bool only_zeros = GENERATE(false, true);
  check_zeros_keep_input_order<float>(4096 * 3 + 5, only_zeros, gpusort::less{}, true);
}

// The multi-way pass (detail/multiway_merge.cuh) on its own: runs sorted on the host, each
// group of WAYS merged on the GPU, against the host's stable merge of the group. Runs that
// are not multiples of a tile, and a last group of one to WAYS runs, the last one short.
// Value no_value merges keys only (the kernels of keys-only sorts, in their own tiles); then
// the input positions that the host carries only order the reference.
template <int WAYS, class Key, class Value, class Compare>
void check_multiway_pass(distribution dist, std::int64_t run, std::int64_t n, Compare cmp) {
  INFO("distribution " << name(dist) << ", ways " << WAYS << ", run " << run << ", n " << n);
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  using position = std::uint32_t;
  using tuning = gpusort::detail::multiway_tuning<Key, Value>;
  constexpr bool ranked = gpusort::detail::needs_ranks<Key, Value, Compare>;
  std::vector<Key> keys = generate_on_host<Key>(n, dist, 0x4a11);
  std::vector<std::pair<Key, position>> items(n);
  for (std::int64_t i = 0; i < n; ++i) items[i] = {keys[i], static_cast<position>(i)};
  const auto by_key = [&](const std::pair<Key, position>& x, const std::pair<Key, position>& y) {
    return cmp(x.first, y.first);
  };
  for (std::int64_t start = 0; start < n; start += run)
    std::stable_sort(items.begin() + start, items.begin() + std::min(start + run, n), by_key);
  std::vector<position> values(n);
  for (std::int64_t i = 0; i < n; ++i) std::tie(keys[i], values[i]) = items[i];
  for (std::int64_t start = 0; start < n; start += WAYS * run)
    std::stable_sort(items.begin() + start, items.begin() + std::min(start + WAYS * run, n), by_key);

  device_buffer<Key> d_keys(keys), d_keys_out(n);
  device_buffer<position> d_values(pairs ? values : std::vector<position>()),
      d_values_out(pairs ? n : 0);
  // Keys-only passes take no value arrays (as merge_sort's buffers hold none).
  const auto as_values = [](position* p) {
    if constexpr (pairs) return p; else return static_cast<no_value*>(nullptr);
  };
  device_buffer<gpusort::thread::multiway_split<WAYS>> splits(
      gpusort::detail::multiway_tiles<WAYS, tuning::threads, tuning::items>(run, n));
  REQUIRE(gpusort::detail::launch_multiway_pass<WAYS, tuning::threads, tuning::items, ranked>(
              d_keys.data(), as_values(d_values.data()), d_keys_out.data(),
              as_values(d_values_out.data()), run, n, splits.data(), cmp, 0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<Key> out_keys = d_keys_out.to_host();
  const std::vector<position> out_values = d_values_out.to_host();
  std::int64_t mismatches = 0;
  for (std::int64_t i = 0; i < n; ++i)
    mismatches += (pairs && out_values[i] != items[i].second) || cmp(out_keys[i], items[i].first) ||
                  cmp(items[i].first, out_keys[i]);
  REQUIRE(mismatches == 0);
}

// Eight-way passes where the sorts take them (merge_eight_way_able: keys of up to 4 bytes in
// items of up to 8).
template <class Key, class Value, class Compare>
void check_four_way_pass_shapes(distribution dist, std::int64_t run, Compare cmp) {
  for (const std::int64_t n : {8 * run + 1234, 11 * run + 17, 4 * run, 3 * run - 1})
    check_multiway_pass<4, Key, Value>(dist, run, n, cmp);
  if constexpr (gpusort::detail::merge_eight_way_able<Key, Value>)
    for (const std::int64_t n : {16 * run + 1234, 21 * run + 17, 8 * run, 7 * run - 1, 3 * run + 5})
      check_multiway_pass<8, Key, Value>(dist, run, n, cmp);
}

TEST_CASE("merge: a four- and an eight-way pass merge each group of runs stably", "[merge]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2,
                             distribution::sorted, distribution::reverse_sorted);
  const std::int64_t run = GENERATE(std::int64_t(1000), std::int64_t(4096), std::int64_t(5003));
  check_four_way_pass_shapes<std::uint32_t, std::uint32_t>(dist, run, gpusort::less{});
  check_four_way_pass_shapes<std::int32_t, std::uint32_t>(dist, run, gpusort::greater{});
  check_four_way_pass_shapes<std::uint64_t, std::uint32_t>(dist, run, gpusort::less{});
  check_four_way_pass_shapes<key16, std::uint32_t>(dist, run, key16_less{});
  check_four_way_pass_shapes<std::uint32_t, no_value>(dist, run, gpusort::less{});
  check_four_way_pass_shapes<std::uint16_t, no_value>(dist, run, gpusort::less{});
  // Floats under total_less take multiway_select's one-word items, through their order words.
  check_four_way_pass_shapes<float, std::uint32_t>(dist, run, gpusort::total_less{});
  check_four_way_pass_shapes<float, no_value>(dist, run, gpusort::total_less{});
}

// Pairs, and keys only in the tiles of keys-only sorts (u32 256 x 32, u16 512 x 32).
TEST_CASE("merge: four- and eight-way passes under the sanitizers", "[merge][sanitize]") {
  using u32 = std::uint32_t;
  check_multiway_pass<4, u32, u32>(distribution::few_distinct_17, 1000, 11 * 1000 + 17, gpusort::less{});
  check_multiway_pass<4, u32, u32>(distribution::uniform, 4096, 8 * 4096 + 1234, gpusort::less{});
  check_multiway_pass<4, key16, u32>(distribution::few_distinct_2, 1000, 8 * 1000 + 1234, key16_less{});
  check_multiway_pass<4, u32, no_value>(distribution::uniform, 9000, 11 * 9000 + 17, gpusort::less{});
  check_multiway_pass<4, std::uint16_t, no_value>(distribution::few_distinct_17, 17000,
                                                  8 * 17000 + 1234, gpusort::less{});
  check_multiway_pass<8, u32, u32>(distribution::few_distinct_17, 1000, 19 * 1000 + 17, gpusort::less{});
  check_multiway_pass<8, u32, no_value>(distribution::uniform, 9000, 16 * 9000 + 1234, gpusort::less{});
  check_multiway_pass<8, std::uint16_t, no_value>(distribution::few_distinct_17, 17000,
                                                  13 * 17000 + 17, gpusort::less{});
}

// From merge_multiway_from_bytes of items the passes merge four runs at once: whole sorts
// through them, the array's last group of runs ragged (u64 keys at 2^26 + 12345: the first
// pass's last group is one run and a piece of one, the last pass's two runs and a piece;
// 16-byte pairs, stable, on 2^25 + 4000 items; u32 keys in 256 x 32 tiles at 2^27 + 4097,
// u16 keys in 512 x 32 tiles at 2^28 + 4097).
TEST_CASE("merge: four-way passes through the whole sort", "[merge][large]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17);
  check_sort<gpusort::policy::merge, std::uint64_t, no_value>(
      merge_policy, {dist, (std::int64_t(1) << 26) + 12345}, gpusort::less{}, false);
  check_sort<gpusort::policy::merge, key16, value16>(
      merge_policy, {dist, (std::int64_t(1) << 25) + 4000}, key16_less{}, true);
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(
      merge_policy, {dist, (std::int64_t(1) << 27) + 4097}, gpusort::less{}, false);
  check_sort<gpusort::policy::merge, std::uint16_t, no_value>(
      merge_policy, {dist, (std::int64_t(1) << 28) + 4097}, gpusort::less{}, false);
}

TEST_CASE("merge: 2^28 keys and pairs", "[merge][large]") {
  const std::int64_t n = std::int64_t(1) << 28;
  check_sort<gpusort::policy::merge, std::uint32_t, no_value>(merge_policy, {distribution::uniform, n},
                                                              gpusort::less{}, false);
  check_sort<gpusort::policy::merge, std::uint32_t, std::uint32_t>(
      merge_policy, {distribution::few_distinct_17, n}, gpusort::less{}, true);
}

TEST_CASE("merge: too little temp storage leaves the keys untouched", "[merge]") {
  check_refuses_small_temp_storage<gpusort::policy::merge, std::uint32_t>(merge_policy, 100000);
}

TEST_CASE("merge: temp storage at any address; an error left pending is returned before any work",
          "[merge]") {
  check_temp_storage_at_any_address(merge_policy, 100000);
  check_pending_error_returned_first(merge_policy, 100000);
}

TEST_CASE("merge: an unsupported network width is refused before any work", "[merge]") {
  gpusort::policy::merge odd{};
  odd.network_width = 3;
  check_refuses_policy(odd);
}

TEST_CASE("merge: more than 2^31 keys", "[merge][large][huge]") {
  check_more_than_2_31_keys(merge_policy);
}
