// normgrad_ascendc/lib/common/type_rules.h — the element-type rules of the
// advanced APIs' public templates, and the element type their calls carry
// once T is erased: ElementType and ElementTypeOf<T>, and the predicates
// the templates' static_asserts state (kIsHalfOrFloat,
// kIsHalfFloatOrBfloat16, kIsTOrFloat).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/half.h"

namespace normgrad_ascendc {

/// An element type of an advanced API's call, erased from its template.
enum class ElementType : uint8_t { kHalf, kFloat, kBfloat16 };

/// The ElementType of T (half, bfloat16_t; float for any other T, which the
/// API's static_assert refuses first).
template <typename T>
constexpr ElementType ElementTypeOf() {
  if constexpr (std::is_same_v<T, half>) {
    return ElementType::kHalf;
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return ElementType::kBfloat16;
  } else {
    return ElementType::kFloat;
  }
}

/// The type's name in messages ("half", "float", "bfloat16_t").
constexpr const char* ElementTypeName(ElementType type) {
  switch (type) {
    case ElementType::kHalf:
      return "half";
    case ElementType::kBfloat16:
      return "bfloat16_t";
    case ElementType::kFloat:
      break;
  }
  return "float";
}

/// T is half or float.
template <typename T>
inline constexpr bool kIsHalfOrFloat =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

/// T is half, float or bfloat16_t.
template <typename T>
inline constexpr bool kIsHalfFloatOrBfloat16 =
    kIsHalfOrFloat<T> || std::is_same_v<T, bfloat16_t>;

/// U (gamma, beta) is T itself or float: at least as precise as T.
template <typename U, typename T>
inline constexpr bool kIsTOrFloat =
    std::is_same_v<U, T> || std::is_same_v<U, float>;

}  // namespace normgrad_ascendc
