// lib/math/hypot.h — the kernel-side Hypot API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// dstTensor[i] = sqrt(src0Tensor[i]^2 + src1Tensor[i]^2), for i < calCount
// or every element of src0Tensor (then src1Tensor holds as many); inf
// where either input is ±inf, else NaN where either is NaN. T = half,
// bfloat16_t or float. The overloads: sharedTmpBuffer or the framework
// scratch, each with calCount or over the whole sources.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

#define NORMGRAD_HYPOT_FORMS(FORMS, ...)                                      \
  FORMS(Hypot, (template <typename T, bool isReuseSource = false>), T,        \
        (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor), \
        (normgrad_ascendc::OperandOf(src0Tensor),                             \
         normgrad_ascendc::OperandOf(src1Tensor)),                            \
        (static_assert(normgrad_ascendc::kIsMathFloating<T>,                  \
                       "Hypot: T must be half, bfloat16_t or float")),        \
        __VA_ARGS__)

NORMGRAD_HYPOT_FORMS(NORMGRAD_MATH_SCRATCH_FORMS, calCount, 0)
NORMGRAD_HYPOT_FORMS(NORMGRAD_MATH_SCRATCH_WHOLE_FORMS, 0)

#undef NORMGRAD_HYPOT_FORMS

}  // namespace AscendC
