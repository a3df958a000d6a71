// lib/math/bitwise_not.h — the kernel-side BitwiseNot API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// dst[i] = ~src[i], every bit flipped, for i < count. T = int8_t, uint8_t,
// int16_t, uint16_t, int32_t, uint32_t, int64_t or uint64_t. One overload,
// without a scratch; BitwiseNotConfig::isReuseSource is reserved by the
// documentation and changes nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(BitwiseNotConfig, DEFAULT_BITWISE_NOT_CONFIG)

NORMGRAD_MATH_PLAIN_FORM(
    BitwiseNot,
    (template <const BitwiseNotConfig& config = DEFAULT_BITWISE_NOT_CONFIG,
               typename T>
     ),
    T, (const LocalTensor<T>& src), (normgrad_ascendc::OperandOf(src)),
    (static_assert(normgrad_ascendc::kIsMathInteger<T>,
                   "BitwiseNot: T must be int8_t, uint8_t, int16_t, uint16_t, "
                   "int32_t, uint32_t, int64_t or uint64_t")),
    count)

}  // namespace AscendC
