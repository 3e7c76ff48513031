// GPU tests of the sampling and splitter building blocks: block::regular_sample (from
// global memory and from the shared tile buffer), block::stage_to_shared, block::locate_splitters,
// block::merge_sorted_row (the sorted sample rows merged by ranking), the splitter tree loaded
// into shared memory (find_bucket with and without equality buckets), and
// device::bucket_offsets — each against a plain C++ reference on the host, for u32, u64,
// float under total_less and a 16-byte lexicographic struct, with two block shapes.
#include "common/catch.hpp"
#include "common/key_types.cuh"

#include <gpusort/block/locate_splitters.cuh>
#include <gpusort/block/merge_sorted_rows.cuh>
#include <gpusort/block/regular_sample.cuh>
#include <gpusort/block/splitter_tree.cuh>
#include <gpusort/block/stage_to_shared.cuh>
#include <gpusort/compare.cuh>
#include <gpusort/detail/padded_buffer.cuh>
#include <gpusort/detail/positioned.cuh>
#include <gpusort/device/bucket_offsets.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

using gpusort_test::key12;
using gpusort_test::key16;

#define CUDA_REQUIRE(call)                          \
  do {                                              \
    const cudaError_t status_ = (call);             \
    INFO("CUDA: " << cudaGetErrorString(status_));  \
    REQUIRE(status_ == cudaSuccess);                \
  } while (0)

template <class T>
struct device_array {
  T* ptr = nullptr;
  std::size_t size = 0;
  explicit device_array(std::size_t n) : size(n) {
    CUDA_REQUIRE(cudaMalloc(&ptr, std::max<std::size_t>(1, n) * sizeof(T)));
  }
  explicit device_array(const std::vector<T>& host) : device_array(host.size()) {
    if (size) {
      CUDA_REQUIRE(cudaMemcpy(ptr, host.data(), size * sizeof(T), cudaMemcpyHostToDevice));
    }
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { cudaFree(ptr); }
  std::vector<T> to_host() const {
    std::vector<T> host(size);
    if (size) {
      CUDA_REQUIRE(cudaMemcpy(host.data(), ptr, size * sizeof(T), cudaMemcpyDeviceToHost));
    }
    return host;
  }
};

void require_launch_ok() {
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
}

// ---- key types and inputs ------------------------------------------------------------------

template <class Key> struct order { using type = gpusort::less; };
template <> struct order<float> { using type = gpusort::total_less; };
template <> struct order<key16> { using type = gpusort_test::key16_less; };

template <class Key>
bool same_bits(const Key& a, const Key& b) {
  return std::memcmp(&a, &b, sizeof(Key)) == 0;
}

enum class fill { random_bits, three_distinct, all_equal };

// Random bit patterns: floats then include NaNs of both signs, ±0, ±inf and subnormals.
template <class Key>
Key random_key(std::mt19937_64& rng) {
  unsigned char bytes[sizeof(Key)];
  for (auto& b : bytes) b = static_cast<unsigned char>(rng());
  Key k;
  std::memcpy(&k, bytes, sizeof(Key));
  return k;
}

template <class Key>
std::vector<Key> make_keys(std::size_t n, fill f, std::mt19937_64& rng) {
  const Key pool[3] = {random_key<Key>(rng), random_key<Key>(rng), random_key<Key>(rng)};
  std::vector<Key> keys(n);
  for (auto& k : keys) {
    switch (f) {
      case fill::random_bits: k = random_key<Key>(rng); break;
      case fill::three_distinct: k = pool[rng() % 3]; break;
      case fill::all_equal: k = pool[0]; break;
    }
  }
  return keys;
}

// Input cut into tiles of `tile` items (the last one ragged), each sorted: the state after
// the deterministic sort's step 2.
template <class Key, class Compare>
std::vector<Key> make_sorted_tiles(std::int64_t n, int tile, fill f, std::mt19937_64& rng,
                                   Compare cmp) {
  auto keys = make_keys<Key>(static_cast<std::size_t>(n), f, rng);
  for (std::int64_t begin = 0; begin < n; begin += tile) {
    std::sort(keys.begin() + begin, keys.begin() + std::min<std::int64_t>(n, begin + tile), cmp);
  }
  return keys;
}

constexpr fill all_fills[] = {fill::random_bits, fill::three_distinct, fill::all_equal};

// Sizes with a full-but-one last tile and with a last tile shorter than the sample.
std::vector<std::int64_t> sizes_for(int tile) {
  return {std::int64_t{4} * tile + tile / 2 + 3, std::int64_t{3} * tile + 5};
}

int tiles_of(std::int64_t n, int tile) { return static_cast<int>((n + tile - 1) / tile); }

// ---- stage_to_shared ------------------------------------------------------------------------

// Block b stages the counts[b] items at byte starts[b] of `in` and writes the staged copy to
// the same bytes of `out`, through shared memory filled with a marker beforehand, so that a
// word the copy missed shows as the marker.
template <int THREADS, class T>
__global__ void stage_to_shared_kernel(const unsigned char* in, const int* starts,
                                       const int* counts, unsigned char* out) {
  extern __shared__ __align__(16) unsigned char staging[];
  const int count = counts[blockIdx.x];
  const std::size_t bytes = gpusort::block::staged_bytes<T>(count);
  for (std::size_t i = threadIdx.x; i < bytes; i += THREADS) staging[i] = 0xA5;
  __syncthreads();
  const auto* from = reinterpret_cast<const T*>(in + starts[blockIdx.x]);
  const T* staged = gpusort::block::stage_to_shared<THREADS>(staging, from, count);
  __syncthreads();
  T* to = reinterpret_cast<T*>(out + starts[blockIdx.x]);
  for (int i = threadIdx.x; i < count; i += THREADS) to[i] = staged[i];
}

// Arrays at every phase within 16 bytes that T's alignment allows, with counts that end
// inside the first chunk, on a chunk boundary and past one, and a tile of thousands of items.
template <int THREADS, class T>
void check_stage_to_shared(std::mt19937_64& rng) {
  constexpr int phases = static_cast<int>(alignof(T) < 16 ? 16 / alignof(T) : 1);
  const int count_choices[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 33, 1000, 4099};
  std::vector<int> starts, counts;
  int end = 0;  // bytes
  for (int phase = 0; phase < phases; ++phase) {
    for (int count : count_choices) {
      starts.push_back((end + 15) / 16 * 16 + phase * static_cast<int>(alignof(T)));
      counts.push_back(count);
      end = starts.back() + count * static_cast<int>(sizeof(T));
    }
  }
  std::vector<unsigned char> input(static_cast<std::size_t>(end));
  for (auto& byte : input) byte = static_cast<unsigned char>(rng());
  device_array<unsigned char> d_in(input);
  device_array<unsigned char> d_out(input.size());
  CUDA_REQUIRE(cudaMemset(d_out.ptr, 0, input.size()));
  device_array<int> d_starts(starts);
  device_array<int> d_counts(counts);
  const std::size_t shared = gpusort::block::staged_bytes<T>(4099);
  auto kernel = stage_to_shared_kernel<THREADS, T>;
  CUDA_REQUIRE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(shared)));
  kernel<<<static_cast<unsigned>(starts.size()), THREADS, shared>>>(d_in.ptr, d_starts.ptr,
                                                                    d_counts.ptr, d_out.ptr);
  require_launch_ok();
  const auto out = d_out.to_host();
  for (std::size_t b = 0; b < starts.size(); ++b) {
    CAPTURE(b, starts[b], counts[b]);
    const auto first = input.begin() + starts[b];
    const auto last = first + counts[b] * static_cast<int>(sizeof(T));
    const auto wrong = std::mismatch(first, last, out.begin() + starts[b]).first;
    INFO("first wrong byte: " << (wrong - first));
    REQUIRE(wrong == last);
  }
}

// ---- regular_sample -------------------------------------------------------------------------

template <int THREADS, int TILE, class Key>
__global__ void regular_sample_kernel(const Key* sorted, std::int64_t n, int samples,
                                      Key* keys_global, std::int64_t* positions_global,
                                      Key* keys_shared, std::int64_t* positions_shared) {
  __shared__ gpusort::detail::padded_buffer<Key, TILE> buffer;
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * TILE;
  const int valid = static_cast<int>(n - offset < TILE ? n - offset : TILE);
  const Key* tile = sorted + offset;
  for (int i = threadIdx.x; i < valid; i += THREADS) buffer[i] = tile[i];
  __syncthreads();
  const std::int64_t out = static_cast<std::int64_t>(blockIdx.x) * samples;
  gpusort::block::regular_sample<THREADS>(tile, valid, samples, offset, keys_global + out,
                                          positions_global + out);
  // As fused into the write-back: the sorted tile still sits in the padded shared buffer.
  gpusort::block::regular_sample<THREADS>(buffer, valid, samples, offset, keys_shared + out,
                                          positions_shared + out);
}

template <int THREADS, class Key>
void check_regular_sample(std::mt19937_64& rng) {
  constexpr int tile = THREADS * 4;
  using Compare = typename order<Key>::type;
  for (std::int64_t n : sizes_for(tile)) {
    for (int samples : {16, 100}) {
      const int tiles = tiles_of(n, tile);
      CAPTURE(THREADS, n, samples);
      const auto host = make_sorted_tiles<Key>(n, tile, fill::random_bits, rng, Compare{});
      device_array<Key> sorted(host);
      const std::size_t total = static_cast<std::size_t>(tiles) * samples;
      device_array<Key> keys_global(total), keys_shared(total);
      device_array<std::int64_t> positions_global(total), positions_shared(total);
      regular_sample_kernel<THREADS, tile><<<tiles, THREADS>>>(
          sorted.ptr, n, samples, keys_global.ptr, positions_global.ptr, keys_shared.ptr,
          positions_shared.ptr);
      require_launch_ok();
      const auto kg = keys_global.to_host(), ks = keys_shared.to_host();
      const auto pg = positions_global.to_host(), ps = positions_shared.to_host();
      for (int t = 0; t < tiles; ++t) {
        const std::int64_t offset = std::int64_t{t} * tile;
        const int valid = static_cast<int>(std::min<std::int64_t>(tile, n - offset));
        for (int j = 0; j < samples; ++j) {
          CAPTURE(t, j);
          // Reference: sample j is the last item of the j-th of s equal slices of the tile.
          const std::int64_t index = std::max<std::int64_t>(0, (j + 1LL) * valid / samples - 1);
          const std::size_t at = static_cast<std::size_t>(t) * samples + j;
          REQUIRE(pg[at] == offset + index);
          REQUIRE(ps[at] == offset + index);
          REQUIRE(same_bits(kg[at], host[offset + index]));
          REQUIRE(same_bits(ks[at], host[offset + index]));
        }
      }
    }
  }
}

// ---- locate_splitters -----------------------------------------------------------------------

template <int THREADS, int TILE, class Key, class Compare>
__global__ void locate_splitters_kernel(const Key* sorted, std::int64_t n,
                                        const Key* splitter_keys,
                                        const std::int64_t* splitter_positions, int splitters,
                                        int* ranks, Compare cmp) {
  __shared__ Key tile[TILE];
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * TILE;
  const int valid = static_cast<int>(n - offset < TILE ? n - offset : TILE);
  for (int i = threadIdx.x; i < valid; i += THREADS) tile[i] = sorted[offset + i];
  __syncthreads();
  gpusort::block::locate_splitters<THREADS>(tile, valid, offset, splitter_keys,
                                            splitter_positions, splitters,
                                            ranks + static_cast<std::int64_t>(blockIdx.x) * splitters,
                                            cmp);
}

template <class Key>
struct positioned_key {
  Key key;
  std::int64_t position;
};

// Splitters sorted under precedes: items of the input at their own positions (the sort's
// case), other keys at positions before, inside and after the array, and repeats.
template <class Key, class Compare>
std::vector<positioned_key<Key>> make_splitters(const std::vector<Key>& input, int count,
                                                fill f, std::mt19937_64& rng, Compare cmp) {
  const auto others = make_keys<Key>(static_cast<std::size_t>(count) + 1, f, rng);
  const std::int64_t n = static_cast<std::int64_t>(input.size());
  std::vector<positioned_key<Key>> s;
  for (int b = 0; b < count; ++b) {
    const std::uint64_t r = rng() % 3;
    if (r == 0 || (r == 2 && s.empty())) {
      const std::int64_t i = static_cast<std::int64_t>(rng() % input.size());
      s.push_back({input[i], i});
    } else if (r == 1) {
      const std::int64_t position = static_cast<std::int64_t>(rng() % (n + 20)) - 10;
      s.push_back({others[b], position});
    } else {
      s.push_back(s.back());
    }
  }
  std::sort(s.begin(), s.end(), [&](const positioned_key<Key>& a, const positioned_key<Key>& b) {
    return gpusort::detail::precedes(a.key, a.position, b.key, b.position, cmp);
  });
  return s;
}

template <int THREADS, class Key>
void check_locate_splitters(std::mt19937_64& rng) {
  constexpr int tile = THREADS * 4;
  using Compare = typename order<Key>::type;
  const Compare cmp{};
  for (fill f : all_fills) {
    for (std::int64_t n : sizes_for(tile)) {
      for (int count : {0, 1, 15, 64, 300}) {
        const int tiles = tiles_of(n, tile);
        CAPTURE(THREADS, static_cast<int>(f), n, count);
        const auto host = make_sorted_tiles<Key>(n, tile, f, rng, cmp);
        const auto splitters = make_splitters(host, count, f, rng, cmp);
        std::vector<Key> keys;
        std::vector<std::int64_t> positions;
        for (const auto& s : splitters) {
          keys.push_back(s.key);
          positions.push_back(s.position);
        }
        device_array<Key> d_sorted(host), d_keys(keys);
        device_array<std::int64_t> d_positions(positions);
        device_array<int> d_ranks(static_cast<std::size_t>(tiles) * count);
        locate_splitters_kernel<THREADS, tile><<<tiles, THREADS>>>(
            d_sorted.ptr, n, d_keys.ptr, d_positions.ptr, count, d_ranks.ptr, cmp);
        require_launch_ok();
        const auto ranks = d_ranks.to_host();
        for (int t = 0; t < tiles; ++t) {
          const std::int64_t offset = std::int64_t{t} * tile;
          const int valid = static_cast<int>(std::min<std::int64_t>(tile, n - offset));
          for (int b = 0; b < count; ++b) {
            // Reference: count the tile's items that precede the splitter, one by one.
            int expected = 0;
            for (int i = 0; i < valid; ++i) {
              expected += gpusort::detail::precedes(host[offset + i], offset + i, keys[b],
                                                    positions[b], cmp);
            }
            CAPTURE(t, b);
            REQUIRE(ranks[static_cast<std::size_t>(t) * count + b] == expected);
          }
        }
      }
    }
  }
}

// ---- merge_sorted_row -----------------------------------------------------------------------

template <class Key>
struct key_rows {
  Key* keys;
  __device__ Key at(std::int64_t i) const { return keys[i]; }
  __device__ void set(std::int64_t i, const Key& key) const { keys[i] = key; }
};

// Block r merges row r into its group [group_first[r], group_end[r]).
template <int THREADS, class Key, class Compare>
__global__ void merge_sorted_rows_kernel(Key* rows, Key* merged, const std::int64_t* group_first,
                                         const std::int64_t* group_end, int width, int staged_rows,
                                         Compare cmp) {
  extern __shared__ __align__(16) unsigned char shared[];
  const std::int64_t row = blockIdx.x;
  gpusort::block::merge_sorted_row<THREADS, Key>(key_rows<Key>{rows}, key_rows<Key>{merged}, row,
                                                 group_first[row], group_end[row], width,
                                                 staged_rows, shared, cmp);
}

template <int THREADS, class Key>
void check_merge_sorted_rows(std::mt19937_64& rng) {
  using Compare = typename order<Key>::type;
  const Compare cmp{};
  // Groups of 1, 5, 2 and 13 rows: one row alone, and groups that take several stagings.
  const std::vector<int> group_rows = {1, 5, 2, 13};
  std::vector<std::int64_t> first, end;
  for (int g = 0, start = 0; g < static_cast<int>(group_rows.size()); start += group_rows[g++]) {
    for (int r = 0; r < group_rows[g]; ++r) {
      first.push_back(start);
      end.push_back(start + group_rows[g]);
    }
  }
  const int rows = static_cast<int>(first.size());
  device_array<std::int64_t> d_first(first), d_end(end);
  for (fill f : all_fills) {
    for (int width : {1, 7, 64, 193}) {
      for (int staged_rows : {1, 3, 8}) {
        CAPTURE(THREADS, static_cast<int>(f), width, staged_rows);
        auto keys = make_keys<Key>(static_cast<std::size_t>(rows) * width, f, rng);
        for (int r = 0; r < rows; ++r) std::sort(keys.begin() + r * width, keys.begin() + (r + 1) * width, cmp);
        device_array<Key> d_rows(keys), d_merged(keys.size());
        const std::size_t bytes = gpusort::block::merge_sorted_rows_bytes<Key>(width, staged_rows);
        merge_sorted_rows_kernel<THREADS><<<rows, THREADS, bytes>>>(d_rows.ptr, d_merged.ptr, d_first.ptr,
                                                                   d_end.ptr, width, staged_rows, cmp);
        require_launch_ok();
        const auto merged = d_merged.to_host();
        // Reference: each group's rows concatenated and sorted stably; ties take the lower row
        // first, as the merge does, so even tied keys of different bits must match exactly.
        auto expected = keys;
        for (int r = 0; r < rows; r = static_cast<int>(end[r])) {
          std::stable_sort(expected.begin() + first[r] * width, expected.begin() + end[r] * width, cmp);
        }
        for (std::size_t i = 0; i < expected.size(); ++i) {
          CAPTURE(i);
          REQUIRE(same_bits(merged[i], expected[i]));
        }
        const auto rows_after = d_rows.to_host();  // the input is left as it was
        REQUIRE(std::memcmp(rows_after.data(), keys.data(), keys.size() * sizeof(Key)) == 0);
      }
    }
  }
}

// ---- splitter tree --------------------------------------------------------------------------

template <int THREADS, int LOG, class Key, class Compare>
__global__ void splitter_tree_kernel(const Key* sorted_splitters, const Key* queries, int n,
                                     int* buckets, int* buckets_with_equality, int* repeated,
                                     Compare cmp) {
  __shared__ gpusort::block::splitter_tree<Key, LOG> tree;
  tree.template load<THREADS>(sorted_splitters);
  // Every thread's answer, so that a thread that compared nothing still reports the block's.
  const bool block_repeated = tree.template block_has_repeated_splitters<THREADS>(cmp);
  atomicAdd(&repeated[block_repeated ? 1 : 0], 1);
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
    buckets[i] = tree.find_bucket(queries[i], cmp);
    buckets_with_equality[i] = tree.find_bucket_with_equality(queries[i], cmp);
  }
}

template <int THREADS, int LOG, class Key>
void check_splitter_tree(std::mt19937_64& rng) {
  using Compare = typename order<Key>::type;
  const Compare cmp{};
  constexpr int k = 1 << LOG;
  for (fill f : all_fills) {
    CAPTURE(THREADS, LOG, static_cast<int>(f));
    auto queries = make_keys<Key>(5000, f, rng);
    // Splitters drawn from the input, as a sample sort does; repeats are likely.
    std::vector<Key> splitters(k - 1);
    for (auto& s : splitters) s = queries[rng() % queries.size()];
    std::sort(splitters.begin(), splitters.end(), cmp);
    queries.insert(queries.end(), splitters.begin(), splitters.end());
    const int n = static_cast<int>(queries.size());
    device_array<Key> d_splitters(splitters), d_queries(queries);
    device_array<int> d_buckets(n), d_with_equality(n), d_repeated(std::vector<int>{0, 0});
    constexpr int blocks = 4;
    splitter_tree_kernel<THREADS, LOG><<<blocks, THREADS>>>(d_splitters.ptr, d_queries.ptr, n,
                                                            d_buckets.ptr, d_with_equality.ptr,
                                                            d_repeated.ptr, cmp);
    require_launch_ok();
    const auto buckets = d_buckets.to_host(), with_equality = d_with_equality.to_host();
    bool repeated = false;
    for (int r = 1; r < k - 1; ++r) repeated |= !cmp(splitters[r - 1], splitters[r]);
    const auto answers = d_repeated.to_host();  // [threads answering false, answering true]
    REQUIRE(answers[repeated ? 1 : 0] == blocks * THREADS);
    REQUIRE(answers[repeated ? 0 : 1] == 0);
    for (int i = 0; i < n; ++i) {
      CAPTURE(i);
      // Reference: the number of splitters ordered before the key.
      const int b = static_cast<int>(
          std::lower_bound(splitters.begin(), splitters.end(), queries[i], cmp) -
          splitters.begin());
      const bool equal = b < k - 1 && !cmp(queries[i], splitters[b]);
      REQUIRE(buckets[i] == b);
      REQUIRE(with_equality[i] == 2 * b + (equal ? 1 : 0));
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("regular_sample takes s equidistant samples on the GPU", "[gpu][splitters][sanitize]",
                   std::uint32_t, std::uint64_t, float, key16) {
  std::mt19937_64 rng(1);
  check_regular_sample<64, TestType>(rng);
  check_regular_sample<256, TestType>(rng);
}

TEMPLATE_TEST_CASE("stage_to_shared copies an array at every phase within 16 bytes",
                   "[gpu][splitters][sanitize]", std::uint8_t, std::uint16_t, std::uint32_t,
                   std::uint64_t, float, key12, key16) {
  std::mt19937_64 rng(7);
  check_stage_to_shared<64, TestType>(rng);
  check_stage_to_shared<256, TestType>(rng);
}

TEMPLATE_TEST_CASE("locate_splitters ranks every splitter in every tile", "[gpu][splitters][sanitize]",
                   std::uint32_t, std::uint64_t, float, key16) {
  std::mt19937_64 rng(2);
  check_locate_splitters<64, TestType>(rng);
  check_locate_splitters<256, TestType>(rng);
}

TEMPLATE_TEST_CASE("splitter_tree in shared memory finds lower-bound and equality buckets",
                   "[gpu][splitters][sanitize]", std::uint32_t, std::uint64_t, float, key16) {
  std::mt19937_64 rng(3);
  check_splitter_tree<64, 7, TestType>(rng);   // 127 nodes: threads load several each
  check_splitter_tree<256, 3, TestType>(rng);  // 7 nodes: most threads load none
}

TEMPLATE_TEST_CASE("bucket_offsets scans the tile x bucket table column by column",
                   "[gpu][bucket_offsets][sanitize]", std::int64_t, std::int32_t) {
  using Count = TestType;
  std::mt19937_64 rng(4);
  const int shapes[][2] = {{1, 1}, {7, 13}, {2048, 128}, {1, 300}, {300, 1}, {0, 4}};
  for (const auto& shape : shapes) {
    const int tiles = shape[0], buckets = shape[1];
    CAPTURE(tiles, buckets);
    const std::size_t items = static_cast<std::size_t>(tiles) * buckets;
    // 64-bit counts large enough that the total needs more than 32 bits.
    const std::uint64_t max_count = sizeof(Count) == 8 ? (std::uint64_t{1} << 34) : 1000;
    std::vector<Count> counts(items);
    for (auto& c : counts) c = static_cast<Count>(rng() % (max_count + 1));
    // Reference: walk the table bucket by bucket, tile by tile.
    std::vector<Count> expected(items);
    Count running = 0;
    for (int b = 0; b < buckets; ++b) {
      for (int t = 0; t < tiles; ++t) {
        const std::size_t at = static_cast<std::size_t>(t) * buckets + b;
        expected[at] = running;
        running += counts[at];
      }
    }
    device_array<Count> d_counts(counts), d_offsets(items);
    std::size_t temp_bytes = 0;
    CUDA_REQUIRE(gpusort::device::bucket_offsets<Count>(nullptr, temp_bytes, d_counts.ptr,
                                                        d_offsets.ptr, tiles, buckets));
    device_array<unsigned char> temp(temp_bytes);
    CUDA_REQUIRE(gpusort::device::bucket_offsets(temp.ptr, temp_bytes, d_counts.ptr,
                                                 d_offsets.ptr, tiles, buckets));
    CUDA_REQUIRE(cudaDeviceSynchronize());
    REQUIRE(d_offsets.to_host() == expected);
    REQUIRE(d_counts.to_host() == counts);  // the input is left alone
  }
}

TEMPLATE_TEST_CASE("merge_sorted_row places sorted rows at their merged ranks",
                   "[gpu][splitters][sanitize]", std::uint32_t, std::uint64_t, float, key16) {
  std::mt19937_64 rng(5);
  check_merge_sorted_rows<64, TestType>(rng);
  check_merge_sorted_rows<256, TestType>(rng);
}
