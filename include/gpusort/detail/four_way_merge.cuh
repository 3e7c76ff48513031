// gpusort/detail/four_way_merge.cuh — a merge pass that merges four runs at once (Satish et
// al.'s multi-way merge, k = 4), so that a sort crosses device memory half as often as with
// two-way passes.
//
// The runs of each group of four are merged as merge(merge(r0, r1), merge(r2, r3)), which is
// stable (ties go to the lower run). Each group's output is cut into tiles of (THREADS - 1)
// * ITEMS items; the four co-ranks of every tile start come from thread::four_way_select
// (keys of up to 16 bytes) or thread::four_way_merge_path (wider ones; see
// four_way_select_partition). A block stages its four pieces in shared memory, merges r0
// with r1 and r2 with r3 in place (detail/staged_merge.cuh: every thread one job of at most
// ITEMS outputs — a tile one job short of THREADS * ITEMS leaves room for the job the two
// pairs share when neither ends on a job boundary), then merges the two results, and writes
// the tile once.
// What it costs (H200, bench/RESULTS.md runs 77-78): the merge kernel 0.73-0.77x the two
// two-way ones it replaces. The co-rank searches decide where four-way passes pay: nested
// merge-path searches (thread::four_way_merge_path, a chain of about log2(w)^2 / 2 loads for
// runs of w) took 16.6 % of a u32 sort at 2^28; four_way_select_partition says where
// multisequence selection replaces them.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/staged_merge.cuh>
#include <gpusort/thread/four_way_merge_path.cuh>
#include <gpusort/thread/four_way_select.cuh>

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

// Runs of `run` items in one array of n: group g is runs 4g .. 4g + 3 (the array's last group
// may have fewer or shorter ones); each group's output is cut into tiles of `tile` items, the
// group's last tile short.
template <int TILE>
struct four_run_groups : four_run_tile_length<TILE> {
  std::int64_t run, n;

  struct tile_of_group {
    std::int64_t start;     // the group's first item
    std::int64_t position;  // the tile's first output within its group
    std::int64_t group_count;
    std::int64_t run_begin[4], run_count[4];
  };

  __host__ __device__ four_run_groups(std::int64_t run_, std::int64_t n_) : run(run_), n(n_) {
    static_assert(TILE > 0, "a tile length set at run time is the first of three arguments");
  }
  __host__ __device__ four_run_groups(std::int64_t tile_, std::int64_t run_, std::int64_t n_)
      : four_run_tile_length<TILE>{tile_}, run(run_), n(n_) {}

  __host__ __device__ std::int64_t tiles_per_group() const { return (4 * run + this->tile - 1) / this->tile; }
  __host__ __device__ std::int64_t tiles() const {
    const std::int64_t rest = n % (4 * run);
    return n / (4 * run) * tiles_per_group() + (rest + this->tile - 1) / this->tile;
  }
  __host__ __device__ tile_of_group at(std::int64_t index) const {
    tile_of_group t;
    t.start = index / tiles_per_group() * (4 * run);
    t.position = index % tiles_per_group() * this->tile;
    t.group_count = n - t.start < 4 * run ? n - t.start : 4 * run;
    for (int j = 0; j < 4; ++j) {
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

// Each run's piece of a tile of `out_count` outputs that starts at the co-ranks `begin`: up
// to the next tile's co-ranks `end`, or to the run's end where the tile ends its group (end
// null). The co-ranks lie inside the runs whatever the comparator; clamping each piece to
// what the tile and the later runs leave keeps the pieces inside the tile too when a
// comparator is no strict weak ordering.
template <class Count, class Tile>
__host__ __device__ __forceinline__ void four_way_pieces(const Tile& t, Count out_count,
                                                         const thread::four_way_split& begin,
                                                         const thread::four_way_split* end,
                                                         Count (&piece)[4]) {
  Count remaining = out_count;
  std::int64_t later_room = 0;
  for (int j = 0; j < 4; ++j) later_room += t.run_count[j] - begin.taken[j];
  for (int j = 0; j < 4; ++j) {
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

// Whether the searches are thread::four_way_select's (about log2(w) steps of one parallel
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
                                          thread::four_way_split* splits, std::int64_t tiles,
                                          Compare cmp) {
  constexpr std::int64_t stride = four_way_coarse_stride<Key>;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= tiles) return;
  const auto t = groups.at(i);
  const std::int64_t in_group = t.position / groups.tile;
  const std::int64_t past_coarse = in_group % stride;
  if ((past_coarse == 0) != COARSE) return;
  const Key* runs[4];
  for (int j = 0; j < 4; ++j) runs[j] = keys + t.run_begin[j];
  if constexpr (four_way_select_partition<Key>) {
    splits[i] = thread::four_way_select(runs, t.run_count, t.position, cmp);
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
// - 8 bytes (u64 keys, u32:u32 pairs): 5 blocks of 256 threads fit in 48 registers with 8-12
//   bytes of spill, instead of 4 blocks; sorts of 2^26-2^28 items 2.6-3.5 % faster (run 75);
// - 4 bytes (u32, i32 keys; 256 x 32 tiles): 48 registers with 4 bytes of spill, instead of 61;
//   sorts of 2^27-2^28 u32 keys 3.2-3.8 % faster (run 77).
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

template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS, four_way_min_blocks<THREADS, RANKED, Key, Value, Compare>)
    four_way_pass_kernel(const Key* keys, const Value* values, Key* keys_out, Value* values_out,
                         four_run_groups<(THREADS - 1) * ITEMS> groups,
                         const thread::four_way_split* splits, Compare cmp) {
  // Dynamic: 16-byte keys 1.5-1.7 % faster than with the same storage declared static (H200,
  // bench/RESULTS.md run 51; other items within 0.2 %).
  extern __shared__ __align__(16) unsigned char four_way_shared[];
  auto& shared = *reinterpret_cast<staged_merge_storage<THREADS, ITEMS, Key, Value>*>(four_way_shared);
  const auto t = groups.at(blockIdx.x);
  const int out_count = static_cast<int>(groups.outputs(t));
  const thread::four_way_split begin = splits[blockIdx.x];
  int piece[4];
  four_way_pieces(t, out_count, begin,
                  groups.ends_group(t) ? nullptr : &splits[blockIdx.x + 1], piece);
  int at = 0;
  for (int j = 0; j < 4; ++j) {
    const std::int64_t from = t.run_begin[j] + begin.taken[j];
    stage<THREADS>(keys + from, piece[j], shared.keys, at);
    stage<THREADS>(values + from, piece[j], shared.values, at);
    at += piece[j];
  }
  __syncthreads();

  // Runs 0 and 1 merge into [0, low), runs 2 and 3 into [low, out_count): jobs of ITEMS
  // outputs, the low pair's first.
  const int low = piece[0] + piece[1], high = piece[2] + piece[3];
  const int low_jobs = (low + ITEMS - 1) / ITEMS;
  const int job = static_cast<int>(threadIdx.x);
  const int high_first = min((job - low_jobs) * ITEMS, high);
  merge_staged<THREADS, ITEMS, RANKED>(
      job < low_jobs
          ? merge_job{staged_pair{0, piece[0], piece[1]}, job * ITEMS, min(job * ITEMS + ITEMS, low)}
          : merge_job{staged_pair{low, piece[2], piece[3]}, high_first, min(high_first + ITEMS, high)},
      cmp, shared);
  __syncthreads();
  const int first = min(job * ITEMS, out_count);
  merge_staged<THREADS, ITEMS, RANKED>(
      merge_job{staged_pair{0, low, high}, first, min(first + ITEMS, out_count)}, cmp, shared);
  __syncthreads();
  write_staged(shared, out_count, keys_out, values_out, t.start + t.position);
}

// Threads per block of the partition kernel.
constexpr int four_way_partition_threads = 128;

// Tiles of a four-way pass over n items in runs of `run` (one split each).
template <int THREADS, int ITEMS>
std::int64_t four_way_tiles(std::int64_t run, std::int64_t n) {
  return four_run_groups<(THREADS - 1) * ITEMS>{run, n}.tiles();
}

// One pass: runs of `run` items become runs of 4 * run. splits: scratch for
// four_way_tiles(run, n) splits. The output must not overlap the input.
template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
cudaError_t launch_four_way_pass(const Key* keys, const Value* values, Key* keys_out,
                                 Value* values_out, std::int64_t run, std::int64_t n,
                                 thread::four_way_split* splits, Compare cmp,
                                 cudaStream_t stream) {
  constexpr int tile = (THREADS - 1) * ITEMS;
  const four_run_groups<tile> groups{run, n};
  const std::int64_t tiles = groups.tiles();
  const auto partition_grid =
      static_cast<unsigned>((tiles + four_way_partition_threads - 1) / four_way_partition_threads);
  four_way_partition_kernel<four_run_groups<tile>, true><<<partition_grid, four_way_partition_threads, 0, stream>>>(
      keys, groups, splits, tiles, cmp);
  if constexpr (four_way_coarse_stride<Key> > 1)
    four_way_partition_kernel<four_run_groups<tile>, false><<<partition_grid, four_way_partition_threads, 0, stream>>>(
        keys, groups, splits, tiles, cmp);
  constexpr std::size_t bytes = sizeof(staged_merge_storage<THREADS, ITEMS, Key, Value>);
  const auto kernel = four_way_pass_kernel<THREADS, ITEMS, RANKED, Key, Value, Compare>;
  if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
  kernel<<<static_cast<unsigned>(tiles), THREADS, bytes, stream>>>(keys, values, keys_out,
                                                                   values_out, groups, splits, cmp);
  return cudaPeekAtLastError();
}

}  // namespace detail
}  // namespace gpusort
