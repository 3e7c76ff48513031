// gpusort/detail/multi_peer.cuh — the peer transport of the multi-GPU sort: one process,
// every shard owned, CUDA peer access between the GPUs (Tanasic et al., section 4).
//
// Pivot: one thread on the GPU of the first shard of the group runs thread::pivot_select
// with direct peer loads from every shard of the group (the paper's serial pivot selection,
// log2(n) pairs of remote loads). Where a GPU of the group cannot reach another by peer
// access, the k-ary co-rank search of multi_transport.cuh instead fetches k candidate keys
// a round with staged copies (cudaMemcpyPeerAsync goes through the host when it must).
// Swap: each receiving shard's buffer is filled on that shard's own stream, so the two
// directions of a pair run at once (full duplex); shards on one device use plain copies,
// which lets several shards share one GPU (tests on a one-GPU machine).
// Memory per shard: one allocation of max(local sort temp, buffer of count keys (and
// values) + merge co-ranks + pivot scratch), taken with cudaMallocAsync on the shard's
// device and given back on every path.
#pragma once

#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/multi_merge.cuh>
#include <gpusort/detail/multi_transport.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/device/merge.cuh>
#include <gpusort/sort.cuh>
#include <gpusort/thread/pivot_select.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace gpusort {
namespace detail {

// One shard as the peer pivot kernel sees it: its keys and where they start.
template <class Key>
struct peer_entry {
  const Key* keys;
  std::int64_t begin;
};

// The concatenation of shards from global position `base` on, read by peer loads.
template <class Key>
struct peer_run {
  const peer_entry<Key>* table;
  int entries;
  std::int64_t base;
  __device__ const Key& operator[](std::int64_t i) const {
    const std::int64_t x = base + i;
    int j = 0;
    while (j + 1 < entries && table[j + 1].begin <= x) ++j;
    return table[j].keys[x - table[j].begin];
  }
};

// Algorithm 1 on one thread: p for the runs [a_begin, mid) and [mid, end).
template <class Key, class Compare>
__global__ void peer_pivot_kernel(const peer_entry<Key>* table, int entries, std::int64_t a_begin,
                                  std::int64_t mid, std::int64_t end, std::int64_t* result,
                                  Compare cmp) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const peer_run<Key> a{table, entries, a_begin}, b{table, entries, mid};
  *result = thread::pivot_select(a, mid - a_begin, b, end - mid, cmp);
}

template <class Key, class Value>
struct multi_shard {
  int device;
  Key* keys;
  Value* values;
  std::int64_t count;
};

template <class Key, class Value, class Compare>
class peer_transport {
 public:
  using key_type = Key;
  using value_type = Value;

  // staged_pivot: the k-ary staged search even where peer loads would do (tests use it
  // to cover the path of GPUs without peer access on machines that have it).
  peer_transport(const std::vector<multi_shard<Key, Value>>& shards, Compare cmp,
                 bool staged_pivot = false)
      : shards_(shards), cmp_(cmp), slots_(shards.size()), staged_pivot_(staged_pivot) {
    layout_.offsets.assign(1, 0);
    for (const auto& s : shards_) layout_.offsets.push_back(layout_.offsets.back() + s.count);
  }
  peer_transport(const peer_transport&) = delete;
  peer_transport& operator=(const peer_transport&) = delete;
  ~peer_transport() { release(); }

  // Streams, storage and peer access; on failure, what was taken is given back.
  cudaError_t open() {
    int devices = 0;
    if (cudaError_t e = cudaGetDeviceCount(&devices)) return e;
    peer_.assign(static_cast<std::size_t>(devices) * devices, 0);
    for (int i = 0; i < devices; ++i) {
      if (!uses_device(i)) continue;
      for (int j = 0; j < devices; ++j) {
        if (i == j || !uses_device(j)) continue;
        int can = 0;
        if (cudaDeviceCanAccessPeer(&can, i, j) != cudaSuccess || !can) continue;
        if (cudaError_t e = cudaSetDevice(i)) return e;
        const cudaError_t enabled = cudaDeviceEnablePeerAccess(j, 0);
        // Already enabled (by the caller or an earlier sort) is as good; the error is not
        // sticky, so it is cleared here.
        if (enabled == cudaSuccess || enabled == cudaErrorPeerAccessAlreadyEnabled) {
          peer_[static_cast<std::size_t>(i) * devices + j] = 1;
        }
        if (enabled != cudaSuccess) cudaGetLastError();
      }
    }
    devices_ = devices;
    for (std::size_t j = 0; j < shards_.size(); ++j) {
      slot& s = slots_[j];
      if (cudaError_t e = cudaSetDevice(shards_[j].device)) return e;
      if (cudaError_t e = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking)) return e;
      // Non-blocking: nothing orders it after the caller's writes to the shard but this.
      if (cudaError_t e = wait_for_default_streams(s.stream)) return e;
      const std::int64_t n = shards_[j].count;
      s.layout = temp_layout<5>({static_cast<std::size_t>(n) * sizeof(Key),
                                 has_values<Value> ? static_cast<std::size_t>(n) * sizeof(Value) : 0,
                                 merge_temp_storage_bytes<Key, Value>(n),
                                 sizeof(candidate_scratch<Key>),
                                 shards_.size() * sizeof(peer_entry<Key>)});
      s.sort_bytes = n == 0 ? 0
                            : sort_temp_bytes<multi_local_policy, Key, Value>(multi_local_policy{}, n);
      const std::size_t bytes = s.layout.total > s.sort_bytes ? s.layout.total : s.sort_bytes;
      if (cudaError_t e = cudaMallocAsync(&s.storage, bytes, s.stream)) {
        s.storage = nullptr;
        return e;
      }
    }
    return cudaSuccess;
  }

  const shard_layout& layout() const { return layout_; }
  bool involved(int, int) const { return true; }
  std::size_t item_bytes() const { return sizeof(Key) + (has_values<Value> ? sizeof(Value) : 0); }

  // Two halves on disjoint shards: the second on a new host thread, so that their steps
  // (each synchronizing its own streams) overlap.
  template <class F, class G>
  cudaError_t both(F f, G g) {
    cudaError_t first = cudaSuccess, second = cudaSuccess;
    std::thread helper;
    try {
      helper = std::thread([&] { second = g(); });
    } catch (...) {
      first = f();
      second = g();
      return first != cudaSuccess ? first : second;
    }
    first = f();
    helper.join();
    return first != cudaSuccess ? first : second;
  }

  cudaError_t local_sort_all() {
    cudaError_t status = cudaSuccess;
    for (std::size_t j = 0; j < shards_.size() && status == cudaSuccess; ++j) {
      const auto& sh = shards_[j];
      if (sh.count == 0) continue;
      slot& s = slots_[j];
      status = cudaSetDevice(sh.device);
      std::size_t bytes = s.sort_bytes;
      if (status == cudaSuccess)
        status = sort_two_phase(multi_local_policy{}, s.storage, bytes, sh.keys, sh.values,
                                sh.count, cmp_, s.stream);
    }
    return first_error(status, all_shards());
  }

  cudaError_t pivot(int lo, int mid, int hi, std::int64_t& p) {
    const std::int64_t a_begin = layout_.begin(lo), middle = layout_.begin(mid),
                       end = layout_.end(hi - 1);
    p = 0;
    if (a_begin == middle || middle == end) return cudaSuccess;
    const int q = layout_.shard_of(a_begin);  // the pivot runs on the first shard's GPU
    const int device = shards_[q].device;
    bool direct = !staged_pivot_;
    for (int j = lo; j < hi; ++j)
      if (shards_[j].count > 0 && shards_[j].device != device && !peer(device, shards_[j].device))
        direct = false;
    slot& s = slots_[q];
    if (cudaError_t e = cudaSetDevice(device)) return e;
    auto* scratch = s.layout.template get<candidate_scratch<Key>>(s.storage, 3);
    std::int64_t* result = &scratch->pivot;
    if (direct) {
      std::vector<peer_entry<Key>> table;
      for (int j = lo; j < hi; ++j)
        if (shards_[j].count > 0) table.push_back({shards_[j].keys, layout_.begin(j)});
      auto* d_table = s.layout.template get<peer_entry<Key>>(s.storage, 4);
      cudaError_t e = cudaMemcpyAsync(d_table, table.data(), table.size() * sizeof(table[0]),
                                      cudaMemcpyHostToDevice, s.stream);
      if (e == cudaSuccess) {
        peer_pivot_kernel<<<1, 1, 0, s.stream>>>(d_table, static_cast<int>(table.size()), a_begin,
                                                 middle, end, result, cmp_);
        e = cudaPeekAtLastError();
      }
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(&p, result, sizeof(p), cudaMemcpyDeviceToHost, s.stream);
      const cudaError_t synced = cudaStreamSynchronize(s.stream);
      return e != cudaSuccess ? e : synced;
    }
    // Staged: k candidate keys a round, copied to the pivot GPU.
    const std::int64_t a_count = middle - a_begin, b_count = end - middle;
    std::int64_t co_rank = 0;
    const cudaError_t e = co_rank_by_rounds(
        a_count, b_count, a_count,
        [&](const candidate_round& r, int* truth) -> cudaError_t {
          for (int t = 0; t < r.count; ++t) {
            if (cudaError_t f = fetch_key(scratch->a + t, device, a_begin + r.positions[t], s.stream))
              return f;
            if (cudaError_t f = fetch_key(scratch->b + t, device,
                                          middle + a_count - 1 - r.positions[t], s.stream))
              return f;
          }
          evaluate_candidates_kernel<<<1, pivot_candidates, 0, s.stream>>>(
              scratch->a, scratch->b, r.count, scratch->truth, cmp_);
          cudaError_t f = cudaPeekAtLastError();
          if (f == cudaSuccess)
            f = cudaMemcpyAsync(truth, scratch->truth, r.count * sizeof(int),
                                cudaMemcpyDeviceToHost, s.stream);
          const cudaError_t synced = cudaStreamSynchronize(s.stream);
          return f != cudaSuccess ? f : synced;
        },
        co_rank);
    p = a_count - co_rank;
    return e;
  }

  // Each receiving shard's buffer is filled on its own stream: both directions at once.
  cudaError_t exchange(const std::vector<swap_move>& moves) {
    cudaError_t status = cudaSuccess;
    for (const swap_move& m : moves) {
      if (status != cudaSuccess) break;
      const auto& src = shards_[m.src_shard];
      const auto& dst = shards_[m.dst_shard];
      slot& s = slots_[m.dst_shard];
      status = cudaSetDevice(dst.device);
      if (status == cudaSuccess)
        status = copy(buffer_keys(m.dst_shard) + m.dst_offset, dst.device, src.keys + m.src_offset,
                      src.device, m.length * sizeof(Key), s.stream);
      if constexpr (has_values<Value>) {
        if (status == cudaSuccess)
          status = copy(buffer_values(m.dst_shard) + m.dst_offset, dst.device,
                        src.values + m.src_offset, src.device, m.length * sizeof(Value), s.stream);
      }
    }
    return first_error(status, swapped_shards(moves));
  }

  cudaError_t finish(const std::vector<int>& shards, const std::vector<std::int64_t>& boundaries) {
    cudaError_t status = cudaSuccess;
    for (std::size_t i = 0; i < shards.size(); ++i) {
      const cudaError_t e = from_buffer(shards[i], boundaries[i]);
      if (status == cudaSuccess) status = e;
    }
    return first_error(status, shards);
  }

  cudaError_t merge_in_place(int j, std::int64_t boundary) {
    const auto& sh = shards_[j];
    cudaError_t status = cudaSetDevice(sh.device);
    if (status == cudaSuccess)
      status = cudaMemcpyAsync(buffer_keys(j), sh.keys, sh.count * sizeof(Key),
                               cudaMemcpyDeviceToDevice, slots_[j].stream);
    if constexpr (has_values<Value>) {
      if (status == cudaSuccess)
        status = cudaMemcpyAsync(buffer_values(j), sh.values, sh.count * sizeof(Value),
                                 cudaMemcpyDeviceToDevice, slots_[j].stream);
    }
    // The shard is overwritten only once its copy is complete.
    status = first_error(status, {j});
    if (status != cudaSuccess) return status;
    status = from_buffer(j, boundary);
    return first_error(status, {j});
  }

 private:
  struct slot {
    cudaStream_t stream = nullptr;
    void* storage = nullptr;
    temp_layout<5> layout{{0, 0, 0, 0, 0}};
    std::size_t sort_bytes = 0;
  };

  bool uses_device(int d) const {
    for (const auto& s : shards_)
      if (s.device == d) return true;
    return false;
  }
  bool peer(int from, int to) const {
    return peer_[static_cast<std::size_t>(from) * devices_ + to] != 0;
  }
  Key* buffer_keys(int j) { return slots_[j].layout.template get<Key>(slots_[j].storage, 0); }
  Value* buffer_values(int j) {
    return has_values<Value> ? slots_[j].layout.template get<Value>(slots_[j].storage, 1) : nullptr;
  }
  std::vector<int> all_shards() const {
    std::vector<int> all(shards_.size());
    for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
    return all;
  }

  static cudaError_t copy(void* dst, int dst_device, const void* src, int src_device,
                          std::size_t bytes, cudaStream_t stream) {
    if (bytes == 0) return cudaSuccess;
    if (dst_device == src_device)
      return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
    return cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream);
  }

  cudaError_t fetch_key(Key* dst, int device, std::int64_t position, cudaStream_t stream) {
    const int j = layout_.shard_of(position);
    return copy(dst, device, shards_[j].keys + (position - layout_.begin(j)), shards_[j].device,
                sizeof(Key), stream);
  }

  // Buffer -> shard: merge of its two runs, or a copy. A merge that cannot be launched
  // falls back to the copy, so that the shard still takes the items its buffer holds.
  cudaError_t from_buffer(int j, std::int64_t boundary) {
    const auto& sh = shards_[j];
    slot& s = slots_[j];
    if (cudaError_t e = cudaSetDevice(sh.device)) return e;
    cudaError_t merged = cudaErrorNotReady;
    if (boundary > 0 && boundary < sh.count) {
      std::size_t bytes = merge_temp_storage_bytes<Key, Value>(sh.count);
      merged = merge_ranges(s.layout.template get<void>(s.storage, 2), bytes, buffer_keys(j),
                            buffer_values(j), boundary, buffer_keys(j) + boundary,
                            buffer_values(j) + (has_values<Value> ? boundary : 0),
                            sh.count - boundary, sh.keys, sh.values, cmp_, s.stream);
      if (merged == cudaSuccess) return cudaSuccess;
    }
    cudaError_t e = cudaMemcpyAsync(sh.keys, buffer_keys(j), sh.count * sizeof(Key),
                                    cudaMemcpyDeviceToDevice, s.stream);
    if constexpr (has_values<Value>) {
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(sh.values, buffer_values(j), sh.count * sizeof(Value),
                            cudaMemcpyDeviceToDevice, s.stream);
    }
    return merged != cudaErrorNotReady ? merged : e;
  }

  // Waits for the streams of `shards`; the first error of `status` or of the waits.
  cudaError_t first_error(cudaError_t status, const std::vector<int>& shards) {
    for (int j : shards) {
      if (slots_[j].stream == nullptr) continue;
      const cudaError_t set = cudaSetDevice(shards_[j].device);
      const cudaError_t synced = cudaStreamSynchronize(slots_[j].stream);
      if (status == cudaSuccess) status = set != cudaSuccess ? set : synced;
    }
    return status;
  }

  void release() {
    for (std::size_t j = 0; j < shards_.size(); ++j) {
      slot& s = slots_[j];
      if (s.stream == nullptr) continue;
      cudaSetDevice(shards_[j].device);
      if (s.storage != nullptr) cudaFreeAsync(s.storage, s.stream);
      cudaStreamSynchronize(s.stream);
      cudaStreamDestroy(s.stream);
      s = slot{};
    }
  }

  std::vector<multi_shard<Key, Value>> shards_;
  Compare cmp_;
  std::vector<slot> slots_;
  shard_layout layout_;
  std::vector<char> peer_;
  int devices_ = 0;
  bool staged_pivot_ = false;
};

}  // namespace detail
}  // namespace gpusort
