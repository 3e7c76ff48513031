// gpusort/detail/no_value.cuh — the value type of a keys-only sort.
//
// Building blocks are written once for (key, value) items; keys-only callers pass arrays
// of `no_value`, which occupy no registers and whose moves compile to nothing.
#pragma once

#include <type_traits>

namespace gpusort {
namespace detail {

struct no_value {};

template <class Value>
constexpr bool has_values = !std::is_same<Value, no_value>::value;

}  // namespace detail
}  // namespace gpusort
