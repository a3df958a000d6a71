// lib/math/fma.h — the kernel-side Fma API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"), Ascend 950 only: dst[i] =
// src0[i] * src1[i] + src2[i], for i < count, as one fused operation in
// float (half widened, the result rounded to half). T = half or float. The
// overloads: sharedTmpBuffer or the framework scratch;
// FmaConfig::isReuseSource is reserved by the documentation and changes
// nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(FmaConfig, DEFAULT_FMA_CONFIG)

NORMGRAD_MATH_SCRATCH_FORMS(
    Fma, (template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>),
    T,
    (const LocalTensor<T>& src0, const LocalTensor<T>& src1,
     const LocalTensor<T>& src2),
    (normgrad_ascendc::OperandOf(src0), normgrad_ascendc::OperandOf(src1),
     normgrad_ascendc::OperandOf(src2)),
    (static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                   "Fma: T must be half or float")),
    count, 0)

}  // namespace AscendC
