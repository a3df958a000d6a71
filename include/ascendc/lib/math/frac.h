// lib/math/frac.h — the kernel-side Frac API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = srcTensor[i] - Trunc(srcTensor[i]),
// the fractional part with the input's sign, for i < calCount or every
// element of srcTensor.
// T = half or float on every profile that has it; the
// overloads: sharedTmpBuffer or the framework scratch, each with calCount
// or over the whole srcTensor. Every check of docs/math.md runs on every call;
// a violation is a KernelError naming the API, the argument, the value and the
// rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Frac, kIsMathHalfOrFloat,
                                "Frac: T must be half or float")
NORMGRAD_MATH_UNARY_WHOLE_FORMS(Frac, kIsMathHalfOrFloat,
                                "Frac: T must be half or float")

}  // namespace AscendC
