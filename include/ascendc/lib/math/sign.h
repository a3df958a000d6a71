// lib/math/sign.h — the kernel-side Sign API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = 1, -1 or 0 as srcTensor[i] is
// positive, negative, or zero or NaN, for i < calCount or every element of
// srcTensor.
// T = half or float on every profile that has it, and int64_t on Ascend 950
// only; the overloads: sharedTmpBuffer or the framework scratch, each with
// calCount or over the whole srcTensor. Every check of docs/math.md runs on
// every call; a violation is a KernelError naming the API, the argument, the
// value and the rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Sign, kIsMathHalfFloatOrInt64,
                                "Sign: T must be half, float or int64_t")
NORMGRAD_MATH_UNARY_WHOLE_FORMS(Sign, kIsMathHalfFloatOrInt64,
                                "Sign: T must be half, float or int64_t")

}  // namespace AscendC
