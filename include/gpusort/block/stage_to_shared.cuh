// gpusort/block/stage_to_shared.cuh — a block's copy of an array from global into shared
// memory, all of it in flight at once.
//
// A load-and-store loop holds each item in a register until its load returns; cp.async of
// one 4-byte word per thread moved a tile at 1.6 TB/s on an H100 (bench/RESULTS.md run 103).
// The copy here goes by 16-byte asynchronous copies, none held in registers (1.8 TB/s for the
// locate step's u64 tiles, run 104). The chunks are the array's aligned 16-byte pieces, so the
// copy keeps the array's offset within 16 bytes (its phase) in shared memory too; the words
// before the first whole chunk and after the last go one at a time. Items aligned to less
// than 4 bytes are loaded and stored.
#pragma once

#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace block {

// The shared memory that a staged copy of `count` items needs: the items and room to keep
// their phase.
template <class T>
constexpr std::size_t staged_bytes(int count) {
  return static_cast<std::size_t>(count) * sizeof(T) + 16;
}

// Copies from[0, count) into `buffer` (16-byte aligned, staged_bytes<T>(count) bytes) and
// returns where the copy starts in it. Every thread of the block calls; the copy is visible
// to the whole block after the caller's __syncthreads.
template <int THREADS, class T>
__device__ __forceinline__ T* stage_to_shared(unsigned char* buffer, const T* from, int count) {
  if constexpr (alignof(T) % 4 == 0) {
    using word = std::uint32_t;
    constexpr int words_per_chunk = 16 / sizeof(word);
    const int phase = static_cast<int>(reinterpret_cast<std::uintptr_t>(from) % 16);
    T* to = reinterpret_cast<T*>(buffer + phase);
    const auto* source = reinterpret_cast<const word*>(from);
    auto* target = reinterpret_cast<word*>(to);
    const int words = static_cast<int>(static_cast<std::size_t>(count) * sizeof(T) / sizeof(word));
    const int head = min(words, (16 - phase) % 16 / static_cast<int>(sizeof(word)));
    const int chunks = (words - head) / words_per_chunk;
    const int tail = head + chunks * words_per_chunk;
    for (int c = threadIdx.x; c < chunks; c += THREADS) {
      const int w = head + c * words_per_chunk;
      __pipeline_memcpy_async(target + w, source + w, 16);
    }
    __pipeline_commit();
    for (int w = threadIdx.x; w < head; w += THREADS) target[w] = source[w];
    for (int w = tail + threadIdx.x; w < words; w += THREADS) target[w] = source[w];
    __pipeline_wait_prior(0);
    return to;
  } else {
    T* to = reinterpret_cast<T*>(buffer);
    for (int i = threadIdx.x; i < count; i += THREADS) to[i] = from[i];
    return to;
  }
}

}  // namespace block
}  // namespace gpusort
