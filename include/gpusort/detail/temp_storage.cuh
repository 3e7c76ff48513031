// gpusort/detail/temp_storage.cuh — carving one temp allocation into aligned arrays.
//
// Every algorithm needs a few scratch arrays; the two-phase protocol hands it a single
// block of bytes. `temp_layout` computes the offsets once from the element counts, so the
// size query and the real call cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace detail {

// Alignment of every carved array: enough for any key type and for 16-byte vector access.
constexpr std::size_t temp_alignment = 256;

// bytes rounded up to whole units of temp_alignment.
constexpr std::size_t temp_aligned_bytes(std::size_t bytes) {
  return (bytes + temp_alignment - 1) / temp_alignment * temp_alignment;
}

// CUB's convention: a caller's temp storage may start at any address. A size query asks for
// temp_alignment - 1 bytes more than the arrays take, and the work carves them from the first
// aligned address of what it is given (temp_aligned_start): int64 tables and wide keys on a
// misaligned address would fault, and that error kills the context.
constexpr std::size_t temp_bytes_from_any_start(std::size_t bytes) {
  return bytes == 0 ? 0 : bytes + temp_alignment - 1;
}

// The first temp_alignment boundary at or after p: where arrays may be carved from a buffer
// that is not itself aligned (a caller's array lent as scratch while its contents live
// elsewhere), at the cost of up to temp_alignment bytes of it.
inline void* temp_aligned_start(void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<void*>((address + temp_alignment - 1) / temp_alignment * temp_alignment);
}

template <int N>
struct temp_layout {
  std::size_t offsets[N] = {};
  std::size_t total = 0;

  // bytes[i] is the size of array i; an array of 0 bytes gets no space.
  explicit temp_layout(const std::size_t (&bytes)[N]) {
    for (int i = 0; i < N; ++i) {
      offsets[i] = total;
      total += temp_aligned_bytes(bytes[i]);
    }
  }

  template <class T>
  T* get(void* base, int i) const {
    return reinterpret_cast<T*>(static_cast<char*>(base) + offsets[i]);
  }
};

}  // namespace detail
}  // namespace gpusort
