// lib/index/arange.h — the kernel-side Arange API of Ascend C (the
// contract: docs/filter.md, "Arange"): dst[0, count) = the arithmetic
// sequence firstValue, firstValue + diffValue, …, built in the page's three
// steps (the first 8 values, blocks of 8 up to 64, blocks of 64 after).
// T: int16_t, half, int32_t, float; int64_t too on the 950 profile.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// Arange's element types, erased.
enum class ArangeType : uint8_t { kInt16, kHalf, kInt32, kFloat, kInt64 };

/// One Arange call: the two values as floats (half and float, exact) or as
/// 64-bit integers (the integer types, sign-extended).
struct ArangeArgs {
  TensorView dst;
  ArangeType type;
  float first_float;
  float diff_float;
  int64_t first_int;
  int64_t diff_int;
  int32_t count;
};

/// Checks and runs one Arange call (src/ascendc/lib/index/arange.cc).
void RunArange(const ArangeArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue,
                              const T diffValue, const int32_t count,
                              normgrad_ascendc::CallSite site = {}) {
  using normgrad_ascendc::ArangeType;
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int64_t>,
                "Arange: T must be int16_t, half, int32_t, float or int64_t");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ArangeArgs a{};
  a.dst = dst.view();
  if constexpr (std::is_same_v<T, int16_t>) a.type = ArangeType::kInt16;
  if constexpr (std::is_same_v<T, half>) a.type = ArangeType::kHalf;
  if constexpr (std::is_same_v<T, int32_t>) a.type = ArangeType::kInt32;
  if constexpr (std::is_same_v<T, float>) a.type = ArangeType::kFloat;
  if constexpr (std::is_same_v<T, int64_t>) a.type = ArangeType::kInt64;
  if constexpr (std::is_integral_v<T>) {
    a.first_int = firstValue;
    a.diff_int = diffValue;
  } else {
    a.first_float = static_cast<float>(firstValue);
    a.diff_float = static_cast<float>(diffValue);
  }
  a.count = count;
  normgrad_ascendc::RunArange(a);
}

}  // namespace AscendC
