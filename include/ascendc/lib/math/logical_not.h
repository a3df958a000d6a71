// lib/math/logical_not.h — the kernel-side LogicalNot API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// dst[i] (bool) is true where src[i] is zero (±0 for floats), for
// i < count. T (dst) = bool; U (src) = bool, an integer type, half,
// bfloat16_t or float. One overload, without a scratch;
// LogicalNotConfig::isReuseSource is reserved by the documentation and
// changes nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG)

NORMGRAD_MATH_PLAIN_FORM(
    LogicalNot,
    (template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG,
               typename T, typename U>
     ),
    T, (const LocalTensor<U>& src), (normgrad_ascendc::OperandOf(src)),
    (static_assert(std::is_same_v<T, bool> &&
                       normgrad_ascendc::kIsMathBoolOrNumber<U>,
                   "LogicalNot: T (dst) must be bool and U (src) bool, an "
                   "integer type, half, bfloat16_t or float")),
    count)

}  // namespace AscendC
