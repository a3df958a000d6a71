// normgrad_ascendc/runtime/type_traits.h — the AscendC::Std library of the
// Utils-API pages (docs/program-surface.md, "Types and traits" and "The Std
// library"): the type traits ("类型特性"), with their _v and _t forms,
// integral_constant, true_type/false_type and Int<v>; the integer sequences
// ("通用工具"); tuple, get, make_tuple, tuple_size, tuple_element and tie
// ("容器函数"); max and min ("算法"); abs and sqrt ("数学函数"); and
// AscendC::Conditional and AscendC::IsSameType, which programs and the
// documentation's examples use.
//
// The traits, sequences and tuples are those of the C++ standard library:
// AscendC::Std::X is std::X, so a trait gives the same answer through either
// name (half and bfloat16_t are classes here: is_floating_point and
// is_integral are false for them, as for any class). max, min, abs and sqrt
// are written here, with the pages' type lists as compile-time rules.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {

using std::false_type;
using std::integral_constant;
using std::true_type;
/// An integral_constant of size_t.
template <size_t v>
using Int = integral_constant<size_t, v>;

using std::conditional;
using std::conditional_t;
using std::enable_if;
using std::enable_if_t;

// Traits answering true or false, with their _v forms.
#define NORMGRAD_STD_PREDICATE(name) \
  using std::name;                   \
  using std::name##_v;
NORMGRAD_STD_PREDICATE(is_array)
NORMGRAD_STD_PREDICATE(is_base_of)
NORMGRAD_STD_PREDICATE(is_const)
NORMGRAD_STD_PREDICATE(is_convertible)
NORMGRAD_STD_PREDICATE(is_floating_point)
NORMGRAD_STD_PREDICATE(is_integral)
NORMGRAD_STD_PREDICATE(is_pointer)
NORMGRAD_STD_PREDICATE(is_reference)
NORMGRAD_STD_PREDICATE(is_same)
NORMGRAD_STD_PREDICATE(is_void)
#undef NORMGRAD_STD_PREDICATE

// Traits giving a type, with their _t forms.
#define NORMGRAD_STD_TRANSFORM(name) \
  using std::name;                   \
  using std::name##_t;
NORMGRAD_STD_TRANSFORM(add_const)
NORMGRAD_STD_TRANSFORM(add_cv)
NORMGRAD_STD_TRANSFORM(add_lvalue_reference)
NORMGRAD_STD_TRANSFORM(add_pointer)
NORMGRAD_STD_TRANSFORM(add_rvalue_reference)
NORMGRAD_STD_TRANSFORM(add_volatile)
NORMGRAD_STD_TRANSFORM(remove_const)
NORMGRAD_STD_TRANSFORM(remove_cv)
NORMGRAD_STD_TRANSFORM(remove_pointer)
NORMGRAD_STD_TRANSFORM(remove_reference)
NORMGRAD_STD_TRANSFORM(remove_volatile)
#undef NORMGRAD_STD_TRANSFORM

// ---- Integer sequences ------------------------------------------------------

using std::index_sequence;
using std::index_sequence_for;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
/// The names the integer_sequence page writes the aliases with.
template <typename T, T... Ints>
using IntegerSequence = std::integer_sequence<T, Ints...>;
template <typename T, T N>
using MakeIntegerSequence = std::make_integer_sequence<T, N>;

// ---- Tuples -----------------------------------------------------------------

using std::get;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
using std::tuple_size_v;

// ---- max, min, abs, sqrt ----------------------------------------------------

/// T is a type the max and min pages list.
template <typename T>
inline constexpr bool kIsMinMaxType =
    std::is_same_v<T, bool> || std::is_same_v<T, int8_t> ||
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;

/// The larger of src0 and src1 (src0 when neither is larger, a NaN
/// included).
template <typename T, typename U>
constexpr auto max(const T& src0, const U& src1) {
  static_assert(std::is_same_v<T, U>,
                "Std::max: src0 and src1 must have the same type");
  static_assert(kIsMinMaxType<T>,
                "Std::max: T must be bool, int8_t, uint8_t, int16_t, "
                "uint16_t, int32_t, uint32_t, float, int64_t or uint64_t");
  return src0 < src1 ? src1 : src0;
}

/// The smaller of src0 and src1 (src0 when neither is smaller, a NaN
/// included).
template <typename T, typename U>
constexpr auto min(const T& src0, const U& src1) {
  static_assert(std::is_same_v<T, U>,
                "Std::min: src0 and src1 must have the same type");
  static_assert(kIsMinMaxType<T>,
                "Std::min: T must be bool, int8_t, uint8_t, int16_t, "
                "uint16_t, int32_t, uint32_t, float, int64_t or uint64_t");
  return src1 < src0 ? src1 : src0;
}

/// |src|. An integer's most negative value has no positive counterpart:
/// it is returned unchanged (two's complement wraps). A float's sign bit is
/// cleared, NaN and -0 included.
template <typename T>
T abs(const T src) {
  static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int64_t>,
                "Std::abs: T must be int8_t, int16_t, int32_t, float or "
                "int64_t");
  if constexpr (std::is_same_v<T, float>) {
    return std::fabs(src);
  } else {
    using Unsigned = std::make_unsigned_t<T>;
    const Unsigned u = static_cast<Unsigned>(src);
    return static_cast<T>(src < 0 ? static_cast<Unsigned>(0u - u) : u);
  }
}

/// The square root: float correctly rounded; int64_t the largest integer
/// whose square is at most src. A negative input has no meaning (the page):
/// float gives NaN, int64_t 0.
template <typename T>
T sqrt(const T src) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, int64_t>,
                "Std::sqrt: T must be float or int64_t");
  if constexpr (std::is_same_v<T, float>) {
    return std::sqrt(src);
  } else {
    if (src <= 0) return 0;
    const uint64_t x = static_cast<uint64_t>(src);
    // A double estimate, then exact correction by integer arithmetic.
    uint64_t r = static_cast<uint64_t>(std::sqrt(static_cast<double>(x)));
    while (r > x / r) --r;             // r * r > x
    while (r + 1 <= x / (r + 1)) ++r;  // (r + 1)^2 <= x
    return static_cast<T>(r);
  }
}

}  // namespace Std

/// `type` is A when cond holds, else B.
template <bool cond, typename A, typename B>
struct Conditional {
  using type = std::conditional_t<cond, A, B>;
};

/// `value` is true when T and U are the same type.
template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = std::is_same_v<T, U>;
};

}  // namespace AscendC
