// gpusort/detail/multiway_merge.cuh — a merge pass that merges four or eight runs at once
// (Satish et al.'s multi-way merge, k = 4 or 8), so that a sort crosses device memory half or
// a third as often as with two-way passes.
//
// The runs of each group of WAYS are merged by a tree of pairwise merges of neighbouring runs
// (for four, merge(merge(r0, r1), merge(r2, r3))), which is stable (ties go to the lower
// run). Each group's output is cut into tiles of multiway_tile items; the co-ranks of every
// tile start come from thread::multiway_select (keys of up to 16 bytes) or
// thread::four_way_merge_path (wider ones, four runs; see four_way_select_partition). A block
// stages its pieces in shared memory and merges the tree level by level in place
// (detail/staged_merge.cuh: every thread one job of at most ITEMS outputs — a tile
// WAYS / 2 - 1 jobs short of THREADS * ITEMS leaves room for the job each pair of a level may
// share with the next when it does not end on a job boundary), and writes the tile once.
// What it costs (H200, bench/RESULTS.md runs 77-78): the four-way merge kernel 0.73-0.77x the
// two two-way ones it replaces; eight-way passes: run 101. The co-rank searches decide where
// multi-way passes pay: nested merge-path searches (thread::four_way_merge_path, a chain of
// about log2(w)^2 / 2 loads for runs of w) took 16.6 % of a u32 sort at 2^28;
// four_way_select_partition says where multisequence selection replaces them.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/staged_merge.cuh>
#include <gpusort/thread/four_way_merge_path.cuh>
#include <gpusort/thread/multiway_select.cuh>

#include <cuda_runtime.h>

#include <cstdint>

namespace gpusort {
namespace detail {

// The length of four_run_groups' tiles: fixed at compile time (TILE > 0: a block's tile), or
// set at run time (TILE 0: warpsort's warp ranges, whose length depends on n and the device).
template <int TILE>
struct four_run_tile_length {
  static constexpr std::int64_t tile = TILE;
};
template <>
struct four_run_tile_length<0> {
  std::int64_t tile;
};

// Runs of `run` items in one array of n: group g is runs WAYS g .. WAYS g + WAYS - 1 (the
// array's last group may have fewer or shorter ones); each group's output is cut into tiles of
// `tile` items, the group's last tile short.
template <int WAYS, int TILE>
struct run_groups : four_run_tile_length<TILE> {
  static constexpr int ways = WAYS;
  std::int64_t run, n;

  struct tile_of_group {
    std::int64_t start;     // the group's first item
    std::int64_t position;  // the tile's first output within its group
    std::int64_t group_count;
    std::int64_t run_begin[WAYS], run_count[WAYS];
  };

  __host__ __device__ run_groups(std::int64_t run_, std::int64_t n_) : run(run_), n(n_) {
    static_assert(TILE > 0, "a tile length set at run time is the first of three arguments");
  }
  __host__ __device__ run_groups(std::int64_t tile_, std::int64_t run_, std::int64_t n_)
      : four_run_tile_length<TILE>{tile_}, run(run_), n(n_) {}

  __host__ __device__ std::int64_t tiles_per_group() const { return (WAYS * run + this->tile - 1) / this->tile; }
  __host__ __device__ std::int64_t tiles() const {
    const std::int64_t rest = n % (WAYS * run);
    return n / (WAYS * run) * tiles_per_group() + (rest + this->tile - 1) / this->tile;
  }
  __host__ __device__ tile_of_group at(std::int64_t index) const {
    tile_of_group t;
    t.start = index / tiles_per_group() * (WAYS * run);
    t.position = index % tiles_per_group() * this->tile;
    t.group_count = n - t.start < WAYS * run ? n - t.start : WAYS * run;
    for (int j = 0; j < WAYS; ++j) {
      const std::int64_t begin = t.start + j * run;
      t.run_begin[j] = begin < n ? begin : n;
      t.run_count[j] = (begin + run < n ? begin + run : n) - t.run_begin[j];
    }
    return t;
  }
  // The tile's outputs, and whether it is its group's last.
  __host__ __device__ std::int64_t outputs(const tile_of_group& t) const {
    return t.group_count - t.position < this->tile ? t.group_count - t.position : this->tile;
  }
  __host__ __device__ bool ends_group(const tile_of_group& t) const {
    return t.position + this->tile >= t.group_count;
  }
};
template <int TILE>
using four_run_groups = run_groups<4, TILE>;

// Each run's piece of a tile of `out_count` outputs that starts at the co-ranks `begin`: up
// to the next tile's co-ranks `end`, or to the run's end where the tile ends its group (end
// null). The co-ranks lie inside the runs whatever the comparator; clamping each piece to
// what the tile and the later runs leave keeps the pieces inside the tile too when a
// comparator is no strict weak ordering.
template <class Count, class Tile, int WAYS>
__host__ __device__ __forceinline__ void multiway_pieces(const Tile& t, Count out_count,
                                                         const thread::multiway_split<WAYS>& begin,
                                                         const thread::multiway_split<WAYS>* end,
                                                         Count (&piece)[WAYS]) {
  Count remaining = out_count;
  std::int64_t later_room = 0;
  for (int j = 0; j < WAYS; ++j) later_room += t.run_count[j] - begin.taken[j];
  for (int j = 0; j < WAYS; ++j) {
    const std::int64_t room = t.run_count[j] - begin.taken[j];
    later_room -= room;
    const std::int64_t until = end ? end->taken[j] : t.run_count[j];
    const std::int64_t least = remaining - later_room > 0 ? remaining - later_room : 0;
    const std::int64_t most = remaining < room ? remaining : room;
    const std::int64_t wanted = until - begin.taken[j];
    piece[j] = static_cast<Count>(wanted < least ? least : wanted > most ? most : wanted);
    remaining -= piece[j];
  }
}

// Whether the searches are thread::multiway_select's (about log2(w) steps of one parallel
// load) rather than nested merge paths. Selection holds eight keys at a time in registers:
// keys of up to 8 bytes sorted 1.3-4.5 % faster with it (u32, u64, u32:u32 at 2^26-2^28, run
// 78), 6-8 % more with its arrays out of the stack frame (run 80); 16-byte keys (121 registers,
// no stack frame) 6.2-13.8 % faster at 2^24-2^26 (run 81); 64-byte keys were 7.2 % slower at
// 2^24 (bench_sort, run 78, with the stack frame).
template <class Key>
constexpr bool four_way_select_partition = sizeof(Key) <= 16;

// Every four_way_coarse_stride-th tile of a group is split by a search over the whole runs
// (the coarse kernel); the tiles between them by searches between the splits of the coarse
// tiles around them (the fine kernel). Both kernels run all their searches in one wave, so
// each lasts about as long as one search: the split pays where a search over the whole runs
// is a long chain. Nested merge paths are (a whole-run search for every tile made the
// partition cost more than the merge it saves, bench/RESULTS.md run 26); selection is not: one
// kernel of whole-run selections made sorts of 2^27-2^28 items 1.9-4.7 % faster than stride 16
// (u32, u64, u32:u32; stride 4 0.7 % slower; H200, run 79).
template <class Key>
constexpr std::int64_t four_way_coarse_stride = four_way_select_partition<Key> ? 1 : 16;
// Outer probes a step (thread::four_way_merge_path_between): the coarse searches are few
// chains of dependent loads, which probing several points at once shortens; the others
// are many, and bound by how many sectors of device memory they read, which more probes
// would multiply (bench/RESULTS.md run 27).
constexpr int four_way_coarse_probes = 3, four_way_fine_probes = 1;

// splits[i]: the four co-ranks of tile i's first output; COARSE: of the coarse tiles only,
// otherwise of the others (after the coarse ones).
template <class Groups, bool COARSE, class Key, class Compare>
__global__ void four_way_partition_kernel(const Key* keys, Groups groups,
                                          thread::multiway_split<Groups::ways>* splits,
                                          std::int64_t tiles, Compare cmp) {
  constexpr int ways = Groups::ways;
  static_assert(ways == 4 || four_way_select_partition<Key>, "nested merge paths split four runs");
  constexpr std::int64_t stride = four_way_coarse_stride<Key>;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= tiles) return;
  const auto t = groups.at(i);
  const std::int64_t in_group = t.position / groups.tile;
  const std::int64_t past_coarse = in_group % stride;
  if ((past_coarse == 0) != COARSE) return;
  const Key* runs[ways];
  for (int j = 0; j < ways; ++j) runs[j] = keys + t.run_begin[j];
  if constexpr (four_way_select_partition<Key>) {
    splits[i] = thread::multiway_select(runs, t.run_count, t.position, cmp);
  } else if constexpr (COARSE) {
    splits[i] =
        thread::four_way_merge_path<four_way_coarse_probes>(runs, t.run_count, t.position, cmp);
  } else {
    const std::int64_t group_tiles = (t.group_count + groups.tile - 1) / groups.tile;
    const std::int64_t next_coarse = in_group - past_coarse + stride;
    const thread::four_way_split low = splits[i - past_coarse];
    const thread::four_way_split high =
        next_coarse < group_tiles
            ? splits[i - past_coarse + stride]
            : thread::four_way_split{{t.run_count[0], t.run_count[1], t.run_count[2], t.run_count[3]}};
    splits[i] = thread::four_way_merge_path_between<four_way_fine_probes>(runs, t.run_count,
                                                                          t.position, low, high, cmp);
  }
}

// The blocks an SM that the pass kernel is compiled for (0: the compiler's choice). The pass is
// bound by issue, not by memory (ncu, H200, bench/RESULTS.md run 74), so more resident warps
// pay where the networks merge items as words of the items' own size:
// - 8 bytes (u64 keys, u32:u32 pairs): 5 blocks of 256 threads fit in 48 registers (8-12
//   bytes of spill before the tile's plan moved to shared memory, none since), instead of 4
//   blocks; sorts of 2^26-2^28 items 2.6-3.5 % faster (run 75);
// - 4 bytes (u32, i32 keys; 256 x 32 tiles): 48 registers (then 4 bytes of spill, now none),
//   instead of 61; sorts of 2^27-2^28 u32 keys 3.2-3.8 % faster (run 77).
// Eight-way passes spill 60-84 bytes at 48 registers, all in the one thread that plans the
// tile (ptxas: as many with the merges left out).
// Other items would spill 32-528 bytes at 48 registers (16-byte keys, u16:u64 and u64:u64
// pairs, ranked doubles, 8-byte structs). The two-way pass kernels, bound likewise to 6 blocks
// in 256 x 32 tiles of u32 keys (40 registers, no spill), made sorts of 2^22-2^26 keys 1.6-9.5 %
// slower (run 77).
template <int THREADS, bool RANKED, class Key, class Value, class Compare>
constexpr int four_way_min_blocks =
    THREADS == 256 && (item_bytes_of<Key, Value> == 8 || item_bytes_of<Key, Value> == 4) &&
            sizeof(merge_network_item<RANKED, Key, Compare>) == item_bytes_of<Key, Value>
        ? 5
        : 0;

// A tile of a WAYS-way pass: THREADS jobs of ITEMS outputs, less one for each pair but the
// last of the tree's first level, which may share a job with the next pair.
template <int WAYS, int THREADS, int ITEMS>
constexpr int multiway_tile = (THREADS - WAYS / 2 + 1) * ITEMS;

template <int WAYS, int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS, four_way_min_blocks<THREADS, RANKED, Key, Value, Compare>)
    multiway_pass_kernel(const Key* keys, const Value* values, Key* keys_out, Value* values_out,
                         run_groups<WAYS, multiway_tile<WAYS, THREADS, ITEMS>> groups,
                         const thread::multiway_split<WAYS>* splits, Compare cmp) {
  // Dynamic: 16-byte keys 1.5-1.7 % faster than with the same storage declared static (H200,
  // bench/RESULTS.md run 51; other items within 0.2 %).
  extern __shared__ __align__(16) unsigned char four_way_shared[];
  auto& shared = *reinterpret_cast<staged_merge_storage<THREADS, ITEMS, Key, Value>*>(four_way_shared);
  // The tile's plan: where each run's piece starts in the staged tile (the last entry: the
  // tile's end) and in the input, and where the tile goes. Block-uniform and read at every
  // level of the tree: one thread plans into shared memory, so that no thread keeps the
  // runs' arrays in registers across the merges (planned by every thread, eight runs spilled
  // 96-112 bytes; ptxas).
  __shared__ int piece_at[WAYS + 1];
  __shared__ std::int64_t piece_from[WAYS], out_at;
  if (threadIdx.x == 0) {
    const auto t = groups.at(blockIdx.x);
    const thread::multiway_split<WAYS> begin = splits[blockIdx.x];
    int piece[WAYS];
    multiway_pieces(t, static_cast<int>(groups.outputs(t)), begin,
                    groups.ends_group(t) ? nullptr : &splits[blockIdx.x + 1], piece);
    piece_at[0] = 0;
    for (int j = 0; j < WAYS; ++j) {
      piece_from[j] = t.run_begin[j] + begin.taken[j];
      piece_at[j + 1] = piece_at[j] + piece[j];
    }
    out_at = t.start + t.position;
  }
  __syncthreads();
  for (int j = 0; j < WAYS; ++j) {
    const int at = piece_at[j], count = piece_at[j + 1] - at;
    stage<THREADS>(keys + piece_from[j], count, shared.keys, at);
    stage<THREADS>(values + piece_from[j], count, shared.values, at);
  }
  __syncthreads();

  // Level by level, pair p of a level merges the pieces of runs [2p w, (2p + 1) w) with those
  // of [(2p + 1) w, (2p + 2) w): jobs of ITEMS outputs, the pairs' in order; threads past the
  // last job take an empty one at the end of the last pair.
#pragma unroll
  for (int width = 1; width < WAYS; width *= 2) {
    const int job_index = static_cast<int>(threadIdx.x);
    int jobs_before = 0;
    merge_job job{};
#pragma unroll
    for (int p = 0; p < WAYS / (2 * width); ++p) {
      const int pair_at = piece_at[2 * p * width], b_at = piece_at[(2 * p + 1) * width],
                pair_end = piece_at[(2 * p + 2) * width];
      const int count = pair_end - pair_at, jobs = (count + ITEMS - 1) / ITEMS;
      const int first = min((job_index - jobs_before) * ITEMS, count);
      if (job_index >= jobs_before)
        job = merge_job{staged_pair{pair_at, b_at - pair_at, pair_end - b_at}, first,
                        min(first + ITEMS, count)};
      jobs_before += jobs;
    }
    merge_staged<THREADS, ITEMS, RANKED>(job, cmp, shared);
    __syncthreads();
  }
  write_staged(shared, piece_at[WAYS], keys_out, values_out, out_at);
}

// Threads per block of the partition kernel.
constexpr int four_way_partition_threads = 128;

// Tiles of a WAYS-way pass over n items in runs of `run` (one split each).
template <int WAYS, int THREADS, int ITEMS>
std::int64_t multiway_tiles(std::int64_t run, std::int64_t n) {
  return run_groups<WAYS, multiway_tile<WAYS, THREADS, ITEMS>>{run, n}.tiles();
}

// One pass: runs of `run` items become runs of WAYS * run. splits: scratch for
// multiway_tiles<WAYS, THREADS, ITEMS>(run, n) splits. The output must not overlap the input.
template <int WAYS, int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
cudaError_t launch_multiway_pass(const Key* keys, const Value* values, Key* keys_out,
                                 Value* values_out, std::int64_t run, std::int64_t n,
                                 thread::multiway_split<WAYS>* splits, Compare cmp,
                                 cudaStream_t stream) {
  using groups_type = run_groups<WAYS, multiway_tile<WAYS, THREADS, ITEMS>>;
  const groups_type groups{run, n};
  const std::int64_t tiles = groups.tiles();
  const auto partition_grid =
      static_cast<unsigned>((tiles + four_way_partition_threads - 1) / four_way_partition_threads);
  four_way_partition_kernel<groups_type, true><<<partition_grid, four_way_partition_threads, 0, stream>>>(
      keys, groups, splits, tiles, cmp);
  if constexpr (four_way_coarse_stride<Key> > 1)
    four_way_partition_kernel<groups_type, false><<<partition_grid, four_way_partition_threads, 0, stream>>>(
        keys, groups, splits, tiles, cmp);
  constexpr std::size_t bytes = sizeof(staged_merge_storage<THREADS, ITEMS, Key, Value>);
  const auto kernel = multiway_pass_kernel<WAYS, THREADS, ITEMS, RANKED, Key, Value, Compare>;
  if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
  kernel<<<static_cast<unsigned>(tiles), THREADS, bytes, stream>>>(keys, values, keys_out,
                                                                   values_out, groups, splits, cmp);
  return cudaPeekAtLastError();
}

}  // namespace detail
}  // namespace gpusort
