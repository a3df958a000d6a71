// lib/math/trunc.h — the kernel-side Trunc API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = srcTensor[i] rounded toward zero,
// for i < calCount or every element of srcTensor.
// T = half or float on every profile that has it; the
// overloads: sharedTmpBuffer or the framework scratch, each with calCount
// or over the whole srcTensor. Every check of docs/math.md runs on every call;
// a violation is a KernelError naming the API, the argument, the value and the
// rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Trunc, kIsMathHalfOrFloat,
                                "Trunc: T must be half or float")
NORMGRAD_MATH_UNARY_WHOLE_FORMS(Trunc, kIsMathHalfOrFloat,
                                "Trunc: T must be half or float")

}  // namespace AscendC
