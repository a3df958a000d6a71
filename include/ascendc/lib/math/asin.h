// lib/math/asin.h — the kernel-side Asin API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = the arcsine (NaN outside [−1, 1]) of
// srcTensor[i], computed in float within the bound of docs/numerics.md ("Math:
// transcendental"). T = half or float on every profile; the overloads:
// sharedTmpBuffer or the framework scratch, each with calCount
// or over the whole srcTensor. Every check of docs/math.md runs on every call;
// a violation is a KernelError naming the API, the argument, the value and the
// rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Asin, kIsMathHalfOrFloat,
                                "Asin: T must be half or float")
NORMGRAD_MATH_UNARY_WHOLE_FORMS(Asin, kIsMathHalfOrFloat,
                                "Asin: T must be half or float")

}  // namespace AscendC
