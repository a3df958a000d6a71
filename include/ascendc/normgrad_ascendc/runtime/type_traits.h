// normgrad_ascendc/runtime/type_traits.h — compile-time type selection in
// kernels (docs/program-surface.md, "Types and traits"): the type traits of
// AscendC::Std that the Utils-API pages document ("类型特性"), with their
// _v and _t forms, integral_constant, true_type/false_type and Int<v>; and
// AscendC::Conditional and AscendC::IsSameType, which programs and the
// documentation's examples use.
//
// The traits are those of the C++ standard library: AscendC::Std::X<T> is
// std::X<T>, so a trait gives the same answer through either name (half and
// bfloat16_t are classes here: is_floating_point and is_integral are false
// for them, as for any class).
#pragma once

#include <cstddef>
#include <type_traits>

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
