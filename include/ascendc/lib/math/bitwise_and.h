// lib/math/bitwise_and.h — the kernel-side BitwiseAnd API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// dst[i] = src0[i] & src1[i], bit by bit, for i < count. T = int8_t, uint8_t,
// int16_t, uint16_t, int32_t, uint32_t, int64_t or uint64_t. One overload,
// without a scratch; BitwiseAndConfig::isReuseSource is reserved by the
// documentation and changes nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG)

NORMGRAD_MATH_PLAIN_FORM(
    BitwiseAnd,
    (template <const BitwiseAndConfig& config = DEFAULT_BITWISE_AND_CONFIG,
               typename T>
     ),
    T, (const LocalTensor<T>& src0, const LocalTensor<T>& src1),
    (normgrad_ascendc::OperandOf(src0), normgrad_ascendc::OperandOf(src1)),
    (static_assert(normgrad_ascendc::kIsMathInteger<T>,
                   "BitwiseAnd: T must be int8_t, uint8_t, int16_t, uint16_t, "
                   "int32_t, uint32_t, int64_t or uint64_t")),
    count)

}  // namespace AscendC
