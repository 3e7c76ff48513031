// gpusort/detail/no_value.cuh — the value type of a keys-only sort.
//
// Building blocks are written once for (key, value) items; keys-only callers pass arrays
// of `no_value`, which occupy no registers and whose moves compile to nothing.
#pragma once

#include <cstddef>
#include <type_traits>

namespace gpusort {
namespace detail {

struct no_value {};

template <class Value>
constexpr bool has_values = !std::is_same<Value, no_value>::value;

// Bytes an item of the sort moves: its key, and its value if it has one.
template <class Key, class Value>
constexpr std::size_t item_bytes_of = sizeof(Key) + (has_values<Value> ? sizeof(Value) : 0);

}  // namespace detail
}  // namespace gpusort
