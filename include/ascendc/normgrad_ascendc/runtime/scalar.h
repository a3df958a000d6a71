// normgrad_ascendc/runtime/scalar.h — the scalar unit's bit functions and
// conversions (docs/runtime.md, "Scalar functions"): GetBitCount,
// CountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue, Nop, and the
// scalar Cast between float and bfloat16_t (float → half / int32_t is in
// vector_convert.h beside the vector Cast whose rounding it shares).
//
// The bit functions are plain integer arithmetic, the same on every profile
// normgrad models, and usable in constant expressions. Nop exists on the 950
// only; elsewhere it is a KernelError naming the profile. The bfloat16_t
// conversions round as the vector Cast does (float → bfloat16_t to nearest
// even, NaN stays a quiet NaN) and exist on Atlas A2/A3 and the 950; on the
// inference series they are a KernelError.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/system_query.h"
#include "normgrad_ascendc/vector/vector_convert.h"

namespace AscendC {

/// How many bits of valueIn equal countValue (0 or 1).
template <int countValue>
constexpr int64_t GetBitCount(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1,
                "GetBitCount: countValue must be 0 or 1");
  const int ones = __builtin_popcountll(valueIn);
  return countValue == 1 ? ones : 64 - ones;
}

/// The zero bits above the highest one bit; 64 for 0.
constexpr int64_t CountLeadingZero(uint64_t valueIn) {
  return valueIn == 0 ? 64 : __builtin_clzll(valueIn);
}

/// How many bits below the sign bit, from the top, equal the sign bit; -1
/// for 0 and -1 (every bit equal).
constexpr int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
  if (valueIn == 0 || valueIn == -1) return -1;
  const uint64_t bits = static_cast<uint64_t>(valueIn);
  const uint64_t same_as_zero = valueIn < 0 ? ~bits : bits;
  return __builtin_clzll(same_as_zero) - 1;
}

/// The index of the lowest bit equal to countValue (0 or 1); -1 if none.
template <int countValue>
constexpr int64_t GetSFFValue(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1,
                "GetSFFValue: countValue must be 0 or 1");
  const uint64_t ones = countValue == 1 ? valueIn : ~valueIn;
  return ones == 0 ? -1 : __builtin_ctzll(ones);
}

/// Waits `count` cycles on the device; nothing to wait for here (950 only).
template <int count = 1>
inline void Nop(normgrad_ascendc::CallSite site = {}) {
  static_assert(count >= 0, "Nop: count must not be negative");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RequireProfile("Nop", {normgrad_ascendc::Profile::k950},
                                   "the 950");
}

/// float → bfloat16_t, rounded to nearest even. Only a float converts (an
/// integer argument does not compile, as documented).
template <typename F, typename = std::enable_if_t<std::is_same_v<F, float>>>
inline bfloat16_t Cast(const F& fVal, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RequireProfile(
      "Cast (float to bfloat16_t)",
      {normgrad_ascendc::Profile::kA2, normgrad_ascendc::Profile::k950},
      "Atlas A2/A3 and the 950");
  bfloat16_t out{};
  normgrad_ascendc::ConvertElements(normgrad_ascendc::TypeBitOf<bfloat16_t>(),
                                    &out, normgrad_ascendc::kTypeFloat, &fVal,
                                    RoundMode::CAST_RINT, 1);
  return out;
}

/// bfloat16_t → float (exact). T must be bfloat16_t: the 8-bit and 4-bit
/// float sources of the 950's form are not modelled.
template <typename T, typename U = float,
          typename = std::enable_if_t<std::is_same_v<T, bfloat16_t>>>
inline U Cast(T bVal, normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<U, float>,
                "Cast (to float): the result type is float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RequireProfile(
      "Cast (bfloat16_t to float)",
      {normgrad_ascendc::Profile::kA2, normgrad_ascendc::Profile::k950},
      "Atlas A2/A3 and the 950");
  return static_cast<float>(bVal);
}

}  // namespace AscendC
