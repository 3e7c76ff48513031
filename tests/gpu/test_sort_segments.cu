// device::sort_segments against a host reference: every size class and its edges, empty
// and one-item segments, segments too long to sort (left untouched), gaps between segments
// (untouched), in place and out of place, keys and pairs, ties that are not the same bits.
#include "common/catch.hpp"
#include "common/device_buffer.cuh"
#include "common/distributions.cuh"
#include "common/key_types.cuh"

#include <gpusort/compare.cuh>
#include <gpusort/device/sort_segments.cuh>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {

struct segment_layout {
  std::vector<std::int64_t> begins, ends;
  std::int64_t total = 0;
};

// Segments of the given lengths in shuffled order, with a gap of `gap` items after each.
segment_layout make_layout(std::vector<std::int64_t> lengths, std::int64_t gap, unsigned seed) {
  std::shuffle(lengths.begin(), lengths.end(), std::mt19937(seed));
  segment_layout layout;
  for (std::int64_t length : lengths) {
    layout.begins.push_back(layout.total);
    layout.ends.push_back(layout.total + length);
    layout.total += length + gap;
  }
  return layout;
}

// The longest segment sorted: the large class's tile, or with the huge class (the classes
// deterministic_sample's bucket sort launches) its tile.
template <class Key, class Value, bool HUGE>
constexpr std::int64_t longest_sorted() {
  return HUGE ? gpusort::detail::segment_sort_tuning<Key, Value>::max_huge_items
              : gpusort::device::max_segment_items<Key, Value>();
}

// Every class edge for these types, plus lengths past the largest class.
template <class Key, class Value, bool HUGE = false>
std::vector<std::int64_t> edge_lengths() {
  using tuning = gpusort::detail::segment_sort_tuning<Key, Value>;
  const std::int64_t max = longest_sorted<Key, Value, HUGE>();
  const std::int64_t large = gpusort::device::max_segment_items<Key, Value>();
  const std::int64_t tiny = tuning::tiny_threads * tuning::tiny_items;
  const std::int64_t small = tuning::small_threads * tuning::small_items;
  const std::int64_t compact = std::int64_t(tuning::compact_threads) * tuning::compact_items;
  const std::int64_t medium = std::int64_t(tuning::medium_threads) * tuning::medium_items;
  std::vector<std::int64_t> lengths = {0, 0, 1, 2, 31, 33, 100, 5, 1, 0, 3001, max + 1, 2 * max};
  for (std::int64_t edge : {tiny, small, compact, medium, large, max})
    for (std::int64_t d : {-1, 0, 1})
      if (edge + d > 0 && edge + d <= max) lengths.push_back(edge + d);
  for (int i = 0; i < 40; ++i) lengths.push_back(1 + (i * 977) % max);
  return lengths;
}

// The segments of `lengths`, laid out by make_layout, over the input that make_input(n)
// returns for the layout's n items.
template <class Key, class Value, bool HUGE = false, class Compare, class MakeInput>
void check_sort_segments_of(const MakeInput& make_input, bool in_place, std::int64_t gap, Compare cmp,
                            const std::vector<std::int64_t>& lengths, std::int64_t shortest,
                            std::int64_t longest) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  INFO((in_place ? "in place" : "out of place") << ", gap " << gap << ", " << lengths.size() << " segments");
  const segment_layout layout = make_layout(lengths, gap, 7);
  const std::int64_t n = layout.total;
  const std::int64_t segments = static_cast<std::int64_t>(layout.begins.size());
  const std::int64_t max = longest_sorted<Key, Value, HUGE>();

  const std::vector<Key> input = make_input(n);
  std::vector<Value> input_values(pairs ? n : 0);
  if constexpr (pairs) {
    for (std::int64_t i = 0; i < n; ++i)
      input_values[i] = make_index_value<Value>(static_cast<std::uint64_t>(i));
  }
  // Out of place: the output starts as a copy of the input (keys reversed), so untouched
  // regions are recognisable.
  std::vector<Key> poison(input.rbegin(), input.rend());

  device_buffer<Key> keys_in(input);
  device_buffer<Key> keys_out(in_place ? std::vector<Key>{} : poison);
  device_buffer<Value> values_in(input_values);
  device_buffer<Value> values_out(in_place ? std::vector<Value>{} : std::vector<Value>(input_values.size()));
  device_buffer<std::int64_t> begins(layout.begins), ends(layout.ends);
  Key* out_keys = in_place ? keys_in.data() : keys_out.data();
  Value* out_values = in_place ? values_in.data() : values_out.data();
  if constexpr (!pairs) out_values = nullptr;
  using tuning = gpusort::detail::segment_sort_tuning<Key, Value>;
  if constexpr (HUGE)
    REQUIRE(gpusort::detail::sort_segments_in_classes(
                typename tuning::classes_with_huge{}, keys_in.data(), pairs ? values_in.data() : nullptr,
                out_keys, out_values, begins.data(), ends.data(), segments, cmp, 0, shortest,
                longest) == cudaSuccess);
  else
    REQUIRE(gpusort::device::sort_segments(keys_in.data(), pairs ? values_in.data() : nullptr,
                                           out_keys, out_values, begins.data(), ends.data(),
                                           segments, cmp, 0, shortest, longest) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<Key> result = copy_to_host(out_keys, n);
  std::vector<Value> result_values;
  if constexpr (pairs) result_values = copy_to_host(out_values, n);
  const std::vector<Key> before = in_place ? input : poison;
  std::vector<bool> covered(static_cast<std::size_t>(n), false);

  const auto same_bits = [](const Key& a, const Key& b) {
    return std::memcmp(&a, &b, sizeof(Key)) == 0;
  };
  for (std::int64_t s = 0; s < segments; ++s) {
    const std::int64_t b = layout.begins[s], e = layout.ends[s];
    INFO("segment " << s << " [" << b << ", " << e << ")");
    for (std::int64_t i = b; i < e; ++i) covered[i] = true;
    if (e - b > max) {  // left for the caller: not written
      for (std::int64_t i = b; i < e; ++i) REQUIRE(same_bits(result[i], before[i]));
      continue;
    }
    for (std::int64_t i = b + 1; i < e; ++i) REQUIRE_FALSE(cmp(result[i], result[i - 1]));
    if constexpr (pairs) {
      // Every value is an input index of this segment, each once, next to its own key.
      std::vector<bool> seen(static_cast<std::size_t>(e - b), false);
      for (std::int64_t i = b; i < e; ++i) {
        const std::uint64_t index = index_of(result_values[i]);
        REQUIRE(index >= static_cast<std::uint64_t>(b));
        REQUIRE(index < static_cast<std::uint64_t>(e));
        REQUIRE_FALSE(seen[index - b]);
        seen[index - b] = true;
        REQUIRE(same_bits(result[i], input[index]));
      }
    } else {
      // The same bit patterns as the segment's input, each as often (equivalent keys may be
      // distinct bits, e.g. -0 and +0, so a sorted copy of the input need not match).
      std::vector<Key> expected(input.begin() + b, input.begin() + e);
      std::vector<Key> got(result.begin() + b, result.begin() + e);
      const auto by_bits = [](const Key& x, const Key& y) {
        return std::memcmp(&x, &y, sizeof(Key)) < 0;
      };
      std::sort(expected.begin(), expected.end(), by_bits);
      std::sort(got.begin(), got.end(), by_bits);
      for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(same_bits(got[i], expected[i]));
    }
  }
  for (std::int64_t i = 0; i < n; ++i)
    if (!covered[i]) REQUIRE(same_bits(result[i], before[i]));
}

template <class Key, class Value, bool HUGE = false, class Compare>
void check_sort_segments(distribution dist, bool in_place, std::int64_t gap, Compare cmp,
                         const std::vector<std::int64_t>& lengths = edge_lengths<Key, Value, HUGE>(),
                         std::int64_t shortest = 0,
                         std::int64_t longest = longest_sorted<Key, Value, HUGE>()) {
  INFO("distribution " << name(dist));
  check_sort_segments_of<Key, Value, HUGE>(
      [dist](std::int64_t n) { return generate_on_host<Key>(n, dist, 99); }, in_place, gap, cmp,
      lengths, shortest, longest);
}

}  // namespace

TEST_CASE("sort_segments: u32 keys, every class, in place and out of place", "[sort_segments][sanitize]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2,
                             distribution::reverse_sorted);
  const bool in_place = GENERATE(true, false);
  check_sort_segments<std::uint32_t, no_value>(dist, in_place, 0, gpusort::less{});
}

TEST_CASE("sort_segments: pairs and wide keys, gaps between segments", "[sort_segments]") {
  const auto dist = GENERATE(distribution::uniform, distribution::all_equal);
  const bool in_place = GENERATE(true, false);
  check_sort_segments<std::uint32_t, std::uint32_t>(dist, in_place, 3, gpusort::greater{});
  check_sort_segments<key16, value16>(dist, in_place, 17, key16_less{});
  check_sort_segments<double, no_value>(dist, in_place, 1, gpusort::total_less{});
}

// Pairs whose keys have an order word sort as (key, rank) words by warps, each value fetched
// by its word's rank: floats under total_less (NaNs, ±0 and ±inf among random bits), signed
// keys with 8-byte values, 2-byte keys.
TEST_CASE("sort_segments: pairs sorted as ranked words", "[sort_segments][sanitize]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17);
  const bool in_place = GENERATE(true, false);
  check_sort_segments<float, std::uint32_t>(dist, in_place, 5, gpusort::total_less{});
  check_sort_segments<std::int32_t, std::uint64_t>(dist, in_place, 2, gpusort::less{});
  STATIC_REQUIRE(gpusort::detail::segments_by_ranked_warps<float, std::uint32_t, gpusort::total_less, 256, 16>);
  STATIC_REQUIRE(gpusort::detail::segments_by_ranked_warps<std::int32_t, std::uint64_t, gpusort::less, 256, 16>);
  STATIC_REQUIRE(!gpusort::detail::segments_by_ranked_warps<double, std::uint32_t, gpusort::total_less, 256, 16>);
}

// Keys that tie without being the same bits, most of a segment's items among them, so
// that a partly filled tile has far more real items tying with its largest key than it
// has padding: u64 keys ordered by their top 4 bits (16 classes) and 12 bits, alone and
// with values.
TEST_CASE("sort_segments: many ties that are not identical bits", "[sort_segments][sanitize]") {
  const bool in_place = GENERATE(true, false);
  check_sort_segments<std::uint64_t, no_value>(distribution::uniform, in_place, 2, top_bits_less<4>{});
  check_sort_segments<std::uint64_t, no_value>(distribution::uniform, in_place, 0, top_bits_less<12>{});
  check_sort_segments<std::uint64_t, std::uint32_t>(distribution::uniform, in_place, 1, top_bits_less<4>{});
}

// The huge class above the large one (deterministic_sample's buckets on devices that grant
// its shared memory, as the H100 does): 16K 4-byte keys, 8K 8-byte keys, 4K 16-byte keys.
TEST_CASE("sort_segments: the classes with the huge one", "[sort_segments][sanitize]") {
  STATIC_REQUIRE(gpusort::detail::segment_sort_tuning<std::uint32_t, no_value>::max_huge_items == 16384);
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const bool in_place = GENERATE(true, false);
  check_sort_segments<std::uint32_t, no_value, true>(dist, in_place, 0, gpusort::less{});
  check_sort_segments<std::uint64_t, no_value, true>(dist, in_place, 1, gpusort::greater{});
  check_sort_segments<key16, no_value, true>(dist, in_place, 2, key16_less{});
  // Pairs have no huge class: the large one is the last.
  check_sort_segments<std::uint32_t, std::uint32_t, true>(dist, in_place, 3, gpusort::less{});
}

// Keys of 1 and 2 bytes: a segment whose keys are all one value is left as it stands
// (skips_equal_segments), keys alone and pairs (sorted as ranked words or by the block sort).
// One value throughout but for a smaller key every `below`-th item and a larger one every
// `above`-th, so that some segments are one value and others hold one odd key below or above
// it (mostly inside, where only reading the whole segment finds it). Spaced 997 and 1009
// apart, a long segment's first odd key lies among its first thousand items; 7919 and 8191
// apart, at any depth, also past the first batches that block_keys_all_tie reads.
TEST_CASE("sort_segments: 1- and 2-byte keys, segments of one value", "[sort_segments][sanitize]") {
  STATIC_REQUIRE(gpusort::detail::skips_equal_segments<std::uint16_t>);
  STATIC_REQUIRE(!gpusort::detail::skips_equal_segments<std::uint32_t>);
  const bool in_place = GENERATE(true, false);
  const auto spacing = GENERATE(std::pair<std::int64_t, std::int64_t>{997, 1009},
                                std::pair<std::int64_t, std::int64_t>{7919, 8191});
  const auto one_value_but_odd_keys = [spacing](auto key) {
    using Key = decltype(key);
    return [spacing](std::int64_t n) {
      const auto [below, above] = spacing;
      std::vector<Key> keys(static_cast<std::size_t>(n), Key(100));
      for (std::int64_t i = 0; i < n; ++i) {
        if (i % below == below - 1) keys[i] = Key(99);
        if (i % above == above - 1) keys[i] = Key(101);
      }
      return keys;
    };
  };
  const auto lengths = edge_lengths<std::uint16_t, no_value>();
  const std::int64_t longest = longest_sorted<std::uint16_t, no_value, false>();
  check_sort_segments_of<std::uint16_t, no_value>(one_value_but_odd_keys(std::uint16_t{}), in_place, 0,
                                                  gpusort::less{}, lengths, 0, longest);
  check_sort_segments_of<std::uint8_t, no_value>(one_value_but_odd_keys(std::uint8_t{}), in_place, 1,
                                                 gpusort::greater{}, edge_lengths<std::uint8_t, no_value>(), 0,
                                                 longest_sorted<std::uint8_t, no_value, false>());
  check_sort_segments_of<std::uint16_t, std::uint32_t>(
      one_value_but_odd_keys(std::uint16_t{}), in_place, 2, gpusort::less{},
      edge_lengths<std::uint16_t, std::uint32_t>(), 0, longest_sorted<std::uint16_t, std::uint32_t, false>());
  check_sort_segments_of<std::int16_t, std::uint64_t>(
      one_value_but_odd_keys(std::int16_t{}), in_place, 0, gpusort::greater{},
      edge_lengths<std::int16_t, std::uint64_t>(), 0, longest_sorted<std::int16_t, std::uint64_t, false>());
  check_sort_segments_of<std::uint8_t, value16>(
      one_value_but_odd_keys(std::uint8_t{}), in_place, 1, gpusort::less{},
      edge_lengths<std::uint8_t, value16>(), 0, longest_sorted<std::uint8_t, value16, false>());
}

TEST_CASE("sort_segments: 1- and 2-byte keys of one or a few values", "[sort_segments]") {
  const auto dist = GENERATE(distribution::all_equal, distribution::few_distinct_2);
  const bool in_place = GENERATE(true, false);
  check_sort_segments<std::uint16_t, no_value>(dist, in_place, 2, gpusort::greater{});
  check_sort_segments<std::int16_t, no_value>(dist, in_place, 0, gpusort::less{});
  check_sort_segments<std::uint16_t, std::uint32_t>(dist, in_place, 1, gpusort::greater{});
  check_sort_segments<std::uint16_t, no_value, true>(dist, in_place, 3, gpusort::less{});
}

// Far more segments than resident blocks, so that every block lists its share in many
// windows of 32, most of them holding segments of other classes.
TEST_CASE("sort_segments: many segments of every class", "[sort_segments]") {
  std::vector<std::int64_t> lengths;
  for (std::int64_t i = 0; i < 400000; ++i) {
    std::int64_t length = (i * 7919) % 61;
    if (i % 997 == 0) length = 300 + i % 800;
    if (i % 4999 == 0) length = 1500 + i % 2500;
    if (i % 20011 == 0) length = 5000 + i % 3000;
    lengths.push_back(length);
  }
  const bool in_place = GENERATE(true, false);
  check_sort_segments<std::uint32_t, no_value>(distribution::uniform, in_place, 0,
                                               gpusort::less{}, lengths);
  check_sort_segments<std::uint32_t, std::uint32_t>(distribution::uniform, in_place, 1,
                                                    gpusort::less{}, lengths);
}

// Lengths known on the host: only the classes that can hold them launch, and they sort.
TEST_CASE("sort_segments: segments within given length bounds", "[sort_segments]") {
  for (std::int64_t length : edge_lengths<std::uint32_t, no_value>()) {
    if (length > gpusort::device::max_segment_items<std::uint32_t, no_value>()) continue;
    check_sort_segments<std::uint32_t, no_value>(distribution::uniform, true, 0, gpusort::less{},
                                                 {length}, length, length);
    check_sort_segments<std::uint32_t, std::uint32_t>(distribution::uniform, false, 0,
                                                      gpusort::less{}, {length, length}, length,
                                                      length);
  }
  // Many segments under a bound (deterministic_sample's buckets): the classes above it idle.
  std::vector<std::int64_t> lengths;
  for (std::int64_t i = 0; i < 5000; ++i) lengths.push_back((i * 7919) % 600);
  check_sort_segments<std::uint32_t, no_value>(distribution::uniform, false, 2, gpusort::less{},
                                               lengths, 0, 599);
}

// Counts, in `descents`, the adjacent pairs out of order within the segments.
__global__ void count_segment_descents(const std::uint32_t* keys, const std::int64_t* begins,
                                       const std::int64_t* ends, std::int64_t segments,
                                       unsigned long long* descents) {
  const std::int64_t s = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (s >= segments) return;
  unsigned long long found = 0;
  for (std::int64_t i = begins[s] + 1; i < ends[s]; ++i) found += keys[i] < keys[i - 1];
  if (found != 0) atomicAdd(descents, found);
}

// The classes' launches overlap (from compute capability 9.0): a busy first class and a light
// last one, then at once a kernel in the same stream that reads every segment. It must find
// them all sorted: the last class ends only after the ones before it.
TEST_CASE("sort_segments: the next kernel in the stream sees every class's output", "[sort_segments]") {
  std::vector<std::int64_t> lengths(200000, 250);  // the tiny class, launched first
  lengths.push_back(gpusort::device::max_segment_items<std::uint32_t, no_value>());  // the last
  const segment_layout layout = make_layout(lengths, 0, 3);
  const std::int64_t segments = static_cast<std::int64_t>(layout.begins.size());
  device_buffer<std::uint32_t> keys(generate_on_host<std::uint32_t>(layout.total, distribution::uniform, 5));
  device_buffer<std::int64_t> begins(layout.begins), ends(layout.ends);
  device_buffer<unsigned long long> descents(std::vector<unsigned long long>{0});
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // the buffers' copies have landed
  REQUIRE(gpusort::device::sort_segments(keys.data(), static_cast<const no_value*>(nullptr),
                                         keys.data(), static_cast<no_value*>(nullptr),
                                         begins.data(), ends.data(), segments, gpusort::less{},
                                         stream) == cudaSuccess);
  count_segment_descents<<<static_cast<unsigned>((segments + 255) / 256), 256, 0, stream>>>(
      keys.data(), begins.data(), ends.data(), segments, descents.data());
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(descents.to_host() == std::vector<unsigned long long>{0});
  // And the checker can see a descent: the input had them.
  device_buffer<std::uint32_t> unsorted(generate_on_host<std::uint32_t>(layout.total, distribution::uniform, 5));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  count_segment_descents<<<static_cast<unsigned>((segments + 255) / 256), 256, 0, stream>>>(
      unsorted.data(), begins.data(), ends.data(), segments, descents.data());
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(descents.to_host()[0] > 0);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("sort_segments: no segments, and a negative count", "[sort_segments]") {
  CHECK(gpusort::device::sort_segments<std::uint32_t, no_value>(nullptr, nullptr, nullptr, nullptr,
                                                                nullptr, nullptr, 0,
                                                                gpusort::less{}) == cudaSuccess);
  CHECK(gpusort::device::sort_segments<std::uint32_t, no_value>(nullptr, nullptr, nullptr, nullptr,
                                                                nullptr, nullptr, -1,
                                                                gpusort::less{}) ==
        cudaErrorInvalidValue);
}
