// multi::sort_keys / sort_pairs (peer transport): 1, 2, 3, 4, 5 and 8 shards, equal and
// unequal counts (one empty), every distribution on u32, u64 and key16 keys, u16 and __half
// keys, pairs, the error contract. Shard i lives on device i % min(device count, shards): on
// a one-GPU machine every shard shares device 0 (copies between shards are then plain device copies);
// with several GPUs the same cases run across them. [race] cases perturb timing (input
// written late on the default stream, a GPU kept busy by another stream), so that a missing
// stream/event dependency shows even when the test runs alone.
#include "common/catch.hpp"
#include "common/device_buffer.cuh"
#include "common/distributions.cuh"
#include "common/key_types.cuh"
#include "common/verify.cuh"

#include <gpusort/multi_gpu.cuh>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {

int device_count() {
  int devices = 0;
  throw_on_cuda_error(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  return devices;
}

// Device arrays on a chosen device (device_buffer allocates on the current one).
template <class T>
struct shard_buffer {
  int device;
  std::unique_ptr<device_buffer<T>> data;
  shard_buffer(int d, std::int64_t n) : device(d) {
    throw_on_cuda_error(cudaSetDevice(d), "cudaSetDevice");
    data = std::make_unique<device_buffer<T>>(n);
    throw_on_cuda_error(cudaSetDevice(0), "cudaSetDevice");
  }
};

// Spins until `ns` nanoseconds have passed on the GPU's global timer.
__global__ void spin_kernel(std::uint64_t ns) {
  std::uint64_t start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// How check_multi perturbs timing.
struct timing {
  // The input copies into the shards queue behind a spin on the default stream: a sort not
  // ordered after the default stream reads the shards before they are written.
  std::uint64_t late_input_ns = 0;
  // During the sort, a side stream of every device spins on one 1024-thread block per SM
  // (about half the GPU): the sort's streams run slower and interleave differently.
  std::uint64_t busy_ns = 0;
};

// The side streams of timing::busy_ns; waited for and destroyed on every path.
struct busy_devices {
  std::vector<std::pair<int, cudaStream_t>> streams;
  busy_devices(int devices, std::uint64_t ns) {
    for (int d = 0; d < devices && ns > 0; ++d) {
      int sms = 0;
      cudaStream_t stream = nullptr;
      throw_on_cuda_error(cudaSetDevice(d), "cudaSetDevice");
      throw_on_cuda_error(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d),
                          "cudaDeviceGetAttribute");
      throw_on_cuda_error(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                          "cudaStreamCreate");
      streams.emplace_back(d, stream);
      spin_kernel<<<sms, 1024, 0, stream>>>(ns);
      throw_on_cuda_error(cudaGetLastError(), "spin_kernel");
    }
    throw_on_cuda_error(cudaSetDevice(0), "cudaSetDevice");
  }
  busy_devices(const busy_devices&) = delete;
  busy_devices& operator=(const busy_devices&) = delete;
  ~busy_devices() {
    for (auto& [d, stream] : streams) {
      cudaSetDevice(d);
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
    cudaSetDevice(0);
  }
};

// Counts of a layout: `equal` splits n evenly; otherwise shards get unequal counts and
// shard 1 (or 0 when there is one) is empty.
std::vector<std::int64_t> layout_counts(int shards, std::int64_t n, bool equal) {
  std::vector<std::int64_t> counts(shards, 0);
  if (equal) {
    for (int i = 0; i < shards; ++i) counts[i] = n / shards + (i < n % shards ? 1 : 0);
    return counts;
  }
  if (shards == 1) return {n};
  const int empty = 1;
  std::int64_t weight_sum = 0;
  for (int i = 0; i < shards; ++i) weight_sum += i == empty ? 0 : i + 1;
  std::int64_t given = 0;
  for (int i = 0; i < shards; ++i) {
    counts[i] = i == empty ? 0 : n * (i + 1) / weight_sum;
    given += counts[i];
  }
  counts[shards - 1] += n - given;
  return counts;
}

// Generates n items on device 0, spreads them over the shards (copies on the default
// stream, not synchronized: the sort must be ordered after them), sorts, gathers them back
// to device 0 and verifies the concatenation.
template <class Key, class Value, class Compare>
void check_multi(distribution dist, const std::vector<std::int64_t>& counts, Compare cmp,
                 bool staged_pivot = false, timing perturb = {}) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  using stored_value = std::conditional_t<pairs, Value, char>;
  const int shards = static_cast<int>(counts.size());
  const int devices = std::min(device_count(), shards);
  std::int64_t n = 0;
  for (auto c : counts) n += c;
  INFO("distribution " << name(dist) << ", shards " << shards << ", n " << n << ", devices "
                       << devices << ", late input " << perturb.late_input_ns << " ns, busy "
                       << perturb.busy_ns << " ns");
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  device_buffer<Key> input(n), gathered(n);
  device_buffer<stored_value> gathered_values(pairs ? n : 0), input_values(pairs ? n : 0);
  REQUIRE(generate(input.data(), n, dist, 0x5eed + shards) == cudaSuccess);
  if constexpr (pairs) REQUIRE(iota_values(input_values.data(), n) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

  std::vector<shard_buffer<Key>> key_shards;
  std::vector<shard_buffer<stored_value>> value_shards;
  for (int i = 0; i < shards; ++i) {
    key_shards.emplace_back(i % devices, counts[i]);
    value_shards.emplace_back(i % devices, pairs ? counts[i] : 0);
  }
  if (perturb.late_input_ns > 0) {
    // cudaMemcpyPeer is serialized after the current device's (0) default-stream work.
    spin_kernel<<<1, 1>>>(perturb.late_input_ns);
    REQUIRE(cudaGetLastError() == cudaSuccess);
  }
  std::int64_t offset = 0;
  for (int i = 0; i < shards; ++i) {
    const int d = key_shards[i].device;
    if (counts[i] > 0) {
      REQUIRE(cudaMemcpyPeer(key_shards[i].data->data(), d, input.data() + offset, 0,
                             counts[i] * sizeof(Key)) == cudaSuccess);
      if (pairs)
        REQUIRE(cudaMemcpyPeer(value_shards[i].data->data(), d, input_values.data() + offset, 0,
                               counts[i] * sizeof(stored_value)) == cudaSuccess);
    }
    offset += counts[i];
  }

  cudaError_t status;
  const busy_devices busy(devices, perturb.busy_ns);
  if (staged_pivot) {
    // The k-ary staged pivot (GPUs without peer access), through the internal entry point.
    std::vector<gpusort::detail::multi_shard<Key, Value>> list;
    for (int i = 0; i < shards; ++i) {
      Value* values = nullptr;
      if constexpr (pairs) values = value_shards[i].data->data();
      list.push_back({key_shards[i].device, key_shards[i].data->data(), values, counts[i]});
    }
    status = gpusort::detail::multi_sort_peer(list, cmp, nullptr, true);
  } else if constexpr (pairs) {
    std::vector<gpusort::multi::pair_shard<Key, Value>> list;
    for (int i = 0; i < shards; ++i)
      list.push_back({key_shards[i].device, key_shards[i].data->data(),
                      value_shards[i].data->data(), counts[i]});
    status = gpusort::multi::sort_pairs(list.data(), shards, cmp);
  } else {
    std::vector<gpusort::multi::shard<Key>> list;
    for (int i = 0; i < shards; ++i)
      list.push_back({key_shards[i].device, key_shards[i].data->data(), counts[i]});
    status = gpusort::multi::sort_keys(list.data(), shards, cmp);
  }
  REQUIRE(status == cudaSuccess);

  offset = 0;
  for (int i = 0; i < shards; ++i) {
    if (counts[i] > 0) {
      REQUIRE(cudaMemcpyPeer(gathered.data() + offset, 0, key_shards[i].data->data(),
                             key_shards[i].device, counts[i] * sizeof(Key)) == cudaSuccess);
      if (pairs)
        REQUIRE(cudaMemcpyPeer(gathered_values.data() + offset, 0, value_shards[i].data->data(),
                               value_shards[i].device, counts[i] * sizeof(stored_value)) ==
                cudaSuccess);
    }
    offset += counts[i];
  }
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  if constexpr (pairs) {
    // Stability holds while the local policy is stable (policy::automatic may change); the
    // stage logic's own stability is checked by the host test test_multi_plan.
    REQUIRE(verify_pairs(input.data(), gathered.data(), gathered_values.data(), n, cmp, false));
  } else {
    REQUIRE(verify_keys(input.data(), gathered.data(), n, cmp));
  }
}

constexpr int shard_counts[] = {1, 2, 3, 4, 5, 8};

}  // namespace

TEST_CASE("multi: u32 keys, every distribution, 1-8 shards, equal and unequal", "[multi]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const int shards = GENERATE(from_range(std::begin(shard_counts), std::end(shard_counts)));
  const bool equal = GENERATE(true, false);
  check_multi<std::uint32_t, no_value>(dist, layout_counts(shards, 300007, equal), gpusort::less{});
}

TEST_CASE("multi: u64 and key16 keys, every distribution", "[multi]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const int shards = GENERATE(2, 3, 5);
  const bool equal = GENERATE(true, false);
  check_multi<std::uint64_t, no_value>(dist, layout_counts(shards, 100003, equal), gpusort::less{});
  check_multi<key16, no_value>(dist, layout_counts(shards, 100003, equal), key16_less{});
}

// Shards of 2^16 keys and more sort float and double keys under total_less as order words,
// whose temp storage the shards' local sorts must be given (sort_temp_bytes).
TEST_CASE("multi: float and double keys under total_less", "[multi]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17, distribution::sorted);
  const int shards = GENERATE(1, 2, 3);
  check_multi<float, no_value>(dist, layout_counts(shards, 300007, false), gpusort::total_less{});
  check_multi<double, std::uint32_t>(dist, layout_counts(shards, 300007, true), gpusort::total_less{});
}

// Keys narrower than a word (at most 2^16 distinct: the pivots fall among many ties).
TEST_CASE("multi: u16 and __half keys, __half pairs", "[multi][narrow]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::sorted, distribution::all_equal);
  const int shards = GENERATE(1, 2, 3, 5);
  const bool equal = GENERATE(true, false);
  check_multi<std::uint16_t, no_value>(dist, layout_counts(shards, 300007, equal), gpusort::less{});
  check_multi<__half, no_value>(dist, layout_counts(shards, 300007, equal), gpusort::total_less{});
  check_multi<__half, std::uint32_t>(dist, layout_counts(shards, 200003, equal), gpusort::total_less{});
}

TEST_CASE("multi: pairs, every distribution", "[multi]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const int shards = GENERATE(2, 4, 8);
  const bool equal = GENERATE(true, false);
  check_multi<std::uint32_t, std::uint32_t>(dist, layout_counts(shards, 200003, equal),
                                            gpusort::less{});
  check_multi<key16, value16>(dist, layout_counts(shards, 50021, equal), key16_less{});
}

TEST_CASE("multi: tiny and lopsided layouts", "[multi]") {
  using counts = std::vector<std::int64_t>;
  const auto layout = GENERATE(counts{0}, counts{1}, counts{0, 0, 0}, counts{1, 0, 1},
                               counts{5, 0, 0, 7}, counts{1, 1, 1, 1, 1, 1, 1, 1},
                               counts{100000, 1}, counts{1, 100000}, counts{0, 65537, 0, 3, 0},
                               counts{4096, 4097, 4095, 1, 0, 33, 8191, 2});
  const auto dist = GENERATE(distribution::uniform, distribution::reverse_sorted,
                             distribution::all_equal, distribution::few_distinct_2);
  check_multi<std::uint32_t, no_value>(dist, layout, gpusort::less{});
  check_multi<std::uint32_t, std::uint32_t>(dist, layout, gpusort::greater{});
}

TEST_CASE("multi: the staged k-ary pivot (no peer access) sorts too", "[multi]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::sorted, distribution::organ_pipe);
  const int shards = GENERATE(2, 3, 8);
  const bool equal = GENERATE(true, false);
  check_multi<std::uint32_t, no_value>(dist, layout_counts(shards, 300007, equal),
                                       gpusort::less{}, true);
  check_multi<key16, value16>(dist, layout_counts(shards, 40009, equal), key16_less{}, true);
}

TEST_CASE("multi: 2^26 keys over 4 shards", "[multi][large]") {
  const bool equal = GENERATE(true, false);
  check_multi<std::uint32_t, no_value>(distribution::uniform,
                                       layout_counts(4, std::int64_t(1) << 26, equal),
                                       gpusort::less{});
  check_multi<std::uint64_t, std::uint32_t>(distribution::staggered,
                                            layout_counts(3, std::int64_t(1) << 25, equal),
                                            gpusort::less{});
}

TEST_CASE("multi: bad arguments are refused before any work, data untouched", "[multi]") {
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  const std::int64_t n = 5000;
  device_buffer<std::uint32_t> a(n), b(n);
  device_buffer<std::uint32_t> values(n);
  REQUIRE(generate(a.data(), n, distribution::uniform, 1) == cudaSuccess);
  REQUIRE(generate(b.data(), n, distribution::uniform, 2) == cudaSuccess);
  const auto before_a = a.to_host();
  const auto before_b = b.to_host();
  using shard = gpusort::multi::shard<std::uint32_t>;
  const int missing = device_count();

  shard good[2] = {{0, a.data(), n}, {0, b.data(), n}};
  CHECK(gpusort::multi::sort_keys(good, -1) == cudaErrorInvalidValue);
  CHECK(gpusort::multi::sort_keys(static_cast<const shard*>(nullptr), 2) == cudaErrorInvalidValue);
  CHECK(gpusort::multi::sort_keys(static_cast<const shard*>(nullptr), 0) == cudaSuccess);
  shard bad_device[2] = {{0, a.data(), n}, {missing, b.data(), n}};
  CHECK(gpusort::multi::sort_keys(bad_device, 2) == cudaErrorInvalidValue);
  shard negative_device[2] = {{-1, a.data(), n}, {0, b.data(), n}};
  CHECK(gpusort::multi::sort_keys(negative_device, 2) == cudaErrorInvalidValue);
  shard null_keys[2] = {{0, a.data(), n}, {0, nullptr, n}};
  CHECK(gpusort::multi::sort_keys(null_keys, 2) == cudaErrorInvalidValue);
  shard negative_count[2] = {{0, a.data(), n}, {0, b.data(), -1}};
  CHECK(gpusort::multi::sort_keys(negative_count, 2) == cudaErrorInvalidValue);
  gpusort::multi::pair_shard<std::uint32_t, std::uint32_t> null_values[2] = {
      {0, a.data(), values.data(), n}, {0, b.data(), nullptr, n}};
  CHECK(gpusort::multi::sort_pairs(null_values, 2) == cudaErrorInvalidValue);
  shard null_but_empty[2] = {{0, a.data(), 0}, {0, nullptr, 0}};
  CHECK(gpusort::multi::sort_keys(null_but_empty, 2) == cudaSuccess);

  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(a.to_host() == before_a);
  CHECK(b.to_host() == before_b);
}

TEST_CASE("multi: input written on the default stream just before the call", "[multi][race]") {
  // Without the sort's wait for the default stream, this reads unwritten shards every time.
  const int shards = GENERATE(1, 2, 3, 5, 8);
  const bool equal = GENERATE(true, false);
  const timing late{20'000'000, 0};
  check_multi<std::uint32_t, no_value>(distribution::uniform, layout_counts(shards, 300007, equal),
                                       gpusort::less{}, false, late);
  check_multi<std::uint32_t, std::uint32_t>(distribution::reverse_sorted,
                                            layout_counts(shards, 200003, equal), gpusort::less{},
                                            false, late);
}

TEST_CASE("multi: a GPU kept busy by another stream, repeated", "[multi][race]") {
  const int repeat = GENERATE(range(0, 3));
  const int shards = GENERATE(2, 3, 4, 5, 8);
  const auto dist = GENERATE(distribution::uniform, distribution::reverse_sorted);
  INFO("repeat " << repeat);
  const timing busy{0, 30'000'000};
  check_multi<std::uint32_t, no_value>(dist, layout_counts(shards, 300007, repeat % 2 == 0),
                                       gpusort::less{}, repeat == 2, busy);
  check_multi<std::uint32_t, std::uint32_t>(dist, layout_counts(shards, 200003, repeat % 2 == 1),
                                            gpusort::less{}, false, busy);
}
