// lib/math/where.h — the kernel-side Where API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"), Ascend 950 only: dst[i] =
// src0[i] where condition[i] is true, src1[i] where it is false, bit for
// bit, for i < count; src0 and src1 each a LocalTensor<T> or a scalar T.
// T = bool, an integer type, half, bfloat16_t or float; V (condition) =
// bool. One overload, without a scratch.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

template <typename T, typename U, typename S, typename V>
__aicore__ inline void Where(const LocalTensor<T>& dst, const U& src0,
                             const S& src1, const LocalTensor<V>& condition,
                             const uint32_t count,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathBoolOrNumber<T>,
                "Where: T must be bool, an integer type, half, bfloat16_t "
                "or float");
  static_assert(std::is_same_v<normgrad_ascendc::OperandElement<U>, T> &&
                    std::is_same_v<normgrad_ascendc::OperandElement<S>, T>,
                "Where: src0 and src1 must each be a T or a LocalTensor<T>");
  static_assert(std::is_same_v<V, bool>, "Where: V (condition) must be bool");
  normgrad_ascendc::MathCall<T>(
      normgrad_ascendc::MathCallApi::kWhere, site, dst,
      normgrad_ascendc::MathScratch::kNone, nullptr, count,
      {normgrad_ascendc::OperandOf(src0), normgrad_ascendc::OperandOf(src1),
       normgrad_ascendc::OperandOf(condition)});
}

}  // namespace AscendC
