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

template <int N>
struct temp_layout {
  std::size_t offsets[N] = {};
  std::size_t total = 0;

  // bytes[i] is the size of array i; an array of 0 bytes gets no space.
  explicit temp_layout(const std::size_t (&bytes)[N]) {
    for (int i = 0; i < N; ++i) {
      offsets[i] = total;
      total += (bytes[i] + temp_alignment - 1) / temp_alignment * temp_alignment;
    }
  }

  template <class T>
  T* get(void* base, int i) const {
    return reinterpret_cast<T*>(static_cast<char*>(base) + offsets[i]);
  }
};

}  // namespace detail
}  // namespace gpusort
