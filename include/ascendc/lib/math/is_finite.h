// lib/math/is_finite.h — the kernel-side IsFinite API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// dst[i] is true (a bool dst) or 1 (a dst of src's type) where src[i] is
// neither ±inf nor NaN, false or 0 elsewhere, for i < calCount. T (src) =
// half, bfloat16_t or float; U (dst) = bool or T. One overload, without a
// scratch.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_PLAIN_FORM(
    IsFinite, (template <typename T, typename U>), U,
    (const LocalTensor<T>& src), (normgrad_ascendc::OperandOf(src)),
    (static_assert(normgrad_ascendc::kIsMathFloating<T> &&
                       (std::is_same_v<U, bool> || std::is_same_v<U, T>),
                   "IsFinite: T (src) must be half, bfloat16_t or float and "
                   "U (dst) bool or T")),
    calCount)

}  // namespace AscendC
