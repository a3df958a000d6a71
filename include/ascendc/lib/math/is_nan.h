// lib/math/is_nan.h — the kernel-side IsNan API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"), Ascend 950 only: dst[i] is
// true (a bool dst) or 1 (a dst of src's type) where src[i] is NaN,
// false or 0 elsewhere, for i < count. U (src) = half or float; T (dst) =
// bool or U. The overloads: sharedTmpBuffer or the framework scratch.
// IsNanConfig::isReuseSource is reserved by the documentation and changes
// nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(IsNanConfig, DEFAULT_IS_NAN_CONFIG)

NORMGRAD_MATH_SCRATCH_FORMS(
    IsNan,
    (template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T,
               typename U>
     ),
    T, (const LocalTensor<U>& src), (normgrad_ascendc::OperandOf(src)),
    (static_assert(
        normgrad_ascendc::kIsMathHalfOrFloat<U> &&
            (std::is_same_v<T, bool> || std::is_same_v<T, U>),
        "IsNan: U (src) must be half or float and T (dst) bool or U")),
    count, 0)

}  // namespace AscendC
