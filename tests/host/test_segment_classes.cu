// Host tests of device::sort_segments' size classes (device/sort_segments.cuh): which classes
// a sort launches for each key and value type, and with which lower bound, read off
// detail::launch_size_classes with a recording callable instead of kernel launches.
#include "common/catch.hpp"
#include "common/key_types.cuh"

#include <gpusort/device/sort_segments.cuh>

#include <cstdint>
#include <vector>

using gpusort::detail::no_value;
using gpusort::detail::segment_sort_tuning;
using gpusort_test::key12;
using gpusort_test::key16;
using gpusort_test::key64;
using gpusort_test::value16;

namespace {

struct launched_class {
  std::int64_t tile;
  std::int64_t smaller_tile;
  std::size_t storage_bytes;
  int items;  // a thread's
};

template <class Key, class Value, class Classes>
std::vector<launched_class> launched(Classes classes) {
  std::vector<launched_class> out;
  const auto record = [&out](auto shape, std::int64_t smaller_tile) {
    using s = decltype(shape);
    using storage = gpusort::detail::segment_class_storage<Key, Value, s::threads, s::items>;
    out.push_back({s::tile, smaller_tile, sizeof(storage), s::items});
    return cudaSuccess;
  };
  REQUIRE(gpusort::detail::launch_size_classes<0>(record, classes) == cudaSuccess);
  return out;
}

std::vector<std::int64_t> tiles_of(const std::vector<launched_class>& classes) {
  std::vector<std::int64_t> tiles;
  for (const launched_class& c : classes) tiles.push_back(c.tile);
  return tiles;
}

// Every segment of at most max_segment_items lands in exactly one launched class: the tiles
// grow, each class starts where the one before ends, the last ends at the maximum, and each
// class's shared memory fits what a launch may opt in to.
template <class Key, class Value>
std::vector<std::int64_t> check_classes() {
  using tuning = segment_sort_tuning<Key, Value>;
  const std::vector<launched_class> all = launched<Key, Value>(typename tuning::classes{});
  REQUIRE_FALSE(all.empty());
  REQUIRE(all.front().smaller_tile == 0);
  for (std::size_t i = 1; i < all.size(); ++i) {
    REQUIRE(all[i].smaller_tile == all[i - 1].tile);
    REQUIRE(all[i].tile > all[i - 1].tile);
  }
  REQUIRE(all.back().tile == gpusort::device::max_segment_items<Key, Value>());
  for (const launched_class& c : all) {
    REQUIRE(c.storage_bytes <= gpusort::detail::opt_in_shared_budget);
    constexpr std::size_t item_bytes = gpusort::detail::item_bytes_of<Key, Value>;
    REQUIRE((item_bytes <= tuning::wide_item_bytes || c.items == 1 ||
             c.items * item_bytes <= tuning::wide_thread_item_bytes));
  }
  // The grouped list is the full one without the compact class, with the same ends.
  const std::vector<launched_class> grouped =
      launched<Key, Value>(typename tuning::grouped_classes{});
  REQUIRE(grouped.back().tile == all.back().tile);
  for (std::size_t i = 1; i < grouped.size(); ++i)
    REQUIRE(grouped[i].smaller_tile == grouped[i - 1].tile);
  return tiles_of(all);
}

}  // namespace

TEST_CASE("sort_segments: 4-byte keys take five classes, 2K included", "[sort_segments]") {
  const std::vector<std::int64_t> expected = {256, 1024, 2048, 4096, 8192};
  CHECK(check_classes<std::uint32_t, no_value>() == expected);
  CHECK(check_classes<float, no_value>() == expected);
  CHECK(tiles_of(launched<std::uint32_t, no_value>(
            segment_sort_tuning<std::uint32_t, no_value>::grouped_classes{})) ==
        std::vector<std::int64_t>{256, 1024, 4096, 8192});
}

TEST_CASE("sort_segments: 8-byte keys and pairs", "[sort_segments]") {
  const std::vector<std::int64_t> up_to_4k = {256, 1024, 2048, 4096};
  CHECK(check_classes<std::uint64_t, no_value>() == up_to_4k);
  CHECK(check_classes<double, no_value>() == up_to_4k);
  CHECK(check_classes<std::uint32_t, std::uint32_t>() ==
        std::vector<std::int64_t>{256, 1024, 2048, 4096, 8192});
  // Pairs' 16-per-thread compact and medium classes are held to 128 registers a thread.
  using pairs = segment_sort_tuning<std::uint32_t, std::uint32_t>;
  CHECK(pairs::compact_class::min_blocks * pairs::compact_threads * 128 == 65536);
  CHECK(pairs::medium_class::min_blocks * pairs::medium_threads * 128 == 65536);
}

TEST_CASE("sort_segments: 16-byte keys skip a class whose tile repeats a smaller one's",
          "[sort_segments]") {
  // The compact tile of 16-byte keys is the small class's 1K, the large one the medium's 2K.
  CHECK(check_classes<key16, no_value>() == std::vector<std::int64_t>{256, 1024, 2048});
  CHECK(check_classes<key16, value16>() == std::vector<std::int64_t>{256, 1024, 2048});
}

TEST_CASE("sort_segments: items over 32 bytes hold at most 256 bytes a thread",
          "[sort_segments]") {
  // Eight a thread in the tiny and small classes spilled; four (keys) and two (pairs with u64
  // values) leave the classes of 128 (64) and 512 (256) items, the others' storage-capped
  // tiles that repeat them skipped.
  CHECK(check_classes<key64, no_value>() == std::vector<std::int64_t>{128, 512});
  CHECK(check_classes<key64, std::uint64_t>() == std::vector<std::int64_t>{64, 256, 512});
  CHECK(segment_sort_tuning<key64, no_value>::small_items == 4);
  CHECK(segment_sort_tuning<key64, std::uint64_t>::small_items == 2);
  // Items of up to 32 bytes keep the measured shapes, 12-byte keys' 384 bytes a thread and
  // 20-byte pairs' 320 included.
  CHECK(check_classes<key12, no_value>() == std::vector<std::int64_t>{256, 1024, 2048, 4096});
  CHECK(segment_sort_tuning<key12, no_value>::medium_items == 32);
  CHECK(segment_sort_tuning<std::uint32_t, value16>::medium_items == 16);
  CHECK(segment_sort_tuning<key16, value16>::small_items == 8);
  CHECK(segment_sort_tuning<std::uint64_t, no_value>::max_items_per_thread == 32);
}

// The huge class (for callers that check the device first: deterministic_sample) doubles the
// large tile where the larger budget keeps its items a thread, and is skipped otherwise.
template <class Key, class Value>
std::vector<std::int64_t> check_huge_classes() {
  using tuning = segment_sort_tuning<Key, Value>;
  const std::vector<launched_class> all = launched<Key, Value>(typename tuning::classes_with_huge{});
  const std::vector<launched_class> usual = launched<Key, Value>(typename tuning::classes{});
  REQUIRE(all.size() == usual.size() + (tuning::has_huge ? 1 : 0));
  for (std::size_t i = 1; i < all.size(); ++i) REQUIRE(all[i].smaller_tile == all[i - 1].tile);
  REQUIRE(all.back().tile == tuning::max_huge_items);
  REQUIRE(all.back().storage_bytes <= gpusort::detail::large_opt_in_shared_budget);
  if (tuning::has_huge) REQUIRE(all.back().storage_bytes == tuning::huge_bytes);
  return tiles_of(all);
}

TEST_CASE("sort_segments: the huge class doubles the large tile where it fits 160 KB",
          "[sort_segments]") {
  CHECK(check_huge_classes<std::uint32_t, no_value>() ==
        std::vector<std::int64_t>{256, 1024, 2048, 4096, 8192, 16384});
  CHECK(check_huge_classes<std::uint64_t, no_value>() ==
        std::vector<std::int64_t>{256, 1024, 2048, 4096, 8192});
  CHECK(check_huge_classes<key16, no_value>() == std::vector<std::int64_t>{256, 1024, 2048, 4096});
  CHECK(check_huge_classes<key64, no_value>() == std::vector<std::int64_t>{128, 512, 1024});
  CHECK(check_huge_classes<key64, std::uint64_t>() == std::vector<std::int64_t>{64, 256, 512, 1024});
  // 16K pairs would need 207 KB: none.
  CHECK(check_huge_classes<std::uint32_t, std::uint32_t>() ==
        std::vector<std::int64_t>{256, 1024, 2048, 4096, 8192});
}

// What compute capability 8.6, 8.9 and 12.0 let a block opt in to (A100 and H100: 163 and
// 227 KB); only the huge class, which its caller checks against the device first, may need more.
constexpr std::size_t opt_in_limit_of_99_kb_gpus = 99 * 1024;

template <class Key, class Value>
std::size_t largest_usual_class_bytes() {
  std::size_t largest = 0;
  for (const launched_class& c : launched<Key, Value>(typename segment_sort_tuning<Key, Value>::classes{}))
    largest = c.storage_bytes > largest ? c.storage_bytes : largest;
  return largest;
}

TEST_CASE("sort_segments: every class but the huge one fits a block of a 99 KB GPU", "[sort_segments]") {
  // Until run 95 each class allocated the block network's validity flags, which sort_tile never
  // uses: u32:u32 pairs took 103880 bytes in their large class, u64:u64 109064.
  CHECK(largest_usual_class_bytes<std::uint32_t, std::uint32_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<float, std::uint32_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint64_t, std::uint64_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<double, std::uint64_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint32_t, std::uint64_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint64_t, std::uint32_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint16_t, std::uint32_t>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint32_t, value16>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint32_t, no_value>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<std::uint64_t, no_value>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<key12, no_value>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<key16, no_value>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<key16, value16>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<key64, no_value>() <= opt_in_limit_of_99_kb_gpus);
  CHECK(largest_usual_class_bytes<key64, std::uint64_t>() <= opt_in_limit_of_99_kb_gpus);
  // The shapes were tuned with the flags counted, and keep them: the block network's storage
  // with them is what picks the items a thread (segment_shape_bytes).
  using gpusort::detail::segment_shape_bytes;
  using u64_keys = segment_sort_tuning<std::uint64_t, no_value>;
  CHECK(segment_shape_bytes<std::uint64_t, no_value, u64_keys::large_threads, 2 * u64_keys::large_items> >
        gpusort::detail::opt_in_shared_budget);
}

TEST_CASE("sort_segments: a class launches only where the length bounds meet its lengths",
          "[sort_segments]") {
  using gpusort::detail::segment_class_needed;
  // The class of (1024, 2048]: segment lengths in [shortest, longest].
  STATIC_REQUIRE(segment_class_needed(1024, 2048, 0, 8192));      // no promise
  STATIC_REQUIRE(segment_class_needed(1024, 2048, 1025, 1025));   // one segment in the class
  STATIC_REQUIRE(segment_class_needed(1024, 2048, 2048, 2048));
  STATIC_REQUIRE(!segment_class_needed(1024, 2048, 1024, 1024));  // the class below holds it
  STATIC_REQUIRE(!segment_class_needed(1024, 2048, 2049, 8192));  // all longer
  STATIC_REQUIRE(!segment_class_needed(1024, 2048, 0, 512));      // all shorter
  STATIC_REQUIRE(segment_class_needed(0, 256, 0, 1));
  STATIC_REQUIRE(!segment_class_needed(0, 256, 0, 0));  // only empty segments: nothing to sort
}
