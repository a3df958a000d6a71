// lib/math/logical_xor.h — the kernel-side LogicalXor API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// dst[i] (bool) is true where exactly one of src0[i] and src1[i] is true (a
// value is true when it is not zero), for i < count. T (dst) = bool; U
// (sources) = bool, an integer type, half, bfloat16_t or float. One overload,
// without a scratch; LogicalXorConfig::isReuseSource is reserved by the
// documentation and changes nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG)

NORMGRAD_MATH_PLAIN_FORM(
    LogicalXor,
    (template <const LogicalXorConfig& config = DEFAULT_LOGICAL_XOR_CONFIG,
               typename T, typename U>
     ),
    T, (const LocalTensor<U>& src0, const LocalTensor<U>& src1),
    (normgrad_ascendc::OperandOf(src0), normgrad_ascendc::OperandOf(src1)),
    (static_assert(std::is_same_v<T, bool> &&
                       normgrad_ascendc::kIsMathBoolOrNumber<U>,
                   "LogicalXor: T (dst) must be bool and U (sources) bool, an "
                   "integer type, half, bfloat16_t or float")),
    count)

}  // namespace AscendC
