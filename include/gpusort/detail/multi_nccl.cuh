// gpusort/detail/multi_nccl.cuh — the NCCL transport of the multi-GPU sort: one rank per
// GPU, any number of hosts; each rank owns one shard (its rank's position in the
// concatenation).
//
// Pivot: the k-ary co-rank search of multi_transport.cuh. Every round the ranks of the
// group agree on k candidate positions (pivot_candidates), each owner packs the candidate
// keys it holds and sends them to every other rank of the group in one NCCL group call;
// every rank then evaluates the k predicates on its own GPU and narrows the range the same
// way, so the pivot takes O(log_k n) rounds of one small message each instead of log2 n.
// Swap: ncclSend / ncclRecv of the moved ranges in one group call (both directions at
// once), received into the shard-sized buffer.
// Every step synchronizes `stream` (the pivot's outcome decides the next step's sizes).
#pragma once

#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/multi_merge.cuh>
#include <gpusort/detail/multi_transport.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/device/merge.cuh>
#include <gpusort/sort.cuh>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusort {
namespace detail {

template <class Key>
__global__ void gather_candidates_kernel(const Key* keys, candidate_gather g, Key* staging) {
  const int i = static_cast<int>(threadIdx.x);
  if (i < g.count) staging[g.slot[i]] = keys[g.local[i]];
}

template <class Key>
__global__ void assemble_candidates_kernel(const Key* staging, candidate_map map, Key* a, Key* b) {
  const int t = static_cast<int>(threadIdx.x);
  if (t < map.count) {
    a[t] = staging[map.a[t]];
    b[t] = staging[map.b[t]];
  }
}

template <class Key>
struct nccl_pivot_scratch {
  candidate_scratch<Key> candidates;
  Key staging[2 * pivot_candidates];
};

template <class Key, class Value, class Compare>
class nccl_transport {
 public:
  using key_type = Key;
  using value_type = Value;

  nccl_transport(ncclComm_t comm, int rank, int ranks, Key* keys, Value* values,
                 std::int64_t count, Compare cmp, cudaStream_t stream)
      : comm_(comm), rank_(rank), ranks_(ranks), keys_(keys), values_(values), count_(count),
        cmp_(cmp), stream_(stream) {}
  nccl_transport(const nccl_transport&) = delete;
  nccl_transport& operator=(const nccl_transport&) = delete;
  ~nccl_transport() {
    if (counts_ != nullptr) cudaFreeAsync(counts_, stream_);
    if (storage_ != nullptr) cudaFreeAsync(storage_, stream_);
    cudaStreamSynchronize(stream_);
  }

  // Outcome of open(): every rank learns every count and whether all ranks may go on.
  enum class agreement { go, invalid_argument, failed };

  // local_status: this rank's argument check. Takes the storage, then all ranks exchange
  // (count, status); on anything but `go` no rank touches its data.
  cudaError_t open(cudaError_t local_status, agreement& outcome) {
    outcome = agreement::failed;
    if (cudaError_t e = cudaMallocAsync(reinterpret_cast<void**>(&counts_), (2 + 2 * static_cast<std::size_t>(ranks_)) *
                                                        sizeof(std::int64_t), stream_)) {
      counts_ = nullptr;
      return e;
    }
    std::int64_t mine[2] = {count_, local_status == cudaSuccess ? 0 : 1};
    if (local_status == cudaSuccess) {
      storage_layout_ = temp_layout<4>({static_cast<std::size_t>(count_) * sizeof(Key),
                                 has_values<Value> ? static_cast<std::size_t>(count_) * sizeof(Value) : 0,
                                 merge_temp_storage_bytes<Key, Value>(count_),
                                 sizeof(nccl_pivot_scratch<Key>)});
      sort_bytes_ = count_ == 0 ? 0
                                : sort_temp_bytes<multi_local_policy, Key, Value>(multi_local_policy{}, count_);
      const std::size_t bytes = storage_layout_.total > sort_bytes_ ? storage_layout_.total : sort_bytes_;
      if (cudaMallocAsync(&storage_, bytes, stream_) != cudaSuccess) {
        storage_ = nullptr;
        cudaGetLastError();
        mine[1] = 2;
      }
    } else {
      mine[0] = 0;
    }
    std::vector<std::int64_t> all(2 * static_cast<std::size_t>(ranks_));
    cudaError_t e = cudaMemcpyAsync(counts_, mine, sizeof(mine), cudaMemcpyHostToDevice, stream_);
    if (e == cudaSuccess &&
        (!nccl_ok(ncclAllGather(counts_, counts_ + 2, 2, ncclInt64, comm_, stream_)) ||
         !enqueued()))
      e = cudaErrorUnknown;
    if (e == cudaSuccess)
      e = cudaMemcpyAsync(all.data(), counts_ + 2, all.size() * sizeof(std::int64_t),
                          cudaMemcpyDeviceToHost, stream_);
    const cudaError_t synced = cudaStreamSynchronize(stream_);
    if (e == cudaSuccess) e = synced;
    if (e != cudaSuccess) return e;
    bool invalid = false, failed = false;
    layout_.offsets.assign(1, 0);
    for (int r = 0; r < ranks_; ++r) {
      invalid = invalid || all[2 * r + 1] == 1;
      failed = failed || all[2 * r + 1] == 2;
      layout_.offsets.push_back(layout_.offsets.back() + all[2 * r]);
    }
    outcome = invalid ? agreement::invalid_argument : failed ? agreement::failed : agreement::go;
    return cudaSuccess;
  }

  ncclResult_t nccl_error() const { return nccl_error_; }
  const shard_layout& layout() const { return layout_; }
  bool involved(int lo, int hi) const { return lo <= rank_ && rank_ < hi; }
  std::size_t item_bytes() const { return sizeof(Key) + (has_values<Value> ? sizeof(Value) : 0); }

  // A rank takes part in one of two halves on disjoint ranks; the other returns at once.
  template <class F, class G>
  cudaError_t both(F f, G g) {
    const cudaError_t first = f();
    const cudaError_t second = g();
    return first != cudaSuccess ? first : second;
  }

  cudaError_t local_sort_all() {
    if (count_ == 0) return cudaSuccess;
    std::size_t bytes = sort_bytes_;
    const cudaError_t e = sort_two_phase(multi_local_policy{}, storage_, bytes, keys_, values_,
                                         count_, cmp_, stream_);
    const cudaError_t synced = cudaStreamSynchronize(stream_);
    return e != cudaSuccess ? e : synced;
  }

  cudaError_t pivot(int lo, int mid, int hi, std::int64_t& p) {
    const std::int64_t a_begin = layout_.begin(lo), middle = layout_.begin(mid),
                       end = layout_.end(hi - 1);
    p = 0;
    if (a_begin == middle || middle == end) return cudaSuccess;
    auto* scratch = storage_layout_.template get<nccl_pivot_scratch<Key>>(storage_, 3);
    const std::int64_t a_count = middle - a_begin, b_count = end - middle;
    std::int64_t co_rank = 0;
    const cudaError_t e = co_rank_by_rounds(
        a_count, b_count, a_count,
        [&](const candidate_round& r, int* truth) -> cudaError_t {
          const candidate_exchange x =
              plan_candidate_exchange(layout_, r, a_begin, middle, rank_);
          const std::vector<int>& owned = x.owned;
          const std::vector<int>& first = x.first;
          const candidate_gather& gather = x.gather;
          const candidate_map& map = x.map;
          cudaError_t f = cudaSuccess;
          if (gather.count > 0) {
            gather_candidates_kernel<<<1, 2 * pivot_candidates, 0, stream_>>>(keys_, gather,
                                                                             scratch->staging);
            f = cudaPeekAtLastError();
          }
          if (f != cudaSuccess) return f;
          if (!nccl_ok(ncclGroupStart())) return cudaErrorUnknown;
          for (int q = lo; q < hi; ++q) {
            if (q == rank_) continue;
            if (owned[rank_] > 0)
              nccl_ok(ncclSend(scratch->staging + first[rank_], owned[rank_] * sizeof(Key),
                               ncclUint8, q, comm_, stream_));
            if (owned[q] > 0)
              nccl_ok(ncclRecv(scratch->staging + first[q], owned[q] * sizeof(Key), ncclUint8, q,
                               comm_, stream_));
          }
          if (!nccl_ok(ncclGroupEnd()) || !enqueued()) return cudaErrorUnknown;
          assemble_candidates_kernel<<<1, pivot_candidates, 0, stream_>>>(
              scratch->staging, map, scratch->candidates.a, scratch->candidates.b);
          evaluate_candidates_kernel<<<1, pivot_candidates, 0, stream_>>>(
              scratch->candidates.a, scratch->candidates.b, r.count, scratch->candidates.truth,
              cmp_);
          f = cudaPeekAtLastError();
          if (f == cudaSuccess)
            f = cudaMemcpyAsync(truth, scratch->candidates.truth, r.count * sizeof(int),
                                cudaMemcpyDeviceToHost, stream_);
          const cudaError_t synced = cudaStreamSynchronize(stream_);
          if (f == cudaSuccess) f = synced;
          return f != cudaSuccess ? f : async_error();
        },
        co_rank);
    p = a_count - co_rank;
    return e;
  }

  // Items that stay: local copies; the others: one NCCL group of sends and receives.
  cudaError_t exchange(const std::vector<swap_move>& moves) {
    cudaError_t e = cudaSuccess;
    for (const swap_move& m : moves) {
      if (m.src_shard != rank_ || m.dst_shard != rank_ || e != cudaSuccess) continue;
      e = cudaMemcpyAsync(buffer_keys() + m.dst_offset, keys_ + m.src_offset,
                          m.length * sizeof(Key), cudaMemcpyDeviceToDevice, stream_);
      if constexpr (has_values<Value>) {
        if (e == cudaSuccess)
          e = cudaMemcpyAsync(buffer_values() + m.dst_offset, values_ + m.src_offset,
                              m.length * sizeof(Value), cudaMemcpyDeviceToDevice, stream_);
      }
    }
    if (e == cudaSuccess && !nccl_ok(ncclGroupStart())) e = cudaErrorUnknown;
    if (e == cudaSuccess) {
      for (const swap_move& m : moves) {
        if (m.src_shard == m.dst_shard || m.length == 0) continue;
        if (m.dst_shard == rank_) {
          nccl_ok(ncclRecv(buffer_keys() + m.dst_offset, m.length * sizeof(Key), ncclUint8,
                           m.src_shard, comm_, stream_));
          if constexpr (has_values<Value>)
            nccl_ok(ncclRecv(buffer_values() + m.dst_offset, m.length * sizeof(Value), ncclUint8,
                             m.src_shard, comm_, stream_));
        } else if (m.src_shard == rank_) {
          nccl_ok(ncclSend(keys_ + m.src_offset, m.length * sizeof(Key), ncclUint8, m.dst_shard,
                           comm_, stream_));
          if constexpr (has_values<Value>)
            nccl_ok(ncclSend(values_ + m.src_offset, m.length * sizeof(Value), ncclUint8,
                             m.dst_shard, comm_, stream_));
        }
      }
      if (!nccl_ok(ncclGroupEnd()) || !enqueued()) e = cudaErrorUnknown;
    }
    const cudaError_t synced = cudaStreamSynchronize(stream_);
    if (e == cudaSuccess) e = synced;
    return e != cudaSuccess ? e : async_error();
  }

  cudaError_t finish(const std::vector<int>& shards, const std::vector<std::int64_t>& boundaries) {
    cudaError_t e = cudaSuccess;
    for (std::size_t i = 0; i < shards.size(); ++i)
      if (shards[i] == rank_) e = from_buffer(boundaries[i]);
    const cudaError_t synced = cudaStreamSynchronize(stream_);
    return e != cudaSuccess ? e : synced;
  }

  cudaError_t merge_in_place(int, std::int64_t boundary) {
    cudaError_t e = cudaMemcpyAsync(buffer_keys(), keys_, count_ * sizeof(Key),
                                    cudaMemcpyDeviceToDevice, stream_);
    if constexpr (has_values<Value>) {
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(buffer_values(), values_, count_ * sizeof(Value),
                            cudaMemcpyDeviceToDevice, stream_);
    }
    const cudaError_t synced = cudaStreamSynchronize(stream_);
    if (e == cudaSuccess) e = synced;
    if (e != cudaSuccess) return e;
    e = from_buffer(boundary);
    const cudaError_t done = cudaStreamSynchronize(stream_);
    return e != cudaSuccess ? e : done;
  }

 private:
  Key* buffer_keys() { return storage_layout_.template get<Key>(storage_, 0); }
  Value* buffer_values() {
    return has_values<Value> ? storage_layout_.template get<Value>(storage_, 1) : nullptr;
  }

  bool nccl_ok(ncclResult_t r) {
    if (r != ncclSuccess && r != ncclInProgress && nccl_error_ == ncclSuccess) nccl_error_ = r;
    return r == ncclSuccess || r == ncclInProgress;
  }

  // A non-blocking communicator may answer ncclInProgress before its work is on stream_;
  // synchronizing stream_ before it is would not wait for it (NCCL's rule: poll the
  // communicator until it leaves ncclInProgress). A blocking one answers at once.
  bool enqueued() {
    ncclResult_t state = ncclInProgress;
    while (state == ncclInProgress)
      if (!nccl_ok(ncclCommGetAsyncError(comm_, &state))) return false;
    return nccl_ok(state);
  }

  cudaError_t async_error() {
    ncclResult_t state = ncclSuccess;
    if (!nccl_ok(ncclCommGetAsyncError(comm_, &state)) || !nccl_ok(state)) return cudaErrorUnknown;
    return cudaSuccess;
  }

  // Buffer -> shard (the same rule as the peer transport's).
  cudaError_t from_buffer(std::int64_t boundary) {
    cudaError_t merged = cudaErrorNotReady;
    if (boundary > 0 && boundary < count_) {
      std::size_t bytes = merge_temp_storage_bytes<Key, Value>(count_);
      merged = merge_ranges(storage_layout_.template get<void>(storage_, 2), bytes, buffer_keys(),
                            buffer_values(), boundary, buffer_keys() + boundary,
                            buffer_values() + (has_values<Value> ? boundary : 0),
                            count_ - boundary, keys_, values_, cmp_, stream_);
      if (merged == cudaSuccess) return cudaSuccess;
    }
    cudaError_t e = cudaMemcpyAsync(keys_, buffer_keys(), count_ * sizeof(Key),
                                    cudaMemcpyDeviceToDevice, stream_);
    if constexpr (has_values<Value>) {
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(values_, buffer_values(), count_ * sizeof(Value),
                            cudaMemcpyDeviceToDevice, stream_);
    }
    return merged != cudaErrorNotReady ? merged : e;
  }

  ncclComm_t comm_;
  int rank_, ranks_;
  Key* keys_;
  Value* values_;
  std::int64_t count_;
  Compare cmp_;
  cudaStream_t stream_;
  shard_layout layout_;
  std::int64_t* counts_ = nullptr;
  void* storage_ = nullptr;
  temp_layout<4> storage_layout_{{0, 0, 0, 0}};
  std::size_t sort_bytes_ = 0;
  ncclResult_t nccl_error_ = ncclSuccess;
};

}  // namespace detail
}  // namespace gpusort
